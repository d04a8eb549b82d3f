#include "arrow_rs_schema.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <arrow/extension_type.h>

namespace odf_hash::io_internal {

namespace {

using arrow::DataType;
using arrow::Field;
using arrow::Type;
using parquet::ConvertedType;
using parquet::LogicalType;
using parquet::Repetition;
using parquet::schema::GroupNode;
using parquet::schema::Node;
using parquet::schema::PrimitiveNode;
using TypePtr = std::shared_ptr<DataType>;

Status schema_error(const std::string& message) {
  return Status::unsupported("Parquet schema not readable by arrow-rs: " + message);
}

// What the visitor returns for one Parquet node: its Arrow type and nullability.
struct Converted {
  TypePtr type;
  bool nullable = false;
};

bool is_list_like(const TypePtr& t) {
  return t &&
         (t->id() == Type::LIST || t->id() == Type::LARGE_LIST || t->id() == Type::FIXED_SIZE_LIST);
}

std::shared_ptr<Field> list_item_field(const TypePtr& t) {
  return t->field(0);
}

Result<TypePtr> make_decimal(int bits, int32_t precision, int32_t scale) {
  if (precision < 0) return schema_error("decimal precision cannot be negative");
  if (scale < 0) return schema_error("decimal scale cannot be negative");
  arrow::Result<TypePtr> made = bits == 128 ? arrow::Decimal128Type::Make(precision, scale)
                                            : arrow::Decimal256Type::Make(precision, scale);
  if (!made.ok()) return schema_error(made.status().message());
  return *made;
}

arrow::TimeUnit::type time_unit_of(LogicalType::TimeUnit::unit unit) {
  switch (unit) {
    case LogicalType::TimeUnit::MILLIS: return arrow::TimeUnit::MILLI;
    case LogicalType::TimeUnit::MICROS: return arrow::TimeUnit::MICRO;
    default: return arrow::TimeUnit::NANO;
  }
}

// A node's logical type, or nullptr when it has none. Parquet C++ synthesises logical
// types from legacy converted types; arrow-rs keeps them apart, but in arrow-rs 60 both
// routes give the same Arrow type for every annotation (TIMESTAMP_MILLIS/MICROS included:
// "UTC"), so deciding on the synthesised logical type is equivalent.
const LogicalType* logical_of(const Node& node) {
  const auto& lt = node.logical_type();
  if (!lt || lt->is_none()) return nullptr;
  return lt.get();
}

Result<TypePtr> from_int32(const PrimitiveNode& node) {
  const LogicalType* lt = logical_of(node);
  if (lt == nullptr) return arrow::int32();
  if (lt->is_int()) {
    const auto& it = static_cast<const parquet::IntLogicalType&>(*lt);
    switch (it.bit_width()) {
      case 8: return it.is_signed() ? arrow::int8() : arrow::uint8();
      case 16: return it.is_signed() ? arrow::int16() : arrow::uint16();
      case 32: return it.is_signed() ? arrow::int32() : arrow::uint32();
      default: break;
    }
  } else if (lt->is_decimal()) {
    const auto& dt = static_cast<const parquet::DecimalLogicalType&>(*lt);
    return make_decimal(128, dt.precision(), dt.scale());
  } else if (lt->is_date()) {
    return arrow::date32();
  } else if (lt->is_time()) {
    const auto& tt = static_cast<const parquet::TimeLogicalType&>(*lt);
    if (tt.time_unit() == LogicalType::TimeUnit::MILLIS)
      return arrow::time32(arrow::TimeUnit::MILLI);
  }
  return schema_error("cannot read INT32 column '" + node.name() + "' annotated " + lt->ToString());
}

Result<TypePtr> from_int64(const PrimitiveNode& node) {
  const LogicalType* lt = logical_of(node);
  if (lt == nullptr) return arrow::int64();
  if (lt->is_int()) {
    const auto& it = static_cast<const parquet::IntLogicalType&>(*lt);
    if (it.bit_width() == 64) return it.is_signed() ? arrow::int64() : arrow::uint64();
  } else if (lt->is_time()) {
    const auto& tt = static_cast<const parquet::TimeLogicalType&>(*lt);
    if (tt.time_unit() == LogicalType::TimeUnit::MICROS)
      return arrow::time64(arrow::TimeUnit::MICRO);
    if (tt.time_unit() == LogicalType::TimeUnit::NANOS) return arrow::time64(arrow::TimeUnit::NANO);
  } else if (lt->is_timestamp()) {
    const auto& ts = static_cast<const parquet::TimestampLogicalType&>(*lt);
    if (ts.time_unit() != LogicalType::TimeUnit::UNKNOWN) {
      return arrow::timestamp(time_unit_of(ts.time_unit()), ts.is_adjusted_to_utc() ? "UTC" : "");
    }
  } else if (lt->is_decimal()) {
    const auto& dt = static_cast<const parquet::DecimalLogicalType&>(*lt);
    return make_decimal(128, dt.precision(), dt.scale());
  }
  return schema_error("cannot read INT64 column '" + node.name() + "' annotated " + lt->ToString());
}

Result<TypePtr> from_byte_array(const PrimitiveNode& node) {
  const LogicalType* lt = logical_of(node);
  if (lt == nullptr) return arrow::binary();
  if (lt->is_string() || lt->is_JSON()) return arrow::utf8();
  if (lt->is_decimal()) {
    const auto& dt = static_cast<const parquet::DecimalLogicalType&>(*lt);
    return make_decimal(dt.precision() <= 38 ? 128 : 256, dt.precision(), dt.scale());
  }
  if (lt->is_BSON() || lt->is_enum() || lt->is_geometry() || lt->is_geography() ||
      lt->is_invalid()) {
    return arrow::binary();
  }
  return schema_error("cannot read BYTE_ARRAY column '" + node.name() + "' annotated " +
                      lt->ToString());
}

Result<TypePtr> from_fixed_len_byte_array(const PrimitiveNode& node) {
  const LogicalType* lt = logical_of(node);
  const int length = node.type_length();
  if (lt != nullptr && lt->is_decimal()) {
    if (length < 1 || length > 32) {
      return schema_error("DECIMAL column '" + node.name() +
                          "' must be a FIXED_LEN_BYTE_ARRAY of 1 to 32 bytes");
    }
    const auto& dt = static_cast<const parquet::DecimalLogicalType&>(*lt);
    return make_decimal(length <= 16 ? 128 : 256, dt.precision(), dt.scale());
  }
  if (lt != nullptr && lt->is_interval()) {
    if (length != 12) return schema_error("INTERVAL column '" + node.name() + "' must be 12 bytes");
    return arrow::day_time_interval();
  }
  if (lt != nullptr && lt->is_float16()) {
    if (length != 2) return schema_error("FLOAT16 column '" + node.name() + "' must be 2 bytes");
    return arrow::float16();
  }
  if (length < 0) return schema_error("negative FIXED_LEN_BYTE_ARRAY length");
  return arrow::fixed_size_binary(length);
}

Result<TypePtr> from_parquet(const PrimitiveNode& node) {
  const LogicalType* lt = logical_of(node);
  if (lt != nullptr && lt->is_null()) return arrow::null();
  switch (node.physical_type()) {
    case parquet::Type::BOOLEAN: return arrow::boolean();
    case parquet::Type::INT32: return from_int32(node);
    case parquet::Type::INT64: return from_int64(node);
    case parquet::Type::INT96: return arrow::timestamp(arrow::TimeUnit::NANO);
    case parquet::Type::FLOAT: return arrow::float32();
    case parquet::Type::DOUBLE: return arrow::float64();
    case parquet::Type::BYTE_ARRAY: return from_byte_array(node);
    case parquet::Type::FIXED_LEN_BYTE_ARRAY: return from_fixed_len_byte_array(node);
    default: break;
  }
  return schema_error("unknown physical type of column '" + node.name() + "'");
}

// arrow-rs's apply_hint: the embedded Arrow type wins only in these listed cases.
TypePtr apply_hint(const TypePtr& parquet, const TypePtr& hint) {
  const Type::type p = parquet->id();
  const Type::type h = hint->id();
  if ((p == Type::INT32 || p == Type::INT64) && h == Type::TIMESTAMP) return hint;
  if (p == Type::INT32 && h == Type::TIME32) return hint;
  if (p == Type::INT64 && (h == Type::TIME64 || h == Type::DURATION || h == Type::DATE64)) {
    return hint;
  }
  if (p == Type::DATE32 && h == Type::DATE64) return hint;
  if (p == Type::TIMESTAMP && h == Type::TIMESTAMP) {
    const auto& pt = static_cast<const arrow::TimestampType&>(*parquet);
    const auto& ht = static_cast<const arrow::TimestampType&>(*hint);
    if (pt.unit() == ht.unit() && !ht.timezone().empty()) return hint;
    // INT96 (read as nanoseconds without a zone) may take a coarser unit from the hint.
    if (pt.unit() == arrow::TimeUnit::NANO && pt.timezone().empty() &&
        ht.unit() != arrow::TimeUnit::NANO) {
      return hint;
    }
  }
  if (p == Type::STRING && (h == Type::LARGE_STRING || h == Type::STRING_VIEW)) return hint;
  if (p == Type::BINARY &&
      (h == Type::LARGE_BINARY || h == Type::STRING || h == Type::LARGE_STRING ||
       h == Type::STRING_VIEW || h == Type::BINARY_VIEW)) {
    return hint;
  }
  if (p == Type::INTERVAL_DAY_TIME || p == Type::INTERVAL_MONTHS ||
      p == Type::INTERVAL_MONTH_DAY_NANO) {
    if (h == Type::INTERVAL_DAY_TIME || h == Type::INTERVAL_MONTHS ||
        h == Type::INTERVAL_MONTH_DAY_NANO) {
      return hint;
    }
  }
  if (p == Type::DECIMAL128 &&
      (h == Type::DECIMAL32 || h == Type::DECIMAL64 || h == Type::DECIMAL256)) {
    return hint;
  }
  if (h == Type::DICTIONARY) {
    const auto& dict = static_cast<const arrow::DictionaryType&>(*hint);
    TypePtr hinted = apply_hint(parquet, dict.value_type());
    if (hinted->Equals(*dict.value_type())) return hint;
    return hinted;
  }
  return parquet;
}

Repetition::type repetition_of(const Node& node) {
  return node.repetition();
}

class Visitor {
 public:
  // `hint` is the Arrow type from the embedded schema for this node (may be null);
  // `repeated_as_list` is arrow-rs's treat_repeated_as_list_arrow_hint.
  Result<std::optional<Converted>> dispatch(const Node& node, const TypePtr& hint,
                                            bool repeated_as_list) {
    if (node.is_primitive()) {
      return visit_primitive(static_cast<const PrimitiveNode&>(node), hint, repeated_as_list);
    }
    const auto& group = static_cast<const GroupNode&>(node);
    const ConvertedType::type ct = node.converted_type();
    if (ct == ConvertedType::LIST) return visit_list(group, hint);
    if (ct == ConvertedType::MAP || ct == ConvertedType::MAP_KEY_VALUE) {
      return visit_map(group, hint);
    }
    return visit_struct(group, hint, repeated_as_list, /*is_root=*/false);
  }

