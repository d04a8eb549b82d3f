// compare_datasets (compare_datasets.h): chain walks, each side verified as verify does
// (compare_vouch.h), the offset line cut into runs both sides hold and one-sided parts
// (slice_runs.h), each run through compare() of two tables with its files checked beside.
#include "odf_hash/compare/compare_datasets.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <tuple>

#include "compare_vouch.h"
#include "odf_hash/core/parallel.h"
#include "odf_hash/internal/io/deferred_object.h"
#include "odf_hash/internal/odf/chain_walk.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/odf/dataset.h"
#include "slice_runs.h"

namespace odf_hash::compare {

namespace {

struct Side {
  odf::DatasetDir dir;
  std::vector<odf::ChainBlock> blocks;                             // seed first
  std::map<std::pair<uint64_t, uint64_t>, odf::DataSlice> slices;  // by interval
  std::optional<odf::OffsetInterval> unreached;                    // SideCheck::unreached
  odf::VerifyPlan plan;  // the chain's verification (plan_verify), over the same walk
};

Result<Side> read_side(const std::string& location, const StoreOptions& store) {
  ODF_HASH_ASSIGN_OR_RETURN(odf::DatasetDir dir, odf::DatasetDir::open(location, store));
  ODF_HASH_RETURN_IF_ERROR(dir.read_head().status());
  odf::detail::ChainWalk walk = odf::detail::walk_chain(dir);
  std::vector<odf::ChainBlock> blocks(walk.blocks.rbegin(), walk.blocks.rend());
  const bool complete = walk.complete;
  odf::VerifyOptions verify;
  verify.store = store;
  odf::VerifyPlan plan = odf::detail::plan_walked(dir, std::move(walk), verify);
  Side side{std::move(dir), std::move(blocks), {}, {}, std::move(plan)};
  side.unreached = detail::unreached_offsets(side.blocks, complete);
  for (const auto& b : side.blocks) {
    if (b.block.new_data) {
      const odf::OffsetInterval& i = b.block.new_data->offset_interval;
      side.slices.emplace(std::pair{i.start, i.end}, *b.block.new_data);
    }
  }
  return side;
}

// The events' contents of both chains compared (chain_diff.h).
std::vector<odf::ChainDifference> chain_differences(const Side& a, const Side& b) {
  std::vector<const odf::MetadataBlock*> ba, bb;
  for (const auto& c : a.blocks) ba.push_back(&c.block);
  for (const auto& c : b.blocks) bb.push_back(&c.block);
  return odf::diff_chains(ba, bb);
}

std::string data_key(const odf::DatasetDir& dir, const Multihash& hash) {
  std::optional<odf::DatasetFile> f = dir.find_data(hash);
  return f ? f->rel_path : "data/" + hash.to_string();
}

Result<std::shared_ptr<ObjectReader>> open_data(const odf::DatasetDir& dir,
                                                const std::string& key) {
  ODF_HASH_ASSIGN_OR_RETURN(OpenedObject o, dir.store().open(key));
  return std::shared_ptr<ObjectReader>(std::move(o.reader));
}

// The files of a run on both sides compared as two tables (the rows of the run's offsets when
// a side's files hold more: run_row_window): a pair of files opened as today;
// the files of a longer run each opened only while its records are read (deferred_object.h),
// a run may hold thousands.
Result<FileComparison> compare_run(const Side& a, const Side& b, const SliceComparison& s,
                                   const LogicalHashOptions& logical,
                                   const CompareOptions& options) {
  const bool one_each = s.original_files.size() == 1 && s.reproduced_files.size() == 1;
  Table ta{{}, run_row_window(s.original_files, s.interval)};
  Table tb{{}, run_row_window(s.reproduced_files, s.interval)};
  for (auto [side, files, table] :
       {std::tuple{&a, &s.original_files, &ta}, std::tuple{&b, &s.reproduced_files, &tb}}) {
    for (const SliceFile& f : *files) {
      if (one_each) {
        ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectReader> o, open_data(side->dir, f.file));
        table->objects.push_back(std::move(o));
        continue;
      }
      const odf::DatasetDir* dir = &side->dir;
      const std::string key = f.file;
      table->objects.push_back(std::make_shared<DeferredObject>(
          dir->store().location(key), f.size, [dir, key] { return open_data(*dir, key); }));
    }
  }
  return compare(ta, tb, logical, options);
}

// Both chains read into `a` and `b`, the event kinds compared, the slices paired (not yet
// compared).
Result<DatasetComparison> pair(const std::string& original, const std::string& reproduced,
                               const StoreOptions& store, std::optional<Side>& a,
                               std::optional<Side>& b) {
  ODF_HASH_ASSIGN_OR_RETURN(Side sa, read_side(original, store));
  ODF_HASH_ASSIGN_OR_RETURN(Side sb, read_side(reproduced, store));
  a.emplace(std::move(sa));
  b.emplace(std::move(sb));
  DatasetComparison out;
  out.original = a->dir.path();
  out.reproduced = b->dir.path();
  out.original_blocks = a->blocks.size();
  out.reproduced_blocks = b->blocks.size();
  for (size_t i = 0; i < std::max(a->blocks.size(), b->blocks.size()); ++i) {
    const std::string ea =
        i < a->blocks.size() ? odf::event_kind_name(a->blocks[i].block.event) : "";
    const std::string eb =
        i < b->blocks.size() ? odf::event_kind_name(b->blocks[i].block.event) : "";
    if (ea != eb) {
      out.divergence = ChainDivergence{uint64_t(i), ea, eb};
      break;
    }
  }
  out.chain_differences = chain_differences(*a, *b);
  for (const auto& block : a->blocks) {
    if (block.block.event != odf::EventKind::kSetVocab) continue;
    out.system_time_column = block.block.vocab_system_time_column.value_or("system_time");
    out.event_time_column = block.block.vocab_event_time_column.value_or("event_time");
  }
  std::vector<SliceFile> fa, fb;
  for (auto [side, files] : {std::pair{&*a, &fa}, std::pair{&*b, &fb}}) {
    for (const auto& [interval, slice] : side->slices) {
      files->push_back({data_key(side->dir, slice.physical_hash),
                        {interval.first, interval.second},
                        slice.size});
    }
  }
  out.slices = detail::slice_runs(std::move(fa), std::move(fb));
  out.original_check = detail::side_check(std::move(a->plan), out.slices, /*original=*/true);
  out.reproduced_check = detail::side_check(std::move(b->plan), out.slices, /*original=*/false);
  out.original_check.unreached = a->unreached;
  out.reproduced_check.unreached = b->unreached;
  detail::mark_unreached(out);
  detail::decide_verdict(out);
  return out;
}

}  // namespace

