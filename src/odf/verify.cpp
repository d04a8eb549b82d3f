#include "odf_hash/verify.h"

#include <atomic>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

#include "chain_walk.h"
#include "entry.h"
#include "odf_hash/physical.h"
#include "odf_hash/reader.h"

namespace odf_hash::odf {

namespace {

std::string hash_key(const Multihash& h) {
  auto b = h.to_bytes();
  return std::string(b.begin(), b.end());
}

// One data or checkpoint file to check, attributed to the newest block referencing it.
struct FileTask {
  FileRole role;
  const ChainBlock* block;
  Multihash hash;
  uint64_t size;
  std::optional<Multihash> logical;  // data only
};

struct TaskResult {
  FileCheck check;
  std::optional<Problem> problem;
};

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

class FileChecker {
 public:
  FileChecker(const DatasetDir& dir, bool derivative, const VerifyOptions& options,
              ProgressTracker& progress)
      : dir_(dir), derivative_(derivative), options_(options), progress_(progress) {}

  TaskResult run(const FileTask& t) const {
    const bool data = t.role == FileRole::kData;
    std::optional<DatasetFile> f = data ? dir_.find_data(t.hash) : dir_.find_checkpoint(t.hash);
    std::string rel =
        f ? f->rel_path : std::string(data ? "data/" : "checkpoints/") + t.hash.to_string();
    TaskResult r{FileCheck{t.role, t.block->hash, t.block->block.sequence_number, rel,
                           FileOutcome::kFailed, std::nullopt, std::nullopt},
                 std::nullopt};
    auto fail = [&](ProblemKind kind, std::string expected, std::string actual,
                    std::string message) {
      r.check.outcome = FileOutcome::kFailed;
      r.problem = Problem{kind,
                          t.block->hash,
                          t.block->block.sequence_number,
                          r.check.file,
                          std::move(expected),
                          std::move(actual),
                          std::move(message)};
      return r;
    };
    const std::string what = data ? "data file" : "checkpoint file";
    if (!f) return fail(ProblemKind::kFileMissing, "", "", "the " + what + " does not exist");
    const bool fallback = data && derivative_ && !options_.integrity_only;
    const std::string no_fallback_note =
        data && derivative_ ? " (logical fallback skipped: --integrity-only)" : "";
    // Without the fallback a file of another size fails whatever its bytes: it is not read.
    const uint64_t max_size = fallback ? std::numeric_limits<uint64_t>::max() : t.size;
    detail::EntryOpen entry = detail::open_entry(dir_, f->rel_path, "the " + what, max_size);
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
      return fail(ProblemKind::kSizeMismatch, std::to_string(t.size) + " bytes",
                  std::to_string(size) + " bytes",
                  "the " + what + "'s size differs from the recorded size" + no_fallback_note);
    }
    std::shared_ptr<ObjectReader> object = std::move(entry.reader);
    uint64_t reported = 0;
    auto physical = physical_hash_object(*object, [&](uint64_t done, uint64_t) {
      progress_.add_bytes(done - reported);
      reported = done;
      return true;
    });
    if (!physical.is_ok()) {
      return fail(ProblemKind::kFileUnreadable, "", "",
                  "cannot read the " + what + ": " + physical.status().message());
    }
    if (physical->hash == t.hash && size == t.size) {
      r.check.outcome = FileOutcome::kPhysicalMatch;
      return r;
    }
    if (!fallback) {
      return fail(
          ProblemKind::kPhysicalHashMismatch, t.hash.to_string(), physical->hash.to_string(),
          "the " + what + "'s physical hash differs from the recorded one" +
              (data && !derivative_ ? " (root dataset: no logical fallback)" : no_fallback_note));
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
    return r;
  }

