#include "null_slots.h"

#include "memory_pool.h"

#include <cstring>
#include <utility>

#include <arrow/array/array_nested.h>
#include <arrow/buffer.h>
#include <arrow/util/bit_util.h>
#include <arrow/util/bitmap_ops.h>

namespace odf_hash::io_internal {

namespace {

using arrow::Array;
using arrow::Type;
using ArrayPtr = std::shared_ptr<Array>;

struct Runs {
  const std::vector<int64_t>& starts;
  int64_t length;
  int64_t end_of(size_t r) const { return r + 1 < starts.size() ? starts[r + 1] : length; }
};

Status from_arrow(const arrow::Status& st) {
  return Status::parse_error(st.message());
}

// The validity bitmap of `a`'s slots, copied to start at bit 0 (nullptr when it has none).
Result<std::shared_ptr<arrow::Buffer>> validity_at_zero(const Array& a) {
  const auto& d = *a.data();
  if (d.buffers.empty() || !d.buffers[0] || a.null_count() == 0) return {nullptr};
  auto r =
      arrow::internal::CopyBitmap(reader_memory_pool(), d.buffers[0]->data(), d.offset, d.length);
  if (!r.ok()) return from_arrow(r.status());
  return std::move(r).ValueOrDie();
}

// For every run: the slot each undefined slot takes its value from (-1: the zero value).
// Defined slots map to themselves.
std::vector<int64_t> stale_sources(const std::vector<uint8_t>& defined, const Runs& runs) {
  std::vector<int64_t> source(defined.size());
  std::vector<int64_t> dense;
  for (size_t r = 0; r < runs.starts.size(); ++r) {
    const int64_t s = runs.starts[r], e = runs.end_of(r);
    dense.clear();
    for (int64_t i = s; i < e; ++i) {
      if (defined[i]) dense.push_back(i);
    }
    for (int64_t i = s; i < e; ++i) {
      const auto k = static_cast<size_t>(i - s);
      source[i] = defined[i] ? i : (k < dense.size() ? dense[k] : -1);
    }
  }
  return source;
}

Result<std::shared_ptr<arrow::Buffer>> allocate(int64_t size) {
  auto r = arrow::AllocateBuffer(size, reader_memory_pool());
  if (!r.ok()) return from_arrow(r.status());
  return std::shared_ptr<arrow::Buffer>(std::move(r).ValueOrDie());
}

ArrayPtr with_buffers(const Array& a, std::vector<std::shared_ptr<arrow::Buffer>> buffers) {
  auto d = a.data()->Copy();
  d->buffers = std::move(buffers);
  d->offset = 0;
  d->null_count = a.null_count();
  return arrow::MakeArray(d);
}

// Fixed-width values (also the 16-byte views of view types, whose data buffers stay).
Result<ArrayPtr> rewrite_fixed(const ArrayPtr& a, int64_t width, const std::vector<int64_t>& src,
                               int64_t zero) {
  const auto& d = *a->data();
  const int64_t n = d.length;
  const uint8_t* in = d.buffers[1]->data() + d.offset * width;
  ODF_HASH_ASSIGN_OR_RETURN(auto out, allocate(n * width));
  uint8_t* o = out->mutable_data();
  uint8_t zero_bytes[32] = {};
  if (zero != 0) std::memcpy(zero_bytes, &zero, sizeof zero);  // INT96 leaves: 8-byte values
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* from = src[i] < 0 ? zero_bytes : in + src[i] * width;
    std::memcpy(o + i * width, from, static_cast<size_t>(width));
  }
  ODF_HASH_ASSIGN_OR_RETURN(auto validity, validity_at_zero(*a));
  std::vector<std::shared_ptr<arrow::Buffer>> buffers = {validity, out};
  for (size_t b = 2; b < d.buffers.size(); ++b) buffers.push_back(d.buffers[b]);
  return with_buffers(*a, std::move(buffers));
}

Result<ArrayPtr> rewrite_boolean(const ArrayPtr& a, const std::vector<int64_t>& src) {
  const auto& d = *a->data();
  const int64_t n = d.length;
  const uint8_t* in = d.buffers[1]->data();
  ODF_HASH_ASSIGN_OR_RETURN(auto out, allocate(arrow::bit_util::BytesForBits(n)));
  uint8_t* o = out->mutable_data();
  std::memset(o, 0, static_cast<size_t>(out->size()));
  for (int64_t i = 0; i < n; ++i) {
    if (src[i] >= 0 && arrow::bit_util::GetBit(in, d.offset + src[i])) {
      arrow::bit_util::SetBit(o, i);
    }
  }
  ODF_HASH_ASSIGN_OR_RETURN(auto validity, validity_at_zero(*a));
  return with_buffers(*a, {validity, out});
}

// Byte arrays: arrow-rs gives undefined slots empty values.
template <typename Offset>
Result<ArrayPtr> empty_undefined_bytes(const ArrayPtr& a, const std::vector<uint8_t>& defined) {
  const auto& d = *a->data();
  const int64_t n = d.length;
  const auto* off = d.GetValues<Offset>(1);
  bool needed = false;
  for (int64_t i = 0; i < n && !needed; ++i) needed = !defined[i] && off[i + 1] != off[i];
  if (!needed) return a;
  const uint8_t* data = d.buffers[2] ? d.buffers[2]->data() : nullptr;
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (defined[i]) total += off[i + 1] - off[i];
  }
  ODF_HASH_ASSIGN_OR_RETURN(auto offsets, allocate((n + 1) * static_cast<int64_t>(sizeof(Offset))));
  ODF_HASH_ASSIGN_OR_RETURN(auto bytes, allocate(total));
  auto* no = reinterpret_cast<Offset*>(offsets->mutable_data());
  uint8_t* nb = bytes->mutable_data();
  Offset pos = 0;
  no[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (defined[i]) {
      const Offset len = off[i + 1] - off[i];
      if (len > 0) std::memcpy(nb + pos, data + off[i], static_cast<size_t>(len));
      pos += len;
    }
    no[i + 1] = pos;
  }
  ODF_HASH_ASSIGN_OR_RETURN(auto validity, validity_at_zero(*a));
  return with_buffers(*a, {validity, offsets, bytes});
}

