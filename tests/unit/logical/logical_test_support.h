// Helpers shared by the logical hasher tests: building Arrow arrays with Arrow C++, exporting
// them through the C Data Interface, and hashing them with odf-hash.
#pragma once

#include <arrow/api.h>
#include <arrow/c/bridge.h>
#include <arrow/json/from_string.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "odf_hash/logical/logical.h"

namespace odf_hash::test {

inline std::shared_ptr<arrow::Array> from_json(const std::shared_ptr<arrow::DataType>& type,
                                               const std::string& json) {
  return arrow::json::ArrayFromJSONString(type, json).ValueOrDie();
}

// Owns exported C structs for the duration of a test.
struct ExportedArray {
  ArrowArray array{};
  ArrowSchema schema{};
  ExportedArray() = default;
  ExportedArray(const ExportedArray&) = delete;
  ~ExportedArray() {
    if (array.release != nullptr) array.release(&array);
    if (schema.release != nullptr) schema.release(&schema);
  }
};

inline std::unique_ptr<ExportedArray> export_array(const arrow::Array& a,
                                                   const std::string& name = "col") {
  auto out = std::make_unique<ExportedArray>();
  auto field = arrow::field(name, a.type());
  if (!arrow::ExportField(*field, &out->schema).ok()) return nullptr;
  if (!arrow::ExportArray(a, &out->array).ok()) return nullptr;
  return out;
}

inline std::unique_ptr<ExportedArray> export_batch(const arrow::RecordBatch& b) {
  auto out = std::make_unique<ExportedArray>();
  if (!arrow::ExportRecordBatch(b, &out->array, &out->schema).ok()) return nullptr;
  return out;
}

inline Result<Digest256> hash_array(const arrow::Array& a) {
  auto e = export_array(a);
  if (!e) return Status::internal("export failed");
  ODF_HASH_ASSIGN_OR_RETURN(ArrayHasher h, ArrayHasher::create(e->schema));
  ODF_HASH_RETURN_IF_ERROR(h.update(e->array));
  return std::move(h).finalize();
}

inline Result<LogicalDigest> hash_batches(
    const std::shared_ptr<arrow::Schema>& schema,
    const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches,
    const LogicalHashOptions& options = {}) {
  ArrowSchema c_schema{};
  if (!arrow::ExportSchema(*schema, &c_schema).ok()) return Status::internal("export failed");
  auto hasher = LogicalHasher::create(c_schema, options);
  c_schema.release(&c_schema);
  if (!hasher.is_ok()) return hasher.status();
  for (const auto& b : batches) {
    ArrowArray c_array{};
    if (!arrow::ExportRecordBatch(*b, &c_array).ok()) return Status::internal("export failed");
    Status st = hasher->update(c_array);
    c_array.release(&c_array);
    ODF_HASH_RETURN_IF_ERROR(st);
  }
  return std::move(*hasher).finalize();
}

inline std::string hex(const Digest256& d) {
  return to_hex(d);
}

inline std::string array_hex(const std::shared_ptr<arrow::Array>& a) {
  auto r = hash_array(*a);
  return r.is_ok() ? hex(*r) : "error: " + r.status().to_string();
}

inline std::string batches_hex(const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches,
                               const LogicalHashOptions& options = {}) {
  auto r = hash_batches(batches.at(0)->schema(), batches, options);
  return r.is_ok() ? hex(r->digest) : "error: " + r.status().to_string();
}

// Hand-built byte strings and their SHA3-256 straight from OpenSSL (no odf-hash code).
struct Bytes {
  std::vector<uint8_t> b;
  Bytes& u8(uint8_t v) {
    b.push_back(v);
    return *this;
  }
  Bytes& u16(uint16_t v) {
    for (int i = 0; i < 2; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  Bytes& u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  Bytes& u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  Bytes& str(const std::string& s) {
    b.insert(b.end(), s.begin(), s.end());
    return *this;
  }
  Bytes& lstr(const std::string& s) { return u64(s.size()).str(s); }  // u64 length + bytes
  Bytes& raw(const void* p, size_t n) {
    const auto* c = static_cast<const uint8_t*>(p);
    b.insert(b.end(), c, c + n);
    return *this;
  }
  Bytes& append(const Bytes& o) {
    b.insert(b.end(), o.b.begin(), o.b.end());
    return *this;
  }
};

// `table` cut at random points: each batch takes g.below(rows + 1) of the rows left, so empty
// batches come too; at least one batch. The split the randomized tests hash in pieces
// against one reference digest of the whole (the logical hash ignores batch boundaries).
template <typename Gen>
std::vector<std::shared_ptr<arrow::RecordBatch>> random_batches(
    const std::shared_ptr<arrow::RecordBatch>& table, Gen& g) {
  const int64_t n = table->num_rows();
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  for (int64_t pos = 0; pos < n || batches.empty();) {
    const int64_t len = std::min(n - pos, g.below(n + 1));
    batches.push_back(table->Slice(pos, len));
    pos += len;
    if (n == 0) break;
  }
  return batches;
}

inline std::string openssl_sha3_hex(const std::vector<uint8_t>& data) {
  unsigned char out[32];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), out, &len, EVP_sha3_256(), nullptr);
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  for (unsigned i = 0; i < len; ++i) {
    s.push_back(kDigits[out[i] >> 4]);
    s.push_back(kDigits[out[i] & 15]);
  }
  return s;
}

}  // namespace odf_hash::test