RowWindow run_row_window(const std::vector<SliceFile>& files, const odf::OffsetInterval& interval) {
  const bool cut = std::any_of(files.begin(), files.end(),
                               [](const SliceFile& f) { return f.window.has_value(); });
  if (files.empty() || !cut) return {};
  RowWindow w;
  const uint64_t first = files.front().interval.start;
  w.skip = interval.start > first ? interval.start - first : 0;
  if (interval.end >= interval.start && interval.end - interval.start < UINT64_MAX) {
    w.limit = interval.end - interval.start + 1;
  }
  return w;
}

bool differs_only_in(const FileComparison& c, const std::vector<std::string>& columns) {
  const auto listed = [&](const std::string& x) {
    return std::find(columns.begin(), columns.end(), x) != columns.end();
  };
  const bool same_schema =
      std::all_of(c.schema_differences.begin(), c.schema_differences.end(),
                  [](const SchemaDifference& d) { return d.changes_hash == false; });
  return c.verdict == CompareVerdict::kDifferent && same_schema && !c.differing_columns.empty() &&
         std::all_of(c.differing_columns.begin(), c.differing_columns.end(), listed) &&
         c.original.logical && c.reproduced.logical &&
         c.original.logical->num_rows == c.reproduced.logical->num_rows;
}

