// The check of one file of a plan (check_file of verify_plan.h): its size, physical hash,
// logical hash when the bytes differ, and with --deep its records against its block; the
// store a task names opened once per process; what a worker allows a task to name.
#include "odf_hash/odf/verify_plan.h"

#include <unistd.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "dataset/entry.h"
#include "deep_check.h"
#include "file_hints.h"
#include "linked_objects.h"
#include "odf_hash/core/parallel.h"
#include "odf_hash/core/text.h"
#include "odf_hash/internal/odf/chain_walk.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/io/logical_file.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/remote/open_store.h"
#include "sample.h"
#include "trust.h"
#include "unreferenced.h"

namespace odf_hash::odf {

namespace {

// A linked object: exists as data/<canonical name>, a regular file, hashing to its name. Its
// size is kept for the linkedObjects summary.
FileCheckResult check_linked_object(const ObjectStore& store, const FileTask& t,
                                    const CheckProgress& progress) {
  FileCheckResult r{t.id,
                    FileCheck{t.role, t.block, t.sequence_number, t.file, FileOutcome::kFailed,
                              std::nullopt, std::nullopt, std::nullopt},
                    std::nullopt};
  std::string linked_by;
  if (t.link) {
    linked_by = " (linked from row " + std::to_string(t.link->row) + " of column \"" +
                t.link->column + "\" of " + t.link->data_file + ")";
  }
  auto fail = [&](ProblemKind kind, ProblemValue expected, ProblemValue actual,
                  std::string message) {
    r.problem = Problem{kind,
                        t.block,
                        t.sequence_number,
                        t.file,
                        std::move(expected),
                        std::move(actual),
                        message + linked_by,
                        t.link};
    return r;
  };
  // No size is recorded for a linked object. A server that announces none (a kamu node
  // streams data chunked) can still be read whole under a bound; a larger object is opened
  // again without one.
  constexpr uint64_t kBound = 64u << 20;
  detail::EntryOpen entry = detail::open_entry(store, t.file, "the linked object", kBound);
  if (entry.fault == detail::EntryFault::kTooLarge) {
    entry = detail::open_entry(store, t.file, "the linked object",
                               std::numeric_limits<uint64_t>::max());
  }
  if (entry.fault == detail::EntryFault::kMissing) {
    return fail(ProblemKind::kLinkedObjectMissing, t.physical.to_string(), "",
                "the linked object does not exist");
  }
  if (entry.fault != detail::EntryFault::kNone) {
    return fail(detail::problem_kind_of(entry.fault, ProblemKind::kLinkedObjectMissing,
                                        ProblemKind::kFileUnreadable),
                "", "", std::move(entry.message));
  }
  auto physical = physical_hash_object(*entry.reader, [&](uint64_t done, uint64_t) {
    if (progress) progress(done);
    return true;
  });
  if (!physical.is_ok()) {
    return fail(ProblemKind::kFileUnreadable, "", "",
                "cannot read the linked object: " + physical.status().message());
  }
  if (!(physical->hash == t.physical)) {
    return fail(ProblemKind::kLinkedObjectHashMismatch, t.physical.to_string(),
                physical->hash.to_string(), "the linked object's bytes do not hash to its name");
  }
  r.check.outcome = FileOutcome::kPhysicalMatch;
  r.check.size = entry.info.size;
  return r;
}

}  // namespace

namespace {

// The steps of checking one data or checkpoint file, in order: exists and opens (open), its
// size (open), then either its physical hash and, when the bytes differ and the task allows
// it, the logical fallback (physical_then_logical), or, for a file of another size that may
// fall back, its records first (records_first); with --deep, the records against the block
// (deep_checked) once the bytes or the records matched. Each step returns the result when it
// decides it, else nullopt to go on.
class FileChecker {
 public:
  FileChecker(const ObjectStore& store, const FileTask& t, const CheckProgress& progress)
      : store_(store),
        t_(t),
        progress_(progress),
        data_(t.role == FileRole::kData),
        what_(data_ ? "data file" : "checkpoint file"),
        fallback_(t.logical_fallback()),
        r_{t.id,
           FileCheck{t.role, t.block, t.sequence_number, t.file, FileOutcome::kFailed, std::nullopt,
                     std::nullopt, std::nullopt},
           std::nullopt, task_fingerprint(t)} {}
  FileChecker(const FileChecker&) = delete;
  FileChecker& operator=(const FileChecker&) = delete;

