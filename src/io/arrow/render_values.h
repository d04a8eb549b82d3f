// Values of a batch as text, for reports that show rows (compare's differing rows): the part
// of a diff that needs Arrow C++ (its scalar formatting of every type), so it lives in the
// module; finding the rows is done over the C Data Interface (src/compare/row_diff.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "odf_hash/arrow_c_data.h"
#include "odf_hash/core/status.h"
#include "odf_hash/internal/io/arrow_module.h"

namespace odf_hash::io_internal {

// The value of one column at each of `rows` (indices into `batch`, a struct array of
// `schema` as a record stream yields it). `child_path` is the chain of child indices from
// the batch down to the column. A row under a null struct, or a null value, is "null";
// strings and binaries are quoted (quotes and backslashes in them escaped), lists shown as
// [a, b], structs as {name: value}, dictionary values as their values; control characters
// and bytes that are not UTF-8 become \n, \t, \r or \xHH; each text is cut to at most
// `max_chars` characters ("..." marks a cut). The schema and batch are only read (never
// released); they stay the caller's.
Result<std::vector<std::string>> render_values(const ArrowSchema& schema, const ArrowArray& batch,
                                               const std::vector<int>& child_path,
                                               const std::vector<int64_t>& rows, size_t max_chars);

// render_values over a batch imported once (RenderBatch, ../arrow_module.h): the import is
// the cost of every column of the batch, so a caller rendering values of many columns or rows
// of one batch opens it once. The schema and batch are only read and must outlive the handle.
Result<RenderBatch*> open_render_batch(const ArrowSchema& schema, const ArrowArray& batch);
Result<std::vector<std::string>> render_batch_values(const RenderBatch* batch,
                                                     const std::vector<int>& child_path,
                                                     const std::vector<int64_t>& rows,
                                                     size_t max_chars);
void close_render_batch(RenderBatch* batch);

}  // namespace odf_hash::io_internal
