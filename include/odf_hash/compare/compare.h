// Verification of a reproduced data file, as the ODF specification describes it: the
// physical hashes are compared first; when they differ (the on-disk format is not
// deterministic), the logical hashes (arrow0) are compared. Two verdicts are kept apart:
// - `verdict`: what ODF (and kamu) check: the same bytes, else arrow0 equal or not;
// - `records`: what the records are, compared on their values alone (record_digest.h):
//   equal, the same records in another order, or different. arrow0 has blind spots (it does
//   not hash the row count, and hashes some different values alike: docs/divergences.md),
//   so when the bytes differ and arrow0 is equal the records are compared too, and a
//   reproduction is verified (reproduction_verified) only when they are equal.
//
// Thread safety: reentrant.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/compare/row_diff.h"
#include "odf_hash/compare/tolerance.h"
#include "odf_hash/compare/unordered.h"
#include "odf_hash/core/multihash.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/local_store.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/io/table.h"
#include "odf_hash/logical/logical.h"
#include "odf_hash/logical/schema_diff.h"
#include "odf_hash/remote/open_table.h"

namespace odf_hash::compare {

// What ODF checks.
enum class CompareVerdict {
  kIdentical,   // same bytes (physical hashes equal); the logical hash is not computed
  kEquivalent,  // different bytes, the same arrow0 hash (the records: FileComparison::records)
  kDifferent,   // different arrow0 hashes
};

// "identical", "equivalent" or "different".
const char* compare_verdict_name(CompareVerdict verdict);

struct ComparedFile {
  std::string path;  // a table of several files: their names joined by " + " (Table::name)
  // nullopt for a group of files: its bytes are not one file's, nothing to hash as one.
  std::optional<Multihash> physical;
  uint64_t size = 0;                     // bytes (of all the files of a group)
  std::optional<LogicalDigest> logical;  // computed only when the physical hashes differ
};

struct FileComparison {
  ComparedFile original;
  ComparedFile reproduced;
  CompareVerdict verdict = CompareVerdict::kIdentical;
  // kDifferent only: the leaf columns whose digests differ, or that exist on one side only
  // ("a.b", "c (type int64 vs int32)", "d (only in original)"), in path order; a column whose
  // type alone differs and hashes alike (utf8 and large_utf8) is not one. Empty when the
  // records differ only in the schema (names, nesting).
  std::vector<std::string> differing_columns;
  // When CompareOptions::locate_rows, and both row counts:
  // - kDifferent: where the columns whose digests differ (present on both sides with one
  //   type) differ, row by row (locate_row_differences of row_diff.h);
  // - kEquivalent whose records are not equal: where the records differ, field by field
  //   (locate_record_differences: `columns` are top-level fields, their values whole).
  std::optional<RowDiff> rows;

  // kDifferent, and kEquivalent whose records are not equal: the schemas' differences, field
  // by field (schema_diff.h).
  std::vector<SchemaDifference> schema_differences;

  // What the records themselves say, compared on their values alone (record_digest.h: fields
  // by name, nothing under null slots, encodings of one type alike). arrow0 also depends on
  // the column order and on bytes under null struct slots, and is blind to other differences
  // (the row count, a null struct against a struct of nulls: docs/divergences.md).
  enum class Records {
    kUnknown,         // not looked at (kDifferent with CompareOptions::locate_rows off)
    kEqual,           // the same records in the same order (kIdentical: the same bytes)
    kSameOtherOrder,  // the same records (the same multiset), in another order
    kDifferent,       // the records differ (or the schemas do)
  };
  // kIdentical: kEqual. kEquivalent: the records compared (one more read of both tables).
  // kDifferent: as explained when the rows were located, else kUnknown.
  Records records = Records::kUnknown;
  // Why the two verdicts disagree:
  // - kDifferent with records kEqual / kSameOtherOrder: why the arrow0 digests differ
  //   nonetheless ("column-order", "nullability", "encoding", "null-slots", "row-order");
  // - kEquivalent with records kDifferent / kSameOtherOrder: the blind spot of arrow0 that
  //   hides the difference ("row-count", "struct-null", "null-or-value", "row-order",
  //   "values": a blind spot not named more precisely).
  struct Cause {
    std::string kind;
    std::string column;  // the column concerned ("" for the whole table)
    std::string text;    // one sentence for a report
  };
  std::vector<Cause> causes;