Result<ArrayPtr> rewrite(const ArrayPtr& a, const std::vector<uint8_t>* ancestors, const Runs& runs,
                         const std::string& key, const LeafFillByPath& fills);

Result<ArrayPtr> rewrite_struct(const ArrayPtr& a, const std::vector<uint8_t>* ancestors,
                                const Runs& runs, const std::string& key,
                                const LeafFillByPath& fills) {
  const auto& s = static_cast<const arrow::StructArray&>(*a);
  const int64_t n = s.length();
  std::vector<uint8_t> defined(static_cast<size_t>(n), 1);
  for (int64_t i = 0; i < n; ++i) {
    defined[i] = (ancestors == nullptr || (*ancestors)[i]) && s.IsValid(i);
  }
  arrow::ArrayVector children;
  bool changed = false;
  for (int f = 0; f < s.num_fields(); ++f) {
    ArrayPtr child = s.field(f);
    const std::string child_key = key.empty() ? std::to_string(f) : key + "/" + std::to_string(f);
    ODF_HASH_ASSIGN_OR_RETURN(ArrayPtr out, rewrite(child, &defined, runs, child_key, fills));
    changed = changed || out != child;
    children.push_back(std::move(out));
  }
  if (!changed) return a;
  ODF_HASH_ASSIGN_OR_RETURN(auto validity, validity_at_zero(s));
  return ArrayPtr(std::make_shared<arrow::StructArray>(a->type(), n, std::move(children), validity,
                                                       s.null_count(), 0));
}

Result<ArrayPtr> rewrite(const ArrayPtr& a, const std::vector<uint8_t>* ancestors, const Runs& runs,
                         const std::string& key, const LeafFillByPath& fills) {
  if (a->type_id() == Type::STRUCT) return rewrite_struct(a, ancestors, runs, key, fills);
  if (ancestors == nullptr) return a;  // a top-level leaf: its nulls are hashed as nulls
  const int64_t n = a->length();
  std::vector<uint8_t> defined(static_cast<size_t>(n));
  bool all = true;
  for (int64_t i = 0; i < n; ++i) {
    defined[i] = (*ancestors)[i] && a->IsValid(i);
    all = all && defined[i];
  }
  if (all) return a;
  const auto it = fills.find(key);
  const LeafFill fill = it == fills.end() ? LeafFill{} : it->second;
  const int64_t zero = fill.zero;
  std::vector<int64_t> sources;
  if (fill.stale) {
    sources = stale_sources(defined, runs);
  } else {
    sources.resize(defined.size());
    for (size_t i = 0; i < defined.size(); ++i)
      sources[i] = defined[i] ? static_cast<int64_t>(i) : -1;
  }
  const Type::type id = a->type_id();
  switch (id) {
    case Type::BOOL: return rewrite_boolean(a, stale_sources(defined, runs));
    case Type::STRING:
    case Type::BINARY: return empty_undefined_bytes<int32_t>(a, defined);
    case Type::LARGE_STRING:
    case Type::LARGE_BINARY: return empty_undefined_bytes<int64_t>(a, defined);
    case Type::STRING_VIEW:
    case Type::BINARY_VIEW: return rewrite_fixed(a, 16, stale_sources(defined, runs), 0);
    default: break;
  }
  if (arrow::is_primitive(id) || arrow::is_decimal(id) || id == Type::FIXED_SIZE_BINARY ||
      arrow::is_temporal(id) || arrow::is_interval(id)) {
    const int bits = static_cast<const arrow::FixedWidthType&>(*a->type()).bit_width();
    if (bits % 8 != 0 || id == Type::NA) return a;
    return rewrite_fixed(a, bits / 8, sources, zero);
  }
  // Lists (empty under undefined slots in both readers; fixed-size lists get null items
  // when conformed), dictionaries and nulls are left as read.
  return a;
}

}  // namespace

Result<std::shared_ptr<arrow::Array>> fill_undefined_like_arrow_rs(
    const std::shared_ptr<arrow::Array>& column, const std::vector<int64_t>& run_starts,
    const LeafFillByPath& fills) {
  if (column->type_id() != Type::STRUCT) return column;
  const Runs runs{run_starts, column->length()};
  return rewrite(column, nullptr, runs, "", fills);
}

}  // namespace odf_hash::io_internal
