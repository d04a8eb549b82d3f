// Order-insensitive comparison of two data files, and the order-independent digest of one:
// do two files hold the same multiset of records, whatever their row order? NOT the ODF
// hash: ODF metadata records arrow0-sha3-256 (logical.h), which depends on row order. The
// digests and their exact bytes: record_digest.h and docs/unordered-digest.md.
//
// One read of each file (both at once, on two threads): every record's digest is added to
// the file's order-independent sum and written, with its row index, to one of
// kUnorderedPartitions unnamed temporary files ($TMPDIR) chosen by the digest's
// first byte. When the sums differ, the partitions are compared pairwise (each sorted in
// memory, one pair at a time), which names the records only one side has; the first few of
// them are rendered (with their `offset` values) by reading each file again up to the last of
// its examples. Memory: the write buffers (8 MiB) and one pair of partitions (16 bytes a
// record, 1/64 of the records); disk: 16 bytes a record per file, released when the call
// returns.
//
// Thread safety: reentrant.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/core/sha3.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/io/table.h"
#include "odf_hash/logical/schema_diff.h"
#include "odf_hash/remote/open_table.h"

namespace odf_hash::compare {

inline constexpr unsigned kUnorderedPartitions = 64;

// The order-independent digest of one file's records.
struct UnorderedFileDigest {
  Digest256 digest{};  // unordered_digest_string() shows it
  uint64_t rows = 0;
};

// One pass over the records of a table (io/table.h: a Parquet or Arrow IPC file, the files of
// consecutive slices of an ODF dataset read as one table, or a window of its rows; a path or
// URL through open_table of remote/open_table.h), no spilling.
Result<UnorderedFileDigest> unordered_digest(const Table& table);

// What compare (compare.h) checks of two tables whose arrow0 digests are equal: one read of
// a table's records (each batch digested on a second thread while the next is read) giving
// their order-independent digest (as unordered_digest) and an ordered one: the
// SHA3-256 of the schema bytes, the record count and a digest of the record digests in row
// order (SHA3-256 of the SHA3-256 of each run of 4096 of them). Two tables hold the same
// records in the same order exactly when their ordered digests are equal (up to SHA3
// collisions), the same multiset when their unordered ones are.
struct RecordsDigest {
  UnorderedFileDigest unordered;
  Digest256 ordered{};
};
// `ignore`: top-level fields left out of every record (compare --ignore-columns); names the
// table does not have are passed over. Leaving out every field is an error.
Result<RecordsDigest> records_digest_objects(std::vector<std::shared_ptr<ObjectReader>> objects,
                                             RowWindow window = {},
                                             const std::vector<std::string>& ignore = {});

struct UnorderedRecordRef {
  uint64_t row = 0;               // index from 0 in its file
  std::optional<int64_t> offset;  // the ODF `offset` column's value, when there is one
  // The record as text: "name=value, ..." in the file's column order, each value rendered
  // as row_diff.h's (escaped, cut).
  std::string values;
};

struct UnorderedSide {
  std::string path;
  UnorderedFileDigest digest;
  uint64_t only_here = 0;  // records (counted with multiplicity) the other side lacks
  std::vector<UnorderedRecordRef> examples;  // the first of them by row, at most max_examples
};

struct UnorderedComparison {
  UnorderedSide original;
  UnorderedSide reproduced;
  bool same_records = false;  // the same multiset of records (and the same schema)
  // The same multiset of record values, whatever the schemas say: every record of each side
  // matched by one of the other (only_here 0 on both sides, the same row counts). With
  // !same_records, the schemas differ and the values do not: e.g. a timestamp column whose
  // time zone alone differs (schema_differences says which).
  bool same_values = false;
  // The schemas' differences (the order of top-level columns does not count here: they are
  // taken by name; that of struct members does).
  std::vector<SchemaDifference> schema_differences;
};

struct UnorderedOptions {
  size_t max_examples = 5;      // per side
  size_t max_value_chars = 40;  // per value in an example
};

// Whether two tables hold the same multiset of records (the top of this header). Rows of the
// examples are counted from each table's start (its window's).
Result<UnorderedComparison> compare_unordered(const Table& original, const Table& reproduced,
                                              const UnorderedOptions& options = {});

// Shorthands kept for the C++ callers of earlier releases (the fronts call the verbs above on
// open_table): one object, several, a path or URL; two objects, two paths or URLs.
inline Result<UnorderedFileDigest> unordered_digest_object(std::shared_ptr<ObjectReader> object) {
  return unordered_digest(Table::of(std::move(object)));
}
inline Result<UnorderedFileDigest> unordered_digest_objects(
    std::vector<std::shared_ptr<ObjectReader>> objects, RowWindow window = {}) {
  return unordered_digest(Table{std::move(objects), window});
}
inline Result<UnorderedFileDigest> unordered_digest_path_or_url(const std::string& path_or_url,
                                                                const StoreOptions& store = {}) {
  ODF_HASH_ASSIGN_OR_RETURN(Table table, open_table(path_or_url, store));
  return unordered_digest(table);
}
inline Result<UnorderedComparison> compare_unordered(std::shared_ptr<ObjectReader> original,
                                                     std::shared_ptr<ObjectReader> reproduced,
                                                     const UnorderedOptions& options = {}) {
  return compare_unordered(Table::of(std::move(original)), Table::of(std::move(reproduced)),
                           options);
}
inline Result<UnorderedComparison> compare_unordered_paths_or_urls(
    const std::string& original, const std::string& reproduced, const StoreOptions& store = {},
    const UnorderedOptions& options = {}) {
  ODF_HASH_ASSIGN_OR_RETURN(Table a, open_table(original, store));
  ODF_HASH_ASSIGN_OR_RETURN(Table b, open_table(reproduced, store));
  return compare_unordered(a, b, options);
}

}  // namespace odf_hash::compare
