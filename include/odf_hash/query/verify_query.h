// Checking a kamu node's signed query answer offline (`odf-hash verify-query`).
//
// A kamu node asked for a proof (`POST /query` with "include": ["proof"], or `GET
// /query?...&include=proof`) answers
//   {"input":      the request as the node ran it, with "datasets": [{"id", "alias",
//                  "blockHash"}]: the block of each input dataset it read,
//    "output":     {"data", "dataFormat", ["schema", "schemaFormat"]},
//    "subQueries": [...],
//    "commitment": {"inputHash", "outputHash", "subQueriesHash"},
//    "proof":      {"type": "Ed25519Signature2020", "verificationMethod": "did:key:z6Mk…",
//                   "proofValue": "u…"}}
// Each hash is the sha3-256 multihash of the canonical JSON (canonical_json.h) of input,
// output and subQueries; proofValue is the multibase of the Ed25519 signature, by the key the
// did:key names (did_key.h), of the commitment's canonical JSON.
//
// verify_query checks, for the answer and then each sub-query (depth first):
//  1. the input, output and sub-queries hashes, recomputed and compared with the
//     commitment's (as multihashes: code and digest). A sub-query (kamu's SubQuery: input,
//     subQueries, commitment, proof) carries no output: its output hash is not checked;
//  2. the signature, over the commitment as kamu writes it ({"inputHash":"f1620…",
//     "outputHash":…,"subQueriesHash":…}, the hashes in base16 whatever the answer's
//     spelling, as kamu's own POST /verify re-serializes them). Only Ed25519Signature2020 is
//     checked; any other type (EcdsaSecp256k1Signature2019, which kamu can name but does not
//     serve) and a did:key of another key type are unsupported, never valid;
//  3. whose key: the signer is among QueryVerifyOptions::trusted (trusted_keys.h) or not. A
//     valid signature by a key you do not trust proves only that someone holding that key
//     signed;
//  4. over what data, for the input datasets QueryVerifyOptions::datasets names (by id or
//     by alias): the dataset at that location is verified (verify.h) with the answer's
//     blockHash as its trusted head and the answer's id as its expected dataset id. The block
//     on that verified chain ties the answer to history that exists there and is intact; a
//     block not on it (history-rewritten) means the answer was computed over a history this
//     copy does not contain; any other problem of the copy fails the tie too.
// The sub-queries hash of a query covers its sub-queries whole (their commitments and
// proofs included); each sub-query's own hashes and signature are checked as well, so a
// changed sub-query is named.
//
// Malformed answers are errors (kParseError), not reports: JSON that canonical_json.h does
// not read; a missing or mistyped member of the envelope (the five members of the answer,
// the four of a sub-query, the three of commitment and of proof, input.query a string,
// input.datasets an array of objects with string id and alias and an optional blockHash);
// any other member at the top level of the answer or of a sub-query, or in commitment or
// proof (no signature could cover it; members of input and output are hashed, so any are
// accepted there); hashes or dataset ids that do not parse; a verificationMethod that is no
// did:key, or a proofValue that is not the multibase (kamu's bases: f, u, z) of 64 bytes, for
// an Ed25519Signature2020 proof; sub-queries nested deeper than 16 levels; more than
// QueryVerifyOptions::max_bytes of answer. A --dataset name that names no input dataset of
// the answer, or names one twice, is kInvalidArgument; a dataset that could not be verified
// at all (its location unreadable) is that error.
//
// Thread safety: verify_query is reentrant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/status.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/query/trusted_keys.h"

