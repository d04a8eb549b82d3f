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

// Writes value bytes into each record's place, advancing its cursor.
template <size_t W>
void write_fixed(uint8_t* out, uint64_t* cursor, const uint8_t* values, const uint8_t* validity,
                 int64_t first, int64_t count) {
  for (int64_t r = 0; r < count; ++r) {
    uint8_t* p = out + cursor[r];
    const int64_t j = first + r;
    if (validity != nullptr && !bit(validity, j)) {
      *p = 0;
      cursor[r] += 1;
      continue;
    }
    *p = 1;
    std::memcpy(p + 1, values + j * int64_t(W), W);
    cursor[r] += 1 + W;
  }
}

void write_fixed_any(uint8_t* out, uint64_t* cursor, const uint8_t* values, const uint8_t* validity,
                     int64_t first, int64_t count, int64_t width) {
  switch (width) {
    case 1: return write_fixed<1>(out, cursor, values, validity, first, count);
    case 2: return write_fixed<2>(out, cursor, values, validity, first, count);
    case 4: return write_fixed<4>(out, cursor, values, validity, first, count);
    case 8: return write_fixed<8>(out, cursor, values, validity, first, count);
    case 16: return write_fixed<16>(out, cursor, values, validity, first, count);
    case 32: return write_fixed<32>(out, cursor, values, validity, first, count);
    default: break;
  }
  for (int64_t r = 0; r < count; ++r) {
    uint8_t* p = out + cursor[r];
    const int64_t j = first + r;
    if (validity != nullptr && !bit(validity, j)) {
      *p = 0;
      cursor[r] += 1;
      continue;
    }
    *p = 1;
    if (width > 0) std::memcpy(p + 1, values + j * width, size_t(width));
    cursor[r] += 1 + uint64_t(width);
  }
}

template <typename Offset>
void binary_lengths(uint64_t* len, const Offset* offsets, const uint8_t* validity, int64_t first,
                    int64_t count) {
  for (int64_t r = 0; r < count; ++r) {
    const int64_t j = first + r;
    len[r] += (validity != nullptr && !bit(validity, j))
                  ? 1
                  : 9 + uint64_t(int64_t(offsets[j + 1]) - int64_t(offsets[j]));
  }
}

template <typename Offset>
void write_binary(uint8_t* out, uint64_t* cursor, const Offset* offsets, const uint8_t* data,
                  const uint8_t* validity, int64_t first, int64_t count) {
  for (int64_t r = 0; r < count; ++r) {
    uint8_t* p = out + cursor[r];
    const int64_t j = first + r;
    if (validity != nullptr && !bit(validity, j)) {
      *p = 0;
      cursor[r] += 1;
      continue;
    }
    const int64_t b = int64_t(offsets[j]);
    const uint64_t n = uint64_t(int64_t(offsets[j + 1]) - b);
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

// The validity bitmap to consult for `a`, or null when every slot is valid (as valid() says).
const uint8_t* validity_of(const ArrowArray& a) {
  if (a.null_count == 0 || a.n_buffers < 1 || a.buffers[0] == nullptr) return nullptr;
  return static_cast<const uint8_t*>(a.buffers[0]);
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
  ends_.assign(n, 0);  // lengths first, then (summed) ends
  scratch_.resize(fields.size());
  scratch_ends_.resize(fields.size());
  uint64_t* len = ends_.data();
  for (size_t f = 0; f < fields.size(); ++f) {
    const TypeNode& node = root.children[fields[f]];
    const ArrowArray& a = *batch.children[fields[f]];
    // Top-level columns are the batch's children at the batch's row (offsets included).
    const int64_t first = a.offset + batch.offset + begin;
    const uint8_t* validity = validity_of(a);
    switch (node.kind) {
      case Kind::kNull:
        for (size_t r = 0; r < n; ++r) len[r] += 1;
        continue;
      case Kind::kBool:
        for (size_t r = 0; r < n; ++r) {
          len[r] += (validity != nullptr && !bit(validity, first + int64_t(r))) ? 1 : 2;
        }
        continue;
      case Kind::kFixed:
      case Kind::kFixedBinary: {
        const uint64_t w = 1 + uint64_t(node.width);
        if (validity == nullptr) {
          for (size_t r = 0; r < n; ++r) len[r] += w;
        } else {
          for (size_t r = 0; r < n; ++r) len[r] += bit(validity, first + int64_t(r)) ? w : 1;
        }
        continue;
      }
      case Kind::kBinary:
        binary_lengths(len, static_cast<const int32_t*>(a.buffers[1]), validity, first, count);
        continue;
      case Kind::kLargeBinary:
        binary_lengths(len, static_cast<const int64_t*>(a.buffers[1]), validity, first, count);
        continue;
      default: break;
    }
    std::vector<uint8_t>& s = scratch_[f];
    std::vector<uint64_t>& se = scratch_ends_[f];
    s.clear();
    se.resize(n);
    uint64_t prev = 0;
    for (size_t r = 0; r < n; ++r) {
      if (!put_value(s, node, a, batch.offset + begin + int64_t(r))) return int(f);
      se[r] = s.size();
      len[r] += s.size() - prev;
      prev = s.size();
    }
  }
  cursor_.resize(n);
  uint64_t total = 0;
  for (size_t r = 0; r < n; ++r) {
    cursor_[r] = total;
    total += len[r];
    ends_[r] = total;
  }
  bytes_.resize(total);
  uint8_t* out = bytes_.data();
  uint64_t* cursor = cursor_.data();
  for (size_t f = 0; f < fields.size(); ++f) {
    const TypeNode& node = root.children[fields[f]];
    const ArrowArray& a = *batch.children[fields[f]];
    const int64_t first = a.offset + batch.offset + begin;
    const uint8_t* validity = validity_of(a);
    switch (node.kind) {
      case Kind::kNull:
        for (size_t r = 0; r < n; ++r) out[cursor[r]++] = 0;
        continue;
      case Kind::kBool: {
        const auto* values = static_cast<const uint8_t*>(a.buffers[1]);
        for (size_t r = 0; r < n; ++r) {
          const int64_t j = first + int64_t(r);
          uint8_t* p = out + cursor[r];
          if (validity != nullptr && !bit(validity, j)) {
            *p = 0;
            cursor[r] += 1;
          } else {
            p[0] = 1;
            p[1] = bit(values, j) ? 1 : 0;
            cursor[r] += 2;
          }
        }
        continue;
      }
      case Kind::kFixed:
      case Kind::kFixedBinary:
        write_fixed_any(out, cursor, static_cast<const uint8_t*>(a.buffers[1]), validity, first,
                        count, node.width);
        continue;
      case Kind::kBinary:
        write_binary(out, cursor, static_cast<const int32_t*>(a.buffers[1]),
                     static_cast<const uint8_t*>(a.buffers[2]), validity, first, count);
        continue;
      case Kind::kLargeBinary:
        write_binary(out, cursor, static_cast<const int64_t*>(a.buffers[1]),
                     static_cast<const uint8_t*>(a.buffers[2]), validity, first, count);
        continue;
      default: break;
    }
    const uint8_t* s = scratch_[f].data();
    const uint64_t* se = scratch_ends_[f].data();
    uint64_t prev = 0;
    for (size_t r = 0; r < n; ++r) {
      const uint64_t k = se[r] - prev;
      if (k > 0) std::memcpy(out + cursor[r], s + prev, k);
      cursor[r] += k;
      prev = se[r];
    }
  }
  return -1;
}

}  // namespace odf_hash::logical
