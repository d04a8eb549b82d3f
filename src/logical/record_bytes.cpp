// put_value and RecordRows (record_bytes.h): the record bytes of docs/unordered-digest.md.
#include "record_bytes.h"

#include <bit>
#include <cstring>

#include "array_check.h"

namespace odf_hash::logical {

namespace {

bool bit(const void* bitmap, int64_t i) {
  return (static_cast<const uint8_t*>(bitmap)[i >> 3] >> (i & 7)) & 1;
}

// One top-level column of a run of records: its slots first, first + 1, ... (the array's own
// offset included) and its validity bitmap, null when every slot is valid (as slot_valid says).
struct ColumnRun {
  const TypeNode* node;
  const ArrowArray* array;
  int64_t first;
  const uint8_t* validity;
  bool null_at(int64_t r) const { return validity != nullptr && !bit(validity, first + r); }
  template <typename T>
  const T* buffer(int k) const {
    return static_cast<const T*>(array->buffers[k]);
  }
};

// Writes the 0x00 of a null slot at record r's cursor; false (nothing written) when valid.
bool write_null(const ColumnRun& c, uint8_t* out, uint64_t* cursor, int64_t r) {
  if (!c.null_at(r)) return false;
  out[cursor[r]++] = 0;
  return true;
}

// The bytes of a fixed-width column into each record's place, advancing its cursor (W: the
// width as a constant, 0 for any other width, given at run time).
template <size_t W>
void write_fixed(const ColumnRun& c, uint8_t* out, uint64_t* cursor, int64_t count) {
  const size_t width = W != 0 ? W : size_t(c.node->width);
  const auto* values = c.buffer<uint8_t>(1);
  for (int64_t r = 0; r < count; ++r) {
    if (write_null(c, out, cursor, r)) continue;
    uint8_t* p = out + cursor[r];
    *p = 1;
    if (width > 0) std::memcpy(p + 1, values + (c.first + r) * int64_t(width), width);
    cursor[r] += 1 + width;
  }
}

void write_fixed_any(const ColumnRun& c, uint8_t* out, uint64_t* cursor, int64_t count) {
  switch (c.node->width) {
    case 1: return write_fixed<1>(c, out, cursor, count);
    case 2: return write_fixed<2>(c, out, cursor, count);
    case 4: return write_fixed<4>(c, out, cursor, count);
    case 8: return write_fixed<8>(c, out, cursor, count);
    case 16: return write_fixed<16>(c, out, cursor, count);
    case 32: return write_fixed<32>(c, out, cursor, count);
    default: return write_fixed<0>(c, out, cursor, count);
  }
}

template <typename Offset>
void binary_lengths(const ColumnRun& c, uint64_t* len, int64_t count) {
  const auto* offsets = c.buffer<Offset>(1);
  for (int64_t r = 0; r < count; ++r) {
    const int64_t j = c.first + r;
    len[r] += c.null_at(r) ? 1 : 9 + uint64_t(int64_t(offsets[j + 1]) - int64_t(offsets[j]));
  }
}

template <typename Offset>
void write_binary(const ColumnRun& c, uint8_t* out, uint64_t* cursor, int64_t count) {
  const auto* offsets = c.buffer<Offset>(1);
  const auto* data = c.buffer<uint8_t>(2);
  for (int64_t r = 0; r < count; ++r) {
    if (write_null(c, out, cursor, r)) continue;
    const int64_t j = c.first + r;
    const int64_t b = int64_t(offsets[j]);
    const uint64_t n = uint64_t(int64_t(offsets[j + 1]) - b);
    uint8_t* p = out + cursor[r];
    *p = 1;
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(p + 1, &n, 8);
    } else {
      for (int k = 0; k < 8; ++k) p[1 + k] = static_cast<uint8_t>(n >> (8 * k));
    }
    if (n > 0) std::memcpy(p + 9, data + b, n);
    cursor[r] += 9 + n;
  }
}

}  // namespace

bool slot_valid(const ArrowArray& a, int64_t i) {
  return a.null_count == 0 || a.n_buffers < 1 || a.buffers[0] == nullptr ||
         bit(a.buffers[0], a.offset + i);
}

