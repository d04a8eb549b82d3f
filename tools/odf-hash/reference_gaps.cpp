#include "reference_gaps.h"

#include <algorithm>
#include <utility>

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

std::vector<ColumnDigest> hash_notes(const std::vector<ColumnDigest>& columns) {
  std::vector<ColumnDigest> noted;
  for (const ColumnDigest& c : columns) {
    if (!c.hash_note.empty()) noted.push_back(c);
  }
  return noted;
}

std::vector<std::string> hash_note_messages(const std::string& path,
                                            const std::vector<ColumnDigest>& noted) {
  // One line per note, naming its columns (a wide nested table: one line, not hundreds).
  std::vector<std::pair<std::string, std::string>> lines;  // note, columns
  std::vector<size_t> counts;
  for (const ColumnDigest& c : noted) {
    auto it = std::find_if(lines.begin(), lines.end(),
                           [&](const auto& l) { return l.first == c.hash_note; });
    if (it == lines.end()) {
      lines.emplace_back(c.hash_note, "");
      counts.push_back(0);
      it = lines.end() - 1;
    }
    const size_t i = size_t(it - lines.begin());
    it->second += (counts[i]++ ? ", '" : "'") + escape_text(c.path) + "'";
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    out.push_back("warning: " + escape_text(path) + (counts[i] == 1 ? ": column " : ": columns ") +
                  lines[i].second + ": " + lines[i].first);
  }
  return out;
}

nlohmann::json hash_notes_json(const std::vector<ColumnDigest>& noted) {
  nlohmann::json out = nlohmann::json::array();
  for (const ColumnDigest& c : noted) out.push_back({{"column", c.path}, {"note", c.hash_note}});
  return out;
}

}  // namespace odf_hash::cli
