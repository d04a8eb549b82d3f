// Records shown as text: the rows a report names ("row 81 (offset 81): city="c4", v=121.5"),
// for compare --ignore-order's examples and compare's dropped or inserted rows (internal to
// compare).
#pragma once

#include <memory>
#include <vector>

#include "odf_hash/compare/unordered.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/table.h"

namespace odf_hash::compare::detail {

// Fills `offset` and `values` of each of `records` (ascending rows of `table`, counted from its
// window's start, read again up to the last): "name=value, ..." in the table's column order,
// each value rendered as row_diff.h's (escaped, cut to `max_chars`).
Status render_records(const Table& table, std::vector<UnorderedRecordRef>& records,
                      size_t max_chars);

}  // namespace odf_hash::compare::detail
