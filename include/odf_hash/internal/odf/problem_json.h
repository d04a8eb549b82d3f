// Internal: one Problem (and one file check) as a JSON object (verify_json.h gives the
// fields), written by the report and the plan writers and read back by the plan and result
// parsers.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "odf_hash/core/status.h"
#include "odf_hash/odf/verify.h"

namespace odf_hash::odf::detail {

nlohmann::json problem_to_json(const Problem& p);

// One file check of a report: {"role", "file", "block", "sequence_number", "outcome",
// "actual_physical"?, "logical"?, "size"?} (verify_json.h).
nlohmann::json file_check_to_json(const FileCheck& f);

// The unreferenced section: {"count", "bytes", "strict", "entries": [{"file", "kind", "size",
// "link_target" (null unless a link), "broken_link", "canonical_name" (or null)}]}.
nlohmann::json unreferenced_to_json(const DatasetReport& r);
// That section read into r.unreferenced and r.strict (`where` names it), every field checked.
Status unreferenced_from_json(const nlohmann::json& j, const std::string& where, DatasetReport& r);

// `where` names the object in errors ("problems[3]"). Untrusted input: every field checked.
Result<Problem> problem_from_json(const nlohmann::json& j, const std::string& where);

// The "link" field of a problem or a task: null (or absent), or {"data_file", "column", "row"}.
Result<std::optional<LinkRef>> link_from_json(const nlohmann::json& j, const std::string& where);

// Typed reads of untrusted JSON fields: kParseError "<where>.<key>: ..." when the field is
// missing or of another type. The optional forms accept null (and a missing key).
Result<const nlohmann::json*> json_field(const nlohmann::json& j, const std::string& where,
                                         const char* key);
Result<std::string> json_string(const nlohmann::json& j, const std::string& where, const char* key);
Result<std::optional<std::string>> json_optional_string(const nlohmann::json& j,
                                                        const std::string& where, const char* key);
Result<uint64_t> json_u64(const nlohmann::json& j, const std::string& where, const char* key);
Result<std::optional<uint64_t>> json_optional_u64(const nlohmann::json& j, const std::string& where,
                                                  const char* key);
Result<bool> json_bool(const nlohmann::json& j, const std::string& where, const char* key);
Result<Multihash> json_hash(const nlohmann::json& j, const std::string& where, const char* key);
Result<std::optional<Multihash>> json_optional_hash(const nlohmann::json& j,
                                                    const std::string& where, const char* key);

}  // namespace odf_hash::odf::detail
