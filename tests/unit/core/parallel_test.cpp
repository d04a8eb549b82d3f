// parallel.h: every helper does all its work, once, in the order it promises; work given to
// threads does run at the same time; and where the system refuses every thread (a real limit,
// RLIMIT_NPROC, in a child process run as an unprivileged user) each helper does the same
// work on the calling thread.
#include "odf_hash/core/parallel.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "run_as_user.h"

namespace {

using odf_hash::HelperTask;
using odf_hash::parallel_for;
using odf_hash::run_ordered;
using odf_hash::side_by_side;
using odf_hash::WorkerPool;

// Waits (at most 10 s) until `flag` is set; false on the timeout: the two sides did not run
// at the same time.
bool wait_for(const std::atomic<bool>& flag) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!flag.load()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

TEST(ParallelFor, EveryIndexExactlyOnceForAnyCountAndThreads) {
  for (size_t count : {0, 1, 2, 7, 100, 1000}) {
    for (unsigned threads : {0u, 1u, 2u, 3u, 8u, 64u}) {
      std::vector<std::atomic<int>> hits(count);
      parallel_for(count, threads, [&](size_t i) { hits[i]++; });
      for (size_t i = 0; i < count; ++i) {
        ASSERT_EQ(hits[i].load(), 1) << "index " << i << " of " << count << ", threads " << threads;
      }
    }
  }
}

TEST(ParallelFor, ItemsRunAtTheSameTime) {
  // Four items that each wait until all four have started: only four threads at once end.
  std::atomic<int> started{0};
  std::atomic<bool> all{false}, timed_out{false};
  parallel_for(4, 4, [&](size_t) {
    if (++started == 4) all = true;
    if (!wait_for(all)) timed_out = true;
  });
  EXPECT_FALSE(timed_out);
}

TEST(WorkerPool, RunsEveryTaskOfEveryRunAndKeepsItsThreads) {
  WorkerPool pool(4);
  EXPECT_EQ(pool.threads(), 4u);
  for (int run = 0; run < 200; ++run) {
    const size_t n = static_cast<size_t>(run % 37);
    std::vector<std::atomic<int>> hits(n);
    pool.run(n, [&](size_t i) { hits[i]++; });
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "run " << run << " task " << i;
  }
}

TEST(RunOrdered, EmitsInItemOrderAndRunsSerialItemsOnTheCallingThread) {
  const auto caller = std::this_thread::get_id();
  std::vector<size_t> emitted;
  std::mutex mu;
  std::vector<std::thread::id> ran_on(50);
  run_ordered<size_t>(
      50, 4,
      [&](size_t i) {
        // Later items finish first when they can: the order comes from run_ordered.
        std::this_thread::sleep_for(std::chrono::microseconds((50 - i) * 100));
        std::lock_guard<std::mutex> lock(mu);
        ran_on[i] = std::this_thread::get_id();
        return i * i;
      },
      [&](size_t i, size_t& r) {
        EXPECT_EQ(std::this_thread::get_id(), caller);
        EXPECT_EQ(r, i * i);
        emitted.push_back(i);
      },
      [](size_t i) { return i % 5 == 0; });
  ASSERT_EQ(emitted.size(), 50u);
  for (size_t i = 0; i < 50; ++i) EXPECT_EQ(emitted[i], i);
  for (size_t i = 0; i < 50; i += 5) EXPECT_EQ(ran_on[i], caller) << "serial item " << i;
}

TEST(SideBySide, BothRunAndAtTheSameTime) {
  std::atomic<bool> beside_started{false};
  bool here_saw_beside = false, beside_done = false;
  side_by_side([&] { here_saw_beside = wait_for(beside_started); },
               [&] {
                 beside_started = true;
                 beside_done = true;
               });
  EXPECT_TRUE(here_saw_beside);
  EXPECT_TRUE(beside_done);  // joined before side_by_side returned
}

TEST(HelperTask, RunsOnceOnItsThreadAndIsWaitedForByItsDestructor) {
  std::atomic<int> runs{0};
  const auto caller = std::this_thread::get_id();
  std::thread::id ran_on;
  {
    HelperTask task([&] {
      ran_on = std::this_thread::get_id();
      runs++;
    });
    EXPECT_TRUE(task.threaded());
    task.wait();
    task.wait();
    EXPECT_EQ(runs.load(), 1);
    EXPECT_NE(ran_on, caller);
  }
  {
    HelperTask task([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      runs++;
    });
  }  // not waited for: the destructor joins it
  EXPECT_EQ(runs.load(), 2);
}

// In a child process as user nobody with RLIMIT_NPROC at 0, so that every thread start fails
// with EAGAIN as under a container's pids limit: each helper's work, and where it ran.
std::string without_threads() {
  const rlimit none{0, 0};
  if (::setrlimit(RLIMIT_NPROC, &none) != 0) return "setrlimit failed";
  if (odf_hash::try_thread([] {})) return "a thread started despite the limit";
  const auto caller = std::this_thread::get_id();
  std::string report;
  // parallel_for: every index once, here.
  std::vector<int> hits(100);
  bool elsewhere = false;
  parallel_for(100, 8, [&](size_t i) {
    hits[i]++;
    elsewhere |= std::this_thread::get_id() != caller;
  });
  bool once = true;
  for (int h : hits) once &= h == 1;
  report += std::string("parallel_for ") + (once && !elsewhere ? "ok" : "wrong") + "\n";
  // WorkerPool: no workers, the caller runs every task.
  WorkerPool pool(4);
  std::vector<int> tasks(10);
  pool.run(10, [&](size_t i) { tasks[i]++; });
  bool all = true;
  for (int t : tasks) all &= t == 1;
  report += "pool threads " + std::to_string(pool.threads()) + (all ? " ok" : " wrong") + "\n";
  // side_by_side: `beside` first, then `here`.
  std::string order;
  side_by_side([&] { order += "here "; }, [&] { order += "beside "; });
  report += "side_by_side " + order + "\n";
  // HelperTask: not threaded; run by wait(), never by the destructor alone.
  int ran = 0;
  {
    HelperTask skipped([&] { ran += 10; });
  }
  HelperTask task([&] { ran += 1; });
  report += std::string("helper threaded ") + (task.threaded() ? "yes" : "no");
  task.wait();
  report += " ran " + std::to_string(ran) + "\n";
  // run_ordered: every item, in order.
  std::string items;
  run_ordered<int>(
      5, 4, [](size_t i) { return static_cast<int>(i); },
      [&](size_t, int& r) { items += std::to_string(r); });
  report += "run_ordered " + items + "\n";
  return report;
}

TEST(RefusedThreads, EveryHelperDoesTheWorkOnTheCallingThread) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, to run the child as user nobody";
  const std::string report = odf_hash::test_support::run_as_nobody(without_threads);
  EXPECT_EQ(report,
            "parallel_for ok\n"
            "pool threads 1 ok\n"
            "side_by_side beside here \n"
            "helper threaded no ran 1\n"
            "run_ordered 01234\n");
}

}  // namespace
