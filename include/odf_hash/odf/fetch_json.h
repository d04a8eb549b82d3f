// The JSON form of a fetch report (fetch.h): the document `odf-hash fetch --json` prints
// (with its "schema" field), one writer for every front.
//
//   {"source" (without a URL's user information), "dest", "verdict" (FetchReport::verdict),
//    "fetched", "rejected" (FetchReport::rejected), "source_head", "source_sequence", "old_head",
//    "old_sequence", "head" (multihash text or null; the sequence numbers of the heads when known,
//    else null), "dataset_id" (the Seed's "did:odf:fed01…" when read, else null),
//    "blocks_fetched", "up_to_date", "dest_ahead", "forced", "bytes_transferred",
//    "files": [{"file", "role" ("data" / "checkpoint" / "linked-object"), "size",
//               "how" ("transferred" / "resumed" / "present" / "rejected"),
//               "bytes_transferred"}],
//    "problems": [as verify's (verify_json.h)], "skipped": [sentence, ...]}
#pragma once

#include <string>

#include "odf_hash/odf/fetch.h"

namespace odf_hash::odf {

// `indent` < 0: one line; otherwise pretty-printed with that many spaces per level.
std::string fetch_report_json(const FetchReport& report, int indent = -1);

}  // namespace odf_hash::odf
