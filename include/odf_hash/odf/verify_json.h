// The JSON form of a dataset verification report: the object `odf-hash verify --json` prints
// for each dataset, also returned by the C ABI (odf_hash_report_json) and the Python
// package (Report.to_dict). One writer, so the three never disagree.
//
//   {"path", "kind" ("root" / "derivative" / null), "dataset_id" (the Seed's
//    "did:odf:fed01…", or null when the Seed was not read), "head" (multihash text or null),
//    "blocks", "chain_complete", "unexpected_checked", "valid", "verdict"
//    (DatasetReport::verdict), "logical_fallbacks",
//    "linked_objects": {"checked", "matched"},
//    "files": [{"role" ("data" / "checkpoint" / "linked-object"), "file", "block",
//               "sequence_number", "outcome", "actual_physical"?, "logical"?, "size"?}],
//    "problems": [{"kind", "message", "block", "sequence_number", "file", "expected",
//                  "actual", "link"?}],   ("link": {"data_file", "column", "row"}, only
//                  on linked-object and link problems)
//    "unreferenced": {"count", "bytes", "strict",
//                     "entries": [{"file", "kind" ("file", "directory", "symlink", "fifo",
//                                  "socket", "char-device", "block-device", "other"),
//                                  "size", "link_target" (null unless a link),
//                                  "broken_link", "canonical_name" (or null)}]},
//    "scope": {"complete" (no --since, no --sample), "expected_head", "expected_head_found",
//              "expected_head_sequence", "expected_dataset_id" (a pin's, or null), "since",
//              "since_found", "since_sequence", "kind_inferred", "deep", "sample" (null, or
//              {"spec", "seed", "files_checked", "files_total", "bytes_checked", "bytes_total"}),
//              "ipfs" (null, or {"gateway", "verified": false when read trusting the gateway}),
//              "skipped": [sentence, ...]}}
//   (VerifyScope, verify.h; hashes as multihash text, absent values null)
//   (absent values are null; a linked object's entry names its first reference's block)
//  "unreferenced" lists what the chain does not reference (verify.h, step 5); with "strict"
//  each entry is also an unexpected-file problem. "unexpected_checked" is false when the
//  store could not be listed (nothing was looked for).
#pragma once

#include <string>

#include "odf_hash/odf/verify.h"

namespace odf_hash::odf {

// `indent` < 0: one line; otherwise pretty-printed with that many spaces per level.
std::string verify_report_json(const DatasetReport& report, int indent = -1);

}  // namespace odf_hash::odf
