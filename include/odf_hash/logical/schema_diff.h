// Field-by-field differences between two record schemas, for reports that say why two files
// hold different (or differently hashed) records: fields on one side only, another type
// (with its unit and time zone spelled out), another nullability, another position among the
// fields both sides have.
//
// Input: two ArrowSchemas (record schemas, "+s"), only read. Thread safety: reentrant.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/arrow_c_data.h"

namespace odf_hash {

struct SchemaDifference {
  enum class Kind {
    kOnlyInOriginal,    // original: its type; reproduced: ""
    kOnlyInReproduced,  // original: ""; reproduced: its type
    kType,              // both types
    kNullability,       // "nullable" / "not null"
    kPosition,          // position (from 1) among the fields both sides have, "2" / "1"
  };
  Kind kind = Kind::kType;
  std::string field;  // path of field names from the top level, joined with '.'
  std::string original;
  std::string reproduced;
  // kType only: two encodings of one logical type (utf8 / large_utf8 / utf8_view, a
  // dictionary and its values, list / large_list...), which arrow0 hashes alike.
  bool encoding_only = false;
  // Whether this difference changes the arrow0 hash, as the two tables' column digests show
  // (compare.h sets it; nullopt where no digest was computed, as diff_schemas leaves it): a
  // field on one side only or at another position always does (arrow0 hashes the field names
  // in schema order, then the column digests in that order); another type or nullability
  // does when a leaf column under the field has another digest on each side, and does not
  // when every one has the same (the column hashes alike: a nullability flag, utf8 against
  // large_utf8).
  std::optional<bool> changes_hash;
};

// "only-in-original", "only-in-reproduced", "type", "nullability", "position".
const char* schema_difference_kind_name(SchemaDifference::Kind kind);

// The differences, parents before children, in the original's field order (then the
// reproduced side's extra fields). Struct fields present on both sides are compared member
// by member; a field whose type differs is not looked into further.
std::vector<SchemaDifference> diff_schemas(const ArrowSchema& original,
                                           const ArrowSchema& reproduced);

// A readable type: "int32", "utf8", "large_utf8", "timestamp[us, tz=UTC]", "decimal(10, 2)",
// "list<int64>", "struct<a: int64, b: utf8>", "dictionary<values=utf8, indices=int32>".
std::string describe_arrow_type(const ArrowSchema& type);

// A leaf column's readable type from its format string alone (ColumnDigest::type): as
// describe_arrow_type, with "?" for the children a format string does not hold.
std::string describe_arrow_format(std::string_view format);

}  // namespace odf_hash
