// A small pool of worker threads for the logical hasher: run(n, task) runs task(0..n-1) on
// the workers and the calling thread and returns when every task is done. Internal to
// src/logical/.
//
// Tasks are claimed one at a time in index order, so callers put the largest first (greedy
// longest-first scheduling). A task must not throw. Creating threads may fail (the system
// refuses): the pool then has fewer workers, down to none (the caller runs every task).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace odf_hash::logical {

class WorkerPool {
 public:
  // `threads` counts the caller: threads - 1 workers are started.
  explicit WorkerPool(unsigned threads) noexcept;
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Threads that run tasks, the caller included.
  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

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

// The number of threads `requested` means: 0 is one per core.
unsigned resolve_threads(unsigned requested);

}  // namespace odf_hash::logical
