// The logical type of a column, compiled once from an ArrowSchema: what the hasher needs to
// know to validate and hash arrays of that column, and the type bytes the array digest
// starts with. Internal to src/logical/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "odf_hash/arrow_c_data.h"
#include "odf_hash/core/status.h"

namespace odf_hash::logical {

// Physical layout families. Encoding variants of one logical type (Utf8 / LargeUtf8 /
// Utf8View, dictionary-encoded, run-end-encoded, list views) have distinct kinds here but
// hash to the same bytes.
enum class Kind : uint8_t {
  kNull,           // "n": no buffers; every slot hashed as one 0 byte
  kBool,           // "b": bit-packed values
  kFixed,          // ints, floats, decimals, dates, times, timestamps: `width` bytes
  kBinary,         // "z", "u": int32 offsets
  kLargeBinary,    // "Z", "U": int64 offsets
  kBinaryView,     // "vz", "vu": 16-byte views + variadic data buffers
  kFixedBinary,    // "w:N": `width` bytes
  kList,           // "+l": int32 offsets, one child
  kLargeList,      // "+L": int64 offsets, one child
  kListView,       // "+vl": int32 offsets and sizes, one child
  kLargeListView,  // "+vL": int64 offsets and sizes, one child
  kFixedList,      // "+w:N": `width` items per slot, one child
  kStruct,         // "+s": children are fields
  kDictionary,     // index format + ArrowSchema.dictionary; children[0] is the value type
  kRunEnd,         // "+r": children[0] run ends (int16/32/64), children[1] values
};

struct TypeNode {
  Kind kind = Kind::kNull;
  // kFixed / kFixedBinary: bytes per value. kFixedList: items per list.
  // kDictionary: bytes per index. kRunEnd: bytes per run end.
  int64_t width = 0;
  std::string format;  // the Arrow format string as given
  std::string name;    // the field name ("" when absent)
  std::string path;    // field names from the top level down, joined with '.'
  // kList..kFixedList: [item]; kStruct: fields; kDictionary: [values];
  // kRunEnd: [run ends, values].
  std::vector<TypeNode> children;
  // The bytes the array digest absorbs for this type before any value (empty for structs).
  std::vector<uint8_t> type_bytes;
};

// Compiles `schema` (and its children, recursively). `path` names the field for messages.
// Structs are allowed unless `in_list` (a struct inside a list, a dictionary or a run-end
// encoded array is unsupported, as are Interval, Duration, Map and Union).
Result<TypeNode> compile_type(const ArrowSchema& schema, const std::string& path, bool in_list);

// Why the reference (arrow-digest 58 / 60) cannot hash a column of this type, or "" when it
// can: it panics on Null, Dictionary, RunEndEncoded and the list views, also inside lists
// (divergences.md section 5). The types both refuse never get this far (compile_type fails).
std::string reference_gap(const TypeNode& node);

// Why this leaf's hash depends on a name the user may not mean to hash (a time zone that is
// another name of UTC: ColumnDigest::hash_note), or empty.
std::string type_hash_note(const TypeNode& node);

// The hash_note of a column whose struct ancestors and itself held nulls in one batch.
inline constexpr const char* kNullSlotsNote =
    "a nullable struct above this column and the column itself hold nulls: by the reference's "
    "rule this hash depends on the bytes under null slots and on the batch split, which a file "
    "round trip or another reader can change (docs/divergences.md, section 1)";

// Human-readable description for messages: "<path> (<format>)".
std::string describe(const TypeNode& node);

}  // namespace odf_hash::logical