RunOutcome run_outcome(const DatasetComparison& d, const SliceComparison& s) {
  if (s.original_files.empty() || s.reproduced_files.empty()) return RunOutcome::kOneSided;
  if (!s.comparison || !s.error.empty() || !s.vouched) return RunOutcome::kNotCompared;
  if (reproduction_verified(*s.comparison)) return RunOutcome::kSame;
  if (differs_only_in(*s.comparison, {d.system_time_column, d.event_time_column})) {
    return RunOutcome::kOnlyTimeColumns;
  }
  return RunOutcome::kDifferent;
}

DatasetSummary summarize(const DatasetComparison& d) {
  DatasetSummary out;
  for (const SliceComparison& s : d.slices) {
    const RunOutcome outcome = run_outcome(d, s);
    if (outcome == RunOutcome::kOneSided) {
      const bool counted = s.error.empty() && !s.original_unreached && !s.reproduced_unreached &&
                           s.interval.end >= s.interval.start;
      if (counted) {
        (s.original_files.empty() ? out.only_in_reproduced : out.only_in_original) +=
            s.interval.end - s.interval.start + 1;
      }
      continue;
    }
    ++out.runs;
    switch (outcome) {
      case RunOutcome::kNotCompared: ++out.not_compared; break;
      case RunOutcome::kSame:
        ++out.same;
        out.within_tolerance += s.comparison->tolerance && s.comparison->tolerance->within;
        break;
      case RunOutcome::kOnlyTimeColumns: ++out.only_time_columns; break;
      case RunOutcome::kDifferent: ++out.different; break;
      case RunOutcome::kOneSided: break;
    }
  }
  return out;
}

Result<DatasetComparison> pair_dataset_slices(const std::string& original,
                                              const std::string& reproduced,
                                              const StoreOptions& store) {
  std::optional<Side> a, b;
  return pair(original, reproduced, store, a, b);
}

Result<DatasetComparison> compare_datasets(const std::string& original,
                                           const std::string& reproduced,
                                           const LogicalHashOptions& logical,
                                           const StoreOptions& store,
                                           const CompareOptions& options) {
  std::optional<Side> a, b;
  ODF_HASH_ASSIGN_OR_RETURN(DatasetComparison out, pair(original, reproduced, store, a, b));
  // The time columns are the dataset's (its SetVocab's), not the files' defaults.
  CompareOptions run_options = options;
  if (options.ignore_time_columns) {
    run_options.ignore_time_columns = false;
    for (const std::string* t : {&out.system_time_column, &out.event_time_column}) {
      if (std::find(run_options.ignore_columns.begin(), run_options.ignore_columns.end(), *t) ==
          run_options.ignore_columns.end()) {
        run_options.ignore_columns.push_back(*t);
      }
    }
  }
  // Each file is checked once, beside the first run reading it (what the run reads is
  // checked while it is read, whatever the comparison finds).
  detail::DueTasks due_a(out.original_check), due_b(out.reproduced_check);
  std::vector<std::optional<odf::FileCheckResult>> ra(out.original_check.tasks.size()),
      rb(out.reproduced_check.tasks.size());
  for (SliceComparison& s : out.slices) {
    if (!detail::compared_run(s)) continue;
    const std::vector<uint64_t> ta = due_a.take(s.original_files);
    const std::vector<uint64_t> tb = due_b.take(s.reproduced_files);
    Result<FileComparison> c = Status::internal("not run");
    side_by_side([&] { c = compare_run(*a, *b, s, logical, run_options); },
                 [&] {
                   for (uint64_t t : ta)
                     ra[t] = odf::check_file(a->dir.store(), out.original_check.tasks[t]);
                   for (uint64_t t : tb)
                     rb[t] = odf::check_file(b->dir.store(), out.reproduced_check.tasks[t]);
                 });
    if (c.is_ok()) {
      s.comparison = std::move(c).value();
    } else {
      s.error = c.status().message();
    }
  }
  if (cancel_requested(store.cancel)) return cancelled_status(out.original);
  detail::record_checks(out.original_check, std::move(ra));
  detail::record_checks(out.reproduced_check, std::move(rb));
  detail::decide_verdict(out);
  return out;
}

}  // namespace odf_hash::compare
