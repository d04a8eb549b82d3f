// Where two data files differ: the rows of each differing column, found by hashing row
// segments of both files side by side and narrowing down the segments whose digests differ
// (the way data-diff bisects with checksums).
//
// Both files are read once, in step, as record streams (record_stream.h; a Parquet file only for
// the top-level fields involved). Rows are compared by index: row i of the original with
// row i of the reproduced file, over the rows both have. A segment is the rows two batches
// have in common; each column of interest is hashed over it as the logical hasher hashes it
// (arrow0-sha3-256 of the slice, so bytes under null struct slots count as they do for the
// file's digest), and a segment whose digest differs is halved while it is larger than 256
// rows and only one of its halves differs; such a small segment, or one whose halves both
// differ (dense differences), has its values compared row by row (record_digest.h's
// ColumnValueEncoder: both sides are in memory). A segment whose digest differs while no
// value does is counted apart (hidden_segments). Memory: two batches per side at most;
// cost: one hashing pass over the columns involved, plus about twice the segments that
// differ.
//
// Thread safety: reentrant.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/store.h"

namespace odf_hash::compare {

struct DifferingRow {
  uint64_t row = 0;               // index from 0 in both files
  std::optional<int64_t> offset;  // the ODF `offset` column's value there (original side,
                                  // else reproduced), when the file has one
  // Groups of files read as one table (locate_row_differences of lists): the index of the
  // file holding the row in each side's list (0 for single files).
  size_t original_file = 0;
  size_t reproduced_file = 0;
  // The values as text: "null", strings quoted, control characters and bytes that are not
  // UTF-8 as \xHH, cut to RowDiffOptions::max_value_chars characters ("..." marks a cut).
  std::string original;
  std::string reproduced;
};

struct ColumnRowDifferences {
  std::string column;               // the leaf column's path ("a.b")
  uint64_t differing_rows = 0;      // rows (among those both files have) that differ
  std::vector<DifferingRow> first;  // the first ones, in row order, at most max_rows
  // Segments (of a few rows) whose digest differs while none of their rows does: bytes the
  // values do not show count for arrow0 there (under null slots of nested structs, which
  // the reference hashes depending on the nulls around them). The first such segment is
  // rows [first_hidden_row, first_hidden_row + first_hidden_rows).
  uint64_t hidden_segments = 0;
  uint64_t first_hidden_row = 0;
  uint64_t first_hidden_rows = 0;
  // locate_record_differences: of the differing rows, those null on one side only (a null
  // struct against a struct, a null against a value).
  uint64_t null_on_one_side = 0;
};

struct RowDiffOptions {
  size_t max_rows = 5;          // rows shown per column
  size_t max_value_chars = 60;  // characters shown per value
};

struct RowDiff {
  uint64_t original_rows = 0;
  uint64_t reproduced_rows = 0;
  std::vector<ColumnRowDifferences> columns;  // in the order asked

  // The same rows compared as records (record_digest.h: values only, so bytes under null
  // slots and encodings do not count) over `record_fields`, the top-level fields holding the
  // columns asked: how many of the rows both files have differ as records, and whether both
  // hold the same multiset of those records (false when the row counts differ). Only the
  // rows of segments whose digests differ are looked at: the others hold the same values.
  std::vector<std::string> record_fields;
  uint64_t differing_records = 0;
  bool same_record_multiset = false;
};

// Locates the rows where the leaf columns `columns` (paths as in LogicalDigest::columns,
// each present in both files with the same type) differ between two Parquet or Arrow IPC
// objects. A column with no differing row among the common rows is still listed, with
// differing_rows 0 (its digest differs through rows only one side has). Errors name the
// object that could not be read, or the column not found.
Result<RowDiff> locate_row_differences(std::shared_ptr<ObjectReader> original,
                                       std::shared_ptr<ObjectReader> reproduced,
                                       const std::vector<std::string>& columns,
                                       const RowDiffOptions& options = {});

// The same over two groups of objects, each read as one table (the files of consecutive
// slices of an ODF dataset: open_concatenated_record_stream of record_stream.h); rows are counted
// from the start of the group, and each differing row says which file of either group holds
// it. A file whose schema is not its group's first's is an error naming both.
// `original_window` / `reproduced_window` (row_window.h): only those rows of each group are
// compared, and rows are counted from the window's start (offsets are still the `offset`
// column's values).
Result<RowDiff> locate_row_differences(const std::vector<std::shared_ptr<ObjectReader>>& original,
                                       const std::vector<std::shared_ptr<ObjectReader>>& reproduced,
                                       const std::vector<std::string>& columns,
                                       const RowDiffOptions& options = {},
                                       RowWindow original_window = {},
                                       RowWindow reproduced_window = {});

// The same with one side's fields cast to the other side's types first (the Arrow module's safe
// cast: a value that would change or be lost is an error naming the column), so that columns
// of two types are compared by value: what compare says of a type difference
// (FileComparison::CastCheck). `columns` are leaf columns of fields both sides have; the cast
// side's `offset` column is not read.
enum class CastSide { kNone, kOriginal, kReproduced };
Result<RowDiff> locate_cast_differences(
    const std::vector<std::shared_ptr<ObjectReader>>& original,
    const std::vector<std::shared_ptr<ObjectReader>>& reproduced,
    const std::vector<std::string>& columns, CastSide cast, const RowDiffOptions& options = {},
    RowWindow original_window = {}, RowWindow reproduced_window = {});

// Where two tables' records differ, in order, on their values alone (record_digest.h: nothing
// under a null slot counts, encodings of one type alike, top-level fields matched by name):
// for two tables whose arrow0 digests are equal while their records are not (arrow0's blind
// spots, docs/divergences.md), where the digests locate_row_differences narrows with cannot
// tell the rows apart. Both tables are read once, in step and whole (groups and windows as
// above), every row both have compared as a record, and a differing record field by field.
// `columns` of the result are the top-level fields (in the original's order) whose values
// differ in some row, each value rendered whole (a struct as {a=..., b=...});
// `record_fields` are every field, `differing_records` counts the rows both have that hold
// another record, `same_record_multiset` compares every row. Both sides must have the same
// top-level field names (else an error naming the first missing one). `ignore`: top-level
// fields left out of the records and of the result (compare --ignore-columns); they need not
// be on both sides.
Result<RowDiff> locate_record_differences(
    const std::vector<std::shared_ptr<ObjectReader>>& original,
    const std::vector<std::shared_ptr<ObjectReader>>& reproduced,
    const RowDiffOptions& options = {}, RowWindow original_window = {},
    RowWindow reproduced_window = {}, const std::vector<std::string>& ignore = {});

}  // namespace odf_hash::compare