namespace odf_hash::query {

// The largest answer read by default. Memory stays within a few times this (canonical_json.h).
inline constexpr uint64_t kMaxAnswerBytes = uint64_t{256} << 20;

enum class CheckStatus {
  kValid,
  kMismatch,     // a hash differs, the signature is not valid for the key and commitment
  kUnsupported,  // not checked: a signature type or key type odf-hash does not check
  kNotChecked,   // a sub-query's output hash (it carries no output)
};
const char* check_status_name(CheckStatus s);  // "valid", "mismatch", "unsupported", "not-checked"

// One hash of a commitment.
struct HashCheck {
  CheckStatus status = CheckStatus::kNotChecked;
  Multihash committed{HashCode::kSha3_256, {}};  // the commitment's
  std::optional<Multihash> computed;             // sha3-256 of the part's canonical JSON
};

struct SignatureCheck {
  CheckStatus status = CheckStatus::kUnsupported;
  std::string type;  // proof.type, as the answer writes it
  std::string key;   // proof.verificationMethod, as the answer writes it
  // The key is among the trusted keys (only said of a valid signature: an invalid one is by
  // no one); its entry's name and where it was trusted.
  bool trusted = false;
  std::string trusted_name;
  std::string trusted_source;
  std::string message;  // why it is not valid, or ""
};

enum class TieStatus {
  kNotTied,      // no --dataset names this dataset
  kNoBlockHash,  // named, but the answer gives no blockHash for it: nothing to tie
  kOnChain,      // the block is on the copy's chain and the copy verified valid
  kNotOnChain,   // the block is not on the copy's chain (history-rewritten, head-not-found)
  kCopyInvalid,  // the block may be on the chain, but the copy has other problems
};
const char* tie_status_name(TieStatus s);  // "not-tied", "no-block-hash", "on-chain", ...

struct DatasetTie {
  std::string id;     // "did:odf:f…" (canonical)
  std::string alias;  // as the answer writes it
  std::optional<Multihash> block_hash;
  TieStatus status = TieStatus::kNotTied;
  std::string location;                      // where the copy is (URLs redacted)
  std::optional<odf::DatasetReport> report;  // the copy's verification, when tied
  std::string message;                       // one sentence saying what the tie shows
};

// One query: the answer itself, or a sub-query.
struct QueryCheck {
  std::string path;   // "" for the answer, "subQueries[0]", "subQueries[0].subQueries[1]"
  std::string query;  // input.query (untrusted text)
  HashCheck input, output, sub_queries;
  size_t sub_query_count = 0;
  SignatureCheck signature;
  std::vector<DatasetTie> datasets;  // input.datasets, in order
};

// The values are the exit codes of `odf-hash verify-query` and the C ABI's verdicts.
enum class QueryVerdict {
  kValid = 0,        // every hash, signature and tie valid, every signer trusted
  kMismatch = 1,     // a hash, a signature or a dataset tie failed
  kUnsupported = 2,  // nothing failed, but a signature could not be checked
  kUntrusted = 3,    // all valid, but a signer is not among the trusted keys
};
const char* query_verdict_name(QueryVerdict v);  // "valid", "untrusted", "unsupported", "mismatch"

struct QueryReport {
  std::vector<QueryCheck> queries;  // the answer first, then its sub-queries depth first

  QueryVerdict verdict() const;
  // The parts that failed (kMismatch), then those not checked (kUnsupported), then the
  // untrusted signers, each named: "output hash", "signature", "dataset mix (did:odf:…)",
  // "subQueries[0]: input hash", "key did:key:z6Mk…".
  std::vector<std::string> findings() const;
  // One line: "VALID (signed by a trusted key; 1 of 1 input dataset tied to a verified
  // copy)", "INVALID: output hash, signature", "UNSUPPORTED: subQueries[0]: signature
  // (EcdsaSecp256k1Signature2019) not checked", "UNTRUSTED KEY: all valid, signed by
  // did:key:z6Mk… (not in your trusted keys)".
  std::string summary() const;
};

// --dataset NAME=LOCATION: NAME an input dataset's id ("did:odf:…") or alias, LOCATION any
// dataset location verify reads (a folder, a URL).
struct DatasetLocation {
  std::string name;
  std::string location;
};
// "NAME=LOCATION", split at the first '='; kInvalidArgument when either side is empty.
Result<DatasetLocation> parse_dataset_location(std::string_view text);

struct QueryVerifyOptions {
  TrustedKeys trusted;
  std::vector<DatasetLocation> datasets;
  // How the copies of the datasets are verified (jobs, store, ...); expect_head and
  // expect_dataset_id are set for each tie.
  odf::VerifyOptions verify;
  uint64_t max_bytes = kMaxAnswerBytes;
};

// The options as a command line, Python or the C ABI gives them.
struct QueryVerifyArgs {
  std::vector<std::string> trust;        // --trust DID, each an Ed25519 did:key
  std::vector<std::string> trust_files;  // --trust-file FILE (trusted_keys.h)
  std::vector<std::string> datasets;     // --dataset NAME=LOCATION
};

// QueryVerifyOptions from `args` (verify and max_bytes left as default): the DIDs and every
// trust file's keys trusted, the datasets parsed. Errors: a DID that is no Ed25519 did:key
// (kInvalidArgument, kUnsupported for another key type), a trust file that cannot be read or
// holds a bad line, a --dataset that is not NAME=LOCATION, a NAME given twice.
Result<QueryVerifyOptions> query_verify_options(const QueryVerifyArgs& args);

// Checks the answer `text` (see above).
Result<QueryReport> verify_query(std::string_view text, const QueryVerifyOptions& options);

// Reads the answer at `path` ("-": standard input; a regular file or a pipe, bounded by
// options.max_bytes) and checks it.
Result<QueryReport> verify_query_file(const std::string& path, const QueryVerifyOptions& options);

}  // namespace odf_hash::query
