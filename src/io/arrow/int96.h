// INT96 timestamps decoded exactly as arrow-rs decodes them (internal to io).
//
// A Parquet INT96 holds the nanoseconds of the day in its first eight bytes and a Julian day
// number in the last four (little-endian). arrow-rs 58 and 60 (`Int96::to_seconds/millis/
// micros/nanos`, parquet/src/data_type.rs) convert it to the column's timestamp unit with
// SIGNED, wrapping 64-bit arithmetic:
//   day   = the last four bytes as an i32
//   nanos = the first eight bytes as an i64
//   value = (day - 2440588) * units_per_day + nanos / nanos_per_unit   (wrapping * and +;
//                                                                      / truncates to zero)
// Parquet C++ (`Int96GetNanoSeconds` and siblings) computes the day and the nanoseconds as
// UNSIGNED numbers. The two agree for every date a writer produces, and differ for day numbers
// >= 2^31 (any unit) and for nanoseconds >= 2^63 (units coarser than ns): bits found in
// corrupt or hand-made files. So odf-hash does not use Parquet C++'s conversion: it reads the
// raw INT96 values of each such column with Parquet C++'s low-level column reader, beside the
// Arrow reader, and writes their arrow-rs conversion into the valid slots of the arrays Arrow
// C++ decoded (same rows, same validity; the counts are checked). This also gives each INT96
// column the unit arrow-rs takes from the embedded Arrow schema, whatever the others'.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include <arrow/array.h>
#include <arrow/type.h>
#include <parquet/arrow/schema.h>
#include <parquet/column_reader.h>
#include <parquet/file_reader.h>
#include <parquet/types.h>

#include "odf_hash/core/status.h"

namespace odf_hash::io_internal {

// arrow-rs's conversion of one INT96 value to `unit` (see above).
int64_t int96_to_arrow_rs(const parquet::Int96& value, arrow::TimeUnit::type unit);

// The INT96 columns of a Parquet file and the raw values of the row group being read.
// Not thread-safe; used by one ParquetBatchReader.
class Int96Columns {
 public:
  // Finds the INT96 leaves under every top-level field by walking Arrow C++'s schema
  // manifest beside the arrow-rs schema `target` (same nesting). Each must be a timestamp in
  // `target` (arrow-rs reads INT96 as nothing else).
  static Result<Int96Columns> plan(const parquet::arrow::SchemaManifest& manifest,
                                   const arrow::Schema& target,
                                   const parquet::SchemaDescriptor& descr);

  bool empty() const { return by_field_.empty(); }
  bool touches(int field) const { return by_field_.count(field) != 0; }
  // Forgets the INT96 leaves of every top-level field not in `fields` (a projection).
  void keep_fields(const std::vector<int>& fields);

  // Opens the raw readers of row group `row_group` of `file` (the file the Arrow reader reads).
  Status start_row_group(parquet::ParquetFileReader& file, int row_group);

  // Top-level column `field` of a batch Arrow C++ decoded from the current row group, with
  // each INT96 leaf retyped to its arrow-rs timestamp type and its valid slots set to the
  // next raw values, converted. Undefined slots get 0 (arrow-rs's own bytes there are put
  // back later by fill_undefined_like_arrow_rs where the hash can see them).
  Result<std::shared_ptr<arrow::Array>> rewrite(int field,
                                                const std::shared_ptr<arrow::Array>& column);

  // After the last batch of the row group: every raw value must have been used.
  Status finish_row_group();

 private:
  struct Leaf {
    int column = 0;                         // Parquet leaf column index
    std::vector<int> path;                  // child indices from the top-level array to the leaf
    std::shared_ptr<arrow::DataType> type;  // the arrow-rs timestamp type
    std::shared_ptr<parquet::Int96Reader> reader;
    std::vector<parquet::Int96> values;  // decoded, not yet used: [next, values.size())
    size_t next = 0;
    int64_t levels_total = 0;  // of the column chunk, from the footer
    int64_t levels_read = 0;
  };

  // Reads the next levels of the current chunk into leaf.values; false at the end of the
  // chunk. Parquet C++'s low-level reader reports the end at a page holding no values
  // (pyarrow writes such data page v2 pages), so it is asked again while the footer says
  // levels remain.
  Result<bool> read_more(Leaf& leaf);
  Status take(Leaf& leaf, int64_t n, std::vector<parquet::Int96>* out);
  Result<std::shared_ptr<arrow::ArrayData>> rewrite_leaf(Leaf& leaf,
                                                         const std::shared_ptr<arrow::ArrayData>& d,
                                                         size_t depth,
                                                         const std::vector<uint8_t>& defined);

  std::map<int, std::vector<Leaf>> by_field_;  // by top-level field
};

}  // namespace odf_hash::io_internal