 private:
  const DatasetDir& dir_;
  bool derivative_;
  const VerifyOptions& options_;
  ProgressTracker& progress_;
};

std::vector<FileTask> collect_tasks(const std::vector<ChainBlock>& blocks) {
  std::vector<FileTask> tasks;
  std::set<std::string> seen_data, seen_checkpoints;
  for (const auto& cb : blocks) {
    const MetadataBlock& b = cb.block;
    if (b.new_data && seen_data.insert(hash_key(b.new_data->physical_hash)).second) {
      tasks.push_back(FileTask{FileRole::kData, &cb, b.new_data->physical_hash, b.new_data->size,
                               b.new_data->logical_hash});
    }
    if (b.new_checkpoint &&
        seen_checkpoints.insert(hash_key(b.new_checkpoint->physical_hash)).second) {
      tasks.push_back(FileTask{FileRole::kCheckpoint, &cb, b.new_checkpoint->physical_hash,
                               b.new_checkpoint->size, std::nullopt});
    }
  }
  return tasks;
}

std::vector<TaskResult> run_tasks(const std::vector<FileTask>& tasks, const FileChecker& checker,
                                  unsigned jobs, ProgressTracker& progress) {
  std::vector<std::optional<TaskResult>> results(tasks.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < tasks.size(); i = next++) {
      results[i] = checker.run(tasks[i]);
      progress.file_done();
    }
  };
  jobs = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(tasks.size())));
  if (jobs <= 1) {
    worker();
  } else {
    std::vector<std::thread> threads;
    for (unsigned j = 0; j < jobs; ++j) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
  }
  std::vector<TaskResult> out;
  out.reserve(results.size());
  for (auto& r : results) out.push_back(std::move(*r));
  return out;
}

// "this file", "this directory", "this symbolic link (to "…"), which leaves the dataset
// folder", for the unexpected-file sentence.
std::string entry_noun(const DatasetEntry& e) {
  const ObjectKind kind = e.kind;
  const std::string& link_target = e.link_target;
  if (kind == ObjectKind::kFile) return "this file";
  if (e.broken_link) return "this symbolic link, which leads nowhere or loops";
  if (kind == ObjectKind::kSymlink) {
    return "this symbolic link (to \"" + escape_untrusted(link_target, 160) +
           "\", which leaves the dataset folder)";
  }
  return std::string("this ") + object_kind_name(kind);
}

// Names present in the dataset that the (complete) chain does not reference.
void report_unexpected(const DatasetDir& dir, const std::vector<ChainBlock>& blocks,
                       bool chain_complete, std::vector<Problem>& problems) {
  std::vector<DatasetEntry> unexpected(dir.foreign_entries());
  if (chain_complete) {
    std::set<std::string> blocks_ref, data_ref, checkpoints_ref;
    for (const auto& cb : blocks) {
      blocks_ref.insert(hash_key(cb.hash));
      if (cb.block.new_data) data_ref.insert(hash_key(cb.block.new_data->physical_hash));
      if (cb.block.new_checkpoint) {
        checkpoints_ref.insert(hash_key(cb.block.new_checkpoint->physical_hash));
      }
    }
    auto scan = [&](const std::vector<DatasetFile>& files, const std::set<std::string>& refs,
                    std::optional<DatasetFile> (DatasetDir::*find)(const Multihash&) const) {
      for (const auto& f : files) {
        // Referenced, and the file found for that hash (not a second copy of it).
        if (refs.count(hash_key(f.hash)) != 0) {
          auto found = (dir.*find)(f.hash);
          if (found && found->rel_path == f.rel_path) continue;
        }
        unexpected.push_back(DatasetEntry{f.rel_path, f.kind, f.link_target, f.broken_link});
      }
    };
    scan(dir.blocks(), blocks_ref, &DatasetDir::find_block);
    scan(dir.data_files(), data_ref, &DatasetDir::find_data);
    scan(dir.checkpoints(), checkpoints_ref, &DatasetDir::find_checkpoint);
  }
  std::sort(unexpected.begin(), unexpected.end(),
            [](const DatasetEntry& a, const DatasetEntry& b) { return a.rel_path < b.rel_path; });
  for (auto& e : unexpected) {
    Problem p;
    p.kind = ProblemKind::kUnexpectedFile;
    p.message = "no block of the chain references " + entry_noun(e);
    if (e.rel_path.find('/') == std::string::npos && e.kind == ObjectKind::kSymlink &&
        !e.broken_link) {
      // blocks/, data/ or checkpoints/ itself leads out of the dataset.
      ObjectInfo info;
      info.kind = e.kind;
      info.link_target = e.link_target;
      p.kind = ProblemKind::kLinkOutside;
      p.message = detail::not_a_file_sentence("the " + e.rel_path + " folder", e.rel_path, info);
    }
    p.file = std::move(e.rel_path);
    problems.push_back(std::move(p));
  }
}

}  // namespace

