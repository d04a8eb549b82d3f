#include "odf_hash/core/check_list.h"

#include "odf_hash/core/sha3.h"

#include <utility>

namespace odf_hash {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A control character other than the newline and carriage return that coreutils escapes by
// name: written as \xHH so that a name cannot drive the terminal it is printed on.
bool is_other_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && c != '\n' && c != '\r') || u == 0x7f;
}

// Undoes format_check_line's escaping of the path.
Result<std::string> unescape_path(std::string_view escaped) {
  std::string out;
  out.reserve(escaped.size());
  for (size_t i = 0; i < escaped.size(); ++i) {
    char c = escaped[i];
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (i + 1 == escaped.size()) {
      return Status::parse_error("escaped path ends in a lone backslash");
    }
    char e = escaped[++i];
    if (e == '\\') {
      out.push_back('\\');
    } else if (e == 'n') {
      out.push_back('\n');
    } else if (e == 'r') {
      out.push_back('\r');
    } else if (e == 'x' && i + 2 < escaped.size() && hex_value(escaped[i + 1]) >= 0 &&
               hex_value(escaped[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_value(escaped[i + 1]) * 16 + hex_value(escaped[i + 2])));
      i += 2;
    } else {
      return Status::parse_error("unknown escape '\\" + std::string(1, e) + "' in path at column " +
                                 std::to_string(i + 1));
    }
  }
  return out;
}

constexpr size_t kDigestHexDigits = 64;

bool is_hex_text(std::string_view text) {
  for (char c : text) {
    if (hex_value(c) < 0) return false;
  }
  return !text.empty();
}

// A bare SHA3-256 digest as the other tools write it: 64 hex digits, either case.
std::optional<Digest256> bare_digest(std::string_view text) {
  if (text.size() != kDigestHexDigits || !is_hex_text(text)) return std::nullopt;
  Digest256 d{};
  for (size_t i = 0; i < d.size(); ++i) {
    d[i] = static_cast<uint8_t>(hex_value(text[2 * i]) * 16 + hex_value(text[2 * i + 1]));
  }
  return d;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'a' && x <= 'z') x = static_cast<char>(x - 'a' + 'A');
    if (y >= 'a' && y <= 'z') y = static_cast<char>(y - 'a' + 'A');
    if (x != y) return false;
  }
  return true;
}

bool is_algorithm_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

// Where a BSD-style line's "(" is: "SHA3-256 (" or "SHA3-256(" at the start of `rest`, the
// name made of algorithm characters only (a multihash is followed by two spaces, never by
// " ("); npos when the line is not in that style.
size_t bsd_open_paren(std::string_view rest) {
  size_t n = 0;
  while (n < rest.size() && is_algorithm_char(rest[n])) ++n;
  if (n == 0 || n == rest.size()) return std::string_view::npos;
  if (rest[n] == '(') return n;
  if (rest[n] == ' ' && n + 1 < rest.size() && rest[n + 1] == '(') return n + 1;
  return std::string_view::npos;
}

Result<std::string> path_of(std::string_view text, bool escaped) {
  if (text.empty()) return Status::parse_error("empty path");
  if (text.find('\0') != std::string_view::npos) {
    return Status::parse_error("path contains a NUL byte");
  }
  if (!escaped) return std::string(text);
  auto unescaped = unescape_path(text);
  if (!unescaped.is_ok()) return Status::parse_error(unescaped.status().message());
  return std::move(unescaped).value();
}

// "SHA3-256 (<path>) = <hex>" (BSD, rhash --bsd, coreutils --tag) or "SHA3-256(<path>)= <hex>"
// (openssl dgst). The path ends at the last ") = " / ")= ", as coreutils reads it, so that a
// path may hold parentheses.
Result<std::optional<CheckListEntry>> parse_bsd_line(std::string_view rest, size_t paren,
                                                     bool escaped, size_t line_number) {
  std::string_view name = rest.substr(0, paren);
  if (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  std::string_view after = rest.substr(paren + 1);
  size_t close = after.rfind(") = ");
  size_t skip = 4;
  if (close == std::string_view::npos) {
    close = after.rfind(")= ");
    skip = 3;
  }
  if (close == std::string_view::npos) {
    return Status::parse_error("BSD-style line without ') = <digest>' after the path");
  }
  if (!equals_ignoring_case(name, "SHA3-256")) {
    return Status::parse_error("the line is a " + std::string(name) +
                               " checksum, not SHA3-256 (the physical hash)");
  }
  std::string_view hex = after.substr(close + skip);
  auto digest = bare_digest(hex);
  if (!digest) {
    return Status::parse_error("a SHA3-256 digest is 64 hex digits, not '" +
                               std::string(hex.substr(0, 80)) + "'");
  }
  auto path = path_of(after.substr(0, close), escaped);
  if (!path.is_ok()) return path.status();
  return std::optional<CheckListEntry>(CheckListEntry{Multihash::sha3_256(*digest),
                                                      std::move(path).value(), line_number,
                                                      CheckLineFormat::kBsdTag});
}

}  // namespace

