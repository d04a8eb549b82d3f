// Text for people and for messages: byte counts, URL redaction, escaping
// (include/odf_hash/core/text.h).
#include "odf_hash/core/text.h"

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

// Each "scheme://" starts an authority that ends at '/', '?', '#', whitespace or the end (not
// at a quote or '<': curl takes those in a password, "http://u:it's@host/"); its user
// information is what comes before its last '@'. A password holding '/', '?', '#' or a space
// (which curl refuses, but a user may type) ends the authority early: "u:pa/ss@host" shows
// as an authority "u:pa" with a port that is not a number. Such an authority is taken as user
// information up to the next '@' on the line (or whole, without one), so that no part of the
// password is shown. A port (digits after the host's ':', an IPv6 "[...]:port") is kept.
std::string redact_url(std::string_view text) {
  constexpr std::string_view kAuthorityEnd = "/?#\t\r\n ";
  std::string out;
  out.reserve(text.size());
  size_t done = 0;
  for (size_t sep = text.find("://"); sep != std::string_view::npos;
       sep = text.find("://", sep + 3)) {
    const size_t start = sep + 3;
    if (start < done) continue;  // inside user information already hidden
    size_t end = text.find_first_of(kAuthorityEnd, start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view authority = text.substr(start, end - start);
    if (authority.empty()) continue;
    size_t hide = std::string_view::npos;  // hide text[start, hide)
    if (const size_t at = authority.rfind('@'); at != std::string_view::npos) {
      hide = start + at;
    } else {
      // "host:port" or "[v6]:port" is an authority; "user:secret" with no '@' before the
      // first '/', '?', '#' or space is a password that holds one of them.
      const size_t host_end = authority.front() == '[' ? authority.find(']') : 0;
      const size_t colon =
          authority.find(':', host_end == std::string_view::npos ? authority.size() : host_end);
      const std::string_view port =
          colon == std::string_view::npos ? std::string_view() : authority.substr(colon + 1);
      const bool credentials = colon != std::string_view::npos &&
                               port.find_first_not_of("0123456789") != std::string_view::npos;
      if (credentials) {
        const size_t line_end = text.find_first_of("\r\n", end);
        const size_t next_at = text.substr(0, line_end).find('@', end);
        hide = next_at != std::string_view::npos ? next_at : end;
      }
    }
    if (hide == std::string_view::npos) continue;
    out.append(text.substr(done, start - done));
    out += "***";
    done = hide;  // from the '@' (or the end of the authority) on
  }
  out.append(text.substr(done));
  return out;
}

std::string escape_untrusted(std::string_view text, size_t max_chars) {
  std::string out;
  size_t shown = 0;
  for (unsigned char c : text) {
    if (shown == max_chars) {
      out += "\xE2\x80\xA6";  // U+2026 HORIZONTAL ELLIPSIS
      return out;
    }
    if (c == '\\' || c == '"') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
    ++shown;
  }
  return out;
}

std::string escape_text(std::string_view raw) {
  const std::string text = redact_url(raw);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace odf_hash