const char* problem_kind_name(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::kHeadMissing: return "head-missing";
    case ProblemKind::kHeadInvalid: return "head-invalid";
    case ProblemKind::kBlockMissing: return "block-missing";
    case ProblemKind::kBlockUnreadable: return "block-unreadable";
    case ProblemKind::kBlockHashMismatch: return "block-hash-mismatch";
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
  }
  return "unknown";
}

const char* file_role_name(FileRole role) {
  return role == FileRole::kData ? "data" : "checkpoint";
}

const char* file_outcome_name(FileOutcome outcome) {
  switch (outcome) {
    case FileOutcome::kPhysicalMatch: return "physical-match";
    case FileOutcome::kLogicalMatch: return "logical-match";
    case FileOutcome::kFailed: return "failed";
  }
  return "failed";
}

uint64_t DatasetReport::logical_fallbacks() const noexcept {
  uint64_t n = 0;
  for (const auto& f : files) n += f.outcome == FileOutcome::kLogicalMatch ? 1 : 0;
  return n;
}

Result<DatasetReport> verify_dataset(const std::string& path, const VerifyOptions& options) {
  LocalFolderOptions local;
  local.follow_symlinks = options.follow_symlinks;
  ODF_HASH_ASSIGN_OR_RETURN(DatasetDir dir, DatasetDir::open(path, local));
  ODF_HASH_ASSIGN_OR_RETURN(DatasetReport report, verify_dataset(dir, options));
  report.path = path;
  return report;
}

Result<DatasetReport> verify_dataset(const DatasetDir& dir, const VerifyOptions& options) {
  DatasetReport report;
  report.path = dir.path();
  report.unexpected_checked = dir.listed();
  detail::ChainWalk walk = detail::walk_chain(dir);
  report.head = walk.head;
  report.blocks = walk.blocks.size();
  report.chain_complete = walk.complete;
  if (!walk.blocks.empty() && walk.blocks.back().block.dataset_kind) {
    report.kind = walk.blocks.back().block.dataset_kind;
  }
  report.problems = std::move(walk.problems);
  for (auto& p : detail::check_offsets(walk.blocks, walk.complete))
    report.problems.push_back(std::move(p));

  // Without the Seed the kind is unknown: files are then checked as for a root dataset
  // (no logical fallback), the strict choice.
  const bool derivative = report.kind == DatasetKind::kDerivative;
  std::vector<FileTask> tasks = collect_tasks(walk.blocks);
  uint64_t bytes_total = 0;
  for (const auto& t : tasks) bytes_total += t.size;
  ProgressTracker progress(options, tasks.size(), bytes_total);
  FileChecker checker(dir, derivative, options, progress);
  for (auto& r : run_tasks(tasks, checker, options.jobs, progress)) {
    if (r.problem) report.problems.push_back(std::move(*r.problem));
    report.files.push_back(std::move(r.check));
  }
  if (dir.listed()) report_unexpected(dir, walk.blocks, walk.complete, report.problems);
  return report;
}

}  // namespace odf_hash::odf