Result<std::optional<CheckListEntry>> parse_check_line(std::string_view line, size_t line_number) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  size_t start = 0;
  while (start < line.size() && is_blank(line[start])) ++start;
  if (start == line.size() || line[start] == '#') return std::optional<CheckListEntry>();

  bool escaped = false;
  if (line[start] == '\\') {
    escaped = true;
    ++start;
  }
  std::string_view rest = line.substr(start);
  if (size_t paren = bsd_open_paren(rest); paren != std::string_view::npos) {
    return parse_bsd_line(rest, paren, escaped, line_number);
  }
  size_t space = rest.find(' ');
  if (space == std::string_view::npos) {
    return Status::parse_error("no path after the hash (expected '<hash>  <path>')");
  }
  std::string_view hash_text = rest.substr(0, space);
  if (space + 1 >= rest.size() || (rest[space + 1] != ' ' && rest[space + 1] != '*')) {
    return Status::parse_error(
        "hash and path must be separated by two spaces (or ' *' in binary mode)");
  }
  auto path = path_of(rest.substr(space + 2), escaped);
  if (!path.is_ok()) return path.status();

  // A bare 64-digit hex digest (sha3sum, rhash, openssl dgst -r) is read before trying the
  // multibase forms: no multihash of a 32-byte digest is 64 characters long, so the two
  // never overlap.
  if (auto digest = bare_digest(hash_text)) {
    return std::optional<CheckListEntry>(CheckListEntry{Multihash::sha3_256(*digest),
                                                        std::move(path).value(), line_number,
                                                        CheckLineFormat::kBareDigest});
  }
  auto hash = Multihash::parse(hash_text);
  if (!hash.is_ok()) {
    std::string reason = "invalid hash: " + hash.status().message();
    // The digest lengths of the other common checksums (MD5, SHA-1, SHA-224, -384, -512):
    // most likely a list written by another tool for another algorithm.
    const size_t n = hash_text.size();
    if (is_hex_text(hash_text) && (n == 32 || n == 40 || n == 56 || n == 96 || n == 128)) {
      reason += " (a bare hex digest of " + std::to_string(hash_text.size() * 4) +
                " bits: not SHA3-256, whose digests are 64 hex digits)";
    }
    return Status::parse_error(reason);
  }
  return std::optional<CheckListEntry>(
      CheckListEntry{std::move(hash).value(), std::move(path).value(), line_number});
}

CheckList parse_check_list(std::string_view text) {
  CheckList list;
  size_t line_number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    ++line_number;
    auto parsed = parse_check_line(text.substr(pos, end - pos), line_number);
    if (!parsed.is_ok()) {
      list.problems.push_back({line_number, parsed.status().message()});
    } else if (parsed->has_value()) {
      list.entries.push_back(std::move(**parsed));
    }
    pos = end + 1;
  }
  return list;
}

std::string escape_check_list_name(std::string_view path) {
  bool plain = path.find_first_of("\\\n\r") == std::string_view::npos;
  for (size_t i = 0; plain && i < path.size(); ++i) plain = !is_other_control(path[i]);
  if (plain) return std::string(path);
  std::string out = "\\";
  out.reserve(path.size() + 8);
  for (char c : path) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (is_other_control(c)) {
      static const char kHex[] = "0123456789abcdef";
      const auto u = static_cast<unsigned char>(c);
      out += "\\x";
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string format_bsd_check_line(const Multihash& hash, std::string_view path) {
  std::string name = escape_check_list_name(path);
  std::string out;
  out.reserve(name.size() + 80);
  if (name != path) {
    out.push_back('\\');  // escaped: the marking backslash starts the line
    name.erase(0, 1);
  }
  out += "SHA3-256 (";
  out += name;
  out += ") = ";
  out += to_hex(hash.digest());
  return out;
}

std::string format_check_line(const Multihash& hash, std::string_view path) {
  std::string name = escape_check_list_name(path);
  std::string out;
  out.reserve(name.size() + 80);
  if (name != path) {
    // Escaped: the marking backslash starts the line, before the hash.
    out.push_back('\\');
    name.erase(0, 1);
  }
  out += hash.to_string();
  out += "  ";
  out += name;
  return out;
}

}  // namespace odf_hash
