// What `compare` of two datasets says about the verification of each side
// (compare_datasets.h: SideCheck, DatasetVerdict): each side's problems in verify's terms,
// why an entry is unverified or unreached, the closing verdict and the exit code.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "odf_hash/compare/compare_datasets.h"

namespace odf_hash::cli {

// The lines under a side's "original    PATH (N blocks)" line: verified (the chain, the
// files read) or NOT VERIFIED with its problems as `verify` prints them.
void print_side_check(const compare::SideCheck& c);

// Why an entry is "unverified" or "unreached", one indented line ("" for other entries).
std::string slice_note(const compare::DatasetComparison& d, const compare::SliceComparison& s);

// The closing "verdict     ..." line.
void print_dataset_verdict(const compare::DatasetComparison& d);

// 0 same records, 1 different, 3 unverified (kExitUnverified).
int dataset_exit_code(const compare::DatasetComparison& d);

// Adds to `--json`'s document `j` (whose "slices" are d.slices in order): each side's
// "verification" (side_check_json), the "verdict", and each entry's "vouched",
// "original_unreached" and "reproduced_unreached".
void add_verification_json(const compare::DatasetComparison& d, nlohmann::json& j);

}  // namespace odf_hash::cli