  Result<std::optional<Converted>> visit_root(const GroupNode& root, const TypePtr& hint) {
    return visit_struct(root, hint, true, /*is_root=*/true);
  }

 private:
  // A repeated node outside a LIST group: a list of its values (arrow-rs into_list /
  // into_list_with_arrow_list_hint).
  Result<Converted> repeated_to_list(const Node& node, const Converted& item,
                                     const TypePtr& list_hint, bool use_hint) {
    auto field = arrow::field(node.name(), item.type, false);
    TypePtr list = arrow::list(field);
    if (use_hint && list_hint) {
      if (list_hint->id() == Type::LARGE_LIST) list = arrow::large_list(field);
      if (list_hint->id() == Type::FIXED_SIZE_LIST) {
        const auto& fsl = static_cast<const arrow::FixedSizeListType&>(*list_hint);
        list = arrow::fixed_size_list(field, fsl.list_size());
      }
    }
    return Converted{list, false};
  }

  Result<TypePtr> hint_inside_repeated(const TypePtr& hint, const char* what) {
    if (!hint) return TypePtr();
    if (!is_list_like(hint)) {
      return schema_error(std::string("incompatible arrow schema, expected list got ") +
                          hint->ToString() + " for repeated " + what + " field");
    }
    return list_item_field(hint)->type();
  }

