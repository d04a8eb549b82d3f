// Dataset verification split in three: plan, check, merge. verify_dataset (verify.h) is
// exactly these three run in one process; the split lets an engine (Dask, Ray, a batch
// system) run the per-file checks anywhere and in any order.
//
//  - plan_verify walks the metadata chain once (the blocks are small), lists the dataset and
//    returns everything verify_dataset reports that does not need the data files' bytes:
//    head, kind, the chain's problems, the unreferenced entries (and with strict their
//    unexpected-file problems), and the ordered list of file checks (FileTask), one per data
//    or checkpoint file the chain references;
//  - check_file runs one FileTask: opens the file through the store, compares its size and
//    physical hash, and for derivative data falls back to the logical hash. It needs only the
//    task (a few hundred bytes: no chain, no listing);
//  - merge_checks puts the plan and one result per task together into the DatasetReport
//    verify_dataset returns: same files, same problems, same order, whatever order the
//    results came in.
//
// Tasks and results have a versioned JSON form (verify_plan_json.h) for sending them between
// processes. A task names its dataset by the location the plan was made from (a folder path
// or a URL: open_store.h) and carries the StoreOptions it was opened with, so a worker needs
// nothing else. No credentials ever travel in a task: a URL's user information is removed
// (redact_url) and StoreOptions holds none; a worker reading S3 uses its own AWS
// credential chain (environment, ~/.aws, instance metadata). So a task of an HTTP dataset
// reached with "user:password@" in its URL is checked without them (and denied by a server
// that requires them): verify such a dataset in one process (verify_dataset).
//
// Thread safety: every function here is reentrant; check_file may run on many threads at
// once over one store.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"
#include "odf_hash/odf/dataset.h"
#include "odf_hash/odf/verify.h"

namespace odf_hash::odf {

// One data or checkpoint file to check, attributed to the newest block referencing it, or a
// linked object (role kLinkedObject: no recorded size; attributed to its first reference).
struct FileTask {
  uint64_t id = 0;      // position in the plan (0, 1, ...): results are matched by it
  std::string dataset;  // the dataset's location, as the plan was made from it (redact_url)
  StoreOptions store;   // how the plan opened it (follow_symlinks for a local folder)
  FileRole role = FileRole::kData;
  // The key of the file in the store ("data/<name>"): the name found by the listing, or the
  // canonical name when the folder was not listed.
  std::string file;
  // The listing has no file of this hash: the check reports it missing without asking the
  // store (a listed dataset is checked against its listing, as verify_dataset does).
  bool known_missing = false;
  // With known_missing: the key of a file holding this hash under a non-canonical name, named
  // in the missing-file message (never read). Empty otherwise.
  std::string misnamed;
  Multihash block{HashCode::kSha3_256, Digest256{}};  // the newest block referencing it
  uint64_t sequence_number = 0;
  uint64_t size = 0;                                     // recorded size in bytes
  Multihash physical{HashCode::kSha3_256, Digest256{}};  // recorded physical hash
  std::optional<Multihash> logical;                      // recorded logical hash (data only)
  bool derivative = false;      // the dataset is derivative (the Seed says so)
  bool integrity_only = false;  // no logical fallback (VerifyOptions::integrity_only)
  // kLinkedObject only: the first reference to the object (block and sequence_number are
  // the block adding that data file; size is 0, not recorded anywhere).
  std::optional<LinkRef> link;

  // VerifyOptions::deep, data files only: after the bytes, the records are read and checked
  // against the block: rows = offsets.end - offsets.start + 1, the column `offset_column`
  // (SetVocab's, "offset" by default) holds offsets.start..end in order, and the logical hash
  // is `logical`.
  bool deep = false;
  std::string offset_column;
  OffsetInterval offsets;

