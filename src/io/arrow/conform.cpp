#include "conform.h"
#include "memory_pool.h"

#include <utility>
#include <vector>

#include <arrow/array/concatenate.h>
#include <arrow/array/util.h>
#include <arrow/compute/api_vector.h>
#include <arrow/compute/cast.h>
#include <arrow/extension_type.h>
#include <arrow/util/bitmap_ops.h>

namespace odf_hash::io_internal {

namespace {

using arrow::Array;
using arrow::ArrayData;
using arrow::DataType;
using arrow::Type;
using ArrayPtr = std::shared_ptr<Array>;
using TypePtr = std::shared_ptr<DataType>;

Status cannot(const std::string& path, const DataType& from, const DataType& to,
              const std::string& why = "") {
  std::string m = "column '" + path + "': cannot convert Arrow C++ type " + from.ToString() +
                  " to arrow-rs type " + to.ToString();
  if (!why.empty()) m += " (" + why + ")";
  return Status::unsupported(m);
}

Result<ArrayPtr> cast(const ArrayPtr& a, const TypePtr& to, const std::string& path) {
  arrow::compute::ExecContext ctx(reader_memory_pool());
  auto r = arrow::compute::Cast(*a, to, arrow::compute::CastOptions::Safe(), &ctx);
  if (!r.ok()) return cannot(path, *a->type(), *to, r.status().message());
  return std::move(r).ValueOrDie();
}

ArrayPtr retype(const ArrayPtr& a, const TypePtr& to) {
  auto data = a->data()->Copy();
  data->type = to;
  return arrow::MakeArray(data);
}

bool binary_family(Type::type t) {
  return t == Type::STRING || t == Type::LARGE_STRING || t == Type::STRING_VIEW ||
         t == Type::BINARY || t == Type::LARGE_BINARY || t == Type::BINARY_VIEW;
}

bool list_family(Type::type t) {
  return t == Type::LIST || t == Type::LARGE_LIST || t == Type::FIXED_SIZE_LIST ||
         t == Type::LIST_VIEW || t == Type::LARGE_LIST_VIEW;
}

bool decimal_family(Type::type t) {
  return t == Type::DECIMAL32 || t == Type::DECIMAL64 || t == Type::DECIMAL128 ||
         t == Type::DECIMAL256;
}

bool is_temporal_int32(Type::type t) {
  return t == Type::DATE32 || t == Type::TIME32 || t == Type::INTERVAL_MONTHS;
}
bool is_temporal_int64(Type::type t) {
  return t == Type::DATE64 || t == Type::TIME64 || t == Type::TIMESTAMP || t == Type::DURATION;
}

// A list type of the target's kind over the source's item field.
TypePtr list_of_kind(const DataType& kind, const std::shared_ptr<arrow::Field>& item) {
  switch (kind.id()) {
    case Type::LARGE_LIST: return arrow::large_list(item);
    case Type::LIST_VIEW: return arrow::list_view(item);
    case Type::LARGE_LIST_VIEW: return arrow::large_list_view(item);
    case Type::FIXED_SIZE_LIST:
      return arrow::fixed_size_list(item,
                                    static_cast<const arrow::FixedSizeListType&>(kind).list_size());
    default: return arrow::list(item);
  }
}

Result<ArrayPtr> conform(ArrayPtr a, const TypePtr& target, const std::string& path);

// A (large) list read in place of a fixed-size list (see parquet_hint.h), rebuilt the way
// arrow-rs's FixedSizeListArrayReader builds it: a valid slot must hold exactly N items, a
// null slot gets N null items.
template <typename ListArrayT>
Result<ArrayPtr> fixed_size_list_from(const ArrayPtr& a, const TypePtr& target,
                                      const std::string& path) {
  const auto& list = static_cast<const ListArrayT&>(*a);
  const int32_t size = static_cast<const arrow::FixedSizeListType&>(*target).list_size();
  // Runs of valid slots are contiguous slices of the items; runs of null slots become
  // null items. The pieces are concatenated (Take has no kernel for view types).
  arrow::ArrayVector pieces;
  int64_t i = 0;
  while (i < list.length()) {
    // An empty slot that is not null lies under a null ancestor (a non-nullable list has no
    // validity of its own): arrow-rs gives it N null items too.
    const bool null_run = list.IsNull(i) || (size > 0 && list.value_length(i) == 0);
    int64_t j = i;
    while (j < list.length() &&
           (list.IsNull(j) || (size > 0 && list.value_length(j) == 0)) == null_run) {
      if (!null_run && list.value_length(j) != size) {
        return Status::parse_error("column '" + path + "': misaligned fixed-size list at row " +
                                   std::to_string(j) + ": " + std::to_string(list.value_length(j)) +
                                   " items (expected " + std::to_string(size) + ")");
      }
      ++j;
    }
    if (null_run) {
      auto nulls = arrow::MakeArrayOfNull(list.value_type(), (j - i) * size, reader_memory_pool());
      if (!nulls.ok()) return cannot(path, *a->type(), *target, nulls.status().message());
      pieces.push_back(std::move(nulls).ValueOrDie());
    } else {
      pieces.push_back(list.values()->Slice(list.value_offset(i), (j - i) * size));
    }
    i = j;
  }
  std::shared_ptr<arrow::Array> items;
  if (pieces.empty()) {
    auto empty = arrow::MakeEmptyArray(list.value_type(), reader_memory_pool());
    if (!empty.ok()) return cannot(path, *a->type(), *target, empty.status().message());
    items = std::move(empty).ValueOrDie();
  } else if (pieces.size() == 1) {
    items = pieces[0];
  } else {
    auto joined = arrow::Concatenate(pieces, reader_memory_pool());
    if (!joined.ok()) return cannot(path, *a->type(), *target, joined.status().message());
    items = std::move(joined).ValueOrDie();
  }
  std::shared_ptr<arrow::Buffer> validity;
  if (list.null_count() > 0) {
    auto copied = arrow::internal::CopyBitmap(reader_memory_pool(), list.null_bitmap_data(),
                                              list.offset(), list.length());
    if (!copied.ok()) return cannot(path, *a->type(), *target, copied.status().message());
    validity = std::move(copied).ValueOrDie();
  }
  auto type = arrow::fixed_size_list(a->type()->field(0), size);
  return ArrayPtr(std::make_shared<arrow::FixedSizeListArray>(type, list.length(), items, validity,
                                                              list.null_count()));
}

// Same nesting kind on both sides: conform every child to the target's child type and
// take the target type (field names and nullability as arrow-rs has them).
Result<ArrayPtr> conform_children(const ArrayPtr& a, const TypePtr& target,
                                  const std::string& path) {
  const auto& data = a->data();
  if (static_cast<int>(data->child_data.size()) != target->num_fields()) {
    return cannot(path, *a->type(), *target, "different number of children");
  }
  auto out = data->Copy();
  out->type = target;
  for (int i = 0; i < target->num_fields(); ++i) {
    const auto& f = target->field(i);
    std::string child_path = target->id() == Type::STRUCT ? path + "." + f->name() : path;
    ODF_HASH_ASSIGN_OR_RETURN(
        ArrayPtr c, conform(arrow::MakeArray(data->child_data[i]), f->type(), child_path));
    out->child_data[i] = c->data();
  }
  return arrow::MakeArray(out);
}

Result<ArrayPtr> conform(ArrayPtr a, const TypePtr& target, const std::string& path) {
  if (a->type_id() == Type::EXTENSION) {
    a = static_cast<const arrow::ExtensionArray&>(*a).storage();
  }
  const TypePtr src = a->type();
  const Type::type s = src->id();
  const Type::type t = target->id();

  if (t == Type::DICTIONARY) {
    const auto& tdict = static_cast<const arrow::DictionaryType&>(*target);
    if (s != Type::DICTIONARY) {
      // arrow-rs keeps the embedded schema's dictionary for any column type; Arrow C++
      // only for byte arrays. Encode the dense values (the hash is that of the values
      // either way; this keeps the exported type equal to arrow-rs's).
      ODF_HASH_ASSIGN_OR_RETURN(ArrayPtr dense, conform(a, tdict.value_type(), path));
      arrow::compute::ExecContext ctx(reader_memory_pool());
      auto encoded = arrow::compute::DictionaryEncode(
          dense, arrow::compute::DictionaryEncodeOptions::Defaults(), &ctx);
      if (!encoded.ok()) return cannot(path, *src, *target, encoded.status().message());
      a = encoded->make_array();
    }
    const auto& da = static_cast<const arrow::DictionaryArray&>(*a);
    ODF_HASH_ASSIGN_OR_RETURN(ArrayPtr values, conform(da.dictionary(), tdict.value_type(), path));
    ArrayPtr indices = da.indices();
    if (!indices->type()->Equals(*tdict.index_type())) {
      ODF_HASH_ASSIGN_OR_RETURN(indices, cast(indices, tdict.index_type(), path));
    }
    return ArrayPtr(std::make_shared<arrow::DictionaryArray>(target, indices, values));
  }
  if (s == Type::DICTIONARY) {
    const auto& sdict = static_cast<const arrow::DictionaryType&>(*src);
    ODF_HASH_ASSIGN_OR_RETURN(ArrayPtr dense, cast(a, sdict.value_type(), path));
    return conform(dense, target, path);
  }

  if (t == Type::FIXED_SIZE_LIST && (s == Type::LIST || s == Type::LARGE_LIST)) {
    ODF_HASH_ASSIGN_OR_RETURN(
        a, s == Type::LIST ? fixed_size_list_from<arrow::ListArray>(a, target, path)
                           : fixed_size_list_from<arrow::LargeListArray>(a, target, path));
    return conform_children(a, target, path);
  }
  if (list_family(s) && list_family(t)) {
    if (s != t) {
      ODF_HASH_ASSIGN_OR_RETURN(a, cast(a, list_of_kind(*target, src->field(0)), path));
    }
    return conform_children(a, target, path);
  }
  if ((s == Type::STRUCT && t == Type::STRUCT) || (s == Type::MAP && t == Type::MAP)) {
    return conform_children(a, target, path);
  }
  if (binary_family(s) && binary_family(t)) {
    if (s == t) return retype(a, target);
    return cast(a, target, path);
  }
  if (decimal_family(s) && decimal_family(t)) {
    const auto& sd = static_cast<const arrow::DecimalType&>(*src);
    const auto& td = static_cast<const arrow::DecimalType&>(*target);
    if (sd.precision() != td.precision() || sd.scale() != td.scale()) {
      return cannot(path, *src, *target, "precision or scale differ");
    }
    if (s == t) return retype(a, target);
    return cast(a, target, path);
  }
  if (s == Type::TIMESTAMP && t == Type::TIMESTAMP) {
    // Only the time zone may differ: a zone is metadata over the same UTC instants.
    const auto& st = static_cast<const arrow::TimestampType&>(*src);
    const auto& tt = static_cast<const arrow::TimestampType&>(*target);
    if (st.unit() != tt.unit()) return cannot(path, *src, *target, "time units differ");
    return retype(a, target);
  }
  if (s == Type::DATE32 && t == Type::DATE64) return cast(a, target, path);
  // arrow-rs reinterprets plain integers as the hinted temporal type of the same width.
  if ((s == Type::INT32 && is_temporal_int32(t)) || (s == Type::INT64 && is_temporal_int64(t))) {
    return retype(a, target);
  }
  if (s == t && src->num_fields() == 0 && target->num_fields() == 0 && src->Equals(*target)) {
    return retype(a, target);
  }
  return cannot(path, *src, *target);
}

}  // namespace

Result<std::shared_ptr<Array>> conform_array(const std::shared_ptr<Array>& array,
                                             const std::shared_ptr<DataType>& target,
                                             const std::string& path) {
  return conform(array, target, path);
}

}  // namespace odf_hash::io_internal
