// Internal: what a failed file check may mean for the user holding the dataset, added to the
// problems' messages once every file was checked (merge_checks): a file whose bytes (or
// records) are those recorded for another file of the chain was swapped or copied under the
// wrong name; a file shorter than recorded was cut short; a missing or cut file is fetched
// again. Only the messages change: kinds, expected and actual values stay as checked.
#pragma once

#include <vector>

#include "odf_hash/odf/verify.h"
#include "odf_hash/odf/verify_plan.h"

namespace odf_hash::odf::detail {

// `problems` are a report's problems (any order); `tasks` the plan's file tasks.
void add_file_hints(const std::vector<FileTask>& tasks, std::vector<Problem>& problems);

}  // namespace odf_hash::odf::detail
