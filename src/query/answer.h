// The envelope of a kamu query answer, read strictly (verify_query.h says what is malformed):
// each query (the answer, then its sub-queries depth first) with its parts' canonical
// digests, its commitment, its proof and its input datasets. Nothing is judged here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/core/status.h"

namespace odf_hash::query::detail {

struct DatasetRef {
  std::string id;     // canonical "did:odf:f…"
  std::string alias;  // as the answer writes it
  std::optional<Multihash> block_hash;
};

struct QueryEnvelope {
  std::string path;   // "" for the answer, "subQueries[0]", "subQueries[0].subQueries[1]"
  std::string query;  // input.query
  // SHA3-256 of the canonical form of input, output (the answer only) and subQueries.
  Digest256 input_digest{};
  std::optional<Digest256> output_digest;
  Digest256 sub_queries_digest{};
  size_t sub_query_count = 0;
  // The commitment's hashes, and the message its signature is over: the commitment's
  // canonical JSON as kamu writes it ({"inputHash":"f1620…","outputHash":…,
  // "subQueriesHash":…}).
  Multihash committed_input{HashCode::kSha3_256, {}};
  Multihash committed_output{HashCode::kSha3_256, {}};
  Multihash committed_sub_queries{HashCode::kSha3_256, {}};
  std::string commitment_message;
  // The proof, as written; `signature` holds the decoded proofValue only for the types
  // odf-hash checks (Ed25519Signature2020), else it is empty.
  std::string proof_type;
  std::string key;
  std::vector<uint8_t> signature;
  std::vector<DatasetRef> datasets;
};

// Deepest nesting of sub-queries read (each level's sub-queries hash covers all the levels
// below it, so the work grows with the nesting). kamu 0.265 sends none.
inline constexpr size_t kMaxSubQueryLevels = 16;

// The proof type odf-hash checks.
inline constexpr std::string_view kEd25519Signature2020 = "Ed25519Signature2020";

// Reads the answer `text` (JSON). Errors: kParseError naming the part ("malformed answer:
// subQueries[0].proof.proofValue: ...").
Result<std::vector<QueryEnvelope>> read_answer(std::string_view text);

}  // namespace odf_hash::query::detail
