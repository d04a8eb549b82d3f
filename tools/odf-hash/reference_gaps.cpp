#include "reference_gaps.h"

#include "output.h"

namespace odf_hash::cli {

void add_reference_flag(CLI::App* app, bool& require) {
  app->add_flag("--require-reference-compatible", require,
                "Refuse (exit 2) a logical hash that covers a column the reference "
                "arrow-digest, and so kamu, cannot hash (Dictionary, Null type, run-end "
                "encoded, list views): by default a warning");
}

std::vector<ColumnDigest> reference_gaps(const std::vector<ColumnDigest>& columns) {
  std::vector<ColumnDigest> gaps;
  for (const ColumnDigest& c : columns) {
    if (!c.reference_gap.empty()) gaps.push_back(c);
  }
  return gaps;
}

std::string reference_gap_message(const std::string& path, const std::vector<ColumnDigest>& gaps,
                                  bool refused) {
  std::string cols;
  for (const ColumnDigest& c : gaps) {
    if (!cols.empty()) cols += ", ";
    cols += "'" + escape_text(c.path) + "' (" + c.reference_gap + ")";
  }
  std::string m = (refused ? "" : "warning: ") + escape_text(path) +
                  ": the reference arrow-digest (and so kamu) cannot hash column" +
                  (gaps.size() == 1 ? " " : "s ") + cols;
  if (refused) return m + " (--require-reference-compatible)";
  return m +
         ": this hash cannot be checked by kamu (cast such columns to a plain type to "
         "record one it can check; --require-reference-compatible makes this an error)";
}

nlohmann::json reference_gaps_json(const std::vector<ColumnDigest>& gaps) {
  nlohmann::json out = nlohmann::json::array();
  for (const ColumnDigest& c : gaps) {
    out.push_back({{"column", c.path}, {"type", c.type}, {"reason", c.reference_gap}});
  }
  return out;
}

}  // namespace odf_hash::cli
