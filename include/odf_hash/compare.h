// Verification of a reproduced data file, as the ODF specification describes it: the
// physical hashes are compared first; when they differ (the on-disk format is not
// deterministic), the logical hashes decide whether the records are the same.
//
// Thread safety: reentrant.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/logical.h"
#include "odf_hash/multihash.h"
#include "odf_hash/open_store.h"
#include "odf_hash/row_diff.h"
#include "odf_hash/schema_diff.h"
#include "odf_hash/status.h"
#include "odf_hash/store.h"
#include "odf_hash/unordered.h"

namespace odf_hash::odf {

enum class CompareVerdict {
  kIdentical,   // same bytes (physical hashes equal); the logical hash is not computed
  kEquivalent,  // different bytes, same logical hash: the same records
  kDifferent,   // different records
};

// "identical", "equivalent" or "different".
const char* compare_verdict_name(CompareVerdict verdict);

struct ComparedFile {
  std::string path;  // a group of files (compare_object_groups): their names joined by " + "
  // nullopt for a group of files: its bytes are not one file's, nothing to hash as one.
  std::optional<Multihash> physical;
  uint64_t size = 0;                     // bytes (of all the files of a group)
  std::optional<LogicalDigest> logical;  // computed only when the physical hashes differ
};

struct FileComparison {
  ComparedFile original;
  ComparedFile reproduced;
  CompareVerdict verdict = CompareVerdict::kIdentical;
  // kDifferent only: the leaf columns whose digests or types differ, or that exist on one
  // side only ("a.b", "c (type l vs i)", "d (only in original)"), in path order. Empty when
  // the records differ only in the schema (names, nesting).
  std::vector<std::string> differing_columns;
  // kDifferent, when CompareOptions::locate_rows: where the columns whose digests differ
  // (present on both sides with one type) differ, row by row (row_diff.h), and both row
  // counts.
  std::optional<RowDiff> rows;

  // kDifferent: the schemas' differences, field by field (schema_diff.h).
  std::vector<SchemaDifference> schema_differences;

  // kDifferent: what the records themselves say. arrow0 (the verdict, what ODF metadata
  // records) also depends on the column order and on bytes under null struct slots; the
  // records are compared on their values alone (record_digest.h).
  enum class Records {
    kUnknown,         // not looked at (CompareOptions::locate_rows off)
    kEqual,           // the same records, in the same order: only the hash differs
    kSameOtherOrder,  // the same records (the same multiset), in another order
    kDifferent,       // the records differ (or the schemas do)
  };
  Records records = Records::kUnknown;
  // kEqual / kSameOtherOrder: why the arrow0 digests differ nonetheless.
  struct Cause {
    // "column-order", "nullability", "encoding", "null-slots", "row-order"
    std::string kind;
    std::string column;  // the column concerned ("" for the whole table)
    std::string text;    // one sentence for a report
  };
  std::vector<Cause> causes;
};

// "unknown", "equal", "same-other-order", "different".
const char* records_name(FileComparison::Records records);

// What compare does beyond the verdict.
struct CompareOptions {
  // kDifferent: locate the differing rows and compare the records (a second read of both
  // files, of the top-level fields holding differing columns only).
  bool locate_rows = true;
  RowDiffOptions rows;
};

// Compares two data files (Parquet or Arrow IPC). The two logical hashes, when needed, run
// side by side, each with `logical` options. Errors name the path that could not be read.
Result<FileComparison> compare_files(const std::string& original, const std::string& reproduced,
                                     const LogicalHashOptions& logical = {},
                                     const CompareOptions& options = {});

// The same over opened objects of any store (URLs: open_store.h); paths in the result are
// the objects' names. Each object's bytes are read once with read(), its records (when
// needed) with read_at().
Result<FileComparison> compare_objects(std::shared_ptr<ObjectReader> original,
                                       std::shared_ptr<ObjectReader> reproduced,
                                       const LogicalHashOptions& logical = {},
                                       const CompareOptions& options = {});

// Two groups of objects, each read as one table: their records one object after the other
// (the files of consecutive slices of an ODF dataset whose records were split into files
// differently on each side; open_concatenated_record_stream of reader.h). One object on
// each side: compare_objects. Otherwise there are no bytes to compare (never identical):
// equivalent when the logical hashes of the two tables are equal (arrow0 does not depend on
// how records are split into batches or files), else different, with the where and why of
// compare_objects over the tables: rows are counted from each group's start and
// DifferingRow::original_file / reproduced_file say which file holds each. Paths join the
// names with " + ", sizes add up, physical is nullopt. A file whose schema is not its
// group's first's is an error naming both files and the first difference.
Result<FileComparison> compare_object_groups(
    const std::vector<std::shared_ptr<ObjectReader>>& original,
    const std::vector<std::shared_ptr<ObjectReader>>& reproduced,
    const LogicalHashOptions& logical = {}, const CompareOptions& options = {});

// compare_objects of open_object(x, store) for each (a local path or a URL); every read
// stops once *store.cancel is set (cancel.h).

Result<FileComparison> compare_paths_or_urls(const std::string& original,
                                             const std::string& reproduced,
                                             const LogicalHashOptions& logical = {},
                                             const StoreOptions& store = {},
                                             const CompareOptions& options = {});

// compare_object_groups of open_object(x, store) for each path or URL of both lists.
Result<FileComparison> compare_path_or_url_groups(const std::vector<std::string>& original,
                                                  const std::vector<std::string>& reproduced,
                                                  const LogicalHashOptions& logical = {},
                                                  const StoreOptions& store = {},
                                                  const CompareOptions& options = {});

// compare --ignore-order (unordered.h: the same multiset of records? not the ODF hash) and
// the order-independent digest of one file, for paths and URLs (open_object of open_store.h).
Result<UnorderedComparison> compare_unordered_paths_or_urls(const std::string& original,
                                                            const std::string& reproduced,
                                                            const StoreOptions& store = {},
                                                            const UnorderedOptions& options = {});
Result<UnorderedFileDigest> unordered_digest_path_or_url(const std::string& path_or_url,
                                                         const StoreOptions& store = {});

}  // namespace odf_hash::odf
