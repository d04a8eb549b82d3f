#include "type_node.h"

#include <charconv>
#include <string_view>

namespace odf_hash::logical {
namespace {

// Deeper schemas are rejected rather than risking the stack on hostile input.
constexpr int kMaxDepth = 128;

// Type identifiers and units of the spec's "Data Type Encoding" table.
enum TypeId : uint16_t {
  kIdNull = 0,
  kIdInt = 1,
  kIdFloat = 2,
  kIdBinary = 3,
  kIdUtf8 = 4,
  kIdBool = 5,
  kIdDecimal = 6,
  kIdDate = 7,
  kIdTime = 8,
  kIdTimestamp = 9,
  kIdList = 11,
};

void put_u8(std::vector<uint8_t>& out, uint8_t v) {
  out.push_back(v);
}
void put_u16(std::vector<uint8_t>& out, uint16_t v) {
  out.push_back(static_cast<uint8_t>(v));
  out.push_back(static_cast<uint8_t>(v >> 8));
}
void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// Parses a whole decimal integer; false on anything else.
template <typename T>
bool parse_int(std::string_view s, T& out) {
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

Status bad_format(const std::string& path, std::string_view format, std::string_view why) {
  return Status::invalid_argument("column '" + path + "': malformed Arrow format string '" +
                                  std::string(format) + "': " + std::string(why));
}

Status unsupported_type(const std::string& path, std::string_view format, std::string_view what) {
  return Status::unsupported("column '" + path + "' has type " + std::string(what) +
                             " (Arrow format '" + std::string(format) +
                             "'), which arrow0-sha3-256 does not define");
}

int time_unit_id(char c) {
  switch (c) {
    case 's': return 0;
    case 'm': return 1;
    case 'u': return 2;
    case 'n': return 3;
  }
  return -1;
}

Result<TypeNode> compile_at(const ArrowSchema& schema, const std::string& path, bool in_list,
                            int depth);

Status compile_children(const ArrowSchema& schema, TypeNode& node, bool in_list, int depth) {
  if (schema.n_children < 0) {
    return Status::invalid_argument("column '" + node.path + "': negative n_children");
  }
  if (schema.n_children > 0 && schema.children == nullptr) {
    return Status::invalid_argument("column '" + node.path + "': children pointer is null");
  }
  for (int64_t i = 0; i < schema.n_children; ++i) {
    const ArrowSchema* child = schema.children[i];
    if (child == nullptr) {
      return Status::invalid_argument("column '" + node.path + "': child " + std::to_string(i) +
                                      " is null");
    }
    std::string child_name = child->name != nullptr ? child->name : "";
    ODF_HASH_ASSIGN_OR_RETURN(TypeNode c,
                              compile_at(*child, node.path + "." + child_name, in_list, depth + 1));
    node.children.push_back(std::move(c));
  }
  return Status::ok();
}

Status expect_children(const TypeNode& node, const ArrowSchema& schema, int64_t n) {
  if (schema.n_children != n) {
    return Status::invalid_argument("column '" + node.path + "' (format '" + node.format +
                                    "') must have " + std::to_string(n) + " child schema(s), has " +
                                    std::to_string(schema.n_children));
  }
  return Status::ok();
}

void set_fixed(TypeNode& node, int64_t width) {
  node.kind = Kind::kFixed;
  node.width = width;
}

// Primitive types: one-or-three-character formats without parameters.
bool compile_primitive(std::string_view f, TypeNode& node) {
  auto& tb = node.type_bytes;
  auto int_type = [&](bool is_signed, int64_t bits) {
    set_fixed(node, bits / 8);
    put_u16(tb, kIdInt);
    put_u8(tb, is_signed ? 1 : 0);
    put_u64(tb, static_cast<uint64_t>(bits));
  };
  auto float_type = [&](int64_t bits) {
    set_fixed(node, bits / 8);
    put_u16(tb, kIdFloat);
    put_u64(tb, static_cast<uint64_t>(bits));
  };
  if (f == "n") {
    node.kind = Kind::kNull;
    put_u16(tb, kIdNull);
  } else if (f == "b") {
    node.kind = Kind::kBool;
    put_u16(tb, kIdBool);
  } else if (f == "c") {
    int_type(true, 8);
  } else if (f == "C") {
    int_type(false, 8);
  } else if (f == "s") {
    int_type(true, 16);
  } else if (f == "S") {
    int_type(false, 16);
  } else if (f == "i") {
    int_type(true, 32);
  } else if (f == "I") {
    int_type(false, 32);
  } else if (f == "l") {
    int_type(true, 64);
  } else if (f == "L") {
    int_type(false, 64);
  } else if (f == "e") {
    float_type(16);
  } else if (f == "f") {
    float_type(32);
  } else if (f == "g") {
    float_type(64);
  } else if (f == "z" || f == "Z" || f == "vz") {
    node.kind = f == "z" ? Kind::kBinary : f == "Z" ? Kind::kLargeBinary : Kind::kBinaryView;
    put_u16(tb, kIdBinary);
  } else if (f == "u" || f == "U" || f == "vu") {
    node.kind = f == "u" ? Kind::kBinary : f == "U" ? Kind::kLargeBinary : Kind::kBinaryView;
    put_u16(tb, kIdUtf8);
  } else if (f == "tdD") {
    set_fixed(node, 4);
    put_u16(tb, kIdDate);
    put_u64(tb, 32);
    put_u16(tb, 0);  // Day
  } else if (f == "tdm") {
    set_fixed(node, 8);
    put_u16(tb, kIdDate);
    put_u64(tb, 64);
    put_u16(tb, 1);  // Millisecond
  } else if (f == "tts" || f == "ttm" || f == "ttu" || f == "ttn") {
    const int64_t bits = (f[2] == 's' || f[2] == 'm') ? 32 : 64;
    set_fixed(node, bits / 8);
    put_u16(tb, kIdTime);
    put_u64(tb, static_cast<uint64_t>(bits));
    put_u16(tb, static_cast<uint16_t>(time_unit_id(f[2])));
  } else {
    return false;
  }
  return true;
}

Result<TypeNode> compile_dictionary(const ArrowSchema& schema, TypeNode node, int depth) {
  const std::string_view f = node.format;
  if (f == "c" || f == "C") {
    node.width = 1;
  } else if (f == "s" || f == "S") {
    node.width = 2;
  } else if (f == "i" || f == "I") {
    node.width = 4;
  } else if (f == "l" || f == "L") {
    node.width = 8;
  } else {
    return bad_format(node.path, f, "a dictionary's index type must be an integer");
  }
  node.kind = Kind::kDictionary;
  // The value type is what the column holds; it is hashed as if it were not encoded.
  ODF_HASH_ASSIGN_OR_RETURN(TypeNode values,
                            compile_at(*schema.dictionary, node.path, /*in_list=*/true, depth + 1));
  node.type_bytes = values.type_bytes;
  node.children.push_back(std::move(values));
  return node;
}

Result<TypeNode> compile_at(const ArrowSchema& schema, const std::string& path, bool in_list,
                            int depth) {
  if (depth > kMaxDepth) {
    return Status::invalid_argument("column '" + path + "': type nested deeper than " +
                                    std::to_string(kMaxDepth) + " levels");
  }
  if (schema.format == nullptr) {
    return Status::invalid_argument("column '" + path + "': format string is null");
  }
  TypeNode node;
  node.format = schema.format;
  node.name = schema.name != nullptr ? schema.name : "";
  node.path = path;
  const std::string_view f = node.format;
  auto& tb = node.type_bytes;

  if (schema.dictionary != nullptr) {
    ODF_HASH_RETURN_IF_ERROR(expect_children(node, schema, 0));
    return compile_dictionary(schema, std::move(node), depth);
  }
  if (compile_primitive(f, node)) {
    ODF_HASH_RETURN_IF_ERROR(expect_children(node, schema, 0));
    return node;
  }

  if (f.starts_with("ts") && f.size() >= 4 && f[3] == ':' && time_unit_id(f[2]) >= 0) {
    ODF_HASH_RETURN_IF_ERROR(expect_children(node, schema, 0));
    set_fixed(node, 8);
    put_u16(tb, kIdTimestamp);
    put_u16(tb, static_cast<uint16_t>(time_unit_id(f[2])));
    const std::string_view tz = f.substr(4);
    // An empty zone ("tsu:") is how the C Data Interface spells "no time zone".
    if (tz.empty()) {
      put_u8(tb, 0);
    } else {
      put_u64(tb, tz.size());
      tb.insert(tb.end(), tz.begin(), tz.end());
    }
    return node;
  }
  if (f.starts_with("w:")) {
    ODF_HASH_RETURN_IF_ERROR(expect_children(node, schema, 0));
    int32_t width = 0;
    if (!parse_int(f.substr(2), width) || width < 0) {
      return bad_format(path, f, "expected a non-negative byte width");
    }
    node.kind = Kind::kFixedBinary;
    node.width = width;
    put_u16(tb, kIdBinary);
    return node;
  }
  if (f.starts_with("d:")) {
    ODF_HASH_RETURN_IF_ERROR(expect_children(node, schema, 0));
    const std::string_view params = f.substr(2);
    const size_t c1 = params.find(',');
    if (c1 == std::string_view::npos) return bad_format(path, f, "expected d:precision,scale");
    const size_t c2 = params.find(',', c1 + 1);
    uint8_t precision = 0;
    int8_t scale = 0;
    int bits = 128;
    const std::string_view scale_text =
        params.substr(c1 + 1, c2 == std::string_view::npos ? std::string_view::npos : c2 - c1 - 1);
    if (!parse_int(params.substr(0, c1), precision) || !parse_int(scale_text, scale)) {
      return bad_format(path, f, "precision must fit in u8 and scale in i8");
    }
    if (c2 != std::string_view::npos) {
      if (!parse_int(params.substr(c2 + 1), bits) ||
          (bits != 32 && bits != 64 && bits != 128 && bits != 256)) {
        return bad_format(path, f, "decimal bit width must be 32, 64, 128 or 256");
      }
    }
    set_fixed(node, bits / 8);
    put_u16(tb, kIdDecimal);
    put_u64(tb, static_cast<uint64_t>(bits));
    put_u64(tb, precision);
    // The reference widens the i8 scale to 64 bits with sign extension.
    put_u64(tb, static_cast<uint64_t>(static_cast<int64_t>(scale)));
    return node;
  }
  if (f == "+l" || f == "+L" || f == "+vl" || f == "+vL" || f.starts_with("+w:")) {
    ODF_HASH_RETURN_IF_ERROR(expect_children(node, schema, 1));
    if (f == "+l") node.kind = Kind::kList;
    if (f == "+L") node.kind = Kind::kLargeList;
    if (f == "+vl") node.kind = Kind::kListView;
    if (f == "+vL") node.kind = Kind::kLargeListView;
    if (f.starts_with("+w:")) {
      int32_t size = 0;
      if (!parse_int(f.substr(3), size) || size < 0) {
        return bad_format(path, f, "expected a non-negative list size");
      }
      node.kind = Kind::kFixedList;
      node.width = size;
    }
    ODF_HASH_RETURN_IF_ERROR(compile_children(schema, node, /*in_list=*/true, depth));
    put_u16(tb, kIdList);
    const auto& item = node.children[0].type_bytes;
    tb.insert(tb.end(), item.begin(), item.end());
    return node;
  }
  if (f == "+s") {
    if (in_list) return unsupported_type(path, f, "Struct inside a list or encoded array");
    node.kind = Kind::kStruct;
    ODF_HASH_RETURN_IF_ERROR(compile_children(schema, node, false, depth));
    return node;
  }
  if (f == "+r") {
    ODF_HASH_RETURN_IF_ERROR(expect_children(node, schema, 2));
    ODF_HASH_RETURN_IF_ERROR(compile_children(schema, node, /*in_list=*/true, depth));
    const TypeNode& ends = node.children[0];
    if (ends.kind != Kind::kFixed ||
        (ends.format != "s" && ends.format != "i" && ends.format != "l")) {
      return bad_format(path, f, "run ends must be int16, int32 or int64");
    }
    node.width = ends.width;
    node.kind = Kind::kRunEnd;
    node.type_bytes = node.children[1].type_bytes;
    return node;
  }
  if (f.starts_with("tD")) return unsupported_type(path, f, "Duration");
  if (f.starts_with("ti")) return unsupported_type(path, f, "Interval");
  if (f == "+m") return unsupported_type(path, f, "Map");
  if (f.starts_with("+u")) return unsupported_type(path, f, "Union");
  return bad_format(path, f, "unknown format");
}

}  // namespace

Result<TypeNode> compile_type(const ArrowSchema& schema, const std::string& path, bool in_list) {
  return compile_at(schema, path, in_list, 0);
}

std::string reference_gap(const TypeNode& node) {
  switch (node.kind) {
    case Kind::kNull: return "Null type, an all-null column";
    case Kind::kDictionary: return "dictionary-encoded, as a pandas or polars Categorical";
    case Kind::kRunEnd: return "run-end encoded";
    case Kind::kListView:
    case Kind::kLargeListView: return "a list view";
    default: break;
  }
  for (const TypeNode& child : node.children) {
    if (std::string gap = reference_gap(child); !gap.empty()) return gap + " inside a list";
  }
  return {};
}

std::string type_hash_note(const TypeNode& node) {
  const std::string_view f = node.format;
  if (f.size() < 4 || f.substr(0, 2) != "ts" || f[3] != ':') return {};
  const std::string_view tz = f.substr(4);
  // The names tzdata and ISO 8601 give UTC besides "UTC" itself.
  static constexpr std::string_view kUtcAliases[] = {
      "Etc/UTC",   "Etc/UCT",       "UCT",     "Etc/Universal", "Universal",
      "Etc/Zulu",  "Zulu",          "Etc/GMT", "GMT",           "Etc/GMT0",
      "Etc/GMT+0", "Etc/GMT-0",     "GMT0",    "GMT+0",         "GMT-0",
      "Greenwich", "Etc/Greenwich", "Z",       "+00:00",        "-00:00",
      "+0000",     "utc",           "Utc"};
  for (std::string_view alias : kUtcAliases) {
    if (tz == alias) {
      return "time zone '" + std::string(tz) +
             "' is another name of UTC: the same instants under 'UTC' (as kamu and pyarrow "
             "write them) hash otherwise";
    }
  }
  return {};
}

std::string describe(const TypeNode& node) {
  return "'" + node.path + "' (" + node.format + ")";
}

}  // namespace odf_hash::logical
