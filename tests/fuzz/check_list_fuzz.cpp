// Fuzzes check-list parsing (untrusted text given to `odf-hash physical --check`).
// Beyond "no crash, no hang", checks invariants: every problem and entry has a line number
// within the text, entries come in line order, and each parsed entry survives a
// format_check_line / parse_check_line round trip unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "odf_hash/core/check_list.h"

namespace {

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "check_list_fuzz: invariant violated: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  if (!text.empty() && text.back() != '\n') ++lines;

  odf_hash::CheckList list = odf_hash::parse_check_list(text);
  size_t previous = 0;
  for (const auto& entry : list.entries) {
    require(entry.line >= 1 && entry.line <= lines, "entry line number out of range");
    require(entry.line > previous, "entries out of order");
    previous = entry.line;
    require(!entry.path.empty(), "entry with an empty path");
    std::string again = odf_hash::format_check_line(entry.expected, entry.path);
    auto reparsed = odf_hash::parse_check_line(again, entry.line);
    require(reparsed.is_ok() && reparsed->has_value(), "formatted line does not parse");
    require((*reparsed)->path == entry.path, "path changed in a round trip");
    require((*reparsed)->expected == entry.expected, "hash changed in a round trip");
  }
  for (const auto& problem : list.problems) {
    require(problem.line >= 1 && problem.line <= lines, "problem line number out of range");
    require(!problem.reason.empty(), "problem without a reason");
  }
  return 0;
}
