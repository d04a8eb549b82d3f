// Grouping the data slices of two datasets into runs that cover the same offsets (internal
// to odf; compare_datasets.h says what for).
#pragma once

#include <vector>

#include "odf_hash/compare_datasets.h"

namespace odf_hash::odf::detail {

// `original` and `reproduced` (each side's slices, by interval start) as SliceComparisons:
// from a start both sides share, the fewest consecutive slices of each side whose last ends
// at one offset on both (one each when the sides split alike); a slice starting where the
// other side has none stays alone, one-sided (a gap, an extra tail). Runs that start
// together but never end together (the shorter side stops, or its next slice does not start
// right after: a gap) take every slice up to the point they part and carry an error saying
// so. By interval start.
std::vector<SliceComparison> slice_runs(std::vector<SliceFile> original,
                                        std::vector<SliceFile> reproduced);

}  // namespace odf_hash::odf::detail
