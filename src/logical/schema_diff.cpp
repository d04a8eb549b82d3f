#include "odf_hash/logical/schema_diff.h"

#include <map>
#include <string_view>

#include "type_node.h"

namespace odf_hash {

namespace {

constexpr int64_t kNullableFlag = 2;  // ARROW_FLAG_NULLABLE

std::string unit_name(char u) {
  switch (u) {
    case 's': return "s";
    case 'm': return "ms";
    case 'u': return "us";
    case 'n': return "ns";
  }
  return std::string(1, u);
}

std::string name_of(const ArrowSchema& s) {
  return s.name != nullptr ? s.name : "";
}

std::string describe_format(const ArrowSchema& s) {
  const std::string_view f = s.format != nullptr ? s.format : "";
  static const std::map<std::string_view, const char*> kSimple = {
      {"n", "null"},         {"b", "bool"},        {"c", "int8"},         {"C", "uint8"},
      {"s", "int16"},        {"S", "uint16"},      {"i", "int32"},        {"I", "uint32"},
      {"l", "int64"},        {"L", "uint64"},      {"e", "float16"},      {"f", "float32"},
      {"g", "float64"},      {"z", "binary"},      {"Z", "large_binary"}, {"vz", "binary_view"},
      {"u", "utf8"},         {"U", "large_utf8"},  {"vu", "utf8_view"},   {"tdD", "date32"},
      {"tdm", "date64[ms]"}, {"tts", "time32[s]"}, {"ttm", "time32[ms]"}, {"ttu", "time64[us]"},
      {"ttn", "time64[ns]"}};
  if (auto it = kSimple.find(f); it != kSimple.end()) return it->second;
  if (f.size() >= 4 && f.substr(0, 2) == "ts" && f[3] == ':') {
    const std::string_view tz = f.substr(4);
    return "timestamp[" + unit_name(f[2]) +
           (tz.empty() ? std::string(", no time zone]") : ", tz=" + std::string(tz) + "]");
  }
  if (f.size() == 3 && f.substr(0, 2) == "tD") return "duration[" + unit_name(f[2]) + "]";
  if (f.substr(0, 2) == "d:") return "decimal(" + std::string(f.substr(2)) + ")";
  if (f.substr(0, 2) == "w:") return "fixed_size_binary(" + std::string(f.substr(2)) + ")";
  auto child = [&](int64_t i) {
    return i < s.n_children && s.children[i] != nullptr ? describe_arrow_type(*s.children[i])
                                                        : std::string("?");
  };
  if (f == "+l") return "list<" + child(0) + ">";
  if (f == "+L") return "large_list<" + child(0) + ">";
  if (f == "+vl") return "list_view<" + child(0) + ">";
  if (f == "+vL") return "large_list_view<" + child(0) + ">";
  if (f.substr(0, 3) == "+w:")
    return "fixed_size_list(" + std::string(f.substr(3)) + ")<" + child(0) + ">";
  if (f == "+r") return "run_end_encoded<" + child(1) + ">";
  if (f == "+m") return "map<" + child(0) + ">";
  if (f == "+s") {
    std::string out = "struct<";
    for (int64_t i = 0; i < s.n_children; ++i) {
      out += (i ? ", " : "") + (s.children[i] ? name_of(*s.children[i]) : "?") + ": " + child(i);
    }
    return out + ">";
  }
  return "format \"" + std::string(f) + "\"";
}

void diff_fields(const ArrowSchema& a, const ArrowSchema& b, const std::string& prefix,
                 std::vector<SchemaDifference>& out) {
  using K = SchemaDifference::Kind;
  auto path = [&](const ArrowSchema& s) { return prefix + name_of(s); };
  std::map<std::string, int64_t> in_b;
  for (int64_t i = 0; i < b.n_children; ++i) in_b.emplace(name_of(*b.children[i]), i);
  std::map<std::string, int64_t> in_a;
  for (int64_t i = 0; i < a.n_children; ++i) in_a.emplace(name_of(*a.children[i]), i);
  // Positions among the fields both sides have.
  std::vector<std::string> common_a, common_b;
  for (int64_t i = 0; i < a.n_children; ++i) {
    if (in_b.count(name_of(*a.children[i]))) common_a.push_back(name_of(*a.children[i]));
  }
  for (int64_t i = 0; i < b.n_children; ++i) {
    if (in_a.count(name_of(*b.children[i]))) common_b.push_back(name_of(*b.children[i]));
  }
  std::map<std::string, size_t> rank_b;
  for (size_t i = 0; i < common_b.size(); ++i) rank_b.emplace(common_b[i], i);

  size_t rank_a = 0;
  for (int64_t i = 0; i < a.n_children; ++i) {
    const ArrowSchema& fa = *a.children[i];
    auto it = in_b.find(name_of(fa));
    if (it == in_b.end()) {
      out.push_back({K::kOnlyInOriginal, path(fa), describe_arrow_type(fa), ""});
      continue;
    }
    const ArrowSchema& fb = *b.children[it->second];
    if (rank_b[name_of(fa)] != rank_a) {
      out.push_back({K::kPosition, path(fa), std::to_string(rank_a + 1),
                     std::to_string(rank_b[name_of(fa)] + 1)});
    }
    ++rank_a;
    if ((fa.flags & kNullableFlag) != (fb.flags & kNullableFlag)) {
      out.push_back({K::kNullability, path(fa),
                     (fa.flags & kNullableFlag) ? "nullable" : "not null",
                     (fb.flags & kNullableFlag) ? "nullable" : "not null"});
    }
    const bool struct_a =
        fa.dictionary == nullptr && fa.format && std::string_view(fa.format) == "+s";
    const bool struct_b =
        fb.dictionary == nullptr && fb.format && std::string_view(fb.format) == "+s";
    if (struct_a && struct_b) {
      diff_fields(fa, fb, path(fa) + ".", out);
      continue;
    }
    const std::string ta = describe_arrow_type(fa), tb = describe_arrow_type(fb);
    if (ta != tb) {
      // Encodings of one type have the same arrow0 type bytes (type_node.h).
      auto na = logical::compile_type(fa, path(fa), /*in_list=*/false);
      auto nb = logical::compile_type(fb, path(fb), /*in_list=*/false);
      const bool encoding = na.is_ok() && nb.is_ok() && na->kind != logical::Kind::kStruct &&
                            nb->kind != logical::Kind::kStruct && na->type_bytes == nb->type_bytes;
      out.push_back({K::kType, path(fa), ta, tb, encoding});
    }
  }
  for (int64_t i = 0; i < b.n_children; ++i) {
    const ArrowSchema& fb = *b.children[i];
    if (!in_a.count(name_of(fb))) {
      out.push_back({K::kOnlyInReproduced, path(fb), "", describe_arrow_type(fb)});
    }
  }
}

}  // namespace

const char* schema_difference_kind_name(SchemaDifference::Kind kind) {
  switch (kind) {
    case SchemaDifference::Kind::kOnlyInOriginal: return "only-in-original";
    case SchemaDifference::Kind::kOnlyInReproduced: return "only-in-reproduced";
    case SchemaDifference::Kind::kType: return "type";
    case SchemaDifference::Kind::kNullability: return "nullability";
    case SchemaDifference::Kind::kPosition: return "position";
  }
  return "unknown";
}

std::string describe_arrow_type(const ArrowSchema& type) {
  if (type.dictionary != nullptr) {
    return "dictionary<values=" + describe_arrow_type(*type.dictionary) +
           ", indices=" + describe_format(type) + ">";
  }
  return describe_format(type);
}

std::string describe_arrow_format(std::string_view format) {
  const std::string text(format);
  ArrowSchema leaf{};
  leaf.format = text.c_str();
  return describe_format(leaf);
}

std::vector<SchemaDifference> diff_schemas(const ArrowSchema& original,
                                           const ArrowSchema& reproduced) {
  std::vector<SchemaDifference> out;
  diff_fields(original, reproduced, "", out);
  return out;
}

}  // namespace odf_hash
