#include "array_check.h"

#include <cstring>
#include <limits>
#include <string>

#include "bitmap.h"

namespace odf_hash::logical {
namespace {

// Offsets and lengths beyond this are rejected, so sums of two never overflow.
constexpr int64_t kMaxIndex = int64_t{1} << 60;

Status malformed(const TypeNode& node, const std::string& what) {
  return Status::invalid_argument("column " + describe(node) + ": malformed array: " + what);
}

int64_t expected_buffers(const TypeNode& node) {
  switch (node.kind) {
    case Kind::kNull: return 0;
    case Kind::kBool:
    case Kind::kFixed:
    case Kind::kFixedBinary:
    case Kind::kList:
    case Kind::kLargeList:
    case Kind::kDictionary: return 2;
    case Kind::kBinary:
    case Kind::kLargeBinary:
    case Kind::kListView:
    case Kind::kLargeListView: return 3;
    case Kind::kFixedList:
    case Kind::kStruct: return 1;
    case Kind::kRunEnd: return 0;
    case Kind::kBinaryView: return 3;  // at least: validity, views, variadic sizes
  }
  return -1;
}

Status check_structure(const TypeNode& node, const ArrowArray& a) {
  if (a.length < 0 || a.offset < 0 || a.length > kMaxIndex || a.offset > kMaxIndex) {
    return malformed(node, "negative or huge length (" + std::to_string(a.length) +
                               ") or offset (" + std::to_string(a.offset) + ")");
  }
  const int64_t want = expected_buffers(node);
  const bool buffers_ok = node.kind == Kind::kBinaryView ? a.n_buffers >= want
                          : node.kind == Kind::kNull     ? (a.n_buffers == 0 || a.n_buffers == 1)
                                                         : a.n_buffers == want;
  if (!buffers_ok) {
    return malformed(node, "has " + std::to_string(a.n_buffers) + " buffers, expected " +
                               (node.kind == Kind::kBinaryView ? "at least " : "") +
                               std::to_string(want));
  }
  if (a.n_buffers > 0 && a.buffers == nullptr) return malformed(node, "buffers pointer is null");
  int64_t want_children = 0;
  switch (node.kind) {
    case Kind::kList:
    case Kind::kLargeList:
    case Kind::kListView:
    case Kind::kLargeListView:
    case Kind::kFixedList: want_children = 1; break;
    case Kind::kRunEnd: want_children = 2; break;
    case Kind::kStruct: want_children = static_cast<int64_t>(node.children.size()); break;
    default: break;
  }
  if (a.n_children != want_children) {
    return malformed(node, "has " + std::to_string(a.n_children) + " children, expected " +
                               std::to_string(want_children));
  }
  if (a.n_children > 0 && a.children == nullptr) return malformed(node, "children pointer is null");
  for (int64_t i = 0; i < a.n_children; ++i) {
    if (a.children[i] == nullptr) return malformed(node, "child " + std::to_string(i) + " is null");
  }
  if ((node.kind == Kind::kDictionary) != (a.dictionary != nullptr)) {
    return malformed(node, node.kind == Kind::kDictionary ? "dictionary array is missing"
                                                          : "unexpected dictionary array");
  }
  // Null counts: a bitmap must agree with a known null_count; no bitmap means no nulls.
  const bool has_validity_slot = node.kind != Kind::kNull && node.kind != Kind::kRunEnd;
  const uint8_t* validity = has_validity_slot ? static_cast<const uint8_t*>(a.buffers[0]) : nullptr;
  if (validity == nullptr) {
    if (has_validity_slot && a.null_count > 0) {
      return malformed(node, "null_count is " + std::to_string(a.null_count) +
                                 " but there is no validity bitmap");
    }
  } else if (a.null_count >= 0) {
    const int64_t counted = count_zero_bits(validity, a.offset, a.length);
    if (counted != a.null_count) {
      return malformed(node, "null_count is " + std::to_string(a.null_count) +
                                 " but the validity bitmap has " + std::to_string(counted) +
                                 " nulls");
    }
  } else if (a.null_count != -1) {
    return malformed(node, "null_count is " + std::to_string(a.null_count));
  }
  return Status::ok();
}

Status need_buffer(const TypeNode& node, const ArrowArray& a, int64_t i, const char* what) {
  if (a.buffers[i] == nullptr) return malformed(node, std::string(what) + " buffer is null");
  return Status::ok();
}

// Whether o[0..n) never decreases. Blocks of 16 with no branch inside, which GCC vectorizes
// for 32-bit offsets even at -O2: with an early exit per slot, the check took ~5% of the
// time of hashing a column of short strings (now ~2%). Callers find the slot that decreases
// the slow way.
template <typename T>
bool nondecreasing(const T* o, int64_t n) {
  constexpr int64_t kBlock = 16;
  int64_t k = 1;
  for (; k + kBlock <= n; k += kBlock) {
    unsigned bad = 0;
    for (int64_t j = 0; j < kBlock; ++j) bad |= static_cast<unsigned>(o[k + j] < o[k + j - 1]);
    if (bad != 0) return false;
  }
  for (; k < n; ++k) {
    if (o[k] < o[k - 1]) return false;
  }
  return true;
}

// Checks offsets [first, first + len] of a (large) offsets buffer and returns the range they
// span in the child or data buffer.
Status check_offsets(const TypeNode& node, const void* offsets, bool large, int64_t first,
                     int64_t len, int64_t& begin, int64_t& end) {
  begin = read_offset(offsets, large, first);
  if (begin < 0) return malformed(node, "negative offset " + std::to_string(begin));
  const bool ordered = large ? nondecreasing(static_cast<const int64_t*>(offsets) + first, len + 1)
                             : nondecreasing(static_cast<const int32_t*>(offsets) + first, len + 1);
  if (!ordered) {
    int64_t prev = begin;
    for (int64_t k = 1; k <= len; ++k) {
      const int64_t v = read_offset(offsets, large, first + k);
      if (v < prev) {
        return malformed(node, "offsets decrease at slot " + std::to_string(first + k - 1) + " (" +
                                   std::to_string(prev) + " then " + std::to_string(v) + ")");
      }
      prev = v;
    }
  }
  end = read_offset(offsets, large, first + len);
  if (end > kMaxIndex) return malformed(node, "offset too large");
  return Status::ok();
}

Status check_child_range(const TypeNode& node, const TypeNode& child_node, const ArrowArray& child,
                         int64_t begin, int64_t end) {
  if (child.length < 0 || end > child.length) {
    return malformed(node, "offsets reach slot " + std::to_string(end) + " of a child of length " +
                               std::to_string(child.length));
  }
  return check_array(child_node, child, begin, end - begin);
}

Status check_run_ends(const TypeNode& node, const ArrowArray& a, int64_t pos, int64_t len) {
  const ArrowArray& ends = *a.children[0];
  const ArrowArray& values = *a.children[1];
  ODF_HASH_RETURN_IF_ERROR(check_array(node.children[0], ends, 0, ends.length));
  if (ends.null_count != 0 && ends.buffers[0] != nullptr &&
      count_zero_bits(static_cast<const uint8_t*>(ends.buffers[0]), ends.offset, ends.length) !=
          0) {
    return malformed(node, "run ends contain nulls");
  }
  if (len == 0) return check_array(node.children[1], values, 0, 0);
  const int64_t width = node.children[0].width;
  const void* data = static_cast<const uint8_t*>(ends.buffers[1]);
  int64_t prev = 0;
  for (int64_t r = 0; r < ends.length; ++r) {
    const int64_t v = read_int(data, width, true, ends.offset + r);
    if (v <= prev) return malformed(node, "run ends are not strictly increasing and positive");
    prev = v;
  }
  if (prev < a.offset + pos + len) {
    return malformed(node, "run ends stop at " + std::to_string(prev) + ", before slot " +
                               std::to_string(a.offset + pos + len));
  }
  if (values.length < ends.length) {
    return malformed(node, "fewer values (" + std::to_string(values.length) + ") than runs (" +
                               std::to_string(ends.length) + ")");
  }
  return check_array(node.children[1], values, 0, ends.length);
}

}  // namespace

int64_t read_int(const void* buffer, int64_t width, bool is_signed, int64_t k) {
  switch (width) {
    case 1:
      return is_signed ? static_cast<const int8_t*>(buffer)[k]
                       : static_cast<const uint8_t*>(buffer)[k];
    case 2:
      return is_signed ? static_cast<const int16_t*>(buffer)[k]
                       : static_cast<const uint16_t*>(buffer)[k];
    case 4:
      return is_signed ? static_cast<const int32_t*>(buffer)[k]
                       : static_cast<const uint32_t*>(buffer)[k];
    default: {
      const uint64_t v = static_cast<const uint64_t*>(buffer)[k];
      // An unsigned 64-bit index above INT64_MAX maps to -1: out of range everywhere.
      if (!is_signed && v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return -1;
      return static_cast<int64_t>(v);
    }
  }
}

Status check_array(const TypeNode& node, const ArrowArray& a, int64_t pos, int64_t len) {
  ODF_HASH_RETURN_IF_ERROR(check_structure(node, a));
  if (pos < 0 || len < 0 || pos + len > a.length) {
    return malformed(node, "slots [" + std::to_string(pos) + ", " + std::to_string(pos + len) +
                               ") requested of an array of length " + std::to_string(a.length));
  }
  const int64_t first = a.offset + pos;  // physical index of the first slot
  switch (node.kind) {
    case Kind::kNull: return Status::ok();
    case Kind::kBool:
    case Kind::kFixed:
    case Kind::kFixedBinary:
      if (len > 0 && (node.kind != Kind::kFixedBinary || node.width > 0)) {
        return need_buffer(node, a, 1, "values");
      }
      return Status::ok();
    case Kind::kBinary:
    case Kind::kLargeBinary: {
      if (len == 0) return Status::ok();
      ODF_HASH_RETURN_IF_ERROR(need_buffer(node, a, 1, "offsets"));
      int64_t begin = 0, end = 0;
      ODF_HASH_RETURN_IF_ERROR(check_offsets(node, a.buffers[1], node.kind == Kind::kLargeBinary,
                                             first, len, begin, end));
      if (end > begin) return need_buffer(node, a, 2, "data");
      return Status::ok();
    }
    case Kind::kBinaryView: {
      if (len > 0) ODF_HASH_RETURN_IF_ERROR(need_buffer(node, a, 1, "views"));
      const int64_t n_data = a.n_buffers - 3;
      if (n_data > 0) {
        ODF_HASH_RETURN_IF_ERROR(need_buffer(node, a, a.n_buffers - 1, "variadic sizes"));
        const auto* sizes = static_cast<const int64_t*>(a.buffers[a.n_buffers - 1]);
        for (int64_t i = 0; i < n_data; ++i) {
          if (sizes[i] < 0) return malformed(node, "negative variadic buffer size");
          if (sizes[i] > 0) ODF_HASH_RETURN_IF_ERROR(need_buffer(node, a, 2 + i, "variadic data"));
        }
      }
      return Status::ok();  // the views themselves are checked while read
    }
    case Kind::kList:
    case Kind::kLargeList: {
      if (len == 0) return check_array(node.children[0], *a.children[0], 0, 0);
      ODF_HASH_RETURN_IF_ERROR(need_buffer(node, a, 1, "offsets"));
      int64_t begin = 0, end = 0;
      ODF_HASH_RETURN_IF_ERROR(
          check_offsets(node, a.buffers[1], node.kind == Kind::kLargeList, first, len, begin, end));
      return check_child_range(node, node.children[0], *a.children[0], begin, end);
    }
    case Kind::kListView:
    case Kind::kLargeListView: {
      if (len == 0) return check_array(node.children[0], *a.children[0], 0, 0);
      ODF_HASH_RETURN_IF_ERROR(need_buffer(node, a, 1, "offsets"));
      ODF_HASH_RETURN_IF_ERROR(need_buffer(node, a, 2, "sizes"));
      const bool large = node.kind == Kind::kLargeListView;
      int64_t lo = kMaxIndex, hi = 0;
      for (int64_t i = 0; i < len; ++i) {
        const int64_t off = read_offset(a.buffers[1], large, first + i);
        const int64_t size = read_offset(a.buffers[2], large, first + i);
        if (off < 0 || size < 0 || off > kMaxIndex || size > kMaxIndex) {
          return malformed(node, "negative or huge list view offset or size at slot " +
                                     std::to_string(first + i));
        }
        if (size == 0) continue;
        lo = off < lo ? off : lo;
        hi = off + size > hi ? off + size : hi;
      }
      if (hi == 0) return check_array(node.children[0], *a.children[0], 0, 0);
      return check_child_range(node, node.children[0], *a.children[0], lo, hi);
    }
    case Kind::kFixedList: {
      const int64_t size = node.width;
      if (size > 0 && first + len > kMaxIndex / size) return malformed(node, "too many items");
      return check_child_range(node, node.children[0], *a.children[0], first * size,
                               (first + len) * size);
    }
    case Kind::kStruct:
      for (size_t c = 0; c < node.children.size(); ++c) {
        const ArrowArray& child = *a.children[c];
        if (child.length < first + len) {
          return malformed(node, "field " + describe(node.children[c]) + " has length " +
                                     std::to_string(child.length) + ", needs " +
                                     std::to_string(first + len));
        }
        ODF_HASH_RETURN_IF_ERROR(check_array(node.children[c], child, first, len));
      }
      return Status::ok();
    case Kind::kDictionary: {
      const ArrowArray& dict = *a.dictionary;
      ODF_HASH_RETURN_IF_ERROR(check_array(node.children[0], dict, 0, dict.length));
      if (len == 0) return Status::ok();
      ODF_HASH_RETURN_IF_ERROR(need_buffer(node, a, 1, "indices"));
      const auto* validity = static_cast<const uint8_t*>(a.buffers[0]);
      const bool is_signed =
          node.format == "c" || node.format == "s" || node.format == "i" || node.format == "l";
      for (int64_t i = 0; i < len; ++i) {
        if (validity != nullptr && !get_bit(validity, first + i)) continue;
        const int64_t idx = read_int(a.buffers[1], node.width, is_signed, first + i);
        if (idx < 0 || idx >= dict.length) {
          return malformed(node, "dictionary index " + std::to_string(idx) + " at slot " +
                                     std::to_string(first + i) + " outside a dictionary of " +
                                     std::to_string(dict.length) + " values");
        }
      }
      return Status::ok();
    }
    case Kind::kRunEnd: return check_run_ends(node, a, pos, len);
  }
  return Status::internal("unhandled type kind");
}

}  // namespace odf_hash::logical
