#include "odf_hash/odf/verify.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <mutex>

#include "odf_hash/core/parallel.h"
#include "odf_hash/core/text.h"
#include "odf_hash/odf/verify_plan.h"
#include "trust.h"

namespace odf_hash::odf {

namespace {

class ProgressTracker {
 public:
  ProgressTracker(const VerifyOptions& options, uint64_t files, uint64_t bytes)
      : fn_(options.progress) {
    state_.files_total = files;
    state_.bytes_total = bytes;
  }
  void add_bytes(uint64_t n) {
    update([&] { state_.bytes_done += n; });
  }
  void file_done() {
    update([&] { ++state_.files_done; });
  }

 private:
  template <typename F>
  void update(F f) {
    if (!fn_) return;
    std::lock_guard<std::mutex> lock(mu_);
    f();
    fn_(state_);
  }
  std::function<void(const VerifyProgress&)> fn_;
  std::mutex mu_;
  VerifyProgress state_;
};

// check_file over every task of the plan on `jobs` threads; results in task order.
std::vector<FileCheckResult> run_tasks(const ObjectStore& store, const std::vector<FileTask>& tasks,
                                       unsigned jobs, ProgressTracker& progress) {
  std::vector<std::optional<FileCheckResult>> results(tasks.size());
  jobs =
      std::max(1u, std::min<unsigned>({jobs, kMaxVerifyJobs, static_cast<unsigned>(tasks.size())}));
  parallel_for(tasks.size(), jobs, [&](size_t i) {
    uint64_t reported = 0;
    results[i] = check_file(store, tasks[i], [&](uint64_t done) {
      progress.add_bytes(done - reported);
      reported = done;
    });
    progress.file_done();
  });
  std::vector<FileCheckResult> out;
  out.reserve(results.size());
  for (auto& r : results) out.push_back(std::move(*r));
  return out;
}

}  // namespace

const char* problem_unit_name(ProblemUnit unit) {
  switch (unit) {
    case ProblemUnit::kNone: return nullptr;
    case ProblemUnit::kBytes: return "bytes";
    case ProblemUnit::kRows: return "rows";
    case ProblemUnit::kLinkValues: return "link-values";
  }
  return nullptr;
}

ProblemValue::ProblemValue(std::string text) {
  if (!text.empty()) v_ = std::move(text);
}

ProblemValue ProblemValue::number(uint64_t n) {
  ProblemValue v;
  v.v_ = n;
  return v;
}

const std::string& ProblemValue::text() const {
  static const std::string kNoText;
  const auto* s = std::get_if<std::string>(&v_);
  return s != nullptr ? *s : kNoText;
}

std::optional<uint64_t> ProblemValue::as_number() const {
  const auto* n = std::get_if<uint64_t>(&v_);
  return n != nullptr ? std::optional<uint64_t>(*n) : std::nullopt;
}

std::string ProblemValue::to_string(ProblemUnit unit) const {
  if (const auto n = as_number()) {
    switch (unit) {
      case ProblemUnit::kNone: return std::to_string(*n);
      case ProblemUnit::kBytes: return std::to_string(*n) + " bytes";
      case ProblemUnit::kRows: return std::to_string(*n) + " rows";
      case ProblemUnit::kLinkValues: return std::to_string(*n) + " link values";
    }
  }
  return text();
}

const char* problem_kind_name(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::kHeadMissing: return "head-missing";
    case ProblemKind::kHeadInvalid: return "head-invalid";
    case ProblemKind::kBlockMissing: return "block-missing";
    case ProblemKind::kBlockUnreadable: return "block-unreadable";
    case ProblemKind::kBlockHashMismatch: return "block-hash-mismatch";
    case ProblemKind::kBlockReencoded: return "block-reencoded";
    case ProblemKind::kBlockMalformed: return "block-malformed";
    case ProblemKind::kSequenceMismatch: return "sequence-mismatch";
    case ProblemKind::kChainNotSeeded: return "chain-not-seeded";
    case ProblemKind::kChainCycle: return "chain-cycle";
    case ProblemKind::kOffsetMismatch: return "offset-mismatch";
    case ProblemKind::kFileMissing: return "file-missing";
    case ProblemKind::kFileUnreadable: return "file-unreadable";
    case ProblemKind::kSizeMismatch: return "size-mismatch";
    case ProblemKind::kPhysicalHashMismatch: return "physical-hash-mismatch";
    case ProblemKind::kLogicalHashMismatch: return "logical-hash-mismatch";
    case ProblemKind::kUnexpectedFile: return "unexpected-file";
    case ProblemKind::kNotRegularFile: return "not-a-regular-file";
    case ProblemKind::kLinkOutside: return "link-outside-dataset";
    case ProblemKind::kLinkedObjectMissing: return "linked-object-missing";
    case ProblemKind::kLinkedObjectHashMismatch: return "linked-object-hash-mismatch";
    case ProblemKind::kLinkMalformed: return "link-malformed";
    case ProblemKind::kLinkedObjectsSummaryMismatch: return "linked-objects-summary-mismatch";
    case ProblemKind::kHistoryRewritten: return "history-rewritten";
    case ProblemKind::kHeadNotFound: return "head-not-found";
    case ProblemKind::kRowCountMismatch: return "row-count-mismatch";
    case ProblemKind::kOffsetColumnMismatch: return "offset-column-mismatch";
    case ProblemKind::kLogicalHashMisrecorded: return "logical-hash-misrecorded";
    case ProblemKind::kDatasetIdMismatch: return "dataset-id-mismatch";
    case ProblemKind::kNotADataset: return "not-a-dataset";
  }
  return "unknown";
}