  Result<std::optional<Converted>> visit_primitive(const PrimitiveNode& node, const TypePtr& hint,
                                                   bool repeated_as_list) {
    const Repetition::type rep = repetition_of(node);
    TypePtr prim_hint = hint;
    if (rep == Repetition::REPEATED && repeated_as_list) {
      ODF_HASH_ASSIGN_OR_RETURN(prim_hint, hint_inside_repeated(hint, "primitive"));
    }
    ODF_HASH_ASSIGN_OR_RETURN(TypePtr type, from_parquet(node));
    if (prim_hint) type = apply_hint(type, prim_hint);
    Converted out{type, rep == Repetition::OPTIONAL};
    if (rep == Repetition::REPEATED) {
      ODF_HASH_ASSIGN_OR_RETURN(out, repeated_to_list(node, out, hint, repeated_as_list));
    }
    return std::optional<Converted>(out);
  }

  Result<std::optional<Converted>> visit_struct(const GroupNode& node, const TypePtr& hint,
                                                bool repeated_as_list, bool is_root) {
    const Repetition::type rep = is_root ? Repetition::REQUIRED : repetition_of(node);
    TypePtr struct_hint = hint;
    if (rep == Repetition::REPEATED && repeated_as_list) {
      ODF_HASH_ASSIGN_OR_RETURN(struct_hint, hint_inside_repeated(hint, "struct"));
    }
    if (struct_hint) {
      if (struct_hint->id() != Type::STRUCT) {
        return schema_error("incompatible arrow schema, expected struct got " +
                            struct_hint->ToString());
      }
      if (struct_hint->num_fields() != node.field_count()) {
        return schema_error("incompatible arrow schema, expected " +
                            std::to_string(node.field_count()) + " struct fields got " +
                            std::to_string(struct_hint->num_fields()));
      }
    }
    arrow::FieldVector fields;
    for (int i = 0; i < node.field_count(); ++i) {
      const Node& child = *node.field(i);
      TypePtr child_hint;
      if (struct_hint) {
        const auto& hf = struct_hint->field(i);
        if (hf->name() != child.name()) {
          return schema_error("incompatible arrow schema, expected field named " + child.name() +
                              " got " + hf->name());
        }
        child_hint = hf->type();
      }
      ODF_HASH_ASSIGN_OR_RETURN(std::optional<Converted> c, dispatch(child, child_hint, true));
      if (c) fields.push_back(arrow::field(child.name(), c->type, c->nullable));
    }
    if (fields.empty()) return std::optional<Converted>();
    Converted out{arrow::struct_(fields), rep == Repetition::OPTIONAL};
    if (rep == Repetition::REPEATED) {
      ODF_HASH_ASSIGN_OR_RETURN(out, repeated_to_list(node, out, hint, repeated_as_list));
    }
    return std::optional<Converted>(out);
  }

