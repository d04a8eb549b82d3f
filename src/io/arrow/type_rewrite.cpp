#include "type_rewrite.h"

namespace odf_hash::io_internal {

std::shared_ptr<arrow::DataType> rewrite_type(const std::shared_ptr<arrow::DataType>& type,
                                              const TypeRewrite& fn) {
  using arrow::Type;
  if (type->id() == Type::DICTIONARY) {
    const auto& d = static_cast<const arrow::DictionaryType&>(*type);
    auto v = rewrite_type(d.value_type(), fn);
    if (!v) return nullptr;
    return fn(v == d.value_type() ? type : arrow::dictionary(d.index_type(), v, d.ordered()));
  }
  if (type->num_fields() == 0) return fn(type);
  arrow::FieldVector fields;
  bool changed = false;
  for (const auto& f : type->fields()) {
    auto t = rewrite_type(f->type(), fn);
    if (!t) return nullptr;
    changed = changed || t != f->type();
    fields.push_back(t == f->type() ? f : f->WithType(t));
  }
  if (!changed) return fn(type);
  switch (type->id()) {
    case Type::STRUCT: return fn(arrow::struct_(fields));
    case Type::LIST: return fn(arrow::list(fields[0]));
    case Type::LARGE_LIST: return fn(arrow::large_list(fields[0]));
    case Type::LIST_VIEW: return fn(arrow::list_view(fields[0]));
    case Type::LARGE_LIST_VIEW: return fn(arrow::large_list_view(fields[0]));
    case Type::FIXED_SIZE_LIST:
      return fn(arrow::fixed_size_list(
          fields[0], static_cast<const arrow::FixedSizeListType&>(*type).list_size()));
    default: return nullptr;
  }
}

}  // namespace odf_hash::io_internal
