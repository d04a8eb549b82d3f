// RecordDigester and UnorderedDigest (record_digest.h); the bytes are specified in
// docs/unordered-digest.md, which this file must follow exactly.
#include "odf_hash/logical/record_digest.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <unordered_set>

#include "array_check.h"
#include "odf_hash/internal/core/sha3_multi.h"
#include "record_bytes.h"
#include "type_node.h"

namespace odf_hash {

using logical::Kind;
using logical::put_u64;
using logical::put_value;
using logical::TypeNode;

namespace {

// The schema bytes of one field: its name, then a struct's fields or a leaf's type bytes
// (the arrow0 type encoding, which already treats encodings of one type alike).
void put_field(std::vector<uint8_t>& out, const TypeNode& node) {
  put_u64(out, node.name.size());
  out.insert(out.end(), node.name.begin(), node.name.end());
  if (node.kind == Kind::kStruct) {
    out.push_back(1);
    put_u64(out, node.children.size());
    for (const auto& c : node.children) put_field(out, c);
  } else {
    out.push_back(0);
    put_u64(out, node.type_bytes.size());
    out.insert(out.end(), node.type_bytes.begin(), node.type_bytes.end());
  }
}

}  // namespace

struct RecordDigester::Impl {
  TypeNode root;                // the record schema
  std::vector<size_t> order;    // top-level fields in byte order of their names
  std::vector<uint8_t> schema;  // canonical schema bytes
};

RecordDigester::RecordDigester(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RecordDigester::RecordDigester(RecordDigester&&) noexcept = default;
RecordDigester& RecordDigester::operator=(RecordDigester&&) noexcept = default;
RecordDigester::~RecordDigester() = default;

Result<RecordDigester> RecordDigester::create(const ArrowSchema& schema,
                                              const std::vector<std::string>& fields) {
  if (schema.format == nullptr || std::strcmp(schema.format, "+s") != 0) {
    return Status::invalid_argument("record digests: the schema is not a struct of columns");
  }
  auto impl = std::make_unique<Impl>();
  ODF_HASH_ASSIGN_OR_RETURN(impl->root, logical::compile_type(schema, "", false));
  // By name, through sets: a wide table's thousands of fields are matched in linear time.
  const std::unordered_set<std::string> wanted(fields.begin(), fields.end());
  std::unordered_set<std::string> present;
  for (size_t i = 0; i < impl->root.children.size(); ++i) {
    present.insert(impl->root.children[i].name);
    if (fields.empty() || wanted.count(impl->root.children[i].name) != 0) {
      impl->order.push_back(i);
    }
  }
  for (const auto& f : fields) {
    if (present.count(f) == 0) {
      return Status::invalid_argument("record digests: no column \"" + f + "\"");
    }
  }
  std::stable_sort(impl->order.begin(), impl->order.end(), [&](size_t x, size_t y) {
    return impl->root.children[x].name < impl->root.children[y].name;
  });
  put_u64(impl->schema, impl->order.size());
  for (size_t i : impl->order) put_field(impl->schema, impl->root.children[i]);
  return RecordDigester(std::move(impl));
}

const std::vector<uint8_t>& RecordDigester::schema_bytes() const {
  return impl_->schema;
}

namespace {

// The records [begin, begin + count) of `batch` checked for a record digester of `root`.
Status check_records(const TypeNode& root, const ArrowArray& batch, int64_t begin, int64_t count) {
  ODF_HASH_RETURN_IF_ERROR(logical::check_array(root, batch, begin, count));
  if (batch.null_count > 0) {
    return Status::invalid_argument("record digests: a batch has null rows");
  }
  return Status::ok();
}

Status malformed_view(const TypeNode& root, const std::vector<size_t>& order, int bad) {
  return Status::invalid_argument("record digests: malformed array: a view of column '" +
                                  root.children[order[size_t(bad)]].name +
                                  "' points outside its data buffers");
}

}  // namespace

Status RecordDigester::digest_rows(const ArrowArray& batch, int64_t begin, int64_t count,
                                   std::vector<Digest256>& out) const {
  ODF_HASH_RETURN_IF_ERROR(check_records(impl_->root, batch, begin, count));
  // Records are short (often one Keccak block each): their bytes written column by column
  // for a run of records (RecordRows), then hashed eight at a time through the multi-lane
  // Keccak (sha3_256_each), which gives the same digests as one at a time.
  constexpr int64_t kRun = 1024;
  logical::RecordRows rows;
  const size_t first_out = out.size();
  out.resize(out.size() + size_t(count));
  for (int64_t r = begin; r < begin + count; r += kRun) {
    const int64_t k = std::min(kRun, begin + count - r);
    const int bad = rows.encode(impl_->root, impl_->order, batch, r, k);
    if (bad >= 0) {
      out.resize(first_out);  // nothing appended on an error, as documented
      return malformed_view(impl_->root, impl_->order, bad);
    }
    sha3_256_each(rows.data(), rows.ends(), size_t(k), out.data() + first_out + size_t(r - begin));
  }
  return Status::ok();
}

Status RecordDigester::encode_rows(const ArrowArray& batch, int64_t begin, int64_t count,
                                   std::vector<uint8_t>& bytes, std::vector<uint64_t>& ends) const {
  bytes.clear();
  ends.clear();
  ODF_HASH_RETURN_IF_ERROR(check_records(impl_->root, batch, begin, count));
  if (count == 0) return Status::ok();
  logical::RecordRows rows;
  const int bad = rows.encode(impl_->root, impl_->order, batch, begin, count);
  if (bad >= 0) return malformed_view(impl_->root, impl_->order, bad);
  ends.assign(rows.ends(), rows.ends() + count);
  bytes.assign(rows.data(), rows.data() + ends.back());
  return Status::ok();
}

struct ColumnValueEncoder::Impl {
  TypeNode field;  // the top-level field holding the column, compiled alone
  std::vector<int> path;
  std::vector<const TypeNode*> nodes;  // along the path, the column last
};

ColumnValueEncoder::ColumnValueEncoder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ColumnValueEncoder::ColumnValueEncoder(ColumnValueEncoder&&) noexcept = default;
ColumnValueEncoder& ColumnValueEncoder::operator=(ColumnValueEncoder&&) noexcept = default;
ColumnValueEncoder::~ColumnValueEncoder() = default;

Result<ColumnValueEncoder> ColumnValueEncoder::create(const ArrowSchema& schema,
                                                      const std::vector<int>& child_path) {
  if (schema.format == nullptr || std::strcmp(schema.format, "+s") != 0) {
    return Status::invalid_argument("column values: the schema is not a struct of columns");
  }
  if (child_path.empty() || child_path[0] < 0 || child_path[0] >= schema.n_children ||
      schema.children == nullptr || schema.children[child_path[0]] == nullptr) {
    return Status::invalid_argument("column values: no such column");
  }
  // Only the field holding the column: an encoder per column of a wide table must not cost
  // the whole schema each (compiled, and checked batch by batch).
  const ArrowSchema& top = *schema.children[child_path[0]];
  auto impl = std::make_unique<Impl>();
  ODF_HASH_ASSIGN_OR_RETURN(impl->field,
                            logical::compile_type(top, top.name != nullptr ? top.name : "", false));
  impl->path = child_path;
  const TypeNode* node = &impl->field;
  impl->nodes.push_back(node);
  for (size_t k = 1; k < child_path.size(); ++k) {
    if (node->kind != Kind::kStruct || child_path[k] < 0 ||
        size_t(child_path[k]) >= node->children.size()) {
      return Status::invalid_argument("column values: no such column");
    }
    node = &node->children[size_t(child_path[k])];
    impl->nodes.push_back(node);
  }
  return ColumnValueEncoder(std::move(impl));
}

Status ColumnValueEncoder::check(const ArrowArray& batch, int64_t begin, int64_t count) const {
  // The batch as far as this column needs it (check_array of the record struct checks the
  // same of every field), then the field itself.
  const size_t c = size_t(impl_->path[0]);
  if (batch.length < 0 || batch.offset < 0 || begin < 0 || count < 0 ||
      begin > batch.length - count) {
    return Status::invalid_argument("column values: rows [" + std::to_string(begin) + ", " +
                                    std::to_string(begin + count) + ") of a batch of " +
                                    std::to_string(batch.length));
  }
  if (batch.n_children <= int64_t(c) || batch.children == nullptr || batch.children[c] == nullptr) {
    return Status::invalid_argument("column values: the batch has no field " + std::to_string(c));
  }
  const ArrowArray& field = *batch.children[c];
  const int64_t first = batch.offset + begin;
  if (field.length < first + count) {
    return Status::invalid_argument("column values: field '" + impl_->field.path + "' has length " +
                                    std::to_string(field.length) + ", needs " +
                                    std::to_string(first + count));
  }
  return logical::check_array(impl_->field, field, first, count);
}

bool ColumnValueEncoder::encode_row(const ArrowArray& batch, int64_t row,
                                    std::vector<uint8_t>& out) const {
  out.clear();
  // As put_value walks a struct: a member's index is its parent's plus the parent's offset.
  const ArrowArray* a = batch.children[impl_->path[0]];
  int64_t i = batch.offset + row;
  for (size_t k = 0; k + 1 < impl_->nodes.size(); ++k) {
    if (!logical::slot_valid(*a, i)) {
      out.push_back(0);
      return true;
    }
    i += a->offset;
    a = a->children[impl_->path[k + 1]];
  }
  return put_value(out, *impl_->nodes.back(), *a, i);
}

void UnorderedDigest::add(const Digest256& record) {
  // 256-bit little-endian addition, limb by limb with the carry.
  uint64_t carry = 0;
  for (int limb = 0; limb < 4; ++limb) {
    uint64_t v = 0;
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(&v, record.data() + 8 * limb, 8);
    } else {
      for (int k = 7; k >= 0; --k) v = (v << 8) | record[size_t(8 * limb + k)];
    }
    uint64_t s = 0;
    const bool c1 = __builtin_add_overflow(sum_[limb], v, &s);
    const bool c2 = __builtin_add_overflow(s, carry, &sum_[limb]);
    carry = uint64_t(c1) + uint64_t(c2);
  }
  ++count_;
}

void UnorderedDigest::merge(const UnorderedDigest& other) {
  Digest256 s = other.sum();
  const uint64_t n = count_ + other.count_;
  add(s);
  count_ = n;
}

Digest256 UnorderedDigest::sum() const {
  Digest256 out{};
  for (int limb = 0; limb < 4; ++limb) {
    for (int k = 0; k < 8; ++k) out[size_t(8 * limb + k)] = uint8_t(sum_[limb] >> (8 * k));
  }
  return out;
}

Digest256 UnorderedDigest::finalize(const std::vector<uint8_t>& schema_bytes) const {
  Sha3_256 sha;
  sha.update(std::string_view("odf-hash-unordered-v1\n"));
  sha.update(schema_bytes.data(), schema_bytes.size());
  std::vector<uint8_t> n;
  put_u64(n, count_);
  sha.update(n.data(), n.size());
  const Digest256 s = sum();
  sha.update(s.data(), s.size());
  return sha.finalize();
}

std::string unordered_digest_string(const Digest256& digest) {
  static const char* kHex = "0123456789abcdef";
  std::string out = "unordered-sha3-256:";
  for (uint8_t b : digest) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

Result<UnorderedStreamDigest> unordered_digest_stream(ArrowArrayStream* stream,
                                                      const std::atomic<bool>* cancel) {
  if (stream == nullptr || stream->release == nullptr) {
    return Status::invalid_argument("unordered_digest_stream: no stream");
  }
  // Released on every path, with the schema and every batch pulled from it.
  struct Releaser {
    ArrowArrayStream* s;
    ArrowSchema schema{};
    ~Releaser() {
      if (schema.release != nullptr) schema.release(&schema);
      if (s->release != nullptr) s->release(s);
    }
  } guard{stream};
  auto stream_error = [&](const char* what) {
    const char* e = stream->get_last_error(stream);
    return Status::io_error(std::string(what) + (e != nullptr ? std::string(": ") + e : ""));
  };
  if (stream->get_schema(stream, &guard.schema) != 0) return stream_error("reading the schema");
  ODF_HASH_ASSIGN_OR_RETURN(RecordDigester digester, RecordDigester::create(guard.schema));
  UnorderedDigest sum;
  std::vector<Digest256> digests;
  while (true) {
    const auto cancelled = [&] {
      return cancel != nullptr && cancel->load(std::memory_order_relaxed);
    };
    ArrowArray batch{};
    if (stream->get_next(stream, &batch) != 0) {
      if (cancelled()) return Status::cancelled("the record stream: cancelled");
      return stream_error("reading a batch");
    }
    if (batch.release == nullptr) break;
    if (cancelled()) {
      batch.release(&batch);
      return Status::cancelled("the record stream: cancelled");
    }
    digests.clear();
    Status st = digester.digest_rows(batch, 0, batch.length, digests);
    batch.release(&batch);
    ODF_HASH_RETURN_IF_ERROR(st);
    for (const auto& d : digests) sum.add(d);
  }
  return UnorderedStreamDigest{sum.finalize(digester.schema_bytes()), sum.count()};
}

}  // namespace odf_hash
