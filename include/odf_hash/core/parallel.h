// Concurrency, written once: every thread odf-hash starts is started here. The system may
// refuse a thread (a ulimit, a container's pids limit): each helper then does the work on
// the calling thread instead, with the same results, and never throws for it.
//
//  - parallel_for: fn(0..count-1) on up to N threads, the caller among them;
//  - WorkerPool: the same, over threads kept for many runs (the logical hasher, per batch);
//  - run_ordered: work per item on up to N threads, results handed on in item order as soon
//    as each prefix is complete (sha256sum-like output while later files are hashed);
//  - side_by_side: two pieces of work at once, one on a thread of its own;
//  - HelperTask: one piece of work on a thread of its own, waited for later;
//  - try_thread: a thread for a loop of its own (a read-ahead), or nullopt.
//
// Work given to these must not throw (errors are values: Status, Result). Thread safety:
// each object is used by the thread that made it; the functions are reentrant.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace odf_hash {

// The number of threads `requested` means: 0 is one per core (at least one).
unsigned resolve_threads(unsigned requested);

// A thread running `fn`, or nullopt when the system refuses one (the caller then does the
// work another way). The caller joins it.
std::optional<std::thread> try_thread(std::function<void()> fn);

// fn(i) for every i in [0, count) on up to `threads` threads, the calling one among them
// (threads - 1 are started, fewer when refused). Items are claimed one at a time in index
// order, so callers put the largest first. Returns when every fn(i) has returned.
void parallel_for(size_t count, unsigned threads, const std::function<void(size_t)>& fn);

// parallel_for over threads kept from one run to the next: threads - 1 workers are started
// (fewer when refused, down to none: the caller then runs every task).
class WorkerPool {
 public:
  explicit WorkerPool(unsigned threads) noexcept;
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Threads that run tasks, the caller included.
  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // task(0..n-1) on the workers and the calling thread; returns when every task is done.
  void run(size_t n, const std::function<void(size_t)>& task);

 private:
  void work();
  void claim_tasks();

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(size_t)>* task_ = nullptr;
  size_t count_ = 0;
  size_t next_ = 0;
  uint64_t generation_ = 0;
  unsigned busy_ = 0;  // workers still in the current generation
  bool stop_ = false;
};

// `beside` on a thread of its own while `here` runs on this one; returns when both are done.
// Without a thread: `beside` first, then `here` (so `here` may wait for what `beside` does).
void side_by_side(const std::function<void()>& here, const std::function<void()>& beside);

// One piece of work on a thread of its own, started at once, waited for later. When the
// system refuses a thread it is run by wait(), on the waiting thread. The destructor waits
// for a started task and never runs one that was not started (a caller returning early does
// not need its result).
class HelperTask {
 public:
  explicit HelperTask(std::function<void()> fn);
  ~HelperTask();
  HelperTask(const HelperTask&) = delete;
  HelperTask& operator=(const HelperTask&) = delete;

  // Whether the task runs on a thread of its own.
  bool threaded() const { return thread_.has_value(); }
  // Returns once the task has run (running it here when it has no thread). Idempotent.
  void wait();

 private:
  std::function<void()> fn_;
  std::optional<std::thread> thread_;
  bool done_ = false;
};

// `work(i)` for every item on up to `jobs` threads; `emit(i, result)` on the calling thread
// in item order, as soon as each prefix of results is complete. Items for which `serial(i)`
// is true (a stream: standard input, a pipe) are never given to a worker: the calling thread
// runs them itself when their turn comes, one at a time, in item order.
template <typename R>
void run_ordered(size_t count, unsigned jobs, const std::function<R(size_t)>& work,
                 const std::function<void(size_t, R&)>& emit,
                 const std::function<bool(size_t)>& serial = {}) {
  if (count == 0) return;
  jobs = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(count)));
  if (jobs == 1) {
    for (size_t i = 0; i < count; ++i) {
      R r = work(i);
      emit(i, r);
    }
    return;
  }
  std::vector<std::optional<R>> results(count);
  std::mutex mu;
  std::condition_variable cv;
  size_t next = 0;
  auto worker = [&] {
    for (;;) {
      size_t i;
      {
        std::lock_guard<std::mutex> lock(mu);
        while (next < count && serial && serial(next)) ++next;
        if (next >= count) return;
        i = next++;
      }
      R r = work(i);
      {
        std::lock_guard<std::mutex> lock(mu);
        results[i].emplace(std::move(r));
      }
      cv.notify_all();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(jobs);
  for (unsigned t = 0; t < jobs; ++t) {
    std::optional<std::thread> thread = try_thread(worker);
    if (!thread) break;
    threads.push_back(std::move(*thread));
  }
  for (size_t i = 0; i < count; ++i) {
    if (threads.empty() || (serial && serial(i))) {
      R r = work(i);
      emit(i, r);
      continue;
    }
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return results[i].has_value(); });
    lock.unlock();
    emit(i, *results[i]);
    results[i].reset();
  }
  for (auto& t : threads) t.join();
}

}  // namespace odf_hash
