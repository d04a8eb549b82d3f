#include "odf_hash/odf/fetch.h"

#include <algorithm>
#include <mutex>
#include <set>

#include "dataset/entry.h"
#include "fetch/dest_folder.h"
#include "fetch/fetch_object.h"
#include "fetch/overlay_store.h"
#include "odf_hash/core/parallel.h"
#include "odf_hash/core/text.h"
#include "odf_hash/internal/odf/chain_walk.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/remote/open_store.h"
#include "verify/trust.h"

namespace odf_hash::odf {

namespace {

using fetch_detail::DestFolder;

std::string count_of(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// DEST's head, when it has one.
Result<std::optional<Multihash>> dest_head(const std::string& dest) {
  auto dir = DatasetDir::open(dest, {}, /*list_folders=*/false);
  if (!dir.is_ok() && dir.status().code() == StatusCode::kNotFound) {
    return std::optional<Multihash>();  // no refs/ nor blocks/ yet: a new destination
  }
  if (!dir.is_ok()) return dir.status();
  Result<Multihash> head = dir->read_head();
  if (head.is_ok()) return std::optional<Multihash>(*head);
  if (head.status().code() == StatusCode::kNotFound) return std::optional<Multihash>();
  return Status(head.status().code(),
                dest +
                    ": the destination's refs/head cannot be read, so what it holds is "
                    "unknown: " +
                    head.status().message());
}

// The bytes of DEST's block `hash` (its head), or null when they cannot be read (then the
// source is asked for its whole chain).
std::shared_ptr<const std::vector<uint8_t>> dest_block(const std::string& dest,
                                                       const Multihash& hash) {
  auto dir = DatasetDir::open(dest, {}, /*list_folders=*/false);
  if (!dir.is_ok()) return nullptr;
  auto opened = dir->store().open("blocks/" + hash.to_string());
  if (!opened.is_ok() || !opened->reader) return nullptr;
  auto bytes = read_all(*opened->reader);
  if (!bytes.is_ok()) return nullptr;
  return std::make_shared<const std::vector<uint8_t>>(std::move(*bytes));
}

// Whether `ancestor` is on DEST's own chain (DEST is ahead of a source at that head).
bool dest_contains(const std::string& dest, const Multihash& ancestor) {
  auto dir = DatasetDir::open(dest, {}, /*list_folders=*/false);
  if (!dir.is_ok()) return false;
  detail::ChainWalk walk = detail::walk_chain(*dir, ancestor);
  return walk.stopped_at.has_value();
}

Problem rewritten_problem(const Multihash& source_head, const Multihash& old_head) {
  Problem p;
  p.kind = ProblemKind::kHistoryRewritten;
  p.file = "refs/head";
  p.expected = old_head.to_string();
  p.actual = source_head.to_string();
  p.message = "the source's history (head " + source_head.to_string() +
              ") does not contain the destination's head " + old_head.to_string() +
              ": it was rewritten (or is another dataset); nothing was fetched (--force "
              "fetches it anyway)";
  return p;
}

// The checks of the plan that fetch cannot make or that concern it.
void note_skipped(const std::string& source, const FetchOptions& options, const VerifyScope& scope,
                  FetchReport& report) {
  VerifyScope ipfs;
  detail::note_ipfs(source, options.store, ipfs);
  for (auto& s : ipfs.skipped) report.skipped.push_back(s);
  for (const auto& s : scope.skipped) {
    if (s.rfind("linked objects:", 0) == 0) report.skipped.push_back(s);
  }
}

class Progress {
 public:
  Progress(const FetchOptions& o, uint64_t files, uint64_t bytes) : fn_(o.progress) {
    p_.files_total = files;
    p_.bytes_total = bytes;
  }
  void bytes(uint64_t n) {
    tell([&] { p_.bytes_done += n; });
  }
  void file_done() {
    tell([&] { ++p_.files_done; });
  }

 private:
  template <typename F>
  void tell(F change) {
    if (!fn_) return;
    std::lock_guard lock(mu_);
    change();
    fn_(p_);
  }
  std::function<void(const FetchProgress&)> fn_;
  std::mutex mu_;
  FetchProgress p_;
};

// The files of `tasks` brought into DEST, on `jobs` threads; their outcomes in task order.
std::vector<fetch_detail::ObjectOutcome> fetch_objects(const ObjectStore& source, DestFolder& dest,
                                                       const std::vector<FileTask>& tasks,
                                                       const FetchOptions& options,
                                                       Progress& progress) {
  std::vector<fetch_detail::ObjectOutcome> outcomes(tasks.size());
  const unsigned jobs = std::clamp(options.jobs, 1u, kMaxVerifyJobs);
  fetch_detail::StreamBuffers buffers;
  parallel_for(tasks.size(), jobs, [&](size_t i) {
    outcomes[i] = fetch_detail::fetch_object(source, dest, tasks[i], buffers,
                                             [&](uint64_t n) { progress.bytes(n); });
    progress.file_done();
  });
  return outcomes;
}

// An incremental fetch's plan: the new blocks of `walk` (stopped at DEST's head) above DEST's
// own chain, planned as one chain over overlay_store.h, keeping the files of the new blocks
// (a linked object is attributed to its newest reference, so one a new data file links is
// kept). A problem of DEST's own chain is reported too: DEST is then no dataset to add to.
Result<VerifyPlan> plan_incremental(const std::string& dest,
                                    const std::shared_ptr<const ObjectStore>& source,
                                    const detail::ChainWalk& walk, const VerifyOptions& options) {
  ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectStore> here, open_dataset_store(dest));
  ODF_HASH_ASSIGN_OR_RETURN(DatasetDir dest_dir, DatasetDir::open(here, /*list_folders=*/false));
  detail::ChainWalk whole = detail::walk_chain(dest_dir);
  std::set<std::string> added;
  for (const auto& b : walk.blocks) added.insert(b.hash.to_string());
  whole.blocks.insert(whole.blocks.begin(), walk.blocks.begin(), walk.blocks.end());
  whole.problems.insert(whole.problems.begin(), walk.problems.begin(), walk.problems.end());
  whole.head = walk.head;
  ODF_HASH_ASSIGN_OR_RETURN(
      DatasetDir overlay,
      DatasetDir::open(std::make_shared<fetch_detail::OverlayStore>(here, source),
                       /*list_folders=*/false));
  VerifyPlan plan = detail::plan_walked(overlay, std::move(whole), options);
  std::erase_if(plan.tasks,
                [&](const FileTask& t) { return added.count(t.block.to_string()) == 0; });
  return plan;
}

// Writes the new blocks, oldest first, then refs/head.
Status store_chain(DestFolder& dest, const detail::ChainWalk& walk) {
  ODF_HASH_RETURN_IF_ERROR(dest.make_folder("blocks"));
  ODF_HASH_RETURN_IF_ERROR(dest.make_folder("refs"));
  for (size_t i = walk.blocks.size(); i-- > 0;) {
    ODF_HASH_RETURN_IF_ERROR(
        dest.write_file("blocks/" + walk.blocks[i].hash.to_string(), walk.bytes[i]));
  }
  dest.sync_folders();  // the blocks are on disk before the head names them
  const std::string head = walk.head->to_string();
  ODF_HASH_RETURN_IF_ERROR(dest.write_file(
      "refs/head", std::span(reinterpret_cast<const uint8_t*>(head.data()), head.size())));
  dest.sync_folders();
  return Status::ok();
}

}  // namespace

const char* fetched_how_name(FetchedHow how) {
  switch (how) {
    case FetchedHow::kTransferred: return "transferred";
    case FetchedHow::kResumed: return "resumed";
    case FetchedHow::kPresent: return "present";
    case FetchedHow::kRejected: return "rejected";
  }
  return "rejected";
}

uint64_t FetchReport::bytes_transferred() const noexcept {
  uint64_t n = 0;
  for (const auto& f : files) n += f.bytes_transferred;
  return n;
}

bool FetchReport::rejected() const noexcept {
  return std::any_of(problems.begin(), problems.end(), [](const Problem& p) {
    return p.kind != ProblemKind::kFileUnreadable && p.kind != ProblemKind::kFileMissing &&
           p.kind != ProblemKind::kLinkedObjectMissing;
  });
}

std::string FetchReport::verdict() const {
  if (rejected()) return "REJECTED (" + count_of(problems.size(), "problem") + ")";
  if (!fetched()) {
    return "INCOMPLETE (" + count_of(problems.size(), "file") + " could not be read)";
  }
  if (dest_ahead) return "UP TO DATE (the destination is ahead of the source)";
  if (up_to_date) return "UP TO DATE";
  std::string v = "FETCHED (" + count_of(blocks_fetched, "new block") + ", " +
                  count_of(files.size(), "file") + ", " + format_bytes(bytes_transferred()) +
                  " transferred";
  if (forced) v += "; a rewritten history accepted";
  return v + ")";
}

Result<FetchReport> fetch_dataset(const std::string& source, const std::string& dest,
                                  const FetchOptions& options) {
  ODF_HASH_RETURN_IF_ERROR(refuse_nul(source));
  ODF_HASH_RETURN_IF_ERROR(refuse_nul(dest));
  FetchReport report;
  report.source = redact_url(source);
  report.dest = dest;
  ODF_HASH_ASSIGN_OR_RETURN(DestFolder out, DestFolder::open(dest));
  ODF_HASH_ASSIGN_OR_RETURN(report.old_head, dest_head(dest));
  report.head = report.old_head;

  // A source speaking the Smart Transfer Protocol sends only the blocks after DEST's head.
  StoreOptions source_options = options.store;
  if (report.old_head && is_smtp_url(source)) {
    source_options.begin_after = report.old_head->to_string();
    source_options.begin_after_block = dest_block(dest, *report.old_head);
  }
  ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectStore> source_store,
                            open_dataset_store(source, source_options));
  ODF_HASH_ASSIGN_OR_RETURN(DatasetDir src, DatasetDir::open(source_store, /*list_folders=*/false));
  detail::ChainWalk walk = detail::walk_chain(src, report.old_head, /*keep_bytes=*/true);
  if (cancel_requested(options.store.cancel)) return cancelled_status(report.source);
  report.source_head = walk.head;
  if (!walk.blocks.empty()) report.source_sequence = walk.blocks.front().block.sequence_number;
  if (walk.stopped_at) {
    report.old_sequence = walk.stopped_at->block.sequence_number;
    if (!report.source_sequence) report.source_sequence = report.old_sequence;
  }

