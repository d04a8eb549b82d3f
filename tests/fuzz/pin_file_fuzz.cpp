// Fuzzes pin-file parsing (untrusted text given to `odf-hash verify --pins`, verify_pins.h).
// Beyond "no crash, no hang", checks invariants: an error names a line within the text, no
// two pins of a parsed file share a location, every dataset id is canonical, and the file's
// text (to_text) parses again to the same pins.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "odf_hash/odf/verify_pins.h"

namespace {

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "pin_file_fuzz: invariant violated: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using odf_hash::odf::PinFile;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  if (!text.empty() && text.back() != '\n') ++lines;

  auto parsed = PinFile::parse(text);
  if (!parsed.is_ok()) {
    const std::string m = parsed.status().message();
    require(m.starts_with("line "), "an error without its line");
    const size_t line = std::strtoull(m.c_str() + 5, nullptr, 10);
    require(line >= 1 && line <= lines, "error line number out of range");
    return 0;
  }
  std::set<std::string> keys;
  for (const auto& pin : parsed->pins()) {
    require(pin.line >= 1 && pin.line <= lines, "pin line number out of range");
    require(keys.insert(pin.key).second, "two pins of one location");
    if (pin.dataset_id) {
      auto again = odf_hash::odf::canonical_dataset_id(*pin.dataset_id);
      require(again.is_ok() && *again == *pin.dataset_id, "a dataset id that is not canonical");
    }
  }
  auto reparsed = PinFile::parse(parsed->to_text());
  require(reparsed.is_ok(), "to_text does not parse");
  require(reparsed->pins().size() == parsed->pins().size(), "pins lost in a round trip");
  for (size_t i = 0; i < parsed->pins().size(); ++i) {
    const auto& a = parsed->pins()[i];
    const auto& b = reparsed->pins()[i];
    require(a.head == b.head && a.dataset_id == b.dataset_id && a.location == b.location &&
                a.key == b.key,
            "a pin changed in a round trip");
  }
  return 0;
}
