// Internal: finding the linked objects of a dataset (ODF RFC-017) while planning its
// verification. Which columns link objects is said by the SetDataSchema in effect for each
// data file: the newest one at or below the block adding the file (kamu writes a data file
// under the schema of the chain at that point). The values are read from the data files
// (those columns only, read_string_columns) through the dataset's store.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "odf_hash/odf/dataset.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/odf/verify_plan.h"

namespace odf_hash::odf::detail {

struct LinkScan {
  // One task per distinct linked object (canonical name), ids from first_id on, in the
  // order first referenced (newest data file first, then column, then row).
  std::vector<FileTask> tasks;
  std::vector<Problem> problems;  // link-malformed
  std::vector<LinkedSummaryCheck> summaries;
};

// Scans every data file `blocks` (head first) reference, each once (attributed to its newest
// block, as the data tasks are). `common` gives the tasks' dataset and store options.
LinkScan scan_links(const DatasetDir& dir, const std::vector<ChainBlock>& blocks,
                    const FileTask& common, uint64_t first_id);

// At most this many problems of each kind are listed for the linked objects of one data
// file, as link-malformed values are: a data file can link hundreds of thousands of objects,
// and a report listing each missing one would cost more memory than the file.
inline constexpr uint64_t kMaxLinkProblemsPerFile = 10;

// Keeps the first kMaxLinkProblemsPerFile problems of each kind about linked objects (those
// with a LinkRef) of each data file, in order, and puts one problem of that kind counting the
// rest ("and N more ...", no LinkRef) after the last kept one.
void cap_linked_object_problems(std::vector<Problem>& problems);

}  // namespace odf_hash::odf::detail
