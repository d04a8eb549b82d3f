#include "validate.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include <arrow/array.h>
#include <arrow/util/bit_util.h>
#include <arrow/util/utf8.h>

#include "type_rewrite.h"

namespace odf_hash::io_internal {

namespace {

using arrow::ArrayData;
using arrow::DataType;
using arrow::Type;
using TypePtr = std::shared_ptr<DataType>;

// The type with every node whose values Arrow C++ range-checks replaced by the plain type of
// the same layout; nullptr when that cannot be rebuilt (such a node under a map or union:
// validated as it is).
TypePtr without_value_ranges(const TypePtr& type) {
  return rewrite_type(type, [](const TypePtr& t) -> TypePtr {
    switch (t->id()) {
      case Type::DECIMAL32: return arrow::int32();
      case Type::DECIMAL64: return arrow::int64();
      case Type::DECIMAL128: return arrow::fixed_size_binary(16);
      case Type::DECIMAL256: return arrow::fixed_size_binary(32);
      case Type::TIME32: return arrow::int32();
      case Type::TIME64: return arrow::int64();
      case Type::DATE64: return arrow::int64();
      default: return t;
    }
  });
}

// `data` seen as `type` (same layout at every node).
std::shared_ptr<ArrayData> retyped(const std::shared_ptr<ArrayData>& data, const TypePtr& type) {
  auto out = data->Copy();
  out->type = type;
  if (type->id() == Type::DICTIONARY && out->dictionary) {
    out->dictionary =
        retyped(out->dictionary, static_cast<const arrow::DictionaryType&>(*type).value_type());
  }
  for (size_t i = 0; i < out->child_data.size() && static_cast<int>(i) < type->num_fields(); ++i) {
    out->child_data[i] = retyped(out->child_data[i], type->field(static_cast<int>(i))->type());
  }
  return out;
}

arrow::Status invalid(const std::string& path, const std::string& what) {
  return arrow::Status::Invalid(path, ": ", what);
}

bool is_null(const ArrayData& d, int64_t i) {
  const auto& v = d.buffers.empty() ? nullptr : d.buffers[0];
  return v && d.null_count != 0 && !arrow::bit_util::GetBit(v->data(), d.offset + i);
}

// arrow-rs's validate_utf8: the bytes from the first offset to the last must be UTF-8 (null
// slots included) and every offset must fall on a character boundary. Offsets were checked
// (monotonic, inside the data) by ValidateFull.
template <typename Offset>
arrow::Status check_utf8_span(const ArrayData& d, const std::string& path) {
  if (d.length == 0) return arrow::Status::OK();
  const auto* offsets = d.GetValues<Offset>(1);
  const uint8_t* data = d.buffers[2] ? d.buffers[2]->data() : nullptr;
  const int64_t first = offsets[0], last = offsets[d.length];
  if (last == first) return arrow::Status::OK();
  if (!arrow::util::ValidateUTF8(data + first, last - first)) {
    return invalid(path, "invalid UTF-8 in the string data (arrow-rs checks null slots too)");
  }
  for (int64_t i = 1; i < d.length; ++i) {
    const int64_t o = offsets[i];
    if (o < last && (data[o] & 0xC0) == 0x80) {
      return invalid(path, "offset " + std::to_string(i) + " splits a UTF-8 character");
    }
  }
  return arrow::Status::OK();
}

// arrow-rs's validate_binary_view / validate_string_view, for the null slots (Arrow C++ has
// checked the valid ones the same way).
arrow::Status check_null_views(const ArrayData& d, bool utf8, const std::string& path) {
  const uint8_t* views = d.buffers[1]->data() + d.offset * 16;
  const size_t num_data_buffers = d.buffers.size() - 2;
  for (int64_t i = 0; i < d.length; ++i) {
    if (!is_null(d, i)) continue;
    const uint8_t* v = views + i * 16;
    uint32_t len = 0;
    std::memcpy(&len, v, 4);
    const std::string where = "view in null slot " + std::to_string(i);
    const uint8_t* bytes = v + 4;
    if (len <= 12) {
      for (uint32_t k = len; k < 12; ++k) {
        if (bytes[k] != 0) return invalid(path, where + " has non-zero padding");
      }
    } else {
      uint32_t buffer = 0, offset = 0;
      std::memcpy(&buffer, v + 8, 4);
      std::memcpy(&offset, v + 12, 4);
      const auto& b = buffer < num_data_buffers ? d.buffers[buffer + 2] : nullptr;
      if (!b || uint64_t{offset} + len > static_cast<uint64_t>(b->size())) {
        return invalid(path, where + " points outside the data buffers");
      }
      bytes = b->data() + offset;
      if (std::memcmp(bytes, v + 4, 4) != 0) {
        return invalid(path, where + " has a prefix that differs from its data");
      }
    }
    if (utf8 && !arrow::util::ValidateUTF8(bytes, len)) {
      return invalid(path, where + " holds invalid UTF-8");
    }
  }
  return arrow::Status::OK();
}

// Is every null of `child` (slots [begin, begin + n)) under a null of `parent` (slot
// parent_of(k))?  `parent` may be nullptr (no nulls).
template <typename ParentOf>
bool nulls_masked(const ArrayData& child, int64_t begin, int64_t n, const ArrayData* parent,
                  ParentOf parent_of) {
  if (child.null_count == 0 || child.buffers.empty() || !child.buffers[0]) return true;
  for (int64_t k = 0; k < n; ++k) {
    if (is_null(child, begin + k) && (parent == nullptr || !is_null(*parent, parent_of(k)))) {
      return false;
    }
  }
  return true;
}

// The checks arrow-rs's IPC reader makes and Arrow C++'s ValidateFull does not, recursively.
arrow::Status check_ipc_like_arrow_rs(const ArrayData& d, const std::string& path) {
  switch (d.type->id()) {
    case Type::STRING:
      if (d.null_count != 0) ARROW_RETURN_NOT_OK(check_utf8_span<int32_t>(d, path));
      break;
    case Type::LARGE_STRING:
      if (d.null_count != 0) ARROW_RETURN_NOT_OK(check_utf8_span<int64_t>(d, path));
      break;
    case Type::STRING_VIEW:
    case Type::BINARY_VIEW:
      if (d.null_count != 0) {
        ARROW_RETURN_NOT_OK(check_null_views(d, d.type->id() == Type::STRING_VIEW, path));
      }
      break;
    case Type::STRUCT:
      for (int i = 0; i < d.type->num_fields(); ++i) {
        const auto& f = d.type->field(i);
        if (f->nullable()) continue;
        const ArrayData* parent = d.null_count != 0 ? &d : nullptr;
        if (!nulls_masked(*d.child_data[i], d.offset, d.length, parent,
                          [](int64_t k) { return k; })) {
          return invalid(path + "." + f->name(),
                         "non-nullable struct field holds nulls where its struct is valid");
        }
      }
      break;
    case Type::LIST:
    case Type::LARGE_LIST:
    case Type::MAP:
      if (!d.type->field(0)->nullable()) {
        const ArrayData& c = *d.child_data[0];
        if (!nulls_masked(c, 0, c.length, nullptr, [](int64_t k) { return k; })) {
          return invalid(path + "." + d.type->field(0)->name(), "non-nullable list item is null");
        }
      }
      break;
    case Type::FIXED_SIZE_LIST:
      if (!d.type->field(0)->nullable()) {
        const int64_t size = static_cast<const arrow::FixedSizeListType&>(*d.type).list_size();
        const ArrayData* parent = d.null_count != 0 ? &d : nullptr;
        if (!nulls_masked(*d.child_data[0], d.offset * size, d.length * size, parent,
                          [size](int64_t k) { return k / size; })) {
          return invalid(path + "." + d.type->field(0)->name(),
                         "non-nullable list item is null where its list is valid");
        }
      }
      break;
    default: break;
  }
  for (int i = 0; i < static_cast<int>(d.child_data.size()); ++i) {
    const std::string name = i < d.type->num_fields() ? d.type->field(i)->name() : "?";
    ARROW_RETURN_NOT_OK(check_ipc_like_arrow_rs(*d.child_data[i], path + "." + name));
  }
  if (d.dictionary) ARROW_RETURN_NOT_OK(check_ipc_like_arrow_rs(*d.dictionary, path + ".dict"));
  return arrow::Status::OK();
}

arrow::Status validate_column(const arrow::RecordBatch& batch, int i, ArrowRsChecks checks) {
  const auto& col = batch.column(i);
  const auto& field = batch.schema()->field(i);
  const std::string& path = field->name();
  TypePtr plain = without_value_ranges(col->type());
  auto data = plain && plain != col->type() ? retyped(col->data(), plain) : col->data();
  arrow::Status st = arrow::MakeArray(data)->ValidateFull();
  if (!st.ok()) return invalid(path, st.message());
  if (checks == ArrowRsChecks::kIpc) {
    if (!field->nullable() && col->null_count() != 0) {
      return invalid(path, "non-nullable column holds nulls");
    }
    ARROW_RETURN_NOT_OK(check_ipc_like_arrow_rs(*col->data(), path));
  }
  return arrow::Status::OK();
}

}  // namespace

arrow::Status validate_like_arrow_rs(const arrow::RecordBatch& batch, ArrowRsChecks checks) {
  arrow::util::InitializeUTF8();
  arrow::Status st = batch.Validate();  // column count, lengths and types against the schema
  for (int i = 0; i < batch.num_columns() && st.ok(); ++i) st = validate_column(batch, i, checks);
  if (!st.ok()) return arrow::Status::Invalid("invalid record batch: ", st.message());
  return st;
}

}  // namespace odf_hash::io_internal
