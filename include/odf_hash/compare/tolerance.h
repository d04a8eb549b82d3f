// Records compared with a tolerance on their floating-point values (`compare --rtol/--atol`):
// a recomputation through another engine, or an aggregation summed in another order, gives
// values a few ulps apart; arrow0 (what ODF checks) then differs, and so do the records, yet
// the reproduction may be what its author wants to accept. The tolerance is asked for, never
// assumed, and arrow0's verdict stays reported beside it.
//
// Two values are close as numpy.isclose has it, the original being the reference:
// |reproduced - original| <= atol + rtol * |original|; a NaN is close to a NaN, an infinity to
// the same infinity only; a null to a null only.
//
// Thread safety: reentrant.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "odf_hash/compare/row_diff.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/store.h"

namespace odf_hash::compare {

struct Tolerance {
  double rtol = 0;  // relative to the original's value (>= 0)
  double atol = 0;  // absolute (>= 0)
};

// Whether `reproduced` is close to `original` (above).
bool within_tolerance(const Tolerance& t, double original, double reproduced);

// A floating-point field whose values differ somewhere.
struct ColumnDeviation {
  std::string column;           // a top-level field, float16, float32 or float64 on both sides
  uint64_t differing_rows = 0;  // rows (among those both tables have) whose values differ
  uint64_t outside_rows = 0;    // of those, the ones beyond the tolerance (or null on one side)
  // The largest |reproduced - original| among them (infinite for a NaN or an infinity against
  // another value, or a null against a value), and where it is (the row as locate_row_
  // differences gives it: its index, `offset`, files, both values as text).
  double max_deviation = 0;
  DifferingRow at;
};

struct ToleranceCheck {
  Tolerance tolerance;
  // Both tables have as many rows and every row holds the same record, but for floating-point
  // values within the tolerance (records compared as locate_record_differences does).
  bool within = false;
  // The floating-point fields whose values differ somewhere, in the original's order.
  std::vector<ColumnDeviation> deviations;
  // What differs beyond the tolerance, in locate_record_differences' terms: `columns` the
  // fields holding a value beyond the tolerance (floating-point) or another value (the
  // others), `differing_records` the rows holding one; the row counts.
  RowDiff rows;
  // Why the records could not be compared value by value (the tables' columns differ in
  // their names): `within` is false, the rest empty.
  std::string error;
};

// Compares two tables' records in order (groups of objects and windows as
// locate_record_differences of row_diff.h: both read once, in step; the fields matched by
// name, `ignore` left out), floating-point fields within `tolerance`, every other field
// exactly (values alone: record_digest.h). A float field typed float32 on one side and float64
// on the other is compared as float64. Errors name the object that could not be read; a
// tolerance that is negative or not a number is kInvalidArgument.
Result<ToleranceCheck> compare_within_tolerance(
    const std::vector<std::shared_ptr<ObjectReader>>& original,
    const std::vector<std::shared_ptr<ObjectReader>>& reproduced, const Tolerance& tolerance,
    const RowDiffOptions& options = {}, RowWindow original_window = {},
    RowWindow reproduced_window = {}, const std::vector<std::string>& ignore = {});

}  // namespace odf_hash::compare