  // Whether a physical mismatch falls back to the logical hash.
  bool logical_fallback() const noexcept {
    return role == FileRole::kData && derivative && !integrity_only;
  }
};

// What check_file found for one task.
struct FileCheckResult {
  uint64_t task = 0;               // FileTask::id
  FileCheck check;                 // the report's entry for the file
  std::optional<Problem> problem;  // set when check.outcome is kFailed
  // task_fingerprint() of the task it was computed against: binds the result to the dataset,
  // file, recorded size and hashes and options of that task, so that merge_checks refuses a
  // result computed for another dataset or another plan.
  std::string task_digest;
};

// A digest of everything a task says (its JSON form: dataset, store options, file, block,
// recorded size and hashes, ...), 64 hex digits of SHA3-256. Two tasks with the same
// fingerprint ask for the same check.
std::string task_fingerprint(const FileTask& task);
// The "opendatafabric.org/linkedObjects" summary of an AddData against what its data file
// links, checked by merge_checks once the objects' sizes are known.
struct LinkedSummaryCheck {
  Multihash block{HashCode::kSha3_256, Digest256{}};
  uint64_t sequence_number = 0;
  std::string data_file;          // "data/<name>"
  LinkedObjectsSummary recorded;  // as the block says
  uint64_t values = 0;            // non-null link values found in the data file
  // Each linked object the file links (the task checking it) with its number of values.
  std::vector<std::pair<uint64_t, uint64_t>> objects;
};

struct VerifyPlan {
  // The report without the file checks: path, head, kind, blocks, chain_complete,
  // unexpected_checked, strict, unreferenced, and the metadata problems (files is empty).
  DatasetReport report;
  // Report order: newest block first, data before checkpoint; then the linked objects.
  std::vector<FileTask> tasks;
  // Summaries to check against the data files, newest block first (their problems come after
  // the files'). Only data files whose link columns were read to the end are here.
  std::vector<LinkedSummaryCheck> linked_summaries;
  // Problems reported after the files': a folder of the layout that is not a folder, and
  // with strict the unexpected-file problem of every unreferenced entry.
  std::vector<Problem> unexpected;

  uint64_t bytes_total() const noexcept;  // the recorded sizes of every task's file
};

// Planning reads the ObjectLink columns of the data files (only those columns, through the
// store) to know the linked objects: they become tasks, and they are no unexpected files. A
// link value that is not a multihash, or link columns that cannot be read, are problems of
// the plan (link-malformed).
//
// Plans the verification of the dataset at `url_or_path` (a folder or a URL), opened as
// verify_dataset opens it (VerifyOptions::integrity_only, strict and store are used; jobs
// and progress are not). Errors as verify_dataset.
Result<VerifyPlan> plan_verify(const std::string& url_or_path, const VerifyOptions& options = {});

// Plans the verification of an opened dataset; tasks name it by dir.path() and carry
// options.store.
Result<VerifyPlan> plan_verify(const DatasetDir& dir, const VerifyOptions& options = {});

// Called with the bytes of the file hashed so far (physical hash pass). May be empty.
using CheckProgress = std::function<void(uint64_t bytes_done)>;

// What a worker lets a task make it do. A task is a message from elsewhere (a scheduler, a
// queue): without a policy it could make a worker hash any "<dir>/data/<name>" on its disk
// (the result discloses its size and SHA3-256), follow links out of a folder, or send
// SigV4-signed requests to any endpoint. The worker side (the engine adapters, from the
// client's own arguments) says what it allows; a task asking for more is refused.
struct TaskPolicy {
  // The datasets a task may name (as plan_verify names them: a folder path as given, or a URL
  // without user information). Empty: any dataset.
  std::vector<std::string> datasets;
  // The S3 endpoint URLs and IPFS gateways a task may name besides none (the defaults).
  std::vector<std::string> endpoints;
  // Whether a task may ask to follow symbolic links that leave its dataset folder.
  bool follow_symlinks = false;
};

// kInvalidArgument naming the task and what it asks for when `policy` does not allow it.
Status check_task_allowed(const FileTask& task, const TaskPolicy& policy);

// check_file(task, cancel) when check_task_allowed, else its error.
Result<FileCheckResult> check_file(const FileTask& task, const TaskPolicy& policy,
                                   const CancelFlag* cancel = nullptr);

// Runs one task over `store` (the dataset's store: task.dataset and task.store are not
// looked at). Every finding is in the result; this cannot fail.
FileCheckResult check_file(const ObjectStore& store, const FileTask& task,
                           const CheckProgress& progress = {});

// Opens the store task.dataset names with task.store (open_dataset_store, dataset.h) and
// runs the task. An error only when the dataset cannot be opened at all (it is gone,
// permission denied, a bad URL). A remote store (s3://, http(s)://) is opened once per
// process and kept for the next tasks of the same dataset and options (the last 8 kept; a
// forked child opens its own): an engine worker checks thousands of files of one dataset,
// and an S3 client with its credential chain costs more to make than a small file to check.
// So credentials are looked up when a dataset's first task runs in a process, not at every
// task. A local folder is opened at every call. Once *cancel is set (cancel.h) the store's
// reads fail and the call returns kCancelled instead of a result.
Result<FileCheckResult> check_file(const FileTask& task, const CancelFlag* cancel = nullptr);

// The report verify_dataset gives: the plan with one result per task, in any order. An
// error (kInvalidArgument, naming the task) when a task has no result or two, when a result
// names no task of the plan, or when a result's file, role or block differs from its task's
// (a result of another plan), or when a result's task_digest is not its task's fingerprint
// (computed against another dataset, or another recorded size or hash).
Result<DatasetReport> merge_checks(const VerifyPlan& plan, std::vector<FileCheckResult> results);

}  // namespace odf_hash::odf
