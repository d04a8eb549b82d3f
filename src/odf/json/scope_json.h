// Internal: a report's VerifyScope as JSON (the "scope" object of verify_json.h), written by
// the report and plan writers and read back by the plan parser.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "odf_hash/core/status.h"
#include "odf_hash/odf/verify.h"

namespace odf_hash::odf::detail {

nlohmann::json scope_to_json(const VerifyScope& scope);
// Untrusted input: every field checked; `where` names the object in errors.
Result<VerifyScope> scope_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace odf_hash::odf::detail
