#include "value_hasher.h"

#include <array>
#include <cstring>
#include <string>
#include <type_traits>

#include "array_check.h"
#include "binary_values.h"
#include "bool_bytes.h"
#include "fixed_compact.h"
#include "staging.h"

namespace odf_hash::logical {
namespace {

using staging::low_mask;

const uint8_t* buffer_at(const ArrowArray& a, int64_t i) {
  return static_cast<const uint8_t*>(a.buffers[i]);
}

bool is_signed_index(const TypeNode& node) {
  const std::string& f = node.format;
  return f == "c" || f == "s" || f == "i" || f == "l";
}

// The run holding physical slot p of a run-end-encoded array: the first run whose end
// exceeds p (check_array guarantees one exists).
int64_t find_run(const TypeNode& node, const ArrowArray& a, int64_t p) {
  const ArrowArray& ends = *a.children[0];
  const void* data = ends.buffers[1];
  int64_t lo = 0, hi = ends.length - 1;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (read_int(data, node.width, true, ends.offset + mid) > p) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

// Whether logical slot j of `a` holds a value (not a null) once decoded.
bool slot_valid(const TypeNode& node, const ArrowArray& a, int64_t j) {
  switch (node.kind) {
    case Kind::kNull: return false;
    case Kind::kDictionary: {
      const uint8_t* bits = buffer_at(a, 0);
      if (bits != nullptr && !get_bit(bits, a.offset + j)) return false;
      const int64_t idx = read_int(a.buffers[1], node.width, is_signed_index(node), a.offset + j);
      return slot_valid(node.children[0], *a.dictionary, idx);
    }
    case Kind::kRunEnd:
      return slot_valid(node.children[1], *a.children[1], find_run(node, a, a.offset + j));
    default: {
      const uint8_t* bits = buffer_at(a, 0);
      return bits == nullptr || get_bit(bits, a.offset + j);
    }
  }
}

// Whether any slot of `a` can decode to null (a cheap, conservative test).
bool may_have_nulls(const TypeNode& node, const ArrowArray& a) {
  switch (node.kind) {
    case Kind::kNull: return a.length > 0;
    case Kind::kDictionary:
      return (a.buffers[0] != nullptr && a.null_count != 0) ||
             may_have_nulls(node.children[0], *a.dictionary);
    case Kind::kRunEnd: return may_have_nulls(node.children[1], *a.children[1]);
    default: return a.buffers[0] != nullptr && a.null_count != 0;
  }
}

// The value of a slot that decodes to null but is hashed as a value (only reachable through
// the reference's OR combination, for a null dictionary index): the type's zero value, which
// is also what decoding the dictionary with Arrow's take kernel leaves in such a slot.
void put_zero_value(DigestSink& sink, const TypeNode& node) {
  switch (node.kind) {
    case Kind::kNull: sink.put_byte(0); return;
    case Kind::kBool: sink.put_byte(1); return;
    case Kind::kFixed: sink.put_zeros(static_cast<size_t>(node.width)); return;
    case Kind::kFixedBinary:
      sink.put_u64(static_cast<uint64_t>(node.width));
      sink.put_zeros(static_cast<size_t>(node.width));
      return;
    case Kind::kFixedList:
      sink.put_u64(static_cast<uint64_t>(node.width));
      for (int64_t i = 0; i < node.width; ++i) put_zero_value(sink, node.children[0]);
      return;
    case Kind::kDictionary: put_zero_value(sink, node.children[0]); return;
    case Kind::kRunEnd: put_zero_value(sink, node.children[1]); return;
    default: sink.put_u64(0); return;  // strings, binaries, variable lists: empty
  }
}

// One slot as a value, whatever its own validity says.
Status put_one_value(DigestSink& sink, const TypeNode& node, const ArrowArray& a, int64_t j) {
  return hash_slots(sink, node, a, j, 1, Validity{});
}

// Unsigned integers of W = 1, 2, 4 or 8 bytes (a value held in a register).
template <int W>
using Word = std::conditional_t<
    W == 1, uint8_t,
    std::conditional_t<W == 2, uint16_t, std::conditional_t<W == 4, uint32_t, uint64_t>>>;

template <int W>
void put_fixed_masked(DigestSink& sink, const uint8_t* data, uint64_t valid, int64_t k) {
  // Branch-free. Values of up to 8 bytes: each value, ANDed with its validity mask (all
  // ones or zero), is stored whole and the output advances by W, or by 1 for a null, whose
  // stored first byte 0 is the marker. Wider ones: the value is copied, then its first byte
  // is overwritten with the marker when null. Writes stay inside the k * W reserved bytes.
  uint8_t* out = sink.reserve(static_cast<size_t>(k * W));
  size_t n = 0;
  for (int64_t b = 0; b < k; ++b) {
    if constexpr (W <= 8) {
      const uint64_t mask = staging::bit_mask(valid, b);
      Word<W> x;
      std::memcpy(&x, data + b * W, W);
      x &= static_cast<Word<W>>(mask);
      std::memcpy(out + n, &x, W);
      n += 1 + (mask & (W - 1));
    } else {
      const size_t is_valid = (valid >> b) & 1;
      std::memcpy(out + n, data + b * W, W);
      out[n] = is_valid ? out[n] : 0;
      n += is_valid ? W : 1;
    }
  }
  sink.commit(n);
}

void hash_fixed(DigestSink& sink, const uint8_t* data, int64_t width, int64_t len,
                const Validity& v) {
  if (!v.present()) {
    sink.put(data, static_cast<size_t>(len * width));
    return;
  }
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  const bool vbmi2 = (width == 2 || width == 4 || width == 8) && fixed_compact_vbmi2_enabled();
#endif
  for (int64_t i = 0; i < len; i += 64) {
    const int64_t k = len - i < 64 ? len - i : 64;
    const uint64_t valid = load_bits(v.bits, v.offset + i, k);
    const uint8_t* chunk = data + i * width;
    if (valid == low_mask(k)) {
      sink.put(chunk, static_cast<size_t>(k * width));
      continue;
    }
#if defined(ODF_HASH_HAVE_X86_KERNELS)
    if (vbmi2) {
      uint8_t* out = sink.reserve(static_cast<size_t>(k * width) + 64);
      sink.commit(compact_fixed_vbmi2(out, chunk, valid, k, static_cast<int>(width)));
      continue;
    }
#endif
    switch (width) {
      case 1: put_fixed_masked<1>(sink, chunk, valid, k); break;
      case 2: put_fixed_masked<2>(sink, chunk, valid, k); break;
      case 4: put_fixed_masked<4>(sink, chunk, valid, k); break;
      case 8: put_fixed_masked<8>(sink, chunk, valid, k); break;
      case 16: put_fixed_masked<16>(sink, chunk, valid, k); break;
      default: put_fixed_masked<32>(sink, chunk, valid, k); break;
    }
  }
}

// kSpread[x]: the 8 bits of x as 8 bytes of 0 or 1 (bit i in byte i, little-endian).
constexpr std::array<uint64_t, 256> make_spread() {
  std::array<uint64_t, 256> t{};
  for (int x = 0; x < 256; ++x) {
    for (int i = 0; i < 8; ++i) t[x] |= static_cast<uint64_t>((x >> i) & 1) << (8 * i);
  }
  return t;
}
constexpr std::array<uint64_t, 256> kSpread = make_spread();

// A slot hashes as 0 (null), 1 (false) or 2 (true): valid + (valid & value), 8 slots per
// table look-up pair.
void hash_bool(DigestSink& sink, const uint8_t* values, int64_t first, int64_t len,
               const Validity& v) {
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  const bool avx512 = bool_bytes_avx512_enabled();
#endif
  for (int64_t i = 0; i < len; i += 64) {
    const int64_t k = len - i < 64 ? len - i : 64;
    const uint64_t bits = load_bits(values, first + i, k);
    const uint64_t valid = v.present() ? load_bits(v.bits, v.offset + i, k) : low_mask(k);
    const uint64_t set = valid & bits;
    uint8_t* out = sink.reserve(64);  // whole 8-byte groups; only k bytes are committed
#if defined(ODF_HASH_HAVE_X86_KERNELS)
    if (avx512) {
      bool_bytes_avx512(out, valid, bits);
      sink.commit(static_cast<size_t>(k));
      continue;
    }
#endif
    for (int64_t b = 0; b < k; b += 8) {
      uint64_t w = kSpread[(valid >> b) & 0xff] + kSpread[(set >> b) & 0xff];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
      w = __builtin_bswap64(w);
#endif
      std::memcpy(out + b, &w, 8);
    }
    sink.commit(static_cast<size_t>(k));
  }
}

// A list slot: the item count, then the items with the item array's own validity.
Status hash_list_items(DigestSink& sink, const TypeNode& node, const ArrowArray& a, int64_t begin,
                       int64_t end) {
  sink.put_u64(static_cast<uint64_t>(end - begin));
  if (end == begin) return Status::ok();
  const TypeNode& item_node = node.children[0];
  const ArrowArray& items = *a.children[0];
  const OwnedValidity items_valid = own_validity(item_node, items, begin, end - begin, false);
  return hash_slots(sink, item_node, items, begin, end - begin, items_valid.v);
}

// List slot `slot` (physical), valid: its item range, then its items.
Status hash_list_slot(DigestSink& sink, const TypeNode& node, const ArrowArray& a, int64_t slot) {
  int64_t begin = 0, end = 0;
  switch (node.kind) {
    case Kind::kList:
    case Kind::kLargeList:
      begin = read_offset(a.buffers[1], node.kind == Kind::kLargeList, slot);
      end = read_offset(a.buffers[1], node.kind == Kind::kLargeList, slot + 1);
      break;
    case Kind::kListView:
    case Kind::kLargeListView:
      begin = read_offset(a.buffers[1], node.kind == Kind::kLargeListView, slot);
      end = begin + read_offset(a.buffers[2], node.kind == Kind::kLargeListView, slot);
      break;
    default:  // kFixedList
      begin = slot * node.width;
      end = begin + node.width;
      break;
  }
  return hash_list_items(sink, node, a, begin, end);
}

// The item width of a List / LargeList of a fixed-width type as a shift (log2), or -1 when
// the lists are not of one (or their item values are absent: every list is then empty).
int fixed_item_shift(const TypeNode& node, const ArrowArray& a) {
  if (node.kind != Kind::kList && node.kind != Kind::kLargeList) return -1;
  if (node.children[0].kind != Kind::kFixed || a.children[0]->buffers[1] == nullptr) return -1;
  switch (node.children[0].width) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    case 16: return 4;
    case 32: return 5;
    default: return -1;
  }
}

// Lists of fixed-width items 64 slots at a time: a run whose items hold no null is a run of
// counted slots (the item count, then the items' bytes: staging.h), written without a branch
// per slot; a run reaching a null item goes list by list.
template <typename Offset, int kShift>
Status stage_fixed_lists(DigestSink& sink, const TypeNode& node, const ArrowArray& a, int64_t first,
                         int64_t len, const Validity& v) {
  const Offset* offsets = static_cast<const Offset*>(a.buffers[1]) + first;
  const ArrowArray& items = *a.children[0];
  const uint8_t* data = buffer_at(items, 1) + (items.offset << kShift);
  const uint8_t* item_bits = buffer_at(items, 0);
  const auto items_clean = [&](int64_t begin, int64_t end) {
    return item_bits == nullptr || end == begin ||
           count_zero_bits(item_bits, items.offset + begin, end - begin) == 0;
  };
  if (items_clean(offsets[0], offsets[len])) item_bits = nullptr;
  const int64_t end = static_cast<int64_t>(offsets[len]) << kShift;
  for (int64_t i = 0; i < len; i += staging::kRun) {
    const int64_t k = len - i < staging::kRun ? len - i : staging::kRun;
    const uint64_t valid = staging::run_validity(v, i, k);
    const Offset* o = offsets + i;
    if (items_clean(o[0], o[k])) {
      staging::stage_counted_run<kShift>(sink, o, data, end, valid, k);
      continue;
    }
    for (int64_t j = 0; j < k; ++j) {
      if (((valid >> j) & 1) == 0) {
        sink.put_byte(0);
      } else {
        ODF_HASH_RETURN_IF_ERROR(hash_list_slot(sink, node, a, first + i + j));
      }
    }
  }
  return Status::ok();
}

template <typename Offset>
Status stage_fixed_lists(DigestSink& sink, const TypeNode& node, const ArrowArray& a, int64_t first,
                         int64_t len, const Validity& v, int shift) {
  switch (shift) {
    case 0: return stage_fixed_lists<Offset, 0>(sink, node, a, first, len, v);
    case 1: return stage_fixed_lists<Offset, 1>(sink, node, a, first, len, v);
    case 2: return stage_fixed_lists<Offset, 2>(sink, node, a, first, len, v);
    case 3: return stage_fixed_lists<Offset, 3>(sink, node, a, first, len, v);
    case 4: return stage_fixed_lists<Offset, 4>(sink, node, a, first, len, v);
    default: return stage_fixed_lists<Offset, 5>(sink, node, a, first, len, v);
  }
}

Status hash_lists(DigestSink& sink, const TypeNode& node, const ArrowArray& a, int64_t first,
                  int64_t len, const Validity& v) {
  if (const int shift = fixed_item_shift(node, a); shift >= 0 && len > 0) {
    return node.kind == Kind::kLargeList
               ? stage_fixed_lists<int64_t>(sink, node, a, first, len, v, shift)
               : stage_fixed_lists<int32_t>(sink, node, a, first, len, v, shift);
  }
  for (int64_t i = 0; i < len; ++i) {
    if (!v.valid(i)) {
      sink.put_byte(0);
      continue;
    }
    ODF_HASH_RETURN_IF_ERROR(hash_list_slot(sink, node, a, first + i));
  }
  return Status::ok();
}

Status hash_dictionary(DigestSink& sink, const TypeNode& node, const ArrowArray& a, int64_t first,
                       int64_t len, const Validity& v) {
  if (stages_dictionary(node)) {
    stage_dictionary(sink, node, a, first, len, v);
    return Status::ok();
  }
  const uint8_t* index_valid = buffer_at(a, 0);
  const bool is_signed = is_signed_index(node);
  for (int64_t i = 0; i < len; ++i) {
    if (!v.valid(i)) {
      sink.put_byte(0);
    } else if (index_valid != nullptr && !get_bit(index_valid, first + i)) {
      put_zero_value(sink, node.children[0]);
    } else {
      const int64_t idx = read_int(a.buffers[1], node.width, is_signed, first + i);
      ODF_HASH_RETURN_IF_ERROR(put_one_value(sink, node.children[0], *a.dictionary, idx));
    }
  }
  return Status::ok();
}

Status hash_run_ends(DigestSink& sink, const TypeNode& node, const ArrowArray& a, int64_t first,
                     int64_t len, const Validity& v) {
  if (len == 0) return Status::ok();
  const ArrowArray& ends = *a.children[0];
  int64_t run = find_run(node, a, first);
  int64_t run_end = read_int(ends.buffers[1], node.width, true, ends.offset + run);
  for (int64_t i = 0; i < len; ++i) {
    while (run_end <= first + i) {
      ++run;
      run_end = read_int(ends.buffers[1], node.width, true, ends.offset + run);
    }
    if (!v.valid(i)) {
      sink.put_byte(0);
    } else {
      ODF_HASH_RETURN_IF_ERROR(put_one_value(sink, node.children[1], *a.children[1], run));
    }
  }
  return Status::ok();
}

}  // namespace

OwnedValidity own_validity(const TypeNode& node, const ArrowArray& a, int64_t pos, int64_t len,
                           bool with_count) {
  switch (node.kind) {
    case Kind::kNull: return OwnedValidity();  // hashed as 0 bytes whatever the validity
    case Kind::kDictionary:
    case Kind::kRunEnd: {
      if (!may_have_nulls(node, a)) return OwnedValidity();
      OwnedValidity out = make_owned_bitmap(len);
      for (int64_t i = 0; i < len; ++i) {
        if (slot_valid(node, a, pos + i)) set_bit(out, i);
      }
      seal_owned_bitmap(out, len);
      return out;
    }
    default: {
      const uint8_t* bits = buffer_at(a, 0);
      if (bits == nullptr) return OwnedValidity();
      Validity v{bits, a.offset + pos, -1};
      if (with_count) v.null_count = a.null_count == 0 ? 0 : count_zero_bits(bits, v.offset, len);
      return OwnedValidity(v);
    }
  }
}

Status hash_slots(DigestSink& sink, const TypeNode& node, const ArrowArray& a, int64_t pos,
                  int64_t len, const Validity& v) {
  const int64_t first = a.offset + pos;
  switch (node.kind) {
    case Kind::kNull: sink.put_zeros(static_cast<size_t>(len)); return Status::ok();
    case Kind::kBool:
      if (len > 0) hash_bool(sink, buffer_at(a, 1), first, len, v);
      return Status::ok();
    case Kind::kFixed:
      if (len > 0) hash_fixed(sink, buffer_at(a, 1) + first * node.width, node.width, len, v);
      return Status::ok();
    case Kind::kFixedBinary:
      if (len > 0)
        stage_fixed_binary(sink, buffer_at(a, 1) + first * node.width, node.width, len, v);
      return Status::ok();
    case Kind::kBinary:
      if (len > 0) {
        stage_binary(sink, static_cast<const int32_t*>(a.buffers[1]) + first, buffer_at(a, 2), len,
                     v);
      }
      return Status::ok();
    case Kind::kLargeBinary:
      if (len > 0) {
        stage_binary(sink, static_cast<const int64_t*>(a.buffers[1]) + first, buffer_at(a, 2), len,
                     v);
      }
      return Status::ok();
    case Kind::kBinaryView: return stage_binary_views(sink, node, a, first, len, v);
    case Kind::kList:
    case Kind::kLargeList:
    case Kind::kListView:
    case Kind::kLargeListView:
    case Kind::kFixedList: return hash_lists(sink, node, a, first, len, v);
    case Kind::kDictionary: return hash_dictionary(sink, node, a, first, len, v);
    case Kind::kRunEnd: return hash_run_ends(sink, node, a, first, len, v);
    case Kind::kStruct: break;
  }
  return Status::internal("column " + describe(node) + ": a struct reached the value hasher");
}

}  // namespace odf_hash::logical
