// Canonical locations of datasets (include/odf_hash/internal/remote/location.h).
#include "odf_hash/internal/remote/location.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "odf_hash/core/text.h"
#include "odf_hash/remote/open_store.h"

namespace odf_hash {

namespace {

std::vector<std::string> split_path(std::string_view text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('/', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) parts.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// Appends `parts` to `out`, "." dropped and ".." taking the last component off.
void append_resolved(std::vector<std::string>& out, const std::vector<std::string>& parts) {
  for (const auto& p : parts) {
    if (p == ".") continue;
    if (p == "..") {
      if (!out.empty()) out.pop_back();
      continue;
    }
    out.push_back(p);
  }
}

std::string join_path(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += "/" + p;
  return s.empty() ? "/" : s;
}

std::optional<std::string> real_path(const std::string& path) {
  std::unique_ptr<char, decltype(&std::free)> r(::realpath(path.c_str(), nullptr), &std::free);
  if (!r) return std::nullopt;
  return std::string(r.get());
}

// The real path of the nearest existing ancestor, then the rest resolved by text.
std::string canonical_local(std::string_view text) {
  std::string absolute(text);
  if (absolute.front() != '/') {
    std::error_code ec;
    const std::filesystem::path cwd = std::filesystem::current_path(ec);
    if (!ec) absolute = cwd.string() + "/" + absolute;
  }
  const std::vector<std::string> parts = split_path(absolute);
  for (size_t n = parts.size() + 1; n-- > 0;) {
    const std::vector<std::string> head(parts.begin(), parts.begin() + static_cast<long>(n));
    std::optional<std::string> real = real_path(join_path(head));
    if (!real) continue;
    std::vector<std::string> out = split_path(*real);
    append_resolved(out,
                    std::vector<std::string>(parts.begin() + static_cast<long>(n), parts.end()));
    return join_path(out);
  }
  std::vector<std::string> out;  // not even "/" resolves: by text only
  append_resolved(out, parts);
  return join_path(out);
}

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = lower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool unreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

// RFC 3986 6.2.2.2: "%7e" -> "~", "%2f" -> "%2F".
std::string normalise_percent(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    const bool escape = path[i] == '%' && i + 2 < path.size();
    const int hi = escape ? hex_value(path[i + 1]) : -1;
    const int lo = hi >= 0 ? hex_value(path[i + 2]) : -1;
    if (hi < 0 || lo < 0) {
      out += path[i];
      continue;
    }
    const char c = static_cast<char>(hi * 16 + lo);
    if (unreserved(c)) {
      out += c;
    } else {
      out += {'%', kHex[hi], kHex[lo]};
    }
    i += 2;
  }
  return out;
}

std::string canonical_url(std::string_view text) {
  const std::string redacted = redact_url(text);  // no part of a password survives
  const size_t sep = redacted.find("://");
  std::string scheme = redacted.substr(0, sep);
  for (char& c : scheme) c = lower(c);
  std::string_view rest = std::string_view(redacted).substr(sep + 3);
  const size_t authority_end = std::min(rest.find_first_of("/?#"), rest.size());
  std::string authority(rest.substr(0, authority_end));
  if (const size_t at = authority.rfind('@'); at != std::string::npos) {
    authority.erase(0, at + 1);
  }
  if (scheme == "http" || scheme == "https") {
    for (char& c : authority) c = lower(c);
    const size_t bracket = authority.rfind(']');
    const size_t colon = authority.rfind(':');
    if (colon != std::string::npos && (bracket == std::string::npos || colon > bracket)) {
      const std::string port = authority.substr(colon + 1);
      if (port.empty() || (scheme == "http" && port == "80") ||
          (scheme == "https" && port == "443")) {
        authority.erase(colon);
      }
    }
  }
  std::string_view tail = rest.substr(authority_end);
  const size_t query = std::min(tail.find_first_of("?#"), tail.size());
  std::vector<std::string> segments;
  append_resolved(segments, split_path(normalise_percent(tail.substr(0, query))));
  std::string out = scheme + "://" + authority;
  if (!segments.empty()) out += join_path(segments);
  return out + std::string(tail.substr(query));
}

}  // namespace

std::string canonical_location(std::string_view url_or_path) {
  if (url_or_path.empty()) return "";
  if (is_store_url(url_or_path)) return canonical_url(url_or_path);
  return canonical_local(url_or_path);
}

}  // namespace odf_hash
