#include "parquet_hint.h"

#include <string>
#include <utility>

#include <arrow/ipc/writer.h>
#include <arrow/util/base64.h>
#include <arrow/util/key_value_metadata.h>

#include "type_rewrite.h"

namespace odf_hash::io_internal {

namespace {

using arrow::DataType;
using arrow::Type;
using TypePtr = std::shared_ptr<DataType>;

constexpr char kArrowSchemaKey[] = "ARROW:schema";

// The type with every FixedSizeList replaced by a List of the same item field (maps and
// unions left as they are: arrow-rs rejects most of them anyway).
TypePtr lists_for_fixed_lists(const TypePtr& type) {
  TypePtr out = rewrite_type(type, [](const TypePtr& t) -> TypePtr {
    return t->id() == Type::FIXED_SIZE_LIST ? arrow::list(t->field(0)) : t;
  });
  return out ? out : type;
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
