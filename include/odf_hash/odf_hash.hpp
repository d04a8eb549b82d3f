// The whole C++ API of odf-hash in one include, layer by layer (HACKING.md: the layers, what
// each holds). Each header below also stands alone: include only what a file uses when it
// matters for build times. The C ABI is odf_hash/odf_hash.h. The layering test checks that
// this lists every public header.
#pragma once

#include "odf_hash/arrow_c_data.h"

#include "odf_hash/core/check_list.h"
#include "odf_hash/core/multibase.h"
#include "odf_hash/core/multihash.h"
#include "odf_hash/core/multihash_hint.h"
#include "odf_hash/core/parallel.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/core/status.h"
#include "odf_hash/core/text.h"
#include "odf_hash/core/varint.h"

#include "odf_hash/logical/logical.h"
#include "odf_hash/logical/record_digest.h"
#include "odf_hash/logical/schema_diff.h"

#include "odf_hash/io/cancel.h"
#include "odf_hash/io/local_store.h"
#include "odf_hash/io/logical_file.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/read_counter.h"
#include "odf_hash/io/record_stream.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/io/table.h"

#include "odf_hash/remote/hash_path_or_url.h"
#include "odf_hash/remote/open_store.h"
#include "odf_hash/remote/open_table.h"

#include "odf_hash/odf/chain_diff.h"
#include "odf_hash/odf/dataset.h"
#include "odf_hash/odf/odf_block.h"
#include "odf_hash/odf/odf_events.h"
#include "odf_hash/odf/slice.h"
#include "odf_hash/odf/fetch.h"
#include "odf_hash/odf/fetch_json.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/odf/verify_args.h"
#include "odf_hash/odf/verify_json.h"
#include "odf_hash/odf/verify_pins.h"
#include "odf_hash/odf/verify_plan.h"
#include "odf_hash/odf/verify_plan_json.h"
#include "odf_hash/odf/workspace.h"

#include "odf_hash/compare/compare.h"
#include "odf_hash/compare/compare_datasets.h"
#include "odf_hash/compare/compare_json.h"
#include "odf_hash/compare/keyed.h"
#include "odf_hash/compare/row_diff.h"
#include "odf_hash/compare/tolerance.h"
#include "odf_hash/compare/unordered.h"

#include "odf_hash/query/canonical_json.h"
#include "odf_hash/query/did_key.h"
#include "odf_hash/query/query_json.h"
#include "odf_hash/query/trusted_keys.h"
#include "odf_hash/query/verify_query.h"

#include "odf_hash/api/fetch.h"
#include "odf_hash/api/verify.h"
