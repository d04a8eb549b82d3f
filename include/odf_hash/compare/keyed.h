// Keyed comparison of two tables, as data-diff tools do it (`compare --key COLS`): rows are
// matched by the values of key columns, in any row order, and the result says which keys
// only one side holds, which keys are held by several rows, and which matched rows hold other
// values (column by column, before and after). NOT the ODF hash: arrow0 depends on row order.
//
// Three steps, memory bounded whatever the tables' size:
// 1. both tables read once, side by side (a thread each): every row's key (the record
//    bytes, record_digest.h, of its key columns: encodings of one type alike, null a value
//    like any other; kept whole when short, else as a digest) and value digest (of its other
//    columns but the ignored) spilled with its row index to one of kKeyedPartitions temporary files
//    ($TMPDIR) by key;
// 2. the partitions merged pairwise, one pair in memory at a time: keys on one side only,
//    keys held by several rows (their rows matched as a multiset of values), matched rows
//    whose values differ;
// 3. the first few of each kind read again (each table up to the last row shown) and
//    rendered; a changed row column by column.
// Memory: the write buffers (16 MiB) and two pairs of partitions (32 bytes a row, 1/256
// of the rows each); disk: 32 bytes a row per table, released when the call returns.
//
// Thread safety: reentrant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/compare/unordered.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/table.h"
#include "odf_hash/logical/schema_diff.h"

namespace odf_hash::compare {

inline constexpr unsigned kKeyedPartitions = 256;

struct KeyedOptions {
  // The key's top-level columns (at least one; each on both sides, with one type up to
  // encodings: utf8 and large_utf8 match, int32 and int64 do not).
  std::vector<std::string> key;
  // Top-level columns left out of the values compared (not key columns); names neither
  // table has are passed over.
  std::vector<std::string> ignore;
  // The time columns ODF stamps left out too (system_time and event_time), as
  // CompareOptions::ignore_time_columns does for two files.
  bool ignore_time_columns = false;
  size_t max_examples = 5;      // per kind and side
  size_t max_value_chars = 40;  // per value shown
};

struct KeyedSide {
  std::string path;
  uint64_t rows = 0;
  // Rows whose key the other side does not hold, and the first of them by row (their
  // values as "name=value, ..." in the table's column order, as compare_unordered shows).
  uint64_t only_here = 0;
  std::vector<UnorderedRecordRef> only_examples;
  // Keys held by more than one row of this side, the rows holding them, and the first such
  // rows.
  uint64_t duplicate_keys = 0;
  uint64_t duplicate_rows = 0;
  std::vector<UnorderedRecordRef> duplicate_examples;
};

// A value that differs between two rows of one key.
struct ValueChange {
  std::string column;    // top-level
  std::string original;  // as text, cut to max_value_chars ("..." marks a cut)
  std::string reproduced;
};

// A key held by one row on each side, the two rows' values differing.
struct KeyedChange {
  std::string key;  // "name=value, ..." over the key columns, in the order asked
  uint64_t original_row = 0;
  uint64_t reproduced_row = 0;
  std::optional<int64_t> original_offset;  // the ODF `offset` values, when there are
  std::optional<int64_t> reproduced_offset;
  std::vector<ValueChange> values;  // in the original's column order
};

struct KeyedComparison {
  std::vector<std::string> key;
  std::vector<std::string> ignored_columns;   // the KeyedOptions::ignore either table has
  std::vector<std::string> compared_columns;  // the value columns, in the original's order
  KeyedSide original;
  KeyedSide reproduced;
  uint64_t matched_keys = 0;  // keys both sides hold
  // Of those, keys whose rows differ: one row a side whose values differ, or several rows on
  // a side whose values are not the other side's (as multisets).
  uint64_t changed_keys = 0;
  std::vector<KeyedChange> changes;  // the first one-row-a-side ones, by original row
  // Every key on both sides, each side's rows of a key holding the same values (as
  // multisets): the same records, in any order. Confirmed by whole 256-bit sums of the key
  // and value digests (the partitions compare prefixes of them).
  bool same_records = false;
  // Every key on both sides with the same values, while the schemas differ in a way the
  // values do not show (a timestamp's time zone): !same_records, schema_differences says
  // how.
  bool same_values = false;
  // The schemas' differences (top-level columns taken by name: their order does not count).
  std::vector<SchemaDifference> schema_differences;
};

// Compares two tables by key (the top of this header). Errors: no key, a key column missing
// on a side or of other types on the two sides, a value column one side lacks (name it in
// `ignore`), unreadable tables.
Result<KeyedComparison> compare_keyed(const Table& original, const Table& reproduced,
                                      const KeyedOptions& options);

}  // namespace odf_hash::compare
