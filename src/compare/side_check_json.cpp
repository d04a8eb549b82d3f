// side_check_json (compare_json.h): a dataset comparison's side, as verified, in verify's terms.
#include <nlohmann/json.hpp>

#include "odf_hash/compare/compare_json.h"
#include "odf_hash/internal/odf/problem_json.h"

namespace odf_hash::compare {

std::string side_check_json(const SideCheck& c, int indent) {
  nlohmann::json j{
      {"vouched", c.vouched()},
      {"head", c.head ? nlohmann::json(c.head->to_string()) : nlohmann::json()},
      {"kind", c.kind ? nlohmann::json(odf::dataset_kind_name(*c.kind)) : nlohmann::json()},
      {"chain_complete", c.chain_complete},
      {"problems", nlohmann::json::array()},
      {"files", nlohmann::json::array()},
      {"files_read", c.tasks.size()},
      {"files_unchecked", c.files_unchecked}};
  for (const auto& p : c.problems) j["problems"].push_back(odf::detail::problem_to_json(p));
  for (const auto& f : c.files) j["files"].push_back(odf::detail::file_check_to_json(f));
  j["unreached"] = c.unreached
                       ? nlohmann::json{{"start", c.unreached->start}, {"end", c.unreached->end}}
                       : nlohmann::json();
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace odf_hash::compare