  // kDifferent, rows located, row counts that differ: when the records differ by one run of
  // rows that only one side has (rows dropped, inserted or appended) and every other row is
  // the same record at the same place, in order (compared as records: record_digest.h).
  struct RowBlock {
    bool in_original = false;  // the run is in the original only, else in the reproduced only
    uint64_t row = 0;          // its first row, counted in the side holding it
    uint64_t rows = 0;         // how many
    bool at_end = false;       // after every row both have: appended
    // Its first rows (at most 3) with their offsets and values, when each side is one file.
    std::vector<UnorderedRecordRef> first;
  };
  std::optional<RowBlock> row_block;

  // kDifferent: for each top-level field holding a type or nullability difference, that
  // difference neutralised: one side's field cast (Arrow's safe cast: no value changed or
  // lost) to the other side's type and nullability and hashed again. Whether the difference
  // changes the hash (the cast column hashes otherwise than before the cast), and whether the
  // values are equal after the cast (it hashes as the other side's). SchemaDifference::
  // changes_hash of the field's differences says the same.
  struct CastCheck {
    std::string field;            // the top-level field
    bool cast = false;            // one side's field could be cast to the other's type
    bool reproduced_cast = true;  // the reproduction's to the original's type, else back
    std::string from;             // the type cast from (readable: "timestamp[us, tz=UTC]")
    std::string to;               // the type cast to
    bool values_equal = false;    // cast: the values are equal after the cast
    bool changes_hash = true;     // the field's type or nullability changes the hash
    std::string error;            // !cast: why neither way casts (the digests decided)
    // cast, the values not equal, CompareOptions::locate_rows: where they differ once cast
    // (locate_cast_differences of row_diff.h), the field's leaf columns.
    std::optional<RowDiff> rows;
  };
  std::vector<CastCheck> casts;

  // CompareOptions::ignore_columns that either table has: left out of `records`, `rows`,
  // `row_block` and the schema differences; arrow0 (`verdict`) still covers them.
  std::vector<std::string> ignored_columns;

