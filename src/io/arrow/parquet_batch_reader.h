// The Parquet reader's record batches, cut as arrow-rs cuts them (internal to io; opened by
// record_reader.cpp): decoded one row group at a time and handed out in batches of
// kParquetBatchSize rows continuing across row groups, with the null slots and INT96
// values arrow-rs leaves (null_slots.h, int96.h).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/type.h>
#include <parquet/arrow/reader.h>

#include "int96.h"
#include "null_slots.h"

namespace odf_hash::io_internal {

inline constexpr int64_t kParquetBatchSize = 10000;  // as kamu reads (and the conformance tool)

// `target`: the arrow-rs schema of the fields read; `fields`: the top-level fields of the
// file read (indices into the file's schema; the target holds those only) and `leaves`
// their Parquet leaf columns; empty: all of them. `fills`: per target field, the null-slot
// fills of its leaves inside structs; `int96`: the plan for INT96 columns. The row groups
// before `first_row_group` are passed over (never decoded).
std::shared_ptr<arrow::RecordBatchReader> make_parquet_batch_reader(
    std::unique_ptr<parquet::arrow::FileReader> reader, std::shared_ptr<arrow::Schema> target,
    std::vector<LeafFillByPath> fills, Int96Columns int96, std::vector<int> fields,
    std::vector<int> leaves, int first_row_group = 0);

}  // namespace odf_hash::io_internal