  FileCheckResult run() {
    if (auto done = open()) return std::move(*done);
    // Another size: the physical hash cannot match, so the records are looked at first.
    const bool size_first = fallback_ && size_ != t_.size && t_.logical;
    if (t_.deep && !size_first) start_deep();
    if (size_first) return records_first();
    return physical_then_logical();
  }

 private:
  FileCheckResult fail(ProblemKind kind, ProblemValue expected, ProblemValue actual,
                       std::string message, ProblemUnit unit = ProblemUnit::kNone) {
    r_.check.outcome = FileOutcome::kFailed;
    r_.problem = Problem{kind,
                         t_.block,
                         t_.sequence_number,
                         r_.check.file,
                         std::move(expected),
                         std::move(actual),
                         std::move(message),
                         std::nullopt,
                         unit};
    return r_;
  }

  std::string no_fallback_note() const {
    return data_ && t_.derivative ? " (logical fallback skipped: --integrity-only)" : "";
  }

  // Step 1: the file exists, opens, and (without the fallback) has the recorded size. Without
  // the fallback a file of another size fails whatever its bytes: it is not read.
  std::optional<FileCheckResult> open() {
    if (t_.known_missing) {
      return fail(ProblemKind::kFileMissing, "", "",
                  "the " + what_ + " does not exist" + detail::misnamed_hint(t_.misnamed));
    }
    const uint64_t max_size = fallback_ ? std::numeric_limits<uint64_t>::max() : t_.size;
    detail::EntryOpen entry = detail::open_entry(store_, t_.file, "the " + what_, max_size);
    if (entry.fault == detail::EntryFault::kMissing) {
      return fail(ProblemKind::kFileMissing, "", "", "the " + what_ + " does not exist");
    }
    if (entry.fault != detail::EntryFault::kNone && entry.fault != detail::EntryFault::kTooLarge) {
      return fail(detail::problem_kind_of(entry.fault, ProblemKind::kFileMissing,
                                          ProblemKind::kFileUnreadable),
                  "", "", std::move(entry.message));
    }
    size_ = entry.info.size;
    if (size_ != t_.size && !fallback_) {
      // A body without Content-Length that went on past the recorded size: its size is only
      // known to be larger (no actual value; the message says so).
      return fail(ProblemKind::kSizeMismatch, ProblemValue::number(t_.size),
                  entry.info.size_at_least ? ProblemValue() : ProblemValue::number(size_),
                  "the " + what_ + "'s size differs from the recorded size" +
                      (entry.info.size_at_least
                           ? " (the server sent more than " + std::to_string(t_.size) + " bytes)"
                           : std::string()) +
                      no_fallback_note(),
                  ProblemUnit::kBytes);
    }
    object_ = std::move(entry.reader);
    return std::nullopt;
  }

  // --deep reads the records on a thread of its own while the bytes are hashed (the reader
  // takes read_at beside read()), so a deep check costs about the wall time of one logical
  // hash, not of both reads; its finding counts only once the bytes (or the records) matched.
  // Without a thread to be had, the records are checked after the bytes (at wait()).
  void start_deep() {
    deep_.emplace([this] { early_deep_ = detail::check_records(object_, t_); });
  }

  // Last step: the bytes matched (or the records did); with --deep, the records against the
  // block.
  FileCheckResult deep_checked() {
    if (!t_.deep) return r_;
    if (deep_) deep_->wait();
    std::optional<Problem> p =
        early_deep_ ? std::move(*early_deep_) : detail::check_records(object_, t_);
    if (p) {
      r_.check.outcome = FileOutcome::kFailed;
      r_.problem = std::move(p);
    }
    return r_;
  }

  Result<PhysicalDigest> hash_physical() {
    return physical_hash_object(*object_, [&](uint64_t done, uint64_t) {
      if (progress_) progress_(done);
      return true;
    });
  }

  // A file of another size that may fall back: a server announcing a huge object of garbage
  // is answered by its Parquet footer (a range read), not streamed whole first; the physical
  // hash is only needed, for the report, once the records match.
  FileCheckResult records_first() {
    const std::string differs = "the data file's size differs from the recorded one (" +
                                std::to_string(size_) + " bytes, recorded " +
                                std::to_string(t_.size) + ")";
    auto logical = logical_hash_object(object_);
    if (!logical.is_ok()) {
      return fail(ProblemKind::kFileUnreadable, t_.logical->to_string(), "",
                  differs + " and it cannot be read for the logical fallback: " +
                      logical.status().message() +
                      (size_ < t_.size ? "; it is shorter than recorded: cut short (an "
                                         "interrupted download or copy?); fetch it again from "
                                         "the dataset's source"
                                       : ""));
    }
    if (!(logical->multihash() == *t_.logical)) {
      return fail(ProblemKind::kLogicalHashMismatch, t_.logical->to_string(),
                  logical->multihash().to_string(),
                  differs + " and so does its logical hash: the records differ");
    }
    auto physical = hash_physical();
    if (!physical.is_ok()) {
      return fail(ProblemKind::kFileUnreadable, "", "",
                  "cannot read the " + what_ + ": " + physical.status().message());
    }
    r_.check.outcome = FileOutcome::kLogicalMatch;
    r_.check.actual_physical = physical->hash;
    r_.check.logical = logical->multihash();
    return deep_checked();
  }

