// The concurrency helpers of parallel.h.
#include "odf_hash/core/parallel.h"

#include <atomic>
#include <system_error>
#include <utility>

namespace odf_hash {

unsigned resolve_threads(unsigned requested) {
  if (requested != 0) return requested;
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

std::optional<std::thread> try_thread(std::function<void()> fn) {
  try {
    return std::thread(std::move(fn));
  } catch (const std::system_error&) {  // EAGAIN: a ulimit, a container's pids limit
    return std::nullopt;
  }
}

void parallel_for(size_t count, unsigned threads, const std::function<void(size_t)>& fn) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < count; i = next++) fn(i);
  };
  const size_t wanted = std::min<size_t>(std::max(1u, threads), count);
  std::vector<std::thread> started;
  for (size_t t = 1; t < wanted; ++t) {
    std::optional<std::thread> thread = try_thread(worker);
    if (!thread) break;  // fewer threads; this one works too
    started.push_back(std::move(*thread));
  }
  worker();
  for (auto& t : started) t.join();
}

WorkerPool::WorkerPool(unsigned threads) noexcept {
  for (unsigned t = 1; t < threads; ++t) {
    std::optional<std::thread> thread = try_thread([this] { work(); });
    if (!thread) break;  // fewer workers; the caller still runs every task that is left
    workers_.push_back(std::move(*thread));
  }
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void WorkerPool::claim_tasks() {
  for (;;) {
    size_t i;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (next_ >= count_) return;
      i = next_++;
    }
    (*task_)(i);
  }
}

void WorkerPool::work() {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    claim_tasks();
    {
      std::lock_guard<std::mutex> lock(mu_);
      --busy_;
    }
    done_.notify_all();
  }
}

void WorkerPool::run(size_t n, const std::function<void(size_t)>& task) {
  if (workers_.empty() || n <= 1) {
    for (size_t i = 0; i < n; ++i) task(i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    task_ = &task;
    count_ = n;
    next_ = 0;
    busy_ = static_cast<unsigned>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  claim_tasks();
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [&] { return busy_ == 0; });
  task_ = nullptr;
  count_ = 0;
  next_ = 0;
}

void side_by_side(const std::function<void()>& here, const std::function<void()>& beside) {
  std::optional<std::thread> other = try_thread(beside);
  if (!other) beside();
  here();
  if (other) other->join();
}

HelperTask::HelperTask(std::function<void()> fn) : fn_(std::move(fn)) {
  thread_ = try_thread(fn_);
}

HelperTask::~HelperTask() {
  if (thread_ && thread_->joinable()) thread_->join();
}

void HelperTask::wait() {
  if (done_) return;
  done_ = true;
  if (thread_) {
    thread_->join();
  } else {
    fn_();
  }
}

}  // namespace odf_hash
