// Internal: what a dataset comparison vouches for (compare_datasets.h): each side verified
// with verify's machinery (verify_plan.h: the chain by plan_verify, the files read by
// check_file), the offsets below a broken chain, and the comparison's verdict from both.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/compare/compare_datasets.h"
#include "odf_hash/odf/dataset.h"
#include "odf_hash/odf/verify_plan.h"

namespace odf_hash::compare::detail {

// The offsets a broken chain's lower blocks hold (SideCheck::unreached), from the blocks
// read (seed first: the oldest first) and whether the walk reached the seed.
std::optional<odf::OffsetInterval> unreached_offsets(const std::vector<odf::ChainBlock>& seed_first,
                                                     bool complete);

// Marks the one-sided entries of `c.slices` lying in the other side's unreached offsets,
// and puts first the entry of offsets neither side reached (none when a side reached them).
void mark_unreached(DatasetComparison& c);

// A side's SideCheck from its plan and the comparison's entries (`original`: the original's
// files of each entry, else the reproduction's): the plan's problems, and one task per data
// file a run both sides hold reads (each file once, renumbered 0, 1, ... in entry order).
SideCheck side_check(odf::VerifyPlan plan, const std::vector<SliceComparison>& slices,
                     bool original);

// Whether an entry is a run the comparison reads: both sides hold it and it is well formed.
bool compared_run(const SliceComparison& s);

// The tasks of a side that no run has taken yet, by file key: each file is checked once,
// beside the first run reading it.
class DueTasks {
 public:
  explicit DueTasks(const SideCheck& side);
  // The ids of the tasks of `files` (an entry's files of the side) not taken before.
  std::vector<uint64_t> take(const std::vector<SliceFile>& files);

 private:
  std::map<std::string, uint64_t> pending_;
};

// The results of side.tasks' checks, by task id, put into side.files and side.problems in
// task order (a task without a result stays unchecked: the side is then not vouched for).
void record_checks(SideCheck& side, std::vector<std::optional<odf::FileCheckResult>> results);

// c.verdict, c.same_records and each entry's `vouched`, from the sides and the entries.
void decide_verdict(DatasetComparison& c);

}  // namespace odf_hash::compare::detail
