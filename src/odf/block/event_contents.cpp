// The readers of event_contents.h.
#include "event_contents.h"

#include <flatbuffers/minireflect.h>

#include <cctype>

#include <nlohmann/json.hpp>

namespace odf_hash::odf::detail {

namespace {

Status too_large(const std::string& what) {
  return Status::parse_error(what +
                             " is too large to read (its tables and strings, as shared "
                             "by its offsets, exceed the block size)");
}

// A verified string, charged to the budget; "" when absent.
bool copy_string(const flatbuffers::String* s, ContentBudget& budget, std::string& out) {
  out.clear();
  if (s == nullptr) return true;
  if (!budget.take(s->size() + 8)) return false;
  out = s->str();
  return true;
}

bool copy_optional(const flatbuffers::String* s, ContentBudget& budget,
                   std::optional<std::string>& out) {
  out.reset();
  if (s == nullptr) return true;
  std::string v;
  if (!copy_string(s, budget, v)) return false;
  out = std::move(v);
  return true;
}

const char* time_unit_name(flatbuffers::Optional<fb::TimeUnit> unit) {
  // The specification's default, so that a writer spelling it out and one leaving it out
  // compare equal.
  if (!unit.has_value()) return "Millisecond";
  const char* name = fb::EnumNameTimeUnit(unit.value());
  return name[0] != '\0' ? name : "Unknown";
}

class SchemaFlattener {
 public:
  SchemaFlattener(ContentBudget& budget, std::vector<SchemaField>& out)
      : budget_(budget), out_(out) {}

  bool field(const fb::DataField& f, const std::string& parent) {
    std::string name;
    if (!copy_string(f.name(), budget_, name)) return false;
    const std::string path = parent.empty() ? name : parent + "." + name;
    std::string extra;
    if (f.extra() != nullptr && !copy_string(f.extra()->entries(), budget_, extra)) return false;
    return add(path, f.type_type(), f.type(), std::move(extra));
  }

 private:
  // Adds the field at `path`, then its children.
  bool add(const std::string& path, fb::DataType type, const void* value, std::string extra) {
    if (!budget_.take(path.size() + 64)) return false;
    const size_t at = out_.size();
    out_.push_back(SchemaField{path, "", std::move(extra)});
    std::string text;
    if (!describe(path, type, value, text)) return false;
    out_[at].type = std::move(text);
    return true;
  }

  // The type's text; nested fields are added under `path` on the way.
  bool describe(const std::string& path, fb::DataType type, const void* value, std::string& text) {
    using T = fb::DataType;
    const char* name = fb::EnumNameDataType(type);
    if (type == T::NONE || value == nullptr || name[0] == '\0') {
      text = "Unknown(" + std::to_string(static_cast<int>(type)) + ")";
      return true;
    }
    std::string base = std::string(name).substr(8);  // "DataTypeInt64" -> "Int64"
    switch (type) {
      case T::DataTypeBinary: {
        auto n = static_cast<const fb::DataTypeBinary*>(value)->fixed_length();
        text = n.has_value() ? "Binary(" + std::to_string(n.value()) + ")" : "Binary";
        return true;
      }
      case T::DataTypeDecimal: {
        const auto* d = static_cast<const fb::DataTypeDecimal*>(value);
        text =
            "Decimal(" + std::to_string(d->precision()) + ", " + std::to_string(d->scale()) + ")";
        return true;
      }
      case T::DataTypeDuration:
        text = std::string("Duration(") +
               time_unit_name(static_cast<const fb::DataTypeDuration*>(value)->unit()) + ")";
        return true;
      case T::DataTypeTime:
        text = std::string("Time(") +
               time_unit_name(static_cast<const fb::DataTypeTime*>(value)->unit()) + ")";
        return true;
      case T::DataTypeTimestamp: {
        const auto* t = static_cast<const fb::DataTypeTimestamp*>(value);
        std::string tz = "UTC";  // the specification's default
        if (t->timezone() != nullptr && !copy_string(t->timezone(), budget_, tz)) return false;
        text = std::string("Timestamp(") + time_unit_name(t->unit()) + ", " + tz + ")";
        return true;
      }
      case T::DataTypeOption: {
        const auto* o = static_cast<const fb::DataTypeOption*>(value);
        std::string inner;
        if (!describe(path, o->inner_type(), o->inner(), inner)) return false;
        text = "Option<" + inner + ">";
        return true;
      }
      case T::DataTypeStruct: {
        text = "Struct";
        const auto* fields = static_cast<const fb::DataTypeStruct*>(value)->fields();
        if (fields == nullptr) return true;
        for (flatbuffers::uoffset_t i = 0; i < fields->size(); ++i) {
          if (!field(*fields->Get(i), path)) return false;
        }
        return true;
      }
      case T::DataTypeList: {
        const auto* l = static_cast<const fb::DataTypeList*>(value);
        auto n = l->fixed_length();
        text = n.has_value() ? "List(" + std::to_string(n.value()) + ")" : "List";
        return add(path + "[]", l->item_type_type(), l->item_type(), "");
      }
      case T::DataTypeMap: {
        const auto* m = static_cast<const fb::DataTypeMap*>(value);
        auto sorted = m->keys_sorted();
        text = sorted.has_value() && sorted.value() ? "Map(sorted)" : "Map";
        return add(path + "{key}", m->key_type_type(), m->key_type(), "") &&
               add(path + "{value}", m->value_type_type(), m->value_type(), "");
      }
      default: text = std::move(base); return true;
    }
  }

