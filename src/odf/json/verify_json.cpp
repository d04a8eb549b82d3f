#include "odf_hash/odf/verify_json.h"

#include <nlohmann/json.hpp>

#include "odf_hash/core/text.h"
#include "odf_hash/internal/odf/problem_json.h"
#include "scope_json.h"

namespace odf_hash::odf {

std::string verify_report_json(const DatasetReport& r, int indent) {
  nlohmann::json j;
  j["path"] = redact_url(r.path);
  j["kind"] = r.kind ? nlohmann::json(dataset_kind_name(*r.kind)) : nlohmann::json();
  j["dataset_id"] = r.dataset_id ? nlohmann::json(*r.dataset_id) : nlohmann::json();
  j["head"] = r.head ? nlohmann::json(r.head->to_string()) : nlohmann::json();
  j["blocks"] = r.blocks;
  j["chain_complete"] = r.chain_complete;
  j["unexpected_checked"] = r.unexpected_checked;
  j["valid"] = r.valid();
  j["verdict"] = r.verdict();
  j["logical_fallbacks"] = r.logical_fallbacks();
  j["linked_objects"] = {{"checked", r.linked_objects()}, {"matched", r.linked_objects_matched()}};
  j["files"] = nlohmann::json::array();
  for (const auto& f : r.files) j["files"].push_back(detail::file_check_to_json(f));
  j["problems"] = nlohmann::json::array();
  for (const auto& p : r.problems) j["problems"].push_back(detail::problem_to_json(p));
  j["unreferenced"] = detail::unreferenced_to_json(r);
  j["scope"] = detail::scope_to_json(r.scope);
  // Paths and messages can hold bytes that are not UTF-8 (file names are bytes): replace
  // them rather than fail.
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace odf_hash::odf