  // CompareOptions::tolerance, the bytes differing and the records not equal: the records
  // compared again in order, floating-point values within the tolerance (tolerance.h). A
  // reproduction `within` it is verified (exit 0), arrow0's verdict unchanged beside it.
  std::optional<ToleranceCheck> tolerance;
};

// "unknown", "equal", "same-other-order", "different".
const char* records_name(FileComparison::Records records);

// Whether the reproduction is verified: the same bytes, or the same arrow0 hash (what ODF
// checks) and the records compared equal, in order; or, when columns were ignored as asked
// (CompareOptions::ignore_columns), the records equal in order without them whatever arrow0
// says; or, with a tolerance asked for (CompareOptions::tolerance), the records equal in order
// but for floating-point values within it. What `odf-hash compare` exits 0 for.
bool reproduction_verified(const FileComparison& c);

// What compare does beyond the verdict.
struct CompareOptions {
  // kDifferent: locate the differing rows and compare the records (a second read of both
  // files, of the top-level fields holding differing columns only). kEquivalent whose records
  // differ: locate where (a second read of both files, whole). Off: rows is nullopt.
  bool locate_rows = true;
  RowDiffOptions rows;
  // Top-level fields left out when the records are compared (`compare --ignore-columns`: the
  // time columns of a reproduction run at another time): the records are compared on the
  // other fields (values, in order), and a reproduction whose records are then equal is
  // verified. Names neither table has are passed over; ignoring every field is an error.
  std::vector<std::string> ignore_columns;
  // The time columns ODF stamps left out too (`--ignore-time-columns`): a dataset's are its
  // SetVocab's (compare_datasets), two files' the defaults system_time and event_time.
  bool ignore_time_columns = false;
  // Floating-point values compared within this tolerance when the records are not equal
  // (`compare --rtol/--atol`): FileComparison::tolerance. One more read of both tables.
  std::optional<Tolerance> tolerance;
};

// Compares two tables (io/table.h: a file, an object of any store, a path or URL through
// open_table of remote/open_table.h, or the files of consecutive ODF slices read as one
// table, or a window of its rows).
//
// One file on each side, every row (Table::one_file): the physical hashes first (each
// object's bytes read once with read()), then, when they differ, the two logical hashes side
// by side, each with `logical` options, and the records (read with read_at()): an equal
// arrow0 hash is followed by two reads of the records (records_digest_objects of
// unordered.h), a different one by where and why.
//
// Otherwise (several files on a side, or a window that leaves rows out) there are no bytes to
// compare as one file's (never identical, physical nullopt, names joined with " + ", sizes
// added up): equivalent when the logical hashes of the two tables are equal (arrow0 does not
// depend on how records are split into batches or files; the records are then compared as for
// two files), else different, with the where and why over the tables: rows are counted from
// each table's start (its window's) and DifferingRow::original_file / reproduced_file say
// which file holds each. A file whose schema is not its table's first's is an error naming
// both files and the first difference.
//
// Errors name the file that could not be read. The tables' cancel flags stop the work between
// reads too (when `logical.cancel` is not set).
Result<FileComparison> compare(const Table& original, const Table& reproduced,
                               const LogicalHashOptions& logical = {},
                               const CompareOptions& options = {});

// Shorthands of compare() kept for the C++ callers of earlier releases (the fronts call
// compare() on open_table): two local files, two objects, two groups of objects with their
// windows, two paths or URLs, two lists of them.
inline Result<FileComparison> compare_files(const std::string& original,
                                            const std::string& reproduced,
                                            const LogicalHashOptions& logical = {},
                                            const CompareOptions& options = {}) {
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> a, open_local_file(original));
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> b, open_local_file(reproduced));
  return compare(Table::of(std::move(a)), Table::of(std::move(b)), logical, options);
}
inline Result<FileComparison> compare_objects(std::shared_ptr<ObjectReader> original,
                                              std::shared_ptr<ObjectReader> reproduced,
                                              const LogicalHashOptions& logical = {},
                                              const CompareOptions& options = {}) {
  return compare(Table::of(std::move(original)), Table::of(std::move(reproduced)), logical,
                 options);
}
inline Result<FileComparison> compare_object_groups(
    const std::vector<std::shared_ptr<ObjectReader>>& original,
    const std::vector<std::shared_ptr<ObjectReader>>& reproduced,
    const LogicalHashOptions& logical = {}, const CompareOptions& options = {},
    RowWindow original_window = {}, RowWindow reproduced_window = {}) {
  return compare(Table{original, original_window}, Table{reproduced, reproduced_window}, logical,
                 options);
}
inline Result<FileComparison> compare_paths_or_urls(const std::string& original,
                                                    const std::string& reproduced,
                                                    const LogicalHashOptions& logical = {},
                                                    const StoreOptions& store = {},
                                                    const CompareOptions& options = {}) {
  ODF_HASH_ASSIGN_OR_RETURN(Table a, open_table(original, store));
  ODF_HASH_ASSIGN_OR_RETURN(Table b, open_table(reproduced, store));
  return compare(a, b, logical, options);
}
inline Result<FileComparison> compare_path_or_url_groups(const std::vector<std::string>& original,
                                                         const std::vector<std::string>& reproduced,
                                                         const LogicalHashOptions& logical = {},
                                                         const StoreOptions& store = {},
                                                         const CompareOptions& options = {},
                                                         RowWindow original_window = {},
                                                         RowWindow reproduced_window = {}) {
  ODF_HASH_ASSIGN_OR_RETURN(Table a, open_table(original, store, original_window));
  ODF_HASH_ASSIGN_OR_RETURN(Table b, open_table(reproduced, store, reproduced_window));
  return compare(a, b, logical, options);
}

}  // namespace odf_hash::compare
