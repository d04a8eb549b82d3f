#include "odf_hash/verify_pins.h"

#include "odf_hash/open_store.h"

namespace odf_hash::odf {

namespace {

// "ds/" and "ds" name the same dataset; a URL is compared without its user information.
std::string dataset_key(std::string_view dataset) {
  std::string s = redact_url(std::string(dataset));
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

}  // namespace

PinFile PinFile::parse(std::string_view text) {
  CheckList list = parse_check_list(text);
  PinFile f;
  f.entries_ = std::move(list.entries);
  f.problems_ = std::move(list.problems);
  return f;
}

std::optional<Multihash> PinFile::find(std::string_view dataset) const {
  const std::string key = dataset_key(dataset);
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
    if (dataset_key(it->path) == key) return it->expected;
  }
  return std::nullopt;
}

void PinFile::set(std::string_view dataset, const Multihash& head) {
  const std::string key = dataset_key(dataset);
  bool replaced = false;
  std::vector<CheckListEntry> kept;
  for (auto& e : entries_) {
    if (dataset_key(e.path) != key) {
      kept.push_back(std::move(e));
    } else if (!replaced) {
      e.expected = head;
      e.path = redact_url(std::string(dataset));
      kept.push_back(std::move(e));
      replaced = true;
    }
  }
  if (!replaced) kept.push_back(CheckListEntry{head, redact_url(std::string(dataset)), 0});
  entries_ = std::move(kept);
}

std::string PinFile::to_text() const {
  std::string out;
  for (const auto& e : entries_) out += format_check_line(e.expected, e.path) + "\n";
  return out;
}

}  // namespace odf_hash::odf
