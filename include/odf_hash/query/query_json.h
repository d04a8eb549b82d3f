// The JSON form of a query answer check (verify_query.h): what `odf-hash verify-query --json`
// prints, the C ABI's odf_hash_query_check_json and the Python package's QueryCheck read. One
// writer, so the three never disagree.
//
//   {"verdict": "valid" | "untrusted" | "unsupported" | "mismatch",
//    "summary": QueryReport::summary(),
//    "findings": [QueryReport::findings()...],
//    "queries": [{
//      "path": "" (the answer) | "subQueries[0]" | ...,
//      "query": input.query,
//      "input" / "output" / "sub_queries": {"status": "valid" | "mismatch" | "not-checked",
//                                           "committed": "f1620…", "computed": "f1620…" | null},
//      "sub_query_count": N,
//      "signature": {"status": "valid" | "mismatch" | "unsupported", "type", "key",
//                    "trusted": bool, "trusted_name": str | null, "trusted_source": str | null,
//                    "message": str | null},
//      "datasets": [{"id", "alias", "block_hash": "f1620…" | null,
//                    "tie": "not-tied" | "no-block-hash" | "on-chain" | "not-on-chain" |
//                           "copy-invalid",
//                    "location": str | null, "message": str | null,
//                    "copy": null | the copy's verification (verify_json.h)}]}]}
// Text from the answer (query, keys, aliases) is as the answer gives it: escape it before
// showing it on a terminal.
#pragma once

#include <string>

#include "odf_hash/query/verify_query.h"

namespace odf_hash::query {

// `indent` < 0: one line; otherwise pretty-printed with that many spaces per level.
std::string query_report_json(const QueryReport& report, int indent = -1);

}  // namespace odf_hash::query
