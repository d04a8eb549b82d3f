// A JSON document as verify_query reads it: a tree where the caller looks (the envelope of a
// query answer), and only the canonical text (canonical_json.h) everywhere else.
//
// Why not a DOM: an answer's output can hold millions of values (kamu answers up to
// 100,000,000 rows), and a tree node per value costs tens of bytes where the value's text
// costs a few. The parser (nlohmann::json's SAX interface) asks `keep_open` about each
// container whose parent is kept open; every other container is written to its canonical
// text as soon as it closes (an object's members sorted then), and its children are never
// asked about. Memory is then about the canonical text of the document, plus the document.
//
// Numbers keep their text. nlohmann's SAX interface hands a float's text to number_float but
// only the value of an integer, and "-0" and "0" are both the integer 0: so the text of every
// number is taken from the document itself (NumberCursor), the next number token after the
// previous one, which the parser has just read.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "odf_hash/core/status.h"

namespace odf_hash::query::detail {

struct JsonMember;

struct JsonNode {
  enum class Kind : unsigned char {
    kNull,
    kTrue,
    kFalse,
    kNumber,     // text: the number as written
    kString,     // text: the value (UTF-8)
    kArray,      // items
    kObject,     // members, sorted by key (bytes), each key once
    kCanonical,  // a container not kept open: text is its canonical form
  };
  Kind kind = Kind::kNull;
  std::string text;
  std::vector<JsonNode> items;
  // A vector of a type declared only below: std::pair<std::string, JsonNode> would need
  // JsonNode complete here (libstdc++ accepts it under GCC, not under clang).
  std::vector<JsonMember> members;

  bool is_object() const noexcept { return kind == Kind::kObject; }
  bool is_array() const noexcept { return kind == Kind::kArray; }
  bool is_string() const noexcept { return kind == Kind::kString; }
  bool is_null() const noexcept { return kind == Kind::kNull; }
  // The member named `key` of an object; nullptr when absent (or not an object).
  const JsonNode* get(std::string_view key) const noexcept;
};

// An object's member.
struct JsonMember {
  std::string key;
  JsonNode value;
};

// "null", "a string", "an object", ... for messages.
const char* kind_description(const JsonNode& node) noexcept;

// One step from a container to a child: the key in an object, or the index in an array.
struct PathStep {
  std::string key;  // empty in an array
  size_t index = 0;
  bool in_array = false;
};

// The most values read into containers kept open (each costs a JsonNode, ~100 bytes, where
// its text may cost 3): more is an error. An answer's envelope (its input datasets,
// sub-queries, commitments and proofs) holds a few dozen.
inline constexpr size_t kMaxTreeValues = 100000;

// Whether the container at `path` (from the root; empty: the root) is kept as a tree.
using KeepOpen = std::function<bool(std::span<const PathStep> path)>;

// Parses `text` (canonical_json.h says what is accepted). Containers not kept open become
// kCanonical nodes. Errors: kParseError naming the byte offset.
Result<JsonNode> parse_json(std::string_view text, const KeepOpen& keep_open);

// Writes the canonical form of `node` to `sink`, in pieces.
void write_canonical(const JsonNode& node, const std::function<void(std::string_view)>& sink);

// The canonical form of `node` as one string.
std::string canonical_text(const JsonNode& node);

}  // namespace odf_hash::query::detail
