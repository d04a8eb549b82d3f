// Problems as JSON, and typed reads of untrusted JSON (problem_json.h).
#include "odf_hash/internal/odf/problem_json.h"

#include <utility>

#include "odf_hash/core/text.h"
#include "odf_hash/io/store.h"

namespace odf_hash::odf::detail {

namespace {

nlohmann::json text_or_null(const std::string& s) {
  return s.empty() ? nlohmann::json() : nlohmann::json(s);
}

Status field_error(const std::string& where, const char* key, const std::string& what) {
  return Status::parse_error(where + "." + key + ": " + what);
}

// A number as a JSON number, a text as a string, nothing as null.
nlohmann::json value_to_json(const ProblemValue& v) {
  if (const auto n = v.as_number()) return *n;
  return text_or_null(v.text());
}

Result<ProblemValue> value_from_json(const nlohmann::json& j, const std::string& where,
                                     const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return field_error(where, key, "missing");
  if (it->is_null()) return ProblemValue();
  if (it->is_number_unsigned()) return ProblemValue::number(it->get<uint64_t>());
  if (it->is_string()) return ProblemValue(it->get<std::string>());
  return field_error(where, key, "expected a string, a non-negative integer or null");
}

std::optional<ProblemUnit> problem_unit_from_name(const std::string& name) {
  for (auto unit : {ProblemUnit::kBytes, ProblemUnit::kRows, ProblemUnit::kLinkValues}) {
    if (name == problem_unit_name(unit)) return unit;
  }
  return std::nullopt;
}

std::optional<ProblemKind> problem_kind_from_name(const std::string& name) {
  for (int k = 0; k <= static_cast<int>(ProblemKind::kNotADataset); ++k) {
    auto kind = static_cast<ProblemKind>(k);
    if (name == problem_kind_name(kind)) return kind;
  }
  return std::nullopt;
}

}  // namespace

nlohmann::json problem_to_json(const Problem& p) {
  nlohmann::json jp{{"kind", problem_kind_name(p.kind)}, {"message", redact_url(p.message)}};
  jp["block"] = p.block ? nlohmann::json(p.block->to_string()) : nlohmann::json();
  jp["sequence_number"] = p.sequence_number ? nlohmann::json(*p.sequence_number) : nlohmann::json();
  jp["file"] = text_or_null(p.file);
  jp["expected"] = value_to_json(p.expected);
  jp["actual"] = value_to_json(p.actual);
  const char* unit = problem_unit_name(p.unit);
  jp["unit"] = unit != nullptr ? nlohmann::json(unit) : nlohmann::json();
  // Only on the problems about links: the other problems keep their shape.
  if (p.link) {
    jp["link"] = {
        {"data_file", p.link->data_file}, {"column", p.link->column}, {"row", p.link->row}};
  }
  return jp;
}

nlohmann::json file_check_to_json(const FileCheck& f) {
  nlohmann::json jf{{"role", file_role_name(f.role)},
                    {"file", f.file},
                    {"block", f.block.to_string()},
                    {"sequence_number", f.sequence_number},
                    {"outcome", file_outcome_name(f.outcome)}};
  if (f.actual_physical) jf["actual_physical"] = f.actual_physical->to_string();
  if (f.logical) jf["logical"] = f.logical->to_string();
  if (f.size) jf["size"] = *f.size;
  return jf;
}

nlohmann::json unreferenced_to_json(const DatasetReport& r) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& e : r.unreferenced) {
    const bool link = e.kind == ObjectKind::kSymlink;
    entries.push_back(
        nlohmann::json{{"file", e.file},
                       {"kind", entry_kind_name(e.kind)},
                       {"size", e.size},
                       {"link_target", link ? nlohmann::json(e.link_target) : nlohmann::json()},
                       {"broken_link", e.broken_link},
                       {"canonical_name", text_or_null(e.canonical_name)}});
  }
  return nlohmann::json{{"count", r.unreferenced.size()},
                        {"bytes", r.unreferenced_bytes()},
                        {"strict", r.strict},
                        {"entries", std::move(entries)}};
}

