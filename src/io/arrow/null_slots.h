// The values arrow-rs leaves under the undefined slots of columns inside structs (internal
// to io).
//
// The reference hasher combines a struct's validity with its children's by OR
// (docs/divergences.md section 1), so a slot where a leaf inside a struct is not defined
// (the leaf or one of its ancestor structs is null) is hashed as a VALUE when another level
// says "valid": whatever bytes the reader left there become part of the hash. arrow-rs 60
// decodes the defined values of a column chunk densely and then moves them right to their
// slots (`pad_nulls` in parquet/src/arrow/record_reader/buffer.rs); the slots it skips keep
// what was there before: the k-th undefined slot of a decoding run (counted from the run's
// first slot) keeps the k-th defined value of that run when there are more than k defined
// values in it, and zero otherwise. A run is the part of one output batch that lies in one
// row group. Byte arrays are the exception: their offsets make undefined slots empty.
//
// Arrow C++ leaves other bytes there, so the Parquet reader rewrites those slots to what
// arrow-rs has. Only leaves with an ancestor struct are touched (a top-level column's null
// slots are always hashed as nulls).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <arrow/array.h>

#include "odf_hash/core/status.h"

namespace odf_hash::io_internal {

// How arrow-rs fills the undefined slots of a leaf, where that is not the default (stale
// values of the run, else zero bytes):
//   - INT96 timestamps: the stale values, else an all-zero INT96 converted to the unit
//     (`zero`, a day number of 0 computed with wrapping arithmetic);
//   - decimals decoded from BYTE_ARRAY: arrow-rs decodes them as byte arrays (empty under
//     undefined slots) and converts every slot, so they are all 0 (`stale` false).
struct LeafFill {
  int64_t zero = 0;
  bool stale = true;
};
// Keyed by the leaf's child-index path from the top-level column, e.g. "0/2" for field 2 of
// field 0 of the column.
using LeafFillByPath = std::map<std::string, LeafFill>;

// `run_starts`: the first row of every decoding run of the batch, ascending, starting at 0.
// Returns the column with every leaf under a struct rewritten (the column itself when it is
// not a struct).
Result<std::shared_ptr<arrow::Array>> fill_undefined_like_arrow_rs(
    const std::shared_ptr<arrow::Array>& column, const std::vector<int64_t>& run_starts,
    const LeafFillByPath& fills);

}  // namespace odf_hash::io_internal
