// Internal: verify --deep, what a block claims about the records of its data file, beyond
// the file's bytes. A writer that recorded wrong metadata (offsets, logical hash) for the
// right file passes every byte-level check, yet breaks every later reader and reproduction:
// kamu checks none of this.
//
// One pass over the records (open_record_stream: arrow-rs's view of the file, the batches
// the logical hash is defined over), checking:
//  - row-count-mismatch: the number of rows is offsets.end - offsets.start + 1;
//  - offset-column-mismatch: the column `offset_column` exists at the top level, is an
//    integer column without nulls, and holds offsets.start, start + 1, ... in row order;
//  - logical-hash-misrecorded: the logical hash of the records (LogicalHasher, the same code
//    as `odf-hash logical`) is the recorded logicalHash.
// A file that cannot be read as records is file-unreadable. Several findings are reported
// as one problem of the first kind in that order, its message naming the others.
#pragma once

#include <memory>
#include <optional>

#include "odf_hash/io/store.h"
#include "odf_hash/odf/verify_plan.h"

namespace odf_hash::odf::detail {

// The problem of a deep check of `task`'s file (opened as `object`), or nullopt when the
// records agree with the block. The problem's block, file and sequence number are the task's.
std::optional<Problem> check_records(std::shared_ptr<ObjectReader> object, const FileTask& task);

}  // namespace odf_hash::odf::detail
