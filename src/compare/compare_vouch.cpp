// What a dataset comparison vouches for (compare_vouch.h).
#include "compare_vouch.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>

namespace odf_hash::compare {

const char* slice_verdict_name(const SliceComparison& s) {
  if (!s.error.empty()) return "error";  // also a malformed chain's slice, one-sided
  if (s.original_unreached || s.reproduced_unreached) return "unreached";
  if (s.original_files.empty()) return "only-in-reproduced";
  if (s.reproduced_files.empty()) return "only-in-original";
  if (!s.comparison) return "error";
  if (!s.vouched) return "unverified";
  return compare_verdict_name(s.comparison->verdict);
}

const char* dataset_verdict_name(DatasetVerdict v) {
  switch (v) {
    case DatasetVerdict::kSameRecords: return "same-records";
    case DatasetVerdict::kDifferent: return "different";
    case DatasetVerdict::kUnverified: return "unverified";
  }
  return "unverified";
}

}  // namespace odf_hash::compare

namespace odf_hash::compare::detail {

std::optional<odf::OffsetInterval> unreached_offsets(const std::vector<odf::ChainBlock>& seed_first,
                                                     bool complete) {
  if (complete) return std::nullopt;
  // The oldest block read that tells where its offsets begin: everything before lies below.
  for (const odf::ChainBlock& cb : seed_first) {
    const odf::MetadataBlock& b = cb.block;
    if (b.new_data) {
      const uint64_t start = b.new_data->offset_interval.start;
      if (start == 0) return std::nullopt;
      return odf::OffsetInterval{0, start - 1};
    }
    if (b.prev_offset) return odf::OffsetInterval{0, *b.prev_offset};
  }
  return odf::OffsetInterval{0, std::numeric_limits<uint64_t>::max()};
}

void mark_unreached(DatasetComparison& c) {
  const std::optional<odf::OffsetInterval>& ua = c.original_check.unreached;
  const std::optional<odf::OffsetInterval>& ub = c.reproduced_check.unreached;
  // An unreached range starts at 0: an entry starting at or before its end meets it.
  auto meets = [](const odf::OffsetInterval& i, const std::optional<odf::OffsetInterval>& u) {
    return u && i.start <= u->end;
  };
  for (SliceComparison& s : c.slices) {
    if (!s.error.empty()) continue;
    if (s.original_files.empty() && meets(s.interval, ua)) s.original_unreached = true;
    if (s.reproduced_files.empty() && meets(s.interval, ub)) s.reproduced_unreached = true;
  }
  if (!ua || !ub) return;
  // Neither side lists anything before its first offset read, so the offsets below both
  // first entries are in neither side's list.
  uint64_t end = std::min(ua->end, ub->end);
  for (const SliceComparison& s : c.slices) {
    if (s.interval.start == 0) return;
    end = std::min(end, s.interval.start - 1);
  }
  SliceComparison both;
  both.interval = {0, end};
  both.original_unreached = both.reproduced_unreached = true;
  c.slices.insert(c.slices.begin(), std::move(both));
}

bool compared_run(const SliceComparison& s) {
  return !s.original_files.empty() && !s.reproduced_files.empty() && s.error.empty();
}

SideCheck side_check(odf::VerifyPlan plan, const std::vector<SliceComparison>& slices,
                     bool original) {
  SideCheck side;
  const odf::DatasetReport& r = plan.report;
  side.head = r.head;
  side.kind = r.kind;
  side.chain_complete = r.chain_complete;
  side.problems = r.problems;
  for (odf::Problem& p : plan.unexpected) side.problems.push_back(std::move(p));
  std::map<std::string, const odf::FileTask*> data;  // the plan's data files by key
  for (const odf::FileTask& t : plan.tasks) {
    if (t.role == odf::FileRole::kData) data.emplace(t.file, &t);
  }
  std::map<std::string, bool> taken;
  for (const SliceComparison& s : slices) {
    if (!compared_run(s)) continue;
    for (const SliceFile& f : original ? s.original_files : s.reproduced_files) {
      auto it = data.find(f.file);
      if (it == data.end() || !taken.emplace(f.file, true).second) continue;
      odf::FileTask t = *it->second;
      t.id = side.tasks.size();
      side.tasks.push_back(std::move(t));
    }
  }
  side.files_unchecked = plan.tasks.size() - side.tasks.size();
  return side;
}

DueTasks::DueTasks(const SideCheck& side) {
  for (const odf::FileTask& t : side.tasks) pending_.emplace(t.file, t.id);
}

std::vector<uint64_t> DueTasks::take(const std::vector<SliceFile>& files) {
  std::vector<uint64_t> due;
  for (const SliceFile& f : files) {
    auto it = pending_.find(f.file);
    if (it == pending_.end()) continue;
    due.push_back(it->second);
    pending_.erase(it);
  }
  return due;
}

void record_checks(SideCheck& side, std::vector<std::optional<odf::FileCheckResult>> results) {
  side.files.clear();
  for (auto& r : results) {
    if (!r) continue;  // unchecked: files.size() < tasks.size(), so not vouched for
    if (r->problem) side.problems.push_back(std::move(*r->problem));
    side.files.push_back(std::move(r->check));
  }
}

void decide_verdict(DatasetComparison& c) {
  const bool vouched = c.original_check.vouched() && c.reproduced_check.vouched();
  bool same = true;
  for (SliceComparison& s : c.slices) {
    s.vouched = vouched;
    const bool equal = compared_run(s) && !s.original_unreached && !s.reproduced_unreached &&
                       s.comparison && reproduction_verified(*s.comparison);
    same = same && equal;
  }
  c.verdict = !vouched ? DatasetVerdict::kUnverified
              : same   ? DatasetVerdict::kSameRecords
                       : DatasetVerdict::kDifferent;
  c.same_records = c.verdict == DatasetVerdict::kSameRecords;
}

}  // namespace odf_hash::compare::detail