const char* file_role_name(FileRole role) {
  switch (role) {
    case FileRole::kData: return "data";
    case FileRole::kCheckpoint: return "checkpoint";
    case FileRole::kLinkedObject: return "linked-object";
  }
  return "data";
}

const char* file_outcome_name(FileOutcome outcome) {
  switch (outcome) {
    case FileOutcome::kPhysicalMatch: return "physical-match";
    case FileOutcome::kLogicalMatch: return "logical-match";
    case FileOutcome::kFailed: return "failed";
  }
  return "failed";
}

const char* entry_kind_name(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kFile: return "file";
    case ObjectKind::kDirectory: return "directory";
    case ObjectKind::kSymlink: return "symlink";
    case ObjectKind::kFifo: return "fifo";
    case ObjectKind::kSocket: return "socket";
    case ObjectKind::kCharDevice: return "char-device";
    case ObjectKind::kBlockDevice: return "block-device";
    case ObjectKind::kOther: return "other";
  }
  return "other";
}

std::optional<ObjectKind> entry_kind_from_name(std::string_view name) {
  for (ObjectKind k : {ObjectKind::kFile, ObjectKind::kDirectory, ObjectKind::kSymlink,
                       ObjectKind::kFifo, ObjectKind::kSocket, ObjectKind::kCharDevice,
                       ObjectKind::kBlockDevice, ObjectKind::kOther}) {
    if (name == entry_kind_name(k)) return k;
  }
  return std::nullopt;
}

namespace {

std::string count_of(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

std::string DatasetReport::verdict() const {
  std::string notes;
  auto note = [&](const std::string& n) { notes += (notes.empty() ? "" : "; ") + n; };
  if (!valid()) note(count_of(problems.size(), "problem"));
  if (scope.since_found) {
    const uint64_t newer = blocks == 0 ? 0 : blocks - 1;
    note("since block " + std::to_string(*scope.since_sequence) + ": " +
         count_of(newer, "new block") + ", " + count_of(files.size(), "file") + " checked");
  }
  if (scope.sampled) {
    note("sampled: " + std::to_string(scope.files_checked) + " of " +
         count_of(scope.files_total, "file") + ", " + format_bytes(scope.bytes_checked) + " of " +
         format_bytes(scope.bytes_total) + " read");
  }
  std::string v = valid() ? "VALID" : "INVALID";
  return notes.empty() ? v : v + " (" + notes + ")";
}

uint64_t DatasetReport::unreferenced_bytes() const noexcept {
  uint64_t n = 0;
  for (const auto& e : unreferenced) n += e.size;
  return n;
}

uint64_t DatasetReport::logical_fallbacks() const noexcept {
  uint64_t n = 0;
  for (const auto& f : files) n += f.outcome == FileOutcome::kLogicalMatch ? 1 : 0;
  return n;
}

uint64_t DatasetReport::linked_objects() const noexcept {
  uint64_t n = 0;
  for (const auto& f : files) n += f.role == FileRole::kLinkedObject ? 1 : 0;
  return n;
}

uint64_t DatasetReport::linked_objects_matched() const noexcept {
  uint64_t n = 0;
  for (const auto& f : files) {
    n += f.role == FileRole::kLinkedObject && f.outcome == FileOutcome::kPhysicalMatch ? 1 : 0;
  }
  return n;
}

Result<DatasetReport> verify_dataset(const std::string& url_or_path, const VerifyOptions& options) {
  ODF_HASH_ASSIGN_OR_RETURN(DatasetDir dir, DatasetDir::open(url_or_path, options.store,
                                                             /*list_folders=*/!options.since));
  ODF_HASH_ASSIGN_OR_RETURN(DatasetReport report, verify_dataset(dir, options));
  detail::note_ipfs(url_or_path, options.store, report.scope);
  report.path = redact_url(url_or_path);
  return report;
}

// Plan, check and merge (verify_plan.h) in this process: the one code path, so the
// verify tests also prove that the split loses nothing.
Result<DatasetReport> verify_dataset(const DatasetDir& dir, const VerifyOptions& options) {
  ODF_HASH_ASSIGN_OR_RETURN(VerifyPlan plan, plan_verify(dir, options));
  if (cancel_requested(options.store.cancel)) return cancelled_status(dir.path());
  ProgressTracker progress(options, plan.tasks.size(), plan.bytes_total());
  std::vector<FileCheckResult> results = run_tasks(dir.store(), plan.tasks, options.jobs, progress);
  // A cancelled store fails every read: what it would report are not findings.
  if (cancel_requested(options.store.cancel)) return cancelled_status(dir.path());
  return merge_checks(plan, std::move(results));
}

}  // namespace odf_hash::odf
