// A window of rows of a table read as a record stream: the rows [skip, skip + limit). An ODF
// data slice [s, e] holds its records with offsets s..e in row order, so the offsets
// [from, to] of a run of slices starting at s are the window skip = from - s,
// limit = to - from + 1 (compare_datasets.h compares the offsets both datasets hold).
#pragma once

#include <cstdint>
#include <optional>

namespace odf_hash {

struct RowWindow {
  uint64_t skip = 0;              // rows left out at the start
  std::optional<uint64_t> limit;  // rows kept after them (nullopt: every row to the end)

  // Every row: the table itself.
  bool whole() const noexcept { return skip == 0 && !limit; }
};

}  // namespace odf_hash
