// Verification split into plan, check and merge (verify_plan.h): the plan here, the check of
// one file in check_file.cpp, the merge in merge_checks.cpp. verify.cpp runs the three in one
// process; everything a report says is decided in these three files.
#include "odf_hash/odf/verify_plan.h"

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

#include "dataset/entry.h"
#include "deep_check.h"
#include "file_hints.h"
#include "linked_objects.h"
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

}  // namespace odf_hash::odf
