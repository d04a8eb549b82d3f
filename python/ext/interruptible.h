// Ctrl-C during a long call of the extension.
//
// Python runs signal handlers on its main thread only, between bytecodes: while a C++ call
// runs there with the GIL released, SIGINT is only noted, and KeyboardInterrupt would wait
// for the call's end (a stalled server: forever). So the work runs on a thread of its own,
// with a CancelFlag in its options (odf_hash/io/cancel.h), while the calling thread waits for
// it, asking Python every 100 ms (taking the GIL briefly) whether a handler raised. When one
// did, the flag is set, the work stops at its next check (cancel.h says how soon) and its
// result is dropped, and the handler's exception is raised instead.
#pragma once

#include <nanobind/nanobind.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

#include "odf_hash/core/parallel.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/io/read_counter.h"

namespace odf_hash_py {

// Runs work() (which must not touch Python objects without taking the GIL) as described
// above and returns what it returned; `cancel` is what work's options point at. Called with
// the GIL held. When the system refuses a thread, work() runs on this thread (not
// interruptible, as before). `tick`, when set, is called with the GIL held at every wake-up
// (every 100 ms: a progress callback) and once when the work is done; it returns false when
// it raised, which stops the work as an interrupt does (its result dropped) and raises that
// exception.
template <typename Work>
std::invoke_result_t<Work&> run_interruptible(odf_hash::CancelFlag& cancel, Work work,
                                              const std::function<bool()>& tick = {}) {
  using R = std::invoke_result_t<Work&>;
  std::optional<R> result;
  std::exception_ptr error;
  PyObject* type = nullptr;
  PyObject* value = nullptr;
  PyObject* traceback = nullptr;
  {
    nanobind::gil_scoped_release unlocked;
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    auto run = [&] {
      std::optional<R> r;
      std::exception_ptr e;
      try {
        r.emplace(work());
      } catch (...) {
        e = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mu);
      result = std::move(r);
      error = e;
      done = true;
      cv.notify_all();
    };
    std::thread worker;
    if (std::optional<std::thread> t = odf_hash::try_thread(run)) {
      worker = std::move(*t);
    } else {  // no thread to be had: the work runs here, not interruptible
      run();
    }
    if (worker.joinable()) {
      std::unique_lock<std::mutex> lock(mu);
      while (!cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; })) {
        if (type != nullptr) continue;  // interrupted: waiting for the work to stop
        lock.unlock();
        {
          nanobind::gil_scoped_acquire gil;
          if (PyErr_CheckSignals() != 0 || (tick && !tick())) {
            PyErr_Fetch(&type, &value, &traceback);
            cancel.store(true, std::memory_order_relaxed);
          }
        }
        lock.lock();
      }
      lock.unlock();
      worker.join();
    }
  }
  // The work done: the tick once more (a progress bar reaches the end); raising there still
  // counts (the result is dropped).
  if (type == nullptr && tick && !tick()) PyErr_Fetch(&type, &value, &traceback);
  if (type != nullptr) {
    PyErr_Restore(type, value, traceback);
    throw nanobind::python_error();
  }
  if (error) std::rethrow_exception(error);
  return std::move(*result);
}

// A progress callback (None or a callable taking the bytes read so far, as counted in
// `counter`), as the tick of run_interruptible: false when it raised (the exception is left
// set). Every long call of the module takes one, with the same meaning.
inline std::function<bool()> progress_tick(const nanobind::object& progress,
                                           const std::shared_ptr<odf_hash::ReadCounter>& counter) {
  if (progress.is_none()) return {};
  return [progress, counter] {
    PyObject* r = PyObject_CallOneArg(
        progress.ptr(), nanobind::int_(counter->bytes.load(std::memory_order_relaxed)).ptr());
    Py_XDECREF(r);
    return r != nullptr;
  };
}

}  // namespace odf_hash_py
