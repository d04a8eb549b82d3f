// Cutting the offset line of two datasets' data slices into runs both sides hold and parts
// only one side holds (internal to odf; compare_datasets.h says what for).
#pragma once

#include <vector>

#include "odf_hash/compare/compare_datasets.h"

namespace odf_hash::compare::detail {

// `original` and `reproduced` (each side's slices, by interval start) as SliceComparisons,
// by interval start:
// - offsets both sides hold: from a start both share, the fewest consecutive slices of each
//   side whose last ends at one offset on both (one each when the sides split alike); where
//   the ends never meet (one side stops, or its next slice does not start right after: a
//   gap) the run is cut at the end of the side that stops first, and the other side's last
//   file holds offsets past the run (SliceFile::window);
// - offsets one side holds alone (a longer tail, a later start, the other side's gap): one
//   entry per file of that side, with the file's part (window) when it is cut.
// A malformed chain's slice (end before start, or overlapping the side's slices before it)
// is listed alone with an error and left out of the pairing. Every step moves past at least
// one offset: no input loops.
std::vector<SliceComparison> slice_runs(std::vector<SliceFile> original,
                                        std::vector<SliceFile> reproduced);

}  // namespace odf_hash::compare::detail
