#include "odf_hash/check_list.h"

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
  size_t space = rest.find(' ');
  if (space == std::string_view::npos) {
    return Status::parse_error("no path after the hash (expected '<hash>  <path>')");
  }
  std::string_view hash_text = rest.substr(0, space);
  if (space + 1 >= rest.size() || (rest[space + 1] != ' ' && rest[space + 1] != '*')) {
    return Status::parse_error(
        "hash and path must be separated by two spaces (or ' *' in binary mode)");
  }
  std::string_view path_text = rest.substr(space + 2);
  if (path_text.empty()) return Status::parse_error("empty path");
  if (path_text.find('\0') != std::string_view::npos) {
    return Status::parse_error("path contains a NUL byte");
  }

  auto hash = Multihash::parse(hash_text);
  if (!hash.is_ok()) return Status::parse_error("invalid hash: " + hash.status().message());

  std::string path;
  if (escaped) {
    auto unescaped = unescape_path(path_text);
    if (!unescaped.is_ok()) return Status::parse_error(unescaped.status().message());
    path = std::move(unescaped).value();
  } else {
    path = std::string(path_text);
  }
  return std::optional<CheckListEntry>(
      CheckListEntry{std::move(hash).value(), std::move(path), line_number});
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
