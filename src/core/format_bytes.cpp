#include "odf_hash/format_bytes.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iterator>

namespace odf_hash {

std::string format_bytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", value, kUnits[unit]);
  return buf;
}

Result<uint64_t> parse_byte_size(std::string_view s) {
  auto refuse = [&] {
    return Status::invalid_argument(
        "\"" + std::string(s.substr(0, 40)) + (s.size() > 40 ? "...\"" : "\"") +
        " is not a size: give whole bytes, optionally with a suffix K, M, G or T (1024-based), "
        "e.g. 8G or 500000000");
  };
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data()) return refuse();
  const std::string_view suffix(p, static_cast<size_t>(s.data() + s.size() - p));
  unsigned shift = 0;
  if (!suffix.empty()) {
    static constexpr std::string_view kUnits = "KMGT";
    const size_t unit = kUnits.find(suffix[0]);
    if (unit == std::string_view::npos || (suffix.size() != 1 && suffix.substr(1) != "iB")) {
      return refuse();
    }
    shift = 10 * static_cast<unsigned>(unit + 1);
  }
  if (shift > 0 && v > (UINT64_MAX >> shift)) return refuse();
  return v << shift;
}

Result<uint64_t> byte_size_from_env(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  Result<uint64_t> v = parse_byte_size(text);
  if (!v.is_ok()) return Status::invalid_argument(std::string(name) + "=" + v.status().message());
  return v;
}

}  // namespace odf_hash
