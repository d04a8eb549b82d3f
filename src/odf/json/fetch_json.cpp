#include "odf_hash/odf/fetch_json.h"

#include <nlohmann/json.hpp>

#include "odf_hash/core/text.h"
#include "odf_hash/internal/odf/problem_json.h"

namespace odf_hash::odf {

std::string fetch_report_json(const FetchReport& r, int indent) {
  auto hash = [](const std::optional<Multihash>& h) {
    return h ? nlohmann::json(h->to_string()) : nlohmann::json(nullptr);
  };
  auto number = [](const std::optional<uint64_t>& n) {
    return n ? nlohmann::json(*n) : nlohmann::json(nullptr);
  };
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : r.files) {
    files.push_back({{"file", f.file},
                     {"role", file_role_name(f.role)},
                     {"size", f.size},
                     {"how", fetched_how_name(f.how)},
                     {"bytes_transferred", f.bytes_transferred}});
  }
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& p : r.problems) problems.push_back(detail::problem_to_json(p));
  nlohmann::json j = {
      {"source", redact_url(r.source)},
      {"dest", r.dest},
      {"verdict", r.verdict()},
      {"fetched", r.fetched()},
      {"rejected", r.rejected()},
      {"source_head", hash(r.source_head)},
      {"source_sequence", number(r.source_sequence)},
      {"dataset_id", r.dataset_id ? nlohmann::json(*r.dataset_id) : nlohmann::json(nullptr)},
      {"old_head", hash(r.old_head)},
      {"old_sequence", number(r.old_sequence)},
      {"head", hash(r.head)},
      {"blocks_fetched", r.blocks_fetched},
      {"up_to_date", r.up_to_date},
      {"dest_ahead", r.dest_ahead},
      {"forced", r.forced},
      {"bytes_transferred", r.bytes_transferred()},
      {"files", std::move(files)},
      {"problems", std::move(problems)},
      {"skipped", r.skipped}};
  return j.dump(indent);
}

}  // namespace odf_hash::odf