  // The physical hash; when it differs and the task allows it, the logical fallback
  // (derivative data may be reproduced with a different encoding: the records count).
  FileCheckResult physical_then_logical() {
    auto physical = hash_physical();
    if (!physical.is_ok()) {
      return fail(ProblemKind::kFileUnreadable, "", "",
                  "cannot read the " + what_ + ": " + physical.status().message());
    }
    if (physical->hash == t_.physical && size_ == t_.size) {
      r_.check.outcome = FileOutcome::kPhysicalMatch;
      return deep_checked();
    }
    if (!fallback_) {
      return fail(ProblemKind::kPhysicalHashMismatch, t_.physical.to_string(),
                  physical->hash.to_string(),
                  "the " + what_ + "'s physical hash differs from the recorded one" +
                      (data_ && !t_.derivative ? " (root dataset: no logical fallback)"
                                               : no_fallback_note()));
    }
    if (!t_.logical) {  // a data slice always records one; a task without it cannot fall back
      return fail(ProblemKind::kPhysicalHashMismatch, t_.physical.to_string(),
                  physical->hash.to_string(),
                  "the data file's physical hash differs from the recorded one and no logical "
                  "hash is recorded to fall back to");
    }
    // The file as opened and hashed above, read again at random offsets.
    auto logical = logical_hash_object(object_);
    if (!logical.is_ok()) {
      return fail(
          ProblemKind::kFileUnreadable, t_.logical->to_string(), "",
          "the data file's physical hash differs (actual " + physical->hash.to_string() +
              ") and it cannot be read for the logical fallback: " + logical.status().message());
    }
    Multihash actual_logical = logical->multihash();
    if (!(actual_logical == *t_.logical)) {
      return fail(ProblemKind::kLogicalHashMismatch, t_.logical->to_string(),
                  actual_logical.to_string(),
                  "the data file's physical hash differs (actual " + physical->hash.to_string() +
                      ") and so does its logical hash: the records differ");
    }
    r_.check.outcome = FileOutcome::kLogicalMatch;
    r_.check.actual_physical = physical->hash;
    r_.check.logical = actual_logical;
    return deep_checked();
  }

  const ObjectStore& store_;
  const FileTask& t_;
  const CheckProgress& progress_;
  const bool data_;
  const std::string what_;
  const bool fallback_;
  FileCheckResult r_;
  uint64_t size_ = 0;
  std::shared_ptr<ObjectReader> object_;
  std::optional<std::optional<Problem>> early_deep_;
  std::optional<HelperTask> deep_;  // declared last: joined before the members it writes go
};

}  // namespace

FileCheckResult check_file(const ObjectStore& store, const FileTask& t,
                           const CheckProgress& progress) {
  if (t.role == FileRole::kLinkedObject) {
    FileCheckResult r = check_linked_object(store, t, progress);
    r.task_digest = task_fingerprint(t);
    return r;
  }
  return FileChecker(store, t, progress).run();
}

namespace {

// Everything of a task that decides the store it is checked over.
std::string store_key(const FileTask& t) {
  const StoreOptions& o = t.store;
  std::string key = t.dataset;
  for (const std::string& part :
       {o.endpoint_url, o.region, std::string(o.no_sign_request ? "1" : "0"),
        std::to_string(o.connect_timeout_s), std::to_string(o.read_timeout_s),
        std::to_string(o.max_attempts), std::string(o.follow_symlinks ? "1" : "0"), o.ipfs_gateway,
        std::string(o.trust_gateway ? "1" : "0")}) {
    key += '\0';
    key += part;
  }
  return key;
}

// The remote stores check_file(task) opened in this process, newest last: an engine worker
// runs thousands of tasks of one dataset, and opening an S3 store (a client, the credential
// chain) for each would cost more than checking a small file. Local folders are opened each
// time (cheap, and a folder replaced at the same path must be seen as replaced). A child of
// fork() starts with none: the parent's stores may hold threads that did not survive it
// (their memory is left alone rather than destroyed in a process they do not belong to).
class RemoteStoreCache {
 public:
  Result<std::shared_ptr<ObjectStore>> get(const FileTask& task) {
    std::string key = store_key(task);
    {
      std::lock_guard lock(mutex_);
      forget_after_fork();
      for (auto& [k, store] : stores_) {
        if (k == key) return store;
      }
    }
    ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectStore> store,
                              open_dataset_store(task.dataset, task.store));
    std::lock_guard lock(mutex_);
    forget_after_fork();
    stores_.emplace_back(std::move(key), store);
    if (stores_.size() > kCapacity) stores_.pop_front();
    return store;
  }

