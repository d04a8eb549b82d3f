// The JSON form of a file comparison (compare.h): the object `odf-hash compare --json`
// prints, also returned by the C ABI (odf_hash_comparison_json). One writer, so they never
// disagree.
//
//   {"original": {"path", "physical", "logical"?, "rows"?}, "reproduced": {...},
//    "verdict" ("identical" / "equivalent" / "different": what ODF checks, arrow0),
//    "records" ("unknown" / "equal" / "same-other-order" / "different": the values),
//    "verified" (reproduction_verified: identical, or equivalent with equal records),
//    "differing_columns" (for "different" only): [leaf paths],
//    "differences"? (rows located): [{"column", "differing_rows", "hidden_segments",
//      "null_on_one_side", "first_hidden_rows"? [first, end), "rows": [{"row", "offset"
//      (or null), "original", "reproduced"}]}] (for "equivalent": top-level fields),
//    "row_block" (for "different" only; null unless the records differ by one run of rows
//      one side alone has, compare.h's RowBlock): {"side" ("original" / "reproduced"),
//      "row", "rows", "at_end", "first": [{"row", "offset" (or null), "values"}]},
//    "ignored_columns"? (when columns were ignored as asked): [names],
//    "schema_differences": [{"field", "kind", "original", "reproduced", "encoding_only"}],
//    "causes": [{"kind", "column", "text"}]}   (why the two verdicts disagree)
#pragma once

#include <string>

#include <vector>

#include "odf_hash/compare/compare.h"
#include "odf_hash/compare/compare_datasets.h"
#include "odf_hash/compare/keyed.h"
#include "odf_hash/compare/unordered.h"
#include "odf_hash/odf/chain_diff.h"

namespace odf_hash::compare {

// `indent` < 0: one line; otherwise pretty-printed with that many spaces per level. Bytes
// that are not UTF-8 (in paths) are replaced by U+FFFD.
std::string file_comparison_json(const FileComparison& c, int indent = -1);

// The JSON of `compare --ignore-order` (unordered.h), the same way:
//   {"mode": "ignore-order", "note", "original": {"path", "rows", "unordered", "only_here",
//    "examples": [{"row", "offset" (or null), "values"}]}, "reproduced": {...},
//    "same_records", "same_values" (every record's values matched: only the schemas
//    differ when same_records is false), "schema_differences": [as above]}
std::string unordered_comparison_json(const UnorderedComparison& c, int indent = -1);

// The JSON of `compare --key` (keyed.h): {"mode": "key", "note", "key": [...],
//   "compared_columns", "ignored_columns", "original": {"path", "rows", "only_here",
//   "only_examples": [{"row", "offset", "values"}], "duplicate_keys", "duplicate_rows",
//   "duplicate_examples"}, "reproduced": {...}, "matched_keys", "changed_keys",
//   "changes": [{"key", "original_row", "reproduced_row", "original_offset",
//   "reproduced_offset", "values": [{"column", "original", "reproduced"}]}], "same_records",
//   "same_values", "schema_differences"}
std::string keyed_comparison_json(const KeyedComparison& c, int indent = -1);

// The chain differences of a dataset comparison (chain_diff.h), the "chain_differences" of
// `compare --json` on two datasets: [{"sequence_number", "reproduced_sequence_number",
// "event", "field", "original", "reproduced", "identity_only"}], values whole.
std::string chain_differences_json(const std::vector<odf::ChainDifference>& d, int indent = -1);

// What a dataset comparison verified of one side (compare_datasets.h's SideCheck), the
// "verification" of "original" and "reproduced" in `compare --json` on two datasets:
//   {"vouched", "head" (or null), "kind" ("root" / "derivative" / null), "chain_complete",
//    "problems": [as in verify_json.h: the chain's, then the files'],
//    "files": [as in verify_json.h: the data files read, each checked once],
//    "files_read" (the data files the comparison reads), "files_unchecked" (the files the
//    chain references that it never reads), "unreached" (null, or {"start", "end"}: the
//    offsets below a broken chain)}
std::string side_check_json(const SideCheck& c, int indent = -1);

}  // namespace odf_hash::compare
