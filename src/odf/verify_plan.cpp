// Verification split into plan, check and merge (verify_plan.h). verify.cpp runs the three
// in one process; everything a report says is decided here.
#include "odf_hash/verify_plan.h"

#include <unistd.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "chain_walk.h"
#include "deep_check.h"
#include "entry.h"
#include "file_hints.h"
#include "linked_objects.h"
#include "odf_hash/open_store.h"
#include "odf_hash/physical.h"
#include "odf_hash/reader.h"
#include "sample.h"
#include "trust.h"
#include "unreferenced.h"

namespace odf_hash::odf {

namespace {

std::string hash_key(const Multihash& h) {
  auto b = h.to_bytes();
  return std::string(b.begin(), b.end());
}

// The offset column's name when no SetVocab names one (ODF's DatasetVocabulary default).
constexpr std::string_view kDefaultOffsetColumn = "offset";

// The files the chain references, each once, attributed to the newest block referencing it.
std::vector<FileTask> collect_tasks(const DatasetDir& dir, const std::vector<ChainBlock>& blocks,
                                    const FileTask& common) {
  std::vector<FileTask> tasks;
  std::set<std::string> seen_data, seen_checkpoints;
  // The offset column in effect at each block (head first): the newest SetVocab at or below
  // it that names one, else "offset".
  std::vector<std::string> offset_column(blocks.size(), std::string(kDefaultOffsetColumn));
  {
    std::string current(kDefaultOffsetColumn);
    for (size_t i = blocks.size(); i-- > 0;) {
      if (blocks[i].block.event == EventKind::kSetVocab) {
        current = blocks[i].block.vocab_offset_column.value_or(std::string(kDefaultOffsetColumn));
      }
      offset_column[i] = current;
    }
  }
  auto add = [&](FileRole role, const ChainBlock& cb, const Multihash& hash, uint64_t size,
                 std::optional<Multihash> logical) {
    const bool data = role == FileRole::kData;
    std::optional<DatasetFile> f = data ? dir.find_data(hash) : dir.find_checkpoint(hash);
    FileTask t = common;
    t.id = tasks.size();
    t.role = role;
    t.file = f ? f->rel_path : std::string(data ? "data/" : "checkpoints/") + hash.to_string();
    t.known_missing = !f;
    if (!f) {
      std::optional<DatasetFile> m = data ? dir.misnamed_data(hash) : dir.misnamed_checkpoint(hash);
      if (m) t.misnamed = m->rel_path;
    }
    t.block = cb.hash;
    t.sequence_number = cb.block.sequence_number;
    t.size = size;
    t.physical = hash;
    t.logical = std::move(logical);
    if (data && t.deep && cb.block.new_data) {
      t.offsets = cb.block.new_data->offset_interval;
      t.offset_column = offset_column.at(&cb - blocks.data());
    } else {
      t.deep = false;
    }
    tasks.push_back(std::move(t));
  };
  for (const auto& cb : blocks) {
    const MetadataBlock& b = cb.block;
    if (b.new_data && seen_data.insert(hash_key(b.new_data->physical_hash)).second) {
      add(FileRole::kData, cb, b.new_data->physical_hash, b.new_data->size,
          b.new_data->logical_hash);
    }
    if (b.new_checkpoint &&
        seen_checkpoints.insert(hash_key(b.new_checkpoint->physical_hash)).second) {
      add(FileRole::kCheckpoint, cb, b.new_checkpoint->physical_hash, b.new_checkpoint->size,
          std::nullopt);
    }
  }
  return tasks;
}

// What --since left out, in the report's scope.
void note_incremental(const detail::ChainWalk& walk, VerifyPlan& plan) {
  if (!walk.stopped_at) return;
  VerifyScope& scope = plan.report.scope;
  const uint64_t since_seq = walk.stopped_at->block.sequence_number;
  if (since_seq > 0) {
    scope.skipped.push_back("blocks 0 to " + std::to_string(since_seq - 1) +
                            " and the files of blocks 0 to " + std::to_string(since_seq) +
                            ": not read (--since: verified before)");
  }
  scope.skipped.push_back(
      "unreferenced entries: not looked for (--since: the folders are not listed, and the chain "
      "below was not read)");
  if (scope.kind_inferred) {
    scope.skipped.push_back(
        "dataset kind: not read from the Seed (--since); inferred from the blocks read");
  }
  const bool vocab_read =
      std::any_of(walk.blocks.begin(), walk.blocks.end(),
                  [](const ChainBlock& cb) { return cb.block.event == EventKind::kSetVocab; });
  if (scope.deep && !vocab_read) {
    scope.skipped.push_back(
        "--deep: no SetVocab among the blocks read (--since), so the offset column is taken "
        "to be \"offset\", the default name");
  }
  const bool schema_read =
      std::any_of(walk.blocks.begin(), walk.blocks.end(),
                  [](const ChainBlock& cb) { return cb.block.data_schema.has_value(); });
  const bool new_data = std::any_of(plan.tasks.begin(), plan.tasks.end(),
                                    [](const FileTask& t) { return t.role == FileRole::kData; });
  if (!schema_read && new_data) {
    scope.skipped.push_back(
        "linked objects: no SetDataSchema among the blocks read (--since), so no column is "
        "known to hold links");
  }
}

}  // namespace

uint64_t VerifyPlan::bytes_total() const noexcept {
  uint64_t n = 0;
  for (const auto& t : tasks) n += t.size;
  return n;
}

Result<VerifyPlan> plan_verify(const std::string& url_or_path, const VerifyOptions& options) {
  ODF_HASH_ASSIGN_OR_RETURN(DatasetDir dir, DatasetDir::open(url_or_path, options.store,
                                                             /*list_folders=*/!options.since));
  ODF_HASH_ASSIGN_OR_RETURN(VerifyPlan plan, plan_verify(dir, options));
  detail::note_ipfs(url_or_path, options.store, plan.report.scope);
  const std::string shown = redact_url(url_or_path);
  plan.report.path = shown;
  for (auto& t : plan.tasks) t.dataset = shown;
  return plan;
}

Result<VerifyPlan> plan_verify(const DatasetDir& dir, const VerifyOptions& options) {
  return detail::plan_walked(dir, detail::walk_chain(dir, options.since), options);
}

VerifyPlan detail::plan_walked(const DatasetDir& dir, ChainWalk walk,
                               const VerifyOptions& options) {
  VerifyPlan plan;
  DatasetReport& report = plan.report;
  report.path = dir.path();
  report.unexpected_checked = dir.listed();
  report.head = walk.head;
  report.blocks = walk.blocks.size() + (walk.stopped_at ? 1 : 0);
  report.chain_complete = walk.complete;
  if (!walk.blocks.empty() && walk.blocks.back().block.dataset_kind) {
    report.kind = walk.blocks.back().block.dataset_kind;
    report.dataset_id = walk.blocks.back().block.dataset_id;
  } else if (walk.stopped_at) {
    report.kind = detail::infer_kind(walk);
    report.scope.kind_inferred = true;
  }
  report.problems = std::move(walk.problems);
  {
    // Above --since, offsets continue from the --since block's (taken as verified before).
    std::vector<ChainBlock> with_anchor;
    const std::vector<ChainBlock>* blocks = &walk.blocks;
    if (walk.stopped_at) {
      with_anchor = walk.blocks;
      with_anchor.push_back(*walk.stopped_at);
      blocks = &with_anchor;
    }
    for (auto& p : detail::check_offsets(*blocks, walk.complete))
      report.problems.push_back(std::move(p));
  }
  detail::check_anchors(dir, walk, options, report);
  report.scope.deep = options.deep;

  FileTask common;
  common.dataset = redact_url(dir.path());
  common.store = options.store;
  // Without the Seed the kind is unknown: files are then checked as for a root dataset
  // (no logical fallback), the strict choice.
  common.derivative = report.kind == DatasetKind::kDerivative;
  common.integrity_only = options.integrity_only;
  common.deep = options.deep;
  plan.tasks = collect_tasks(dir, walk.blocks, common);
  detail::LinkScan links = detail::scan_links(dir, walk.blocks, common, plan.tasks.size());
  for (auto& t : links.tasks) {
    t.deep = false;  // --deep is about data files' records
    plan.tasks.push_back(std::move(t));
  }
  for (auto& p : links.problems) report.problems.push_back(std::move(p));
  plan.linked_summaries = std::move(links.summaries);
  report.strict = options.strict;
  if (dir.listed()) {
    // Linked objects are referenced by the data files (by their canonical names only).
    std::set<std::string> linked;
    for (const auto& t : plan.tasks) {
      if (t.role == FileRole::kLinkedObject) linked.insert(t.file);
    }
    detail::Unreferenced u =
        detail::find_unreferenced(dir, walk.blocks, linked, walk.complete, options.strict);
    report.unreferenced = std::move(u.entries);
    plan.unexpected = std::move(u.problems);
  }
  note_incremental(walk, plan);
  detail::sample_tasks(options, plan);
  return plan;
}

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
  auto fail = [&](ProblemKind kind, std::string expected, std::string actual, std::string message) {
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

FileCheckResult check_file(const ObjectStore& store, const FileTask& t,
                           const CheckProgress& progress) {
  if (t.role == FileRole::kLinkedObject) {
    FileCheckResult r = check_linked_object(store, t, progress);
    r.task_digest = task_fingerprint(t);
    return r;
  }
  const bool data = t.role == FileRole::kData;
  FileCheckResult r{t.id,
                    FileCheck{t.role, t.block, t.sequence_number, t.file, FileOutcome::kFailed,
                              std::nullopt, std::nullopt, std::nullopt},
                    std::nullopt, task_fingerprint(t)};
  auto fail = [&](ProblemKind kind, std::string expected, std::string actual, std::string message) {
    r.check.outcome = FileOutcome::kFailed;
    r.problem = Problem{kind,
                        t.block,
                        t.sequence_number,
                        r.check.file,
                        std::move(expected),
                        std::move(actual),
                        std::move(message),
                        std::nullopt};
    return r;
  };
  const std::string what = data ? "data file" : "checkpoint file";
  if (t.known_missing) {
    return fail(ProblemKind::kFileMissing, "", "",
                "the " + what + " does not exist" + detail::misnamed_hint(t.misnamed));
  }
  const bool derivative = t.derivative;
  const bool fallback = t.logical_fallback();
  const std::string no_fallback_note =
      data && derivative ? " (logical fallback skipped: --integrity-only)" : "";
  // Without the fallback a file of another size fails whatever its bytes: it is not read.
  const uint64_t max_size = fallback ? std::numeric_limits<uint64_t>::max() : t.size;
  detail::EntryOpen entry = detail::open_entry(store, t.file, "the " + what, max_size);
  if (entry.fault == detail::EntryFault::kMissing) {
    return fail(ProblemKind::kFileMissing, "", "", "the " + what + " does not exist");
  }
  if (entry.fault != detail::EntryFault::kNone && entry.fault != detail::EntryFault::kTooLarge) {
    return fail(detail::problem_kind_of(entry.fault, ProblemKind::kFileMissing,
                                        ProblemKind::kFileUnreadable),
                "", "", std::move(entry.message));
  }
  const uint64_t size = entry.info.size;
  if (size != t.size && !fallback) {
    // A body without Content-Length that went on past the recorded size: its size is only
    // known to be larger.
    return fail(ProblemKind::kSizeMismatch, std::to_string(t.size) + " bytes",
                entry.info.size_at_least ? "more than " + std::to_string(t.size) + " bytes"
                                         : std::to_string(size) + " bytes",
                "the " + what + "'s size differs from the recorded size" + no_fallback_note);
  }
  std::shared_ptr<ObjectReader> object = std::move(entry.reader);
  // --deep reads the records on a thread of its own while the bytes are hashed (the reader
  // takes read_at beside read()), so a deep check costs about the wall time of one logical
  // hash, not of both reads; its finding counts only once the bytes (or the records) matched.
  // A file of another size is looked at records first (below): checked there, after.
  std::optional<std::optional<Problem>> early_deep;
  std::optional<std::thread> deep_thread;
  const bool size_first = fallback && size != t.size && t.logical;
  if (t.deep && !size_first) {
    try {
      deep_thread.emplace([&] { early_deep = detail::check_records(object, t); });
    } catch (const std::system_error&) {  // no thread to be had: checked after the bytes
    }
  }
  struct Join {
    std::optional<std::thread>& thread;
    ~Join() {
      if (thread && thread->joinable()) thread->join();
    }
  } join_deep{deep_thread};
  // The bytes matched (or the records did): with --deep, the records against the block.
  auto deep_checked = [&]() -> FileCheckResult& {
    if (!t.deep) return r;
    if (deep_thread) deep_thread->join();
    std::optional<Problem> p =
        early_deep ? std::move(*early_deep) : detail::check_records(object, t);
    if (p) {
      r.check.outcome = FileOutcome::kFailed;
      r.problem = std::move(p);
    }
    return r;
  };
  auto hash_physical = [&] {
    return physical_hash_object(*object, [&](uint64_t done, uint64_t) {
      if (progress) progress(done);
      return true;
    });
  };
  if (size_first) {
    // Another size: the physical hash cannot match, so the records are looked at first. A
    // server announcing a huge object of garbage is then answered by its Parquet footer (a
    // range read), not streamed whole first; the physical hash is only needed, for the
    // report, once the records match.
    const std::string differs = "the data file's size differs from the recorded one (" +
                                std::to_string(size) + " bytes, recorded " +
                                std::to_string(t.size) + ")";
    auto logical = logical_hash_object(object);
    if (!logical.is_ok()) {
      return fail(ProblemKind::kFileUnreadable, t.logical->to_string(), "",
                  differs + " and it cannot be read for the logical fallback: " +
                      logical.status().message() +
                      (size < t.size ? "; it is shorter than recorded: cut short (an "
                                       "interrupted download or copy?); fetch it again from "
                                       "the dataset's source"
                                     : ""));
    }
    if (!(logical->multihash() == *t.logical)) {
      return fail(ProblemKind::kLogicalHashMismatch, t.logical->to_string(),
                  logical->multihash().to_string(),
                  differs + " and so does its logical hash: the records differ");
    }
    auto physical = hash_physical();
    if (!physical.is_ok()) {
      return fail(ProblemKind::kFileUnreadable, "", "",
                  "cannot read the " + what + ": " + physical.status().message());
    }
    r.check.outcome = FileOutcome::kLogicalMatch;
    r.check.actual_physical = physical->hash;
    r.check.logical = logical->multihash();
    return deep_checked();
  }
  auto physical = hash_physical();
  if (!physical.is_ok()) {
    return fail(ProblemKind::kFileUnreadable, "", "",
                "cannot read the " + what + ": " + physical.status().message());
  }
  if (physical->hash == t.physical && size == t.size) {
    r.check.outcome = FileOutcome::kPhysicalMatch;
    return deep_checked();
  }
  if (!fallback) {
    return fail(
        ProblemKind::kPhysicalHashMismatch, t.physical.to_string(), physical->hash.to_string(),
        "the " + what + "'s physical hash differs from the recorded one" +
            (data && !derivative ? " (root dataset: no logical fallback)" : no_fallback_note));
  }
  if (!t.logical) {  // a data slice always records one; a task without it cannot fall back
    return fail(ProblemKind::kPhysicalHashMismatch, t.physical.to_string(),
                physical->hash.to_string(),
                "the data file's physical hash differs from the recorded one and no logical "
                "hash is recorded to fall back to");
  }
  // Derivative data may be reproduced with a different encoding: the records count.
  // The file as opened and hashed above, read again at random offsets.
  auto logical = logical_hash_object(object);
  if (!logical.is_ok()) {
    return fail(
        ProblemKind::kFileUnreadable, t.logical->to_string(), "",
        "the data file's physical hash differs (actual " + physical->hash.to_string() +
            ") and it cannot be read for the logical fallback: " + logical.status().message());
  }
  Multihash actual_logical = logical->multihash();
  if (!(actual_logical == *t.logical)) {
    return fail(ProblemKind::kLogicalHashMismatch, t.logical->to_string(),
                actual_logical.to_string(),
                "the data file's physical hash differs (actual " + physical->hash.to_string() +
                    ") and so does its logical hash: the records differ");
  }
  r.check.outcome = FileOutcome::kLogicalMatch;
  r.check.actual_physical = physical->hash;
  r.check.logical = actual_logical;
  return deep_checked();
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

namespace {

// AddData's linkedObjects summary against the data file: numObjectsNaive is the number of
// non-null link values; sizeNaive the sum of the linked objects' sizes, one per value
// (checked only when every object the file links was found).
void check_linked_summaries(const VerifyPlan& plan, DatasetReport& report) {
  for (const auto& s : plan.linked_summaries) {
    auto problem = [&](std::string expected, std::string actual, std::string message) {
      report.problems.push_back(Problem{ProblemKind::kLinkedObjectsSummaryMismatch, s.block,
                                        s.sequence_number, s.data_file, std::move(expected),
                                        std::move(actual), std::move(message), std::nullopt});
    };
    if (s.values != s.recorded.num_objects_naive) {
      problem(std::to_string(s.recorded.num_objects_naive) + " link values",
              std::to_string(s.values) + " link values",
              "AddData's linkedObjects.numObjectsNaive differs from the number of non-null "
              "ObjectLink values in the data file");
      continue;
    }
    uint64_t size = 0;
    bool known = true;
    for (auto [task, count] : s.objects) {
      const FileCheck* f = task < report.files.size() ? &report.files[task] : nullptr;
      if (f == nullptr || !f->size) {
        known = false;
        break;
      }
      size += *f->size * count;
    }
    if (known && size != s.recorded.size_naive) {
      problem(std::to_string(s.recorded.size_naive) + " bytes", std::to_string(size) + " bytes",
              "AddData's linkedObjects.sizeNaive differs from the sizes of the objects the data "
              "file links (one per value)");
    }
  }
}

}  // namespace

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

Result<DatasetReport> merge_checks(const VerifyPlan& plan, std::vector<FileCheckResult> results) {
  const size_t n = plan.tasks.size();
  std::vector<std::optional<FileCheckResult>> by_task(n);
  for (auto& r : results) {
    if (r.task >= n) {
      return Status::invalid_argument("merge: a result names task " + std::to_string(r.task) +
                                      ", but the plan has " + std::to_string(n) + " tasks");
    }
    const FileTask& t = plan.tasks[r.task];
    if (by_task[r.task]) {
      return Status::invalid_argument("merge: two results for task " + std::to_string(r.task) +
                                      " (" + t.file + ")");
    }
    if (r.check.file != t.file || r.check.role != t.role || !(r.check.block == t.block) ||
        r.check.sequence_number != t.sequence_number) {
      return Status::invalid_argument(
          "merge: the result for task " + std::to_string(r.task) + " is about " +
          file_role_name(r.check.role) + " " + r.check.file + ", but the task checks " +
          file_role_name(t.role) + " " + t.file + ": a result of another plan");
    }
    if (r.task_digest != task_fingerprint(t)) {
      return Status::invalid_argument(
          "merge: the result for task " + std::to_string(r.task) + " (" + t.file +
          ") was computed against another task (another dataset, recorded size or hash, or "
          "options than this plan's: " +
          redact_url(t.dataset) + ")");
    }
    if ((r.check.outcome == FileOutcome::kFailed) != r.problem.has_value()) {
      return Status::invalid_argument("merge: the result for task " + std::to_string(r.task) +
                                      " (" + t.file +
                                      ") must hold a problem exactly when it failed");
    }
    by_task[r.task] = std::move(r);
  }
  DatasetReport report = plan.report;
  report.files.clear();
  for (size_t i = 0; i < n; ++i) {
    if (!by_task[i]) {
      return Status::invalid_argument("merge: no result for task " + std::to_string(i) + " (" +
                                      plan.tasks[i].file + ")");
    }
    FileCheckResult& r = *by_task[i];
    if (r.problem) report.problems.push_back(std::move(*r.problem));
    report.files.push_back(std::move(r.check));
  }
  detail::cap_linked_object_problems(report.problems);
  detail::add_file_hints(plan.tasks, report.problems);
  check_linked_summaries(plan, report);
  for (const auto& p : plan.unexpected) report.problems.push_back(p);
  return report;
}

}  // namespace odf_hash::odf
