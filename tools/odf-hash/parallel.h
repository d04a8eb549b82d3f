// Runs a job per item on up to `jobs` threads and hands the results to `emit` in item
// order, as soon as each prefix of results is complete (so output streams in argument
// order, like sha256sum, while later files are still being hashed).
//
// Items for which `serial(i)` is true (streams: standard input, pipes, FIFOs, terminals) are
// never given to a worker: the emitting thread runs them itself when their turn comes, so
// streams are read one at a time, in argument order, as sha256sum reads them (a second "-"
// then reads what is left of standard input: nothing). Two threads reading one stream would
// each hash an unpredictable part of it.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace odf_hash::cli {

inline unsigned default_jobs() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

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
  // The kernel may refuse a thread (a ulimit, a container's pids limit): work on with those
  // that started, or on this thread alone.
  std::vector<std::thread> threads;
  threads.reserve(jobs);
  for (unsigned t = 0; t < jobs; ++t) {
    try {
      threads.emplace_back(worker);
    } catch (const std::system_error&) {
      break;
    }
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

}  // namespace odf_hash::cli
