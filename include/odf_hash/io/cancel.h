// Cooperative cancellation of long calls (a Python caller's Ctrl-C, a GUI's Stop button).
//
// The caller owns a CancelFlag, hands its address to the options of a call (StoreOptions::
// cancel, LogicalHashOptions::cancel), and sets it from any thread to stop the call early.
// The work then fails with a StatusCode::kCancelled status at its next check:
//  - every read, listing, stat and open of a store opened with StoreOptions::cancel, local
//    or remote (cancellable_store below), and between the chunks of a physical hash;
//  - an HTTP transfer within about 100 ms, even one waiting on a stalled server;
//  - an S3 request when it returns (the AWS SDK has no way in; read_timeout_s bounds it);
//  - the logical hasher between record batches;
//  - verify between files, and then as the whole call's result.
// The flag is only read: it is never reset by the library. It must outlive the call.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"

namespace odf_hash {

using CancelFlag = std::atomic<bool>;

// Whether `flag` (may be null: never cancelled) was set.
inline bool cancel_requested(const CancelFlag* flag) noexcept {
  return flag != nullptr && flag->load(std::memory_order_relaxed);
}

// kCancelled "<what>: cancelled".
inline Status cancelled_status(const std::string& what) {
  return Status::cancelled(what + ": cancelled");
}

// `store` (or `reader`) whose every call first checks `flag` and fails with kCancelled once
// it is set; an error of the wrapped call made while the flag was set is kCancelled too (an
// HTTP transfer aborted for it says so, not "aborted by callback"). A null flag returns the
// argument unchanged.
std::shared_ptr<ObjectStore> cancellable_store(std::shared_ptr<ObjectStore> store,
                                               const CancelFlag* flag);
std::unique_ptr<ObjectReader> cancellable_reader(std::unique_ptr<ObjectReader> reader,
                                                 const CancelFlag* flag);

// For a store shared between calls (opened once and kept, as check_file's cache of remote
// stores), whose options cannot point at one call's flag: while a CancelScope lives on a
// thread, the HTTP requests that thread makes (opening the store included) stop as if their
// store had been opened with `flag`. Scopes nest; a null flag adds nothing.
class CancelScope {
 public:
  explicit CancelScope(const CancelFlag* flag) noexcept;
  ~CancelScope();
  CancelScope(const CancelScope&) = delete;
  CancelScope& operator=(const CancelScope&) = delete;

  // Whether the flag of this thread's innermost scope is set.
  static bool requested() noexcept;

 private:
  const CancelFlag* previous_;
};

}  // namespace odf_hash