  VerifyOptions vo;
  vo.integrity_only = true;
  vo.store = options.store;
  vo.expect_head = options.expect_head;
  vo.expect_dataset_id = options.expect_dataset_id;
  if (report.old_head && walk.problems.empty() && !walk.stopped_at) {
    // The source's chain, checked to its seed, does not hold DEST's head.
    if (dest_contains(dest, *walk.head)) {
      report.dest_ahead = report.up_to_date = true;
      out.remove_private_folder_if_empty();
      return report;
    }
    if (!options.force) {
      report.problems.push_back(rewritten_problem(*walk.head, *report.old_head));
      return report;
    }
    report.forced = true;
  }
  VerifyPlan plan;
  if (walk.stopped_at) {
    ODF_HASH_ASSIGN_OR_RETURN(plan, plan_incremental(dest, source_store, walk, vo));
  } else {
    plan = detail::plan_walked(src, walk, vo);
  }
  if (cancel_requested(options.store.cancel)) return cancelled_status(report.source);
  note_skipped(source, options, plan.report.scope, report);
  report.dataset_id = plan.report.dataset_id;
  report.problems = plan.report.problems;
  for (const auto& p : plan.unexpected) report.problems.push_back(p);
  if (!report.fetched()) return report;
  if (walk.blocks.empty()) {
    report.up_to_date = true;
    out.remove_private_folder_if_empty();
    return report;
  }

  for (const auto& t : plan.tasks) {
    ODF_HASH_RETURN_IF_ERROR(
        out.make_folder(t.role == FileRole::kCheckpoint ? "checkpoints" : "data"));
  }
  Progress progress(options, plan.tasks.size(), plan.bytes_total());
  auto outcomes = fetch_objects(src.store(), out, plan.tasks, options, progress);
  if (cancel_requested(options.store.cancel)) return cancelled_status(report.source);
  for (auto& o : outcomes) {
    report.files.push_back(std::move(o.file));
    if (o.problem) report.problems.push_back(std::move(*o.problem));
  }
  if (!report.fetched()) return report;

  ODF_HASH_RETURN_IF_ERROR(store_chain(out, walk));
  report.blocks_fetched = walk.blocks.size();
  report.head = walk.head;
  out.remove_private_folder_if_empty();
  return report;
}

}  // namespace odf_hash::odf