bool put_value(std::vector<uint8_t>& out, const TypeNode& node, const ArrowArray& a, int64_t i) {
  if (node.kind == Kind::kNull || !slot_valid(a, i)) {
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

int RecordRows::encode(const TypeNode& root, const std::vector<size_t>& fields,
                       const ArrowArray& batch, int64_t begin, int64_t count) {
  const size_t n = size_t(count);
  std::vector<ColumnRun> columns;
  for (size_t f : fields) {
    const ArrowArray& a = *batch.children[f];
    const bool maybe_nulls = a.null_count != 0 && a.n_buffers >= 1 && a.buffers[0] != nullptr;
    // Top-level columns are the batch's children at the batch's row (offsets included).
    columns.push_back({&root.children[f], &a, a.offset + batch.offset + begin,
                       maybe_nulls ? static_cast<const uint8_t*>(a.buffers[0]) : nullptr});
  }
  // Pass 1: every record's length (other types: their bytes, value by value, kept aside).
  ends_.assign(n, 0);
  scratch_.resize(fields.size());
  scratch_ends_.resize(fields.size());
  uint64_t* len = ends_.data();
  for (size_t f = 0; f < columns.size(); ++f) {
    const ColumnRun& c = columns[f];
    switch (c.node->kind) {
      case Kind::kNull:
        for (size_t r = 0; r < n; ++r) len[r] += 1;
        continue;
      case Kind::kBool:
        for (size_t r = 0; r < n; ++r) len[r] += c.null_at(int64_t(r)) ? 1 : 2;
        continue;
      case Kind::kFixed:
      case Kind::kFixedBinary:
        for (size_t r = 0; r < n; ++r) len[r] += c.null_at(int64_t(r)) ? 1 : 1 + c.node->width;
        continue;
      case Kind::kBinary: binary_lengths<int32_t>(c, len, count); continue;
      case Kind::kLargeBinary: binary_lengths<int64_t>(c, len, count); continue;
      default: break;
    }
    std::vector<uint8_t>& s = scratch_[f];
    std::vector<uint64_t>& se = scratch_ends_[f];
    s.clear();
    se.resize(n);
    for (size_t r = 0; r < n; ++r) {
      const size_t before = s.size();
      if (!put_value(s, *c.node, *c.array, batch.offset + begin + int64_t(r))) return int(f);
      se[r] = s.size();
      len[r] += s.size() - before;
    }
  }
  // Where each record starts (the cursors) and ends.
  cursor_.resize(n);
  uint64_t total = 0;
  for (size_t r = 0; r < n; ++r) {
    cursor_[r] = total;
    total += len[r];
    ends_[r] = total;
  }
  // Pass 2: the bytes, column by column, each record's cursor advancing.
  bytes_.resize(total);
  uint8_t* out = bytes_.data();
  uint64_t* cursor = cursor_.data();
  for (size_t f = 0; f < columns.size(); ++f) {
    const ColumnRun& c = columns[f];
    switch (c.node->kind) {
      case Kind::kNull:
        for (size_t r = 0; r < n; ++r) out[cursor[r]++] = 0;
        continue;
      case Kind::kBool: {
        const auto* values = c.buffer<uint8_t>(1);
        for (int64_t r = 0; r < count; ++r) {
          if (write_null(c, out, cursor, r)) continue;
          out[cursor[r]] = 1;
          out[cursor[r] + 1] = bit(values, c.first + r) ? 1 : 0;
          cursor[r] += 2;
        }
        continue;
      }
      case Kind::kFixed:
      case Kind::kFixedBinary: write_fixed_any(c, out, cursor, count); continue;
      case Kind::kBinary: write_binary<int32_t>(c, out, cursor, count); continue;
      case Kind::kLargeBinary: write_binary<int64_t>(c, out, cursor, count); continue;
      default: break;
    }
    const uint8_t* s = scratch_[f].data();
    const uint64_t* se = scratch_ends_[f].data();
    for (size_t r = 0; r < n; ++r) {
      const uint64_t from = r == 0 ? 0 : se[r - 1];
      if (se[r] > from) std::memcpy(out + cursor[r], s + from, se[r] - from);
      cursor[r] += se[r] - from;
    }
  }
  return -1;
}

}  // namespace odf_hash::logical