  Result<std::optional<Converted>> visit_list(const GroupNode& node, const TypePtr& hint) {
    if (node.field_count() != 1) {
      return schema_error("list '" + node.name() + "' must have a single child");
    }
    const Node& repeated = *node.field(0);
    if (repeated.repetition() != Repetition::REPEATED) {
      return schema_error("child of list '" + node.name() + "' must be repeated");
    }
    bool nullable;
    switch (node.repetition()) {
      case Repetition::REQUIRED: nullable = false; break;
      case Repetition::OPTIONAL: nullable = true; break;
      default: return schema_error("list '" + node.name() + "' cannot be repeated");
    }
    std::shared_ptr<Field> hint_item;
    if (hint) {
      const Type::type h = hint->id();
      if (h != Type::LIST && h != Type::LARGE_LIST && h != Type::FIXED_SIZE_LIST &&
          h != Type::LIST_VIEW && h != Type::LARGE_LIST_VIEW) {
        return schema_error("incompatible arrow schema, expected list got " + hint->ToString());
      }
      hint_item = hint->field(0);
    }
    const TypePtr item_hint = hint_item ? hint_item->type() : TypePtr();

    // Legacy two-level lists: the repeated node itself is the element (required).
    if (repeated.is_primitive()) {
      ODF_HASH_ASSIGN_OR_RETURN(
          std::optional<Converted> c,
          visit_primitive(static_cast<const PrimitiveNode&>(repeated), item_hint, false));
      if (c) c->nullable = nullable;
      return c;
    }
    const auto& rgroup = static_cast<const GroupNode&>(repeated);
    bool single_repeated_child =
        rgroup.field_count() == 1 && rgroup.field(0)->repetition() == Repetition::REPEATED;
    bool repeated_is_list = repeated.converted_type() == ConvertedType::LIST;
    if (rgroup.field_count() != 1 ||
        (!repeated_is_list && !single_repeated_child &&
         (repeated.name() == "array" || repeated.name() == node.name() + "_tuple"))) {
      ODF_HASH_ASSIGN_OR_RETURN(std::optional<Converted> c,
                                visit_struct(rgroup, item_hint, false, false));
      if (c) c->nullable = nullable;
      return c;
    }
    const Node& item = *rgroup.field(0);
    ODF_HASH_ASSIGN_OR_RETURN(std::optional<Converted> c, dispatch(item, item_hint, true));
    if (!c) return c;
    auto item_field = arrow::field(item.name(), c->type, c->nullable);
    TypePtr list = arrow::list(item_field);
    if (hint) {
      switch (hint->id()) {
        case Type::LARGE_LIST: list = arrow::large_list(item_field); break;
        case Type::FIXED_SIZE_LIST:
          list = arrow::fixed_size_list(
              item_field, static_cast<const arrow::FixedSizeListType&>(*hint).list_size());
          break;
        case Type::LIST_VIEW: list = arrow::list_view(item_field); break;
        case Type::LARGE_LIST_VIEW: list = arrow::large_list_view(item_field); break;
        default: break;
      }
    }
    return std::optional<Converted>(Converted{list, nullable});
  }