Status unreferenced_from_json(const nlohmann::json& j, const std::string& where, DatasetReport& r) {
  if (!j.is_object()) return Status::parse_error(where + ": expected an object");
  ODF_HASH_ASSIGN_OR_RETURN(const nlohmann::json* list, json_field(j, where, "entries"));
  if (!list->is_array()) return field_error(where, "entries", "expected a list");
  std::vector<UnreferencedEntry> out;
  for (size_t i = 0; i < list->size(); ++i) {
    const std::string at = where + ".entries[" + std::to_string(i) + "]";
    const nlohmann::json& je = (*list)[i];
    if (!je.is_object()) return Status::parse_error(at + ": expected an object");
    UnreferencedEntry e;
    ODF_HASH_ASSIGN_OR_RETURN(e.file, json_string(je, at, "file"));
    if (!is_valid_object_key(e.file)) {
      return field_error(at, "file", "\"" + escape_untrusted(e.file, 160) + "\" is not a key");
    }
    ODF_HASH_ASSIGN_OR_RETURN(std::string kind, json_string(je, at, "kind"));
    auto k = entry_kind_from_name(kind);
    if (!k) return field_error(at, "kind", "unknown kind \"" + escape_untrusted(kind) + "\"");
    e.kind = *k;
    ODF_HASH_ASSIGN_OR_RETURN(e.size, json_u64(je, at, "size"));
    ODF_HASH_ASSIGN_OR_RETURN(auto target, json_optional_string(je, at, "link_target"));
    e.link_target = target.value_or("");
    ODF_HASH_ASSIGN_OR_RETURN(e.broken_link, json_bool(je, at, "broken_link"));
    ODF_HASH_ASSIGN_OR_RETURN(auto canonical, json_optional_string(je, at, "canonical_name"));
    e.canonical_name = canonical.value_or("");
    out.push_back(std::move(e));
  }
  // The count and bytes are derived: a section that contradicts its entries is malformed.
  ODF_HASH_ASSIGN_OR_RETURN(uint64_t count, json_u64(j, where, "count"));
  ODF_HASH_ASSIGN_OR_RETURN(uint64_t bytes, json_u64(j, where, "bytes"));
  uint64_t sum = 0;
  bool overflow = false;
  for (const auto& e : out) {
    overflow = overflow || sum + e.size < sum;
    sum += e.size;
  }
  if (overflow || count != out.size() || bytes != sum) {
    return Status::parse_error(where + ": count and bytes do not add up to its entries");
  }
  ODF_HASH_ASSIGN_OR_RETURN(r.strict, json_bool(j, where, "strict"));
  r.unreferenced = std::move(out);
  return Status::ok();
}

Result<Problem> problem_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) return Status::parse_error(where + ": expected an object");
  Problem p;
  ODF_HASH_ASSIGN_OR_RETURN(std::string kind, json_string(j, where, "kind"));
  auto k = problem_kind_from_name(kind);
  if (!k)
    return field_error(where, "kind", "unknown problem kind \"" + escape_untrusted(kind) + "\"");
  p.kind = *k;
  ODF_HASH_ASSIGN_OR_RETURN(p.message, json_string(j, where, "message"));
  ODF_HASH_ASSIGN_OR_RETURN(p.block, json_optional_hash(j, where, "block"));
  ODF_HASH_ASSIGN_OR_RETURN(p.sequence_number, json_optional_u64(j, where, "sequence_number"));
  ODF_HASH_ASSIGN_OR_RETURN(auto file, json_optional_string(j, where, "file"));
  ODF_HASH_ASSIGN_OR_RETURN(p.expected, value_from_json(j, where, "expected"));
  ODF_HASH_ASSIGN_OR_RETURN(p.actual, value_from_json(j, where, "actual"));
  p.file = file.value_or("");
  ODF_HASH_ASSIGN_OR_RETURN(auto unit, json_optional_string(j, where, "unit"));
  if (unit) {
    auto u = problem_unit_from_name(*unit);
    if (!u) return field_error(where, "unit", "unknown unit \"" + escape_untrusted(*unit) + "\"");
    p.unit = *u;
  }
  ODF_HASH_ASSIGN_OR_RETURN(p.link, link_from_json(j, where));
  return p;
}

