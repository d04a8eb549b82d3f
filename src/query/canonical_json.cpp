// kamu's canonical JSON (include/odf_hash/query/canonical_json.h).
#include "odf_hash/query/canonical_json.h"

#include <cstdint>
#include <string>

#include "json_tree.h"

namespace odf_hash::query {

namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_u_escape(std::string& out, uint32_t unit) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(unit >> shift) & 0xF];
}

// The code point starting at s[i] and its length in bytes; length 0 for bytes that are not
// UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
std::pair<uint32_t, size_t> decode_utf8(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
  if (len == 0 || c > 0xF4 || i + len > s.size()) return {0, 0};
  uint32_t cp = c & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return {0, 0};
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};
  return {cp, len};
}

}  // namespace

Status append_canonical_string(std::string& out, std::string_view utf8) {
  const size_t start = out.size();
  out += '"';
  for (size_t i = 0; i < utf8.size();) {
    const unsigned char c = static_cast<unsigned char>(utf8[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (c < 0x20 || c == 0x7F) {
            append_u_escape(out, c);
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    const auto [cp, len] = decode_utf8(utf8, i);
    if (len == 0) {
      out.resize(start);
      return Status::invalid_argument("not UTF-8: byte " + std::to_string(i) + " of a string");
    }
    if (cp < 0x10000) {
      append_u_escape(out, cp);
    } else {
      append_u_escape(out, 0xD800 + ((cp - 0x10000) >> 10));
      append_u_escape(out, 0xDC00 + ((cp - 0x10000) & 0x3FF));
    }
    i += len;
  }
  out += '"';
  return Status::ok();
}

Result<std::string> canonical_json(std::string_view json) {
  auto root = detail::parse_json(json, [](auto) { return false; });
  if (!root.is_ok()) return root.status();
  return detail::canonical_text(*root);
}

}  // namespace odf_hash::query