  ContentBudget& budget_;
  std::vector<SchemaField>& out_;
};

// A union member's name as the specification's YAML spells its `kind`: without the union's
// name ("MergeStrategyAppend" -> "Append", "TransformSql" -> "Sql").
std::string member_name(const std::string& name) {
  static constexpr const char* kUnions[] = {"DataType",      "ReadStep",      "FetchStep",
                                            "PrepStep",      "MergeStrategy", "EventTimeSource",
                                            "SourceCaching", "Transform"};
  for (const char* u : kUnions) {
    const std::string p = u;
    if (name.size() > p.size() && name.compare(0, p.size(), p) == 0 &&
        std::isupper(static_cast<unsigned char>(name[p.size()]))) {
      return name.substr(p.size());
    }
  }
  return name;
}

// Canonical JSON of a verified table through its mini-reflection type table. minireflect's
// own iteration is not used: it dereferences a union's type field without checking that it
// is present, and indexes a union's members with the NONE tag, both of which verified bytes
// may hold.
class JsonWriter {
 public:
  explicit JsonWriter(ContentBudget& budget) : budget_(budget) {}

  nlohmann::ordered_json table(const uint8_t* obj, const flatbuffers::TypeTable* tt) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    fill(obj, tt, j);
    return j;
  }

 private:
  // The fields of the table at `obj` added to `j` (an object).
  void fill(const uint8_t* obj, const flatbuffers::TypeTable* tt, nlohmann::ordered_json& j) {
    const auto* t = reinterpret_cast<const flatbuffers::Table*>(obj);
    for (size_t i = 0; i < tt->num_elems && !budget_.exhausted(); ++i) {
      const flatbuffers::TypeCode code = tt->type_codes[i];
      const auto type = static_cast<flatbuffers::ElementaryType>(code.base_type);
      if (type == flatbuffers::ET_UTYPE) continue;  // read with the union's value
      const uint8_t* val =
          t->GetAddressOf(flatbuffers::FieldIndexToOffset(static_cast<flatbuffers::voffset_t>(i)));
      if (val == nullptr) continue;
      const flatbuffers::TypeTable* ref =
          code.sequence_ref >= 0 ? tt->type_refs[code.sequence_ref]() : nullptr;
      const char* name = tt->names != nullptr ? tt->names[i] : "?";
      if (!budget_.take(std::char_traits<char>::length(name) + 8)) break;
      if (code.is_repeating) {
        nlohmann::ordered_json arr = nlohmann::ordered_json::array();
        if (type == flatbuffers::ET_SEQUENCE && ref != nullptr &&
            ref->st == flatbuffers::ST_UNION) {
          j[name] = "(vector of unions: not read)";
          continue;
        }
        const uint8_t* vec = val + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(val);
        const auto n = flatbuffers::ReadScalar<flatbuffers::uoffset_t>(vec);
        const size_t elem = flatbuffers::InlineSize(type, ref);
        const uint8_t* p = vec + sizeof(flatbuffers::uoffset_t);
        for (flatbuffers::uoffset_t k = 0; k < n && !budget_.exhausted(); ++k, p += elem) {
          arr.push_back(value(type, p, ref));
        }
        j[name] = std::move(arr);
      } else if (type == flatbuffers::ET_SEQUENCE && ref != nullptr &&
                 ref->st == flatbuffers::ST_UNION) {
        // The union's type field is the slot before its value (flatc's layout).
        uint8_t tag = 0;
        if (i > 0 && static_cast<flatbuffers::ElementaryType>(tt->type_codes[i - 1].base_type) ==
                         flatbuffers::ET_UTYPE) {
          const uint8_t* tag_at = t->GetAddressOf(
              flatbuffers::FieldIndexToOffset(static_cast<flatbuffers::voffset_t>(i - 1)));
          if (tag_at != nullptr) tag = *tag_at;
        }
        j[name] = member(tag, val + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(val), ref);
      } else {
        j[name] = value(type, val, ref);
      }
    }
  }