  Result<std::optional<Converted>> visit_map(const GroupNode& node, const TypePtr& hint) {
    bool nullable;
    switch (node.repetition()) {
      case Repetition::REQUIRED: nullable = false; break;
      case Repetition::OPTIONAL: nullable = true; break;
      default: return schema_error("map '" + node.name() + "' cannot be repeated");
    }
    if (node.field_count() != 1) {
      return schema_error("map '" + node.name() + "' must have exactly one key_value child");
    }
    const Node& kv_node = *node.field(0);
    if (kv_node.repetition() != Repetition::REPEATED || kv_node.is_primitive()) {
      return schema_error("child of map '" + node.name() + "' must be a repeated group");
    }
    const auto& kv = static_cast<const GroupNode&>(kv_node);
    if (kv.field_count() == 1) return visit_list(node, hint);  // keys only: a list
    if (kv.field_count() != 2) {
      return schema_error("child of map '" + node.name() + "' must have two children");
    }
    const Node& key = *kv.field(0);
    const Node& value = *kv.field(1);
    if (key.repetition() == Repetition::REPEATED)
      return schema_error("map keys cannot be repeated");
    if (value.repetition() == Repetition::REPEATED) {
      return schema_error("map values cannot be repeated");
    }
    TypePtr key_hint, value_hint;
    bool sorted = false;
    if (hint) {
      if (hint->id() != Type::MAP) {
        return schema_error("incompatible arrow schema, expected map got " + hint->ToString());
      }
      const auto& mt = static_cast<const arrow::MapType&>(*hint);
      key_hint = mt.key_type();
      value_hint = mt.item_type();
      sorted = mt.keys_sorted();
    }
    ODF_HASH_ASSIGN_OR_RETURN(std::optional<Converted> k, dispatch(key, key_hint, false));
    ODF_HASH_ASSIGN_OR_RETURN(std::optional<Converted> v, dispatch(value, value_hint, true));
    if (!k || !v) return std::optional<Converted>();
    auto entries = arrow::field(kv.name(),
                                arrow::struct_({arrow::field(key.name(), k->type, false),
                                                arrow::field(value.name(), v->type, v->nullable)}),
                                false);
    auto made = arrow::MapType::Make(entries, sorted);
    if (!made.ok()) return schema_error(made.status().message());
    return std::optional<Converted>(Converted{*made, nullable});
  }
};

}  // namespace

std::shared_ptr<DataType> strip_extensions(const std::shared_ptr<DataType>& type) {
  if (!type) return type;
  if (type->id() == Type::EXTENSION) {
    return strip_extensions(static_cast<const arrow::ExtensionType&>(*type).storage_type());
  }
  if (type->id() == Type::DICTIONARY) {
    const auto& d = static_cast<const arrow::DictionaryType&>(*type);
    auto value = strip_extensions(d.value_type());
    if (value == d.value_type()) return type;
    return arrow::dictionary(d.index_type(), value, d.ordered());
  }
  if (type->num_fields() == 0) return type;
  arrow::FieldVector fields;
  bool changed = false;
  for (const auto& f : type->fields()) {
    auto t = strip_extensions(f->type());
    changed = changed || t != f->type();
    fields.push_back(f->WithType(t));
  }
  if (!changed) return type;
  switch (type->id()) {
    case Type::STRUCT: return arrow::struct_(fields);
    case Type::LIST: return arrow::list(fields[0]);
    case Type::LARGE_LIST: return arrow::large_list(fields[0]);
    case Type::LIST_VIEW: return arrow::list_view(fields[0]);
    case Type::LARGE_LIST_VIEW: return arrow::large_list_view(fields[0]);
    case Type::FIXED_SIZE_LIST:
      return arrow::fixed_size_list(
          fields[0], static_cast<const arrow::FixedSizeListType&>(*type).list_size());
    case Type::MAP: {
      auto made =
          arrow::MapType::Make(fields[0], static_cast<const arrow::MapType&>(*type).keys_sorted());
      return made.ok() ? *made : type;
    }
    default: return type;  // unions etc.: left alone, the hasher rejects them anyway
  }
}

Result<ArrowRsSchema> arrow_rs_parquet_schema(const parquet::SchemaDescriptor& descr,
                                              const std::shared_ptr<arrow::Schema>& hint) {
  TypePtr root_hint;
  if (hint) {
    arrow::FieldVector fields;
    for (const auto& f : hint->fields()) fields.push_back(f->WithType(strip_extensions(f->type())));
    root_hint = arrow::struct_(fields);
  }
  const GroupNode* root = descr.group_node();
  if (root == nullptr) return schema_error("no root group");
  Visitor visitor;
  ODF_HASH_ASSIGN_OR_RETURN(std::optional<Converted> c, visitor.visit_root(*root, root_hint));
  ArrowRsSchema out;
  out.schema = c ? arrow::schema(c->type->fields()) : arrow::schema(arrow::FieldVector{});
  return out;
}

}  // namespace odf_hash::io_internal