Result<std::optional<LinkRef>> link_from_json(const nlohmann::json& j, const std::string& where) {
  auto link = j.find("link");
  if (link == j.end() || link->is_null()) return std::optional<LinkRef>();
  const std::string lw = where + ".link";
  if (!link->is_object()) return Status::parse_error(lw + ": expected an object or null");
  LinkRef r;
  ODF_HASH_ASSIGN_OR_RETURN(r.data_file, json_string(*link, lw, "data_file"));
  ODF_HASH_ASSIGN_OR_RETURN(r.column, json_string(*link, lw, "column"));
  ODF_HASH_ASSIGN_OR_RETURN(r.row, json_u64(*link, lw, "row"));
  return std::optional<LinkRef>(std::move(r));
}

Result<const nlohmann::json*> json_field(const nlohmann::json& j, const std::string& where,
                                         const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return field_error(where, key, "missing");
  return &*it;
}

Result<std::string> json_string(const nlohmann::json& j, const std::string& where,
                                const char* key) {
  ODF_HASH_ASSIGN_OR_RETURN(const nlohmann::json* v, json_field(j, where, key));
  if (!v->is_string()) return field_error(where, key, "expected a string");
  return v->get_ref<const std::string&>();
}

Result<std::optional<std::string>> json_optional_string(const nlohmann::json& j,
                                                        const std::string& where, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::optional<std::string>();
  if (!it->is_string()) return field_error(where, key, "expected a string or null");
  return std::optional<std::string>(it->get_ref<const std::string&>());
}

Result<uint64_t> json_u64(const nlohmann::json& j, const std::string& where, const char* key) {
  ODF_HASH_ASSIGN_OR_RETURN(const nlohmann::json* v, json_field(j, where, key));
  if (!v->is_number_unsigned()) return field_error(where, key, "expected an unsigned integer");
  return v->get<uint64_t>();
}

Result<std::optional<uint64_t>> json_optional_u64(const nlohmann::json& j, const std::string& where,
                                                  const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::optional<uint64_t>();
  if (!it->is_number_unsigned()) {
    return field_error(where, key, "expected an unsigned integer or null");
  }
  return std::optional<uint64_t>(it->get<uint64_t>());
}

Result<bool> json_bool(const nlohmann::json& j, const std::string& where, const char* key) {
  ODF_HASH_ASSIGN_OR_RETURN(const nlohmann::json* v, json_field(j, where, key));
  if (!v->is_boolean()) return field_error(where, key, "expected true or false");
  return v->get<bool>();
}

Result<Multihash> json_hash(const nlohmann::json& j, const std::string& where, const char* key) {
  ODF_HASH_ASSIGN_OR_RETURN(std::string text, json_string(j, where, key));
  auto h = Multihash::parse(text);
  if (!h.is_ok()) return field_error(where, key, h.status().message());
  return *h;
}

Result<std::optional<Multihash>> json_optional_hash(const nlohmann::json& j,
                                                    const std::string& where, const char* key) {
  ODF_HASH_ASSIGN_OR_RETURN(std::optional<std::string> text, json_optional_string(j, where, key));
  if (!text) return std::optional<Multihash>();
  auto h = Multihash::parse(*text);
  if (!h.is_ok()) return field_error(where, key, h.status().message());
  return std::optional<Multihash>(*h);
}

}  // namespace odf_hash::odf::detail
