// Reading a query answer's envelope (answer.h).
#include "answer.h"

#include <span>
#include <string>
#include <utility>

#include "json_tree.h"
#include "odf_hash/core/multibase.h"
#include "odf_hash/core/text.h"
#include "odf_hash/odf/verify_pins.h"

namespace odf_hash::query::detail {

namespace {

constexpr std::string_view kAnswerMembers[] = {"commitment", "input", "output", "proof",
                                               "subQueries"};
constexpr std::string_view kSubQueryMembers[] = {"commitment", "input", "proof", "subQueries"};
constexpr std::string_view kCommitmentMembers[] = {"inputHash", "outputHash", "subQueriesHash"};
constexpr std::string_view kProofMembers[] = {"proofValue", "type", "verificationMethod"};

// Containers read as a tree: each query (the answer, subQueries[i] of a query), its input,
// commitment, proof and subQueries, and input.datasets with its entries. The rest (the
// output above all) is kept as canonical text.
bool keep_open(std::span<const PathStep> path) {
  size_t i = 0;
  while (i < path.size()) {
    const PathStep& s = path[i];
    const size_t rest = path.size() - i - 1;  // steps below s
    if (s.in_array) return false;
    if (s.key == "subQueries") {
      if (rest == 0) return true;
      if (!path[i + 1].in_array) return false;
      i += 2;  // a sub-query
      continue;
    }
    if (s.key == "commitment" || s.key == "proof") return rest == 0;
    if (s.key != "input") return false;
    if (rest == 0) return true;
    if (path[i + 1].in_array || path[i + 1].key != "datasets") return false;
    return rest == 1 || (rest == 2 && path[i + 2].in_array);
  }
  return true;  // a query
}

Status malformed(const std::string& where, const std::string& why) {
  return Status::parse_error("malformed answer: " + where + ": " + why);
}

std::string at(const std::string& path, std::string_view member) {
  return path.empty() ? std::string(member) : path + "." + std::string(member);
}

// The object's members must be exactly `names`.
Status check_members(const JsonNode& object, const std::string& where,
                     std::span<const std::string_view> names) {
  if (!object.is_object()) {
    return malformed(where.empty() ? "the answer" : where,
                     std::string(kind_description(object)) + ", not an object");
  }
  for (std::string_view name : names) {
    if (object.get(name) == nullptr) return malformed(at(where, name), "missing");
  }
  for (const auto& [key, value] : object.members) {
    bool known = false;
    for (std::string_view name : names) known = known || key == name;
    if (!known) {
      return malformed(where.empty() ? "the answer" : where,
                       "a member \"" + escape_untrusted(key, 64) +
                           "\" that kamu does not write (a signature could not cover it)");
    }
  }
  return Status::ok();
}

Result<std::string> string_member(const JsonNode& object, const std::string& where,
                                  std::string_view name) {
  const JsonNode* v = object.get(name);
  if (v == nullptr) return malformed(at(where, name), "missing");
  if (!v->is_string())
    return malformed(at(where, name), std::string(kind_description(*v)) + ", not a string");
  return v->text;
}

Result<Multihash> hash_member(const JsonNode& object, const std::string& where,
                              std::string_view name) {
  auto text = string_member(object, where, name);
  if (!text.is_ok()) return text.status();
  auto hash = Multihash::parse(*text);
  if (!hash.is_ok()) return malformed(at(where, name), hash.status().message());
  return *hash;
}

Digest256 digest_of(const JsonNode& node) {
  Sha3_256 hasher;
  write_canonical(node, [&](std::string_view piece) { hasher.update(piece); });
  return hasher.finalize();
}

Status read_commitment(const JsonNode& c, const std::string& where, QueryEnvelope& q) {
  ODF_HASH_RETURN_IF_ERROR(check_members(c, where, kCommitmentMembers));
  ODF_HASH_ASSIGN_OR_RETURN(q.committed_input, hash_member(c, where, "inputHash"));
  ODF_HASH_ASSIGN_OR_RETURN(q.committed_output, hash_member(c, where, "outputHash"));
  ODF_HASH_ASSIGN_OR_RETURN(q.committed_sub_queries, hash_member(c, where, "subQueriesHash"));
  // kamu signs its own serialization of the commitment (its Multihash type writes "f1620…").
  q.commitment_message = "{\"inputHash\":\"" + q.committed_input.to_string() +
                         "\",\"outputHash\":\"" + q.committed_output.to_string() +
                         "\",\"subQueriesHash\":\"" + q.committed_sub_queries.to_string() + "\"}";
  return Status::ok();
}

Status read_proof(const JsonNode& p, const std::string& where, QueryEnvelope& q) {
  ODF_HASH_RETURN_IF_ERROR(check_members(p, where, kProofMembers));
  ODF_HASH_ASSIGN_OR_RETURN(q.proof_type, string_member(p, where, "type"));
  ODF_HASH_ASSIGN_OR_RETURN(q.key, string_member(p, where, "verificationMethod"));
  ODF_HASH_ASSIGN_OR_RETURN(std::string value, string_member(p, where, "proofValue"));
  if (q.proof_type != kEd25519Signature2020) return Status::ok();  // not decoded: unsupported
  // kamu reads a signature in base16, base64url or base58btc.
  const bool kamu_base =
      !value.empty() && (value[0] == 'f' || value[0] == 'F' || value[0] == 'u' || value[0] == 'z');
  auto bytes = kamu_base ? multibase::decode(value)
                         : Result<std::vector<uint8_t>>(Status::invalid_argument(
                               "kamu writes a signature in base64url ('u'), base16 or base58btc"));
  if (!bytes.is_ok()) return malformed(at(where, "proofValue"), bytes.status().message());
  if (bytes->size() != 64) {
    return malformed(at(where, "proofValue"),
                     "an Ed25519 signature is 64 bytes, this one " + std::to_string(bytes->size()));
  }
  q.signature = std::move(*bytes);
  return Status::ok();
}

Status read_datasets(const JsonNode& input, const std::string& where, QueryEnvelope& q) {
  const JsonNode* list = input.get("datasets");
  if (list == nullptr || list->is_null()) return Status::ok();
  const std::string list_at = at(where, "datasets");
  if (!list->is_array()) {
    return malformed(list_at, std::string(kind_description(*list)) + ", not an array");
  }
  for (size_t i = 0; i < list->items.size(); ++i) {
    const JsonNode& d = list->items[i];
    const std::string d_at = list_at + "[" + std::to_string(i) + "]";
    if (!d.is_object())
      return malformed(d_at, std::string(kind_description(d)) + ", not an object");
    DatasetRef ref;
    ODF_HASH_ASSIGN_OR_RETURN(std::string id, string_member(d, d_at, "id"));
    auto canonical = odf::canonical_dataset_id(id);
    if (!canonical.is_ok()) return malformed(at(d_at, "id"), canonical.status().message());
    ref.id = std::move(*canonical);
    ODF_HASH_ASSIGN_OR_RETURN(ref.alias, string_member(d, d_at, "alias"));
    if (const JsonNode* b = d.get("blockHash"); b != nullptr && !b->is_null()) {
      ODF_HASH_ASSIGN_OR_RETURN(ref.block_hash, hash_member(d, d_at, "blockHash"));
    }
    q.datasets.push_back(std::move(ref));
  }
  return Status::ok();
}

// Reads the query at `node` (its path `where`, `level` sub-queries deep), then its
// sub-queries, into `out`.
Status read_query(const JsonNode& node, const std::string& where, size_t level,
                  std::vector<QueryEnvelope>& out) {
  const bool is_answer = level == 0;
  if (level > kMaxSubQueryLevels) {
    return malformed(
        where, "sub-queries nested deeper than " + std::to_string(kMaxSubQueryLevels) + " levels");
  }
  ODF_HASH_RETURN_IF_ERROR(
      check_members(node, where,
                    is_answer ? std::span<const std::string_view>(kAnswerMembers)
                              : std::span<const std::string_view>(kSubQueryMembers)));
  QueryEnvelope q;
  q.path = where;
  const JsonNode& input = *node.get("input");
  if (!input.is_object()) {
    return malformed(at(where, "input"), std::string(kind_description(input)) + ", not an object");
  }
  ODF_HASH_ASSIGN_OR_RETURN(q.query, string_member(input, at(where, "input"), "query"));
  ODF_HASH_RETURN_IF_ERROR(read_datasets(input, at(where, "input"), q));
  q.input_digest = digest_of(input);
  if (is_answer) q.output_digest = digest_of(*node.get("output"));
  const JsonNode& subs = *node.get("subQueries");
  if (!subs.is_array()) {
    return malformed(at(where, "subQueries"),
                     std::string(kind_description(subs)) + ", not an array");
  }
  q.sub_queries_digest = digest_of(subs);
  q.sub_query_count = subs.items.size();
  ODF_HASH_RETURN_IF_ERROR(read_commitment(*node.get("commitment"), at(where, "commitment"), q));
  ODF_HASH_RETURN_IF_ERROR(read_proof(*node.get("proof"), at(where, "proof"), q));
  out.push_back(std::move(q));
  for (size_t i = 0; i < subs.items.size(); ++i) {
    ODF_HASH_RETURN_IF_ERROR(read_query(
        subs.items[i], at(where, "subQueries") + "[" + std::to_string(i) + "]", level + 1, out));
  }
  return Status::ok();
}

}  // namespace

Result<std::vector<QueryEnvelope>> read_answer(std::string_view text) {
  auto root = parse_json(text, keep_open);
  if (!root.is_ok()) return root.status();
  std::vector<QueryEnvelope> out;
  ODF_HASH_RETURN_IF_ERROR(read_query(*root, "", 0, out));
  return out;
}

}  // namespace odf_hash::query::detail
