#include "parquet_hint.h"

#include <string>
#include <utility>

#include <arrow/ipc/writer.h>
#include <arrow/util/base64.h>
#include <arrow/util/key_value_metadata.h>

namespace odf_hash::io_internal {

namespace {

using arrow::DataType;
using arrow::Type;
using TypePtr = std::shared_ptr<DataType>;

constexpr char kArrowSchemaKey[] = "ARROW:schema";

// The type with every FixedSizeList replaced by a List of the same item field.
TypePtr lists_for_fixed_lists(const TypePtr& type) {
  if (type->id() == Type::DICTIONARY) {
    const auto& d = static_cast<const arrow::DictionaryType&>(*type);
    TypePtr v = lists_for_fixed_lists(d.value_type());
    return v == d.value_type() ? type : arrow::dictionary(d.index_type(), v, d.ordered());
  }
  if (type->num_fields() == 0) return type;
  arrow::FieldVector fields;
  bool changed = type->id() == Type::FIXED_SIZE_LIST;
  for (const auto& f : type->fields()) {
    TypePtr t = lists_for_fixed_lists(f->type());
    changed = changed || t != f->type();
    fields.push_back(t == f->type() ? f : f->WithType(t));
  }
  if (!changed) return type;
  switch (type->id()) {
    case Type::FIXED_SIZE_LIST:
    case Type::LIST: return arrow::list(fields[0]);
    case Type::LARGE_LIST: return arrow::large_list(fields[0]);
    case Type::LIST_VIEW: return arrow::list_view(fields[0]);
    case Type::LARGE_LIST_VIEW: return arrow::large_list_view(fields[0]);
    case Type::STRUCT: return arrow::struct_(fields);
    default: return type;  // maps, unions: left as they are (arrow-rs rejects most anyway)
  }
}

void put_varint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// A Thrift compact-protocol KeyValue {1: key, 2: value}: each a binary field (header 0x18,
// field delta 1, type 8) holding a varint length and the bytes.
std::string key_value_bytes(const std::string& key, const std::string& value) {
  std::string out = "\x18";
  put_varint(key.size(), &out);
  out += key;
  out += '\x18';
  put_varint(value.size(), &out);
  out += value;
  return out;
}

}  // namespace

Result<std::shared_ptr<parquet::FileMetaData>> metadata_reading_fixed_lists_as_lists(
    const parquet::FileMetaData& metadata, const std::shared_ptr<arrow::Schema>& origin,
    const parquet::ReaderProperties& properties) {
  if (!origin) return {nullptr};
  arrow::FieldVector fields;
  bool changed = false;
  for (const auto& f : origin->fields()) {
    TypePtr t = lists_for_fixed_lists(f->type());
    changed = changed || t != f->type();
    fields.push_back(t == f->type() ? f : f->WithType(t));
  }
  if (!changed) return {nullptr};
  const auto& kv = metadata.key_value_metadata();
  auto old_value =
      kv ? kv->Get(kArrowSchemaKey) : arrow::Result<std::string>(arrow::Status::KeyError(""));
  auto serialized = arrow::ipc::SerializeSchema(arrow::Schema(fields, origin->metadata()));
  const auto fail = [](const std::string& why) {
    return Status::unsupported("cannot read its fixed-size lists: " + why);
  };
  if (!old_value.ok()) return fail("no ARROW:schema entry");
  if (!serialized.ok()) return fail(serialized.status().message());
  const std::string new_value = arrow::util::base64_encode((*serialized)->ToString());

  // The embedded schema is one Thrift KeyValue in the footer; swap its value. The old
  // entry must occur exactly once (its bytes include the whole old schema).
  const std::string thrift = metadata.SerializeToString();
  const std::string old_entry = key_value_bytes(kArrowSchemaKey, *old_value);
  const size_t at = thrift.find(old_entry);
  if (at == std::string::npos || thrift.find(old_entry, at + 1) != std::string::npos) {
    return fail("the ARROW:schema entry was not found once in the footer");
  }
  std::string patched = thrift.substr(0, at) + key_value_bytes(kArrowSchemaKey, new_value) +
                        thrift.substr(at + old_entry.size());
  try {
    return parquet::FileMetaData::Make(patched.data(), static_cast<int64_t>(patched.size()),
                                       properties);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

}  // namespace odf_hash::io_internal