  nlohmann::ordered_json member(uint8_t tag, const uint8_t* obj, const flatbuffers::TypeTable* un) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    if (tag == 0 || tag >= un->num_elems || un->type_codes[tag].sequence_ref < 0 ||
        un->type_codes[tag].base_type != flatbuffers::ET_SEQUENCE) {
      j["kind"] = "Unknown(" + std::to_string(tag) + ")";
      return j;
    }
    j["kind"] = member_name(un->names != nullptr ? un->names[tag] : "?");
    const flatbuffers::TypeTable* tt = un->type_refs[un->type_codes[tag].sequence_ref]();
    fill(obj, tt, j);
    return j;
  }

  nlohmann::ordered_json value(flatbuffers::ElementaryType type, const uint8_t* val,
                               const flatbuffers::TypeTable* ref) {
    using flatbuffers::ReadScalar;
    auto enum_or = [&](int64_t v) -> nlohmann::ordered_json {
      if (ref != nullptr && ref->st == flatbuffers::ST_ENUM) {
        if (const char* n = flatbuffers::EnumName(v, ref)) return n;
      }
      return v;
    };
    if (!budget_.take(16)) return nullptr;
    switch (type) {
      case flatbuffers::ET_BOOL: return ReadScalar<uint8_t>(val) != 0;
      case flatbuffers::ET_CHAR: return enum_or(ReadScalar<int8_t>(val));
      case flatbuffers::ET_UCHAR: return enum_or(ReadScalar<uint8_t>(val));
      case flatbuffers::ET_SHORT: return enum_or(ReadScalar<int16_t>(val));
      case flatbuffers::ET_USHORT: return enum_or(ReadScalar<uint16_t>(val));
      case flatbuffers::ET_INT: return enum_or(ReadScalar<int32_t>(val));
      case flatbuffers::ET_UINT: return enum_or(ReadScalar<uint32_t>(val));
      case flatbuffers::ET_LONG: return ReadScalar<int64_t>(val);
      case flatbuffers::ET_ULONG: return ReadScalar<uint64_t>(val);
      case flatbuffers::ET_FLOAT: return ReadScalar<float>(val);
      case flatbuffers::ET_DOUBLE: return ReadScalar<double>(val);
      case flatbuffers::ET_STRING: {
        const auto* s = reinterpret_cast<const flatbuffers::String*>(
            val + ReadScalar<flatbuffers::uoffset_t>(val));
        std::string out;
        if (!copy_string(s, budget_, out)) return nullptr;
        return out;
      }
      case flatbuffers::ET_SEQUENCE:
        if (ref != nullptr && ref->st == flatbuffers::ST_TABLE) {
          return table(val + ReadScalar<flatbuffers::uoffset_t>(val), ref);
        }
        return "(not read)";  // structs: none in the events rendered
      default: return "(not read)";
    }
  }

