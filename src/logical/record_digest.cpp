// RecordDigester and UnorderedDigest (record_digest.h); the bytes are specified in
// docs/unordered-digest.md, which this file must follow exactly.
#include "odf_hash/record_digest.h"

#include <algorithm>
#include <cstring>

#include "array_check.h"
#include "odf_hash/sha3_multi.h"
#include "type_node.h"

namespace odf_hash {

using logical::Kind;
using logical::TypeNode;

namespace {

void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

bool bit(const void* bitmap, int64_t i) {
  return (static_cast<const uint8_t*>(bitmap)[i >> 3] >> (i & 7)) & 1;
}

bool valid(const ArrowArray& a, int64_t i) {
  return a.null_count == 0 || a.n_buffers < 1 || a.buffers[0] == nullptr ||
         bit(a.buffers[0], a.offset + i);
}

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

// Appends the bytes of value i (logical index, before the array's own offset) of `a`;
// false for a malformed view (the only thing check_array cannot check beforehand).
[[nodiscard]] bool put_value(std::vector<uint8_t>& out, const TypeNode& node, const ArrowArray& a,
                             int64_t i) {
  if (node.kind == Kind::kNull || !valid(a, i)) {
    out.push_back(0);
    return true;
  }
  const int64_t j = a.offset + i;
  switch (node.kind) {
    case Kind::kNull: return true;
    case Kind::kBool:
      out.push_back(1);
      out.push_back(bit(a.buffers[1], j) ? 1 : 0);
      return true;
    case Kind::kFixed:
    case Kind::kFixedBinary: {
      out.push_back(1);
      if (node.width > 0) {
        const auto* p = static_cast<const uint8_t*>(a.buffers[1]) + j * node.width;
        out.insert(out.end(), p, p + node.width);
      }
      return true;
    }
    case Kind::kBinary:
    case Kind::kLargeBinary: {
      const bool large = node.kind == Kind::kLargeBinary;
      const int64_t b = logical::read_offset(a.buffers[1], large, j);
      const int64_t e = logical::read_offset(a.buffers[1], large, j + 1);
      out.push_back(1);
      put_u64(out, uint64_t(e - b));
      if (e > b) {
        const auto* p = static_cast<const uint8_t*>(a.buffers[2]) + b;
        out.insert(out.end(), p, p + (e - b));
      }
      return true;
    }
    case Kind::kBinaryView: {
      // check_array cannot check views (the logical hasher checks them as it reads, in
      // binary_values.cpp): a length or a data buffer reference out of bounds is refused
      // here the same way, before anything is read through it.
      const uint8_t* view = static_cast<const uint8_t*>(a.buffers[1]) + 16 * j;
      int32_t len = 0;
      std::memcpy(&len, view, 4);
      if (len < 0) return false;
      out.push_back(1);
      put_u64(out, uint64_t(len));
      if (len <= 12) {
        out.insert(out.end(), view + 4, view + 4 + len);
      } else {
        int32_t buffer = 0, offset = 0;
        std::memcpy(&buffer, view + 8, 4);
        std::memcpy(&offset, view + 12, 4);
        const int64_t n_data = a.n_buffers - 3;
        if (buffer < 0 || buffer >= n_data || offset < 0 ||
            int64_t{offset} + len >
                static_cast<const int64_t*>(a.buffers[a.n_buffers - 1])[buffer]) {
          return false;
        }
        const auto* p = static_cast<const uint8_t*>(a.buffers[2 + buffer]) + offset;
        out.insert(out.end(), p, p + len);
      }
      return true;
    }
    case Kind::kList:
    case Kind::kLargeList:
    case Kind::kListView:
    case Kind::kLargeListView:
    case Kind::kFixedList: {
      int64_t b = 0, n = 0;
      if (node.kind == Kind::kFixedList) {
        b = j * node.width;
        n = node.width;
      } else if (node.kind == Kind::kListView || node.kind == Kind::kLargeListView) {
        const bool large = node.kind == Kind::kLargeListView;
        b = logical::read_offset(a.buffers[1], large, j);
        n = logical::read_offset(a.buffers[2], large, j);
      } else {
        const bool large = node.kind == Kind::kLargeList;
        b = logical::read_offset(a.buffers[1], large, j);
        n = logical::read_offset(a.buffers[1], large, j + 1) - b;
      }
      out.push_back(1);
      put_u64(out, uint64_t(n));
      for (int64_t k = 0; k < n; ++k) {
        if (!put_value(out, node.children[0], *a.children[0], b + k)) return false;
      }
      return true;
    }
    case Kind::kStruct:
      out.push_back(1);
      for (size_t c = 0; c < node.children.size(); ++c) {
        if (!put_value(out, node.children[c], *a.children[c], j)) return false;
      }
      return true;
    case Kind::kDictionary: {
      const int64_t k = logical::read_int(a.buffers[1], node.width, true, j);
      return put_value(out, node.children[0], *a.dictionary, k);
    }
    case Kind::kRunEnd: {
      // The run holding j: the first run end greater than j.
      const ArrowArray& ends = *a.children[0];
      int64_t lo = 0, hi = ends.length;
      while (lo < hi) {
        const int64_t mid = (lo + hi) / 2;
        if (logical::read_int(ends.buffers[1], node.width, true, ends.offset + mid) > j) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return put_value(out, node.children[1], *a.children[1], lo);
    }
  }
  return true;
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
  for (size_t i = 0; i < impl->root.children.size(); ++i) {
    if (fields.empty() ||
        std::find(fields.begin(), fields.end(), impl->root.children[i].name) != fields.end()) {
      impl->order.push_back(i);
    }
  }
  for (const auto& f : fields) {
    if (std::none_of(impl->root.children.begin(), impl->root.children.end(),
                     [&](const TypeNode& c) { return c.name == f; })) {
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

Status RecordDigester::digest_rows(const ArrowArray& batch, int64_t begin, int64_t count,
                                   std::vector<Digest256>& out) const {
  ODF_HASH_RETURN_IF_ERROR(logical::check_array(impl_->root, batch, begin, count));
  if (batch.null_count > 0) {
    return Status::invalid_argument("record digests: a batch has null rows");
  }
  // Records are short (often one Keccak block each): eight at a time through the
  // multi-lane Keccak (sha3_multi.h), which gives the same digests as one at a time.
  constexpr size_t kLanes = Sha3_256Lanes<8>::kLanes;
  Sha3_256Lanes<8> lanes;
  std::array<std::vector<uint8_t>, kLanes> bytes;
  const size_t first_out = out.size();
  out.reserve(out.size() + size_t(count));
  for (int64_t r = begin; r < begin + count; r += int64_t(kLanes)) {
    const size_t k = size_t(std::min<int64_t>(int64_t(kLanes), begin + count - r));
    for (size_t l = 0; l < k; ++l) {
      bytes[l].clear();
      for (size_t c : impl_->order) {
        // Top-level columns are the batch's children at the batch's row (offset included).
        if (!put_value(bytes[l], impl_->root.children[c], *batch.children[c],
                       batch.offset + r + int64_t(l))) {
          out.resize(first_out);  // nothing appended on an error, as documented
          return Status::invalid_argument("record digests: malformed array: a view of column '" +
                                          impl_->root.children[c].name +
                                          "' points outside its data buffers");
        }
      }
      lanes.update(l, bytes[l].data(), bytes[l].size());
    }
    const std::array<Digest256, kLanes> d = lanes.finalize();
    out.insert(out.end(), d.begin(), d.begin() + long(k));
  }
  return Status::ok();
}

struct ColumnValueEncoder::Impl {
  TypeNode root;
  std::vector<int> path;
  std::vector<const TypeNode*> nodes;  // along the path, the column last
};

ColumnValueEncoder::ColumnValueEncoder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ColumnValueEncoder::ColumnValueEncoder(ColumnValueEncoder&&) noexcept = default;
ColumnValueEncoder& ColumnValueEncoder::operator=(ColumnValueEncoder&&) noexcept = default;
ColumnValueEncoder::~ColumnValueEncoder() = default;

Result<ColumnValueEncoder> ColumnValueEncoder::create(const ArrowSchema& schema,
                                                      const std::vector<int>& child_path) {
  auto impl = std::make_unique<Impl>();
  ODF_HASH_ASSIGN_OR_RETURN(impl->root, logical::compile_type(schema, "", false));
  impl->path = child_path;
  const TypeNode* node = &impl->root;
  for (size_t k = 0; k < child_path.size(); ++k) {
    if ((k > 0 && node->kind != Kind::kStruct) || child_path[k] < 0 ||
        size_t(child_path[k]) >= node->children.size()) {
      return Status::invalid_argument("column values: no such column");
    }
    node = &node->children[size_t(child_path[k])];
    impl->nodes.push_back(node);
  }
  if (impl->nodes.empty()) return Status::invalid_argument("column values: no such column");
  return ColumnValueEncoder(std::move(impl));
}

Status ColumnValueEncoder::check(const ArrowArray& batch, int64_t begin, int64_t count) const {
  return logical::check_array(impl_->root, batch, begin, count);
}

bool ColumnValueEncoder::encode_row(const ArrowArray& batch, int64_t row,
                                    std::vector<uint8_t>& out) const {
  out.clear();
  // As put_value walks a struct: a member's index is its parent's plus the parent's offset.
  const ArrowArray* a = batch.children[impl_->path[0]];
  int64_t i = batch.offset + row;
  for (size_t k = 0; k + 1 < impl_->nodes.size(); ++k) {
    if (!valid(*a, i)) {
      out.push_back(0);
      return true;
    }
    i += a->offset;
    a = a->children[impl_->path[k + 1]];
  }
  return put_value(out, *impl_->nodes.back(), *a, i);
}

void UnorderedDigest::add(const Digest256& record) {
  uint64_t carry = 0;
  for (int limb = 0; limb < 4; ++limb) {
    uint64_t v = 0;
    for (int k = 7; k >= 0; --k) v = (v << 8) | record[size_t(8 * limb + k)];  // little-endian
    const uint64_t s = sum_[limb] + v;
    const uint64_t c1 = s < v ? 1 : 0;
    sum_[limb] = s + carry;
    carry = c1 + (sum_[limb] < s ? 1 : 0);
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
