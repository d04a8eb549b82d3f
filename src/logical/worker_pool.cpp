#include "odf_hash/internal/logical/worker_pool.h"

#include <system_error>

namespace odf_hash::logical {

WorkerPool::WorkerPool(unsigned threads) noexcept {
  for (unsigned t = 1; t < threads; ++t) {
    try {
      workers_.emplace_back([this] { work(); });
    } catch (const std::system_error&) {
      break;  // fewer workers; the caller still runs every task that is left
    }
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

unsigned resolve_threads(unsigned requested) {
  if (requested != 0) return requested;
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

}  // namespace odf_hash::logical