 private:
  static constexpr size_t kCapacity = 8;

  void forget_after_fork() {
    if (pid_ == getpid()) return;
    if (pid_ != 0) {
      (void)new std::deque<Entry>(std::move(stores_));  // deliberately leaked: see above
      stores_.clear();
    }
    pid_ = getpid();
  }

  using Entry = std::pair<std::string, std::shared_ptr<ObjectStore>>;
  std::mutex mutex_;
  pid_t pid_ = 0;
  std::deque<Entry> stores_;
};

}  // namespace

// Opened as plan_verify(url_or_path) and verify_dataset(url_or_path) open it (the store only:
// a task needs no listing); a remote store is opened once per process (RemoteStoreCache).
Result<FileCheckResult> check_file(const FileTask& task, const CancelFlag* cancel) {
  // Opening a cached store asks the server for refs/head: its requests stop too.
  CancelScope scope(cancel);
  std::shared_ptr<ObjectStore> store;
  if (is_store_url(task.dataset)) {
    static RemoteStoreCache* cache = new RemoteStoreCache;  // never destroyed: see above
    Result<std::shared_ptr<ObjectStore>> cached = cache->get(task);
    if (!cached.is_ok() && cancel_requested(cancel))
      return cancelled_status(redact_url(task.dataset));
    ODF_HASH_ASSIGN_OR_RETURN(store, std::move(cached));
  } else {
    ODF_HASH_ASSIGN_OR_RETURN(store, open_dataset_store(task.dataset, task.store));
  }
  // The cached store is shared by tasks: the flag wraps it for this call only.
  FileCheckResult result = check_file(*cancellable_store(std::move(store), cancel), task);
  if (cancel_requested(cancel)) return cancelled_status(task.file);
  return result;
}

Status check_task_allowed(const FileTask& task, const TaskPolicy& policy) {
  const std::string what = "task " + std::to_string(task.id) + " (" + task.file + ")";
  auto trimmed = [](std::string s) {
    s = redact_url(s);
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
  };
  if (!policy.datasets.empty()) {
    const std::string dataset = trimmed(task.dataset);
    const bool allowed = std::any_of(policy.datasets.begin(), policy.datasets.end(),
                                     [&](const std::string& d) { return trimmed(d) == dataset; });
    if (!allowed) {
      return Status::invalid_argument(what + " names the dataset \"" +
                                      escape_untrusted(redact_url(task.dataset), 160) +
                                      "\", which this worker is not allowed to read");
    }
  }
  // (No structured binding here: clang 14, which builds the fuzzers, cannot capture one.)
  for (const auto& named :
       {std::pair<const char*, const std::string*>{"S3 endpoint", &task.store.endpoint_url},
        {"IPFS gateway", &task.store.ipfs_gateway}}) {
    const char* name = named.first;
    const std::string* value = named.second;
    if (value->empty()) continue;
    const bool allowed =
        std::any_of(policy.endpoints.begin(), policy.endpoints.end(),
                    [&](const std::string& e) { return trimmed(e) == trimmed(*value); });
    if (!allowed) {
      return Status::invalid_argument(what + " names the " + name + " \"" +
                                      escape_untrusted(redact_url(*value), 160) +
                                      "\", which this worker is not allowed to send requests to");
    }
  }
  if (task.store.follow_symlinks && !policy.follow_symlinks) {
    return Status::invalid_argument(
        what +
        " asks to follow symbolic links leaving its dataset, which this worker does not "
        "allow");
  }
  return Status::ok();
}

Result<FileCheckResult> check_file(const FileTask& task, const TaskPolicy& policy,
                                   const CancelFlag* cancel) {
  ODF_HASH_RETURN_IF_ERROR(check_task_allowed(task, policy));
  return check_file(task, cancel);
}

}  // namespace odf_hash::odf