  ContentBudget& budget_;
};

}  // namespace

bool verify_event_aligned(const uint8_t* buf, size_t size, fb::MetadataEvent type,
                          size_t event_pos) {
  flatbuffers::Verifier::Options opts;
  opts.check_alignment = true;
  flatbuffers::Verifier v(buf, size, opts);
  const uint8_t* at = buf + event_pos;
  switch (type) {
    case fb::MetadataEvent::SetTransform:
      return v.VerifyTable(reinterpret_cast<const fb::SetTransform*>(at));
    case fb::MetadataEvent::SetPollingSource:
      return v.VerifyTable(reinterpret_cast<const fb::SetPollingSource*>(at));
    case fb::MetadataEvent::AddPushSource:
      return v.VerifyTable(reinterpret_cast<const fb::AddPushSource*>(at));
    default: return true;
  }
}

Result<TransformDef> read_set_transform(const fb::SetTransform& e, ContentBudget& budget) {
  TransformDef out;
  if (const auto* inputs = e.inputs()) {
    for (flatbuffers::uoffset_t i = 0; i < inputs->size(); ++i) {
      const fb::TransformInput* in = inputs->Get(i);
      TransformInputRef r;
      if (!copy_string(in->dataset_ref(), budget, r.dataset_ref) ||
          !copy_string(in->alias(), budget, r.alias)) {
        return too_large("SetTransform.inputs");
      }
      out.inputs.push_back(std::move(r));
    }
  }
  const fb::Transform type = e.transform_type();
  if (type == fb::Transform::NONE || e.transform() == nullptr) return out;
  if (type != fb::Transform::TransformSql) {
    out.kind = "Unknown(" + std::to_string(static_cast<int>(type)) + ")";
    return out;
  }
  out.kind = "Sql";
  const auto* sql = e.transform_as_TransformSql();
  if (!copy_optional(sql->engine(), budget, out.engine) ||
      !copy_optional(sql->version(), budget, out.version) ||
      !copy_optional(sql->query(), budget, out.query)) {
    return too_large("SetTransform.transform");
  }
  if (const auto* queries = sql->queries()) {
    for (flatbuffers::uoffset_t i = 0; i < queries->size(); ++i) {
      SqlQueryStep s;
      if (!copy_optional(queries->Get(i)->alias(), budget, s.alias) ||
          !copy_string(queries->Get(i)->query(), budget, s.query)) {
        return too_large("SetTransform.transform.queries");
      }
      out.queries.push_back(std::move(s));
    }
  }
  if (const auto* tables = sql->temporal_tables()) {
    for (flatbuffers::uoffset_t i = 0; i < tables->size(); ++i) {
      TemporalTable t;
      if (!copy_string(tables->Get(i)->name(), budget, t.name)) {
        return too_large("SetTransform.transform.temporalTables");
      }
      if (const auto* keys = tables->Get(i)->primary_key()) {
        for (flatbuffers::uoffset_t k = 0; k < keys->size(); ++k) {
          std::string key;
          if (!copy_string(keys->Get(k), budget, key)) {
            return too_large("SetTransform.transform.temporalTables");
          }
          t.primary_key.push_back(std::move(key));
        }
      }
      out.temporal_tables.push_back(std::move(t));
    }
  }
  return out;
}

Status read_schema_fields(const fb::DataSchema& schema, ContentBudget& budget,
                          std::vector<SchemaField>& out) {
  if (schema.fields() == nullptr) return Status::ok();
  SchemaFlattener flat(budget, out);
  for (flatbuffers::uoffset_t i = 0; i < schema.fields()->size(); ++i) {
    if (!flat.field(*schema.fields()->Get(i), "")) return too_large("SetDataSchema.schema");
  }
  return Status::ok();
}

Result<std::string> table_json(const uint8_t* table, const flatbuffers::TypeTable* type,
                               const char* event, ContentBudget& budget) {
  JsonWriter w(budget);
  nlohmann::ordered_json j = w.table(table, type);
  if (budget.exhausted()) return too_large(event);
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace odf_hash::odf::detail
