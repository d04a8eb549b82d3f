// kamu's canonical JSON: the bytes a kamu node hashes and signs when it commits to a query
// answer (verify_query.h).
//
// kamu's documentation says RFC 8785; its code serializes a serde_json Value (built with the
// `arbitrary_precision` feature, so every number keeps the text it was parsed from) with the
// Rust crate `canonical_json` 0.7. What that gives was measured on kamu 0.265 nodes (the
// answers kept in tests/data/query/, written by tests/kamu/make_query_vectors.py) and on the
// answer kamu publishes in its own tests (test_data_verify_handler), never taken from a
// reading of either text:
//   - no whitespace anywhere; arrays keep their order; object members are sorted by their
//     keys' UTF-8 bytes (which is code point order, not RFC 8785's UTF-16 order);
//   - numbers are written as the document writes them ("1.0", "1e+21", "-0.0" stay so; RFC
//     8785 would write 1, 1e+21 and 0): a parse to double would lose what kamu hashed;
//   - strings: `"` and `\` escaped as \" and \\; U+0008, U+000C, U+000A, U+000D, U+0009 as
//     \b \f \n \r \t; every other code point below U+0020, U+007F and every code point above
//     U+007F as \uXXXX with lower-case hex digits, a code point above U+FFFF as its UTF-16
//     surrogate pair (U+1F600 -> \ud83d\ude00); everything else (including '/' and "'") as
//     itself. So the canonical text is ASCII. Keys are written the same way;
//   - true, false, null as such.
//
// Input documents are RFC 8259 JSON in UTF-8 (no byte order mark, no comments, no trailing
// commas; strings hold valid UTF-8 and no lone surrogate escape), read with nlohmann::json's
// SAX parser. Stricter than serde_json in three ways, each an error: an object naming a key
// twice (serde_json keeps the last value: a reader could be shown the other one), a number
// beyond the range of a double ("1e400"; kamu writes only finite doubles), nesting deeper
// than kMaxJsonDepth.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "odf_hash/core/status.h"

namespace odf_hash::query {

// Deepest nesting of arrays and objects read. kamu parses a query's output with serde_json,
// whose limit is 128 levels; an answer adds a few levels around it, and each sub-query two.
inline constexpr size_t kMaxJsonDepth = 256;

// Appends the canonical form of a string (quotes included) to `out`. `utf8` must be valid
// UTF-8 (what the parser gives); otherwise kInvalidArgument, and `out` is left as it was.
Status append_canonical_string(std::string& out, std::string_view utf8);

// The canonical form of the JSON document `json`. Errors (kParseError) name the byte offset
// and what is wrong: malformed JSON, a duplicate key, nesting deeper than kMaxJsonDepth.
// Memory: about the size of the canonical text, plus the document.
Result<std::string> canonical_json(std::string_view json);

}  // namespace odf_hash::query
