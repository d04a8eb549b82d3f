#include "scope_json.h"

#include "odf_hash/internal/odf/problem_json.h"

namespace odf_hash::odf::detail {

using nlohmann::json;

namespace {

json hash_or_null(const std::optional<Multihash>& h) {
  return h ? json(h->to_string()) : json();
}
json u64_or_null(const std::optional<uint64_t>& v) {
  return v ? json(*v) : json();
}

}  // namespace

json scope_to_json(const VerifyScope& s) {
  json sample;
  if (s.sampled) {
    sample = json{{"spec", s.sample_spec},
                  {"seed", s.sample_seed},
                  {"files_checked", s.files_checked},
                  {"files_total", s.files_total},
                  {"bytes_checked", s.bytes_checked},
                  {"bytes_total", s.bytes_total}};
  }
  json ipfs;
  if (!s.ipfs_gateway.empty()) {
    ipfs = json{{"gateway", s.ipfs_gateway}, {"verified", s.ipfs_verified}};
  }
  return json{
      {"complete", !s.partial()},
      {"expected_head", hash_or_null(s.expected_head)},
      {"expected_head_found", s.expected_head_found},
      {"expected_head_sequence", u64_or_null(s.expected_head_sequence)},
      {"expected_dataset_id", s.expected_dataset_id ? json(*s.expected_dataset_id) : json()},
      {"since", hash_or_null(s.since)},
      {"since_found", s.since_found},
      {"since_sequence", u64_or_null(s.since_sequence)},
      {"kind_inferred", s.kind_inferred},
      {"deep", s.deep},
      {"sample", std::move(sample)},
      {"ipfs", std::move(ipfs)},
      {"skipped", s.skipped}};
}

Result<VerifyScope> scope_from_json(const json& j, const std::string& where) {
  if (!j.is_object()) return Status::parse_error(where + ": expected an object");
  VerifyScope s;
  ODF_HASH_ASSIGN_OR_RETURN(s.expected_head, json_optional_hash(j, where, "expected_head"));
  ODF_HASH_ASSIGN_OR_RETURN(s.expected_head_found, json_bool(j, where, "expected_head_found"));
  ODF_HASH_ASSIGN_OR_RETURN(s.expected_head_sequence,
                            json_optional_u64(j, where, "expected_head_sequence"));
  // Optional (null or absent): plans written before pins recorded dataset ids.
  ODF_HASH_ASSIGN_OR_RETURN(s.expected_dataset_id,
                            json_optional_string(j, where, "expected_dataset_id"));
  ODF_HASH_ASSIGN_OR_RETURN(s.since, json_optional_hash(j, where, "since"));
  ODF_HASH_ASSIGN_OR_RETURN(s.since_found, json_bool(j, where, "since_found"));
  ODF_HASH_ASSIGN_OR_RETURN(s.since_sequence, json_optional_u64(j, where, "since_sequence"));
  ODF_HASH_ASSIGN_OR_RETURN(s.kind_inferred, json_bool(j, where, "kind_inferred"));
  ODF_HASH_ASSIGN_OR_RETURN(s.deep, json_bool(j, where, "deep"));
  ODF_HASH_ASSIGN_OR_RETURN(const json* sample, json_field(j, where, "sample"));
  if (!sample->is_null()) {
    const std::string w = where + ".sample";
    if (!sample->is_object()) return Status::parse_error(w + ": expected an object or null");
    s.sampled = true;
    ODF_HASH_ASSIGN_OR_RETURN(s.sample_spec, json_string(*sample, w, "spec"));
    ODF_HASH_ASSIGN_OR_RETURN(s.sample_seed, json_u64(*sample, w, "seed"));
    ODF_HASH_ASSIGN_OR_RETURN(s.files_checked, json_u64(*sample, w, "files_checked"));
    ODF_HASH_ASSIGN_OR_RETURN(s.files_total, json_u64(*sample, w, "files_total"));
    ODF_HASH_ASSIGN_OR_RETURN(s.bytes_checked, json_u64(*sample, w, "bytes_checked"));
    ODF_HASH_ASSIGN_OR_RETURN(s.bytes_total, json_u64(*sample, w, "bytes_total"));
  }
  // "ipfs" is optional: plans written before it have none.
  if (auto ipfs = j.find("ipfs"); ipfs != j.end() && !ipfs->is_null()) {
    const std::string w = where + ".ipfs";
    if (!ipfs->is_object()) return Status::parse_error(w + ": expected an object or null");
    ODF_HASH_ASSIGN_OR_RETURN(s.ipfs_gateway, json_string(*ipfs, w, "gateway"));
    ODF_HASH_ASSIGN_OR_RETURN(s.ipfs_verified, json_bool(*ipfs, w, "verified"));
    if (s.ipfs_gateway.empty()) return Status::parse_error(w + ".gateway: expected a URL");
  }
  ODF_HASH_ASSIGN_OR_RETURN(const json* skipped, json_field(j, where, "skipped"));
  if (!skipped->is_array()) return Status::parse_error(where + ".skipped: expected a list");
  for (const json& e : *skipped) {
    if (!e.is_string()) return Status::parse_error(where + ".skipped: expected strings");
    s.skipped.push_back(e.get<std::string>());
  }
  return s;
}

}  // namespace odf_hash::odf::detail
