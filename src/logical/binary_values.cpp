#include "binary_values.h"

#include <cstring>
#include <string>

#include "array_check.h"

namespace odf_hash::logical {
namespace {

constexpr int64_t kRun = 64;  // slots per validity word

uint64_t low_mask(int64_t k) {
  return k >= 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1;
}

uint64_t run_validity(const Validity& v, int64_t i, int64_t k) {
  return v.present() ? load_bits(v.bits, v.offset + i, k) : low_mask(k);
}

// Little-endian stores and loads as single moves (GCC -O2 keeps a byte loop as a loop).
void store_u64(uint8_t* p, uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  std::memcpy(p, &v, 8);
}

uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}

// All ones when bit b of `word` is set, else 0.
uint64_t bit_mask(uint64_t word, int64_t b) {
  return uint64_t{0} - ((word >> b) & 1);
}

// One slot, the general way: u64 length + bytes through the sink (large runs straight from
// `data`), or the marker.
void put_value(DigestSink& sink, const uint8_t* data, uint64_t n) {
  if (n <= 256) {
    uint8_t* p = sink.reserve(8 + n);
    store_u64(p, n);
    if (n > 0) std::memcpy(p + 8, data, n);
    sink.commit(8 + n);
  } else {
    sink.put_u64(n);
    sink.put(data, n);
  }
}

// The slot writer of the fast paths. Writes slot (src, n) at out + at when valid (mask all
// ones): its u64 length, then kCopy bytes from src of which the first n count; a null slot
// (mask 0) writes a 0 u64 and advances by one byte. Returns the new end. `src` must be
// readable for kCopy bytes (also for a null slot) and out + at for 8 + kCopy bytes.
template <size_t kCopy>
inline size_t put_short(uint8_t* out, size_t at, const uint8_t* src, uint64_t n, uint64_t mask) {
  std::memcpy(out + at + 8, src, kCopy);
  store_u64(out + at, n & mask);
  return at + 1 + (mask & (7 + n));
}

// The same with an exact copy of n bytes (src may be null when n is 0).
inline size_t put_exact(uint8_t* out, size_t at, const uint8_t* src, uint64_t n, uint64_t mask) {
  store_u64(out + at, n & mask);
  if ((n & mask) != 0) std::memcpy(out + at + 8, src, n);
  return at + 1 + (mask & (7 + n));
}

// A run of k slots of an offsets array whose lengths are all below kCopy. Slots whose
// kCopy-byte read would pass `end` (the last byte the offsets vouch for) are copied exactly.
template <size_t kCopy, typename Offset>
void stage_short_run(DigestSink& sink, const Offset* o, const uint8_t* data, int64_t end,
                     uint64_t valid, int64_t k) {
  const int64_t total = static_cast<int64_t>(o[k] - o[0]);
  uint8_t* out = sink.reserve(static_cast<size_t>(8 * k + total) + kCopy + 8);
  // Offsets never decrease, so the slots that can be copied wide are a prefix.
  int64_t wide = k;
  while (wide > 0 && static_cast<int64_t>(o[wide - 1]) + static_cast<int64_t>(kCopy) > end) {
    --wide;
  }
  size_t at = 0;
  for (int64_t j = 0; j < wide; ++j) {
    at = put_short<kCopy>(out, at, data + o[j], static_cast<uint64_t>(o[j + 1] - o[j]),
                          bit_mask(valid, j));
  }
  for (int64_t j = wide; j < k; ++j) {
    const uint64_t n = static_cast<uint64_t>(o[j + 1] - o[j]);
    at = put_exact(out, at, n == 0 ? nullptr : data + o[j], n, bit_mask(valid, j));
  }
  sink.commit(at);
}

}  // namespace

template <typename Offset>
void stage_binary(DigestSink& sink, const Offset* offsets, const uint8_t* data, int64_t len,
                  const Validity& v) {
  const int64_t end = static_cast<int64_t>(offsets[len]);
  for (int64_t i = 0; i < len; i += kRun) {
    const int64_t k = len - i < kRun ? len - i : kRun;
    const uint64_t valid = run_validity(v, i, k);
    const Offset* o = offsets + i;
    // The OR of the lengths bounds the longest one (null slots included: they have lengths
    // too, usually 0).
    uint64_t any = 0;
    for (int64_t j = 0; j < k; ++j) any |= static_cast<uint64_t>(o[j + 1] - o[j]);
    if (any < 16) {
      stage_short_run<16>(sink, o, data, end, valid, k);
    } else if (any < 32) {
      stage_short_run<32>(sink, o, data, end, valid, k);
    } else {
      for (int64_t j = 0; j < k; ++j) {
        if (((valid >> j) & 1) == 0) {
          sink.put_byte(0);
          continue;
        }
        const uint64_t n = static_cast<uint64_t>(o[j + 1] - o[j]);
        put_value(sink, n == 0 ? nullptr : data + o[j], n);
      }
    }
  }
}

template void stage_binary<int32_t>(DigestSink&, const int32_t*, const uint8_t*, int64_t,
                                    const Validity&);
template void stage_binary<int64_t>(DigestSink&, const int64_t*, const uint8_t*, int64_t,
                                    const Validity&);

// A view is 16 bytes: int32 length, then either the value itself (length <= 12) or a 4-byte
// prefix, the int32 index of a variadic data buffer and the int32 offset in it.
Status stage_binary_views(DigestSink& sink, const TypeNode& node, const ArrowArray& a,
                          int64_t first, int64_t len, const Validity& v) {
  const auto* views = static_cast<const uint8_t*>(a.buffers[1]) + first * 16;
  const int64_t n_data = a.n_buffers - 3;
  const auto* sizes =
      n_data > 0 ? static_cast<const int64_t*>(a.buffers[a.n_buffers - 1]) : nullptr;
  for (int64_t i = 0; i < len; i += kRun) {
    const int64_t k = len - i < kRun ? len - i : kRun;
    const uint64_t valid = run_validity(v, i, k);
    const uint8_t* run = views + i * 16;
    // Whether every valid slot of the run holds its value inline (length 0..12).
    uint64_t out_of_line = 0;
    for (int64_t j = 0; j < k; ++j) {
      out_of_line |= bit_mask(valid, j) & static_cast<uint64_t>(load_u32(run + 16 * j) > 12);
    }
    if (out_of_line == 0) {
      // The whole view is copied 4 bytes into the slot, then the u64 length overwrites the
      // view's own length: the 12 inline bytes land right after the u64.
      uint8_t* out = sink.reserve(static_cast<size_t>(20 * k) + 8);
      size_t at = 0;
      for (int64_t j = 0; j < k; ++j) {
        const uint8_t* view = run + 16 * j;
        const uint64_t mask = bit_mask(valid, j);
        const uint64_t n = load_u32(view) & mask;
        std::memcpy(out + at + 4, view, 16);
        store_u64(out + at, n);
        at += 1 + (mask & (7 + n));
      }
      sink.commit(at);
      continue;
    }
    for (int64_t j = 0; j < k; ++j) {
      if (((valid >> j) & 1) == 0) {
        sink.put_byte(0);
        continue;
      }
      const uint8_t* view = run + 16 * j;
      int32_t size = 0;
      std::memcpy(&size, view, 4);
      if (size <= 12) {
        if (size < 0) {
          return Status::invalid_argument("column " + describe(node) + ": negative view length");
        }
        put_value(sink, view + 4, static_cast<uint64_t>(size));
        continue;
      }
      int32_t index = 0, offset = 0;
      std::memcpy(&index, view + 8, 4);
      std::memcpy(&offset, view + 12, 4);
      if (index < 0 || index >= n_data || offset < 0 ||
          static_cast<int64_t>(offset) + size > sizes[index]) {
        return Status::invalid_argument(
            "column " + describe(node) + ": malformed array: view at slot " +
            std::to_string(first + i + j) + " points outside its variadic data buffers");
      }
      put_value(sink, static_cast<const uint8_t*>(a.buffers[2 + index]) + offset,
                static_cast<uint64_t>(size));
    }
  }
  return Status::ok();
}

namespace {

// Fixed-size binary of a width known at compile time (exact copies: no read past the values).
template <size_t W>
void stage_fixed_width(DigestSink& sink, const uint8_t* data, int64_t len, const Validity& v) {
  for (int64_t i = 0; i < len; i += kRun) {
    const int64_t k = len - i < kRun ? len - i : kRun;
    const uint64_t valid = run_validity(v, i, k);
    uint8_t* out = sink.reserve(static_cast<size_t>(k) * (8 + W));
    size_t at = 0;
    for (int64_t j = 0; j < k; ++j) {
      const uint64_t mask = bit_mask(valid, j);
      // Copy first: for a null slot the next slot's u64 overwrites what lies past at + 1.
      std::memcpy(out + at + 8, data + (i + j) * static_cast<int64_t>(W), W);
      store_u64(out + at, W & mask);
      at += 1 + (mask & (7 + W));
    }
    sink.commit(at);
  }
}

}  // namespace

void stage_fixed_binary(DigestSink& sink, const uint8_t* data, int64_t width, int64_t len,
                        const Validity& v) {
  switch (width) {
    case 4: return stage_fixed_width<4>(sink, data, len, v);
    case 8: return stage_fixed_width<8>(sink, data, len, v);
    case 12: return stage_fixed_width<12>(sink, data, len, v);
    case 16: return stage_fixed_width<16>(sink, data, len, v);
    case 20: return stage_fixed_width<20>(sink, data, len, v);
    case 32: return stage_fixed_width<32>(sink, data, len, v);
    default: break;
  }
  // Any other width (0 included): one value at a time, the validity still a word per run.
  for (int64_t i = 0; i < len; i += kRun) {
    const int64_t k = len - i < kRun ? len - i : kRun;
    const uint64_t valid = run_validity(v, i, k);
    for (int64_t j = 0; j < k; ++j) {
      if (((valid >> j) & 1) == 0) {
        sink.put_byte(0);
      } else {
        put_value(sink, data + (i + j) * width, static_cast<uint64_t>(width));
      }
    }
  }
}

bool stages_dictionary(const TypeNode& node) {
  const Kind values = node.children[0].kind;
  return values == Kind::kBinary || values == Kind::kLargeBinary;
}

namespace {

// Dictionary of byte strings: each run gathers its slots' (start, length) from the
// dictionary's offsets, then writes them like stage_short_run when every length is below 16.
// A 16-byte read of a value near the end of the dictionary's data comes from `tail`, a padded
// copy of its last 32 bytes, so no read passes the data the offsets vouch for.
template <typename Offset, typename Index>
void stage_dictionary_runs(DigestSink& sink, const ArrowArray& a, int64_t first, int64_t len,
                           const Validity& v) {
  const ArrowArray& dict = *a.dictionary;
  const auto* doff = static_cast<const Offset*>(dict.buffers[1]) + dict.offset;
  const auto* ddata = static_cast<const uint8_t*>(dict.buffers[2]);
  const int64_t dict_len = dict.length;
  const int64_t begin = dict_len > 0 ? static_cast<int64_t>(doff[0]) : 0;
  const int64_t end = dict_len > 0 ? static_cast<int64_t>(doff[dict_len]) : 0;
  const int64_t tail_start = end - begin > 32 ? end - 32 : begin;
  uint8_t tail[48] = {};
  if (end > tail_start)
    std::memcpy(tail, ddata + tail_start, static_cast<size_t>(end - tail_start));
  const auto* indices = static_cast<const Index*>(a.buffers[1]) + first;
  const auto* index_bits = static_cast<const uint8_t*>(a.buffers[0]);
  for (int64_t i = 0; i < len; i += kRun) {
    const int64_t k = len - i < kRun ? len - i : kRun;
    const uint64_t valid = run_validity(v, i, k);
    // Slots whose index is null hash the empty string (when valid at all).
    const uint64_t has_index =
        index_bits != nullptr ? load_bits(index_bits, first + i, k) : low_mask(k);
    const uint64_t use = dict_len > 0 ? (valid & has_index) : 0;
    int64_t start[kRun];
    uint64_t n[kRun];
    uint64_t any = 0;
    for (int64_t j = 0; j < k; ++j) {
      // A slot not used reads index 0 (valid whenever the dictionary is not empty).
      const int64_t idx =
          static_cast<int64_t>(indices[i + j]) & static_cast<int64_t>(bit_mask(use, j));
      start[j] = dict_len > 0 ? static_cast<int64_t>(doff[idx]) : 0;
      n[j] = dict_len > 0 ? static_cast<uint64_t>(doff[idx + 1] - doff[idx]) & bit_mask(use, j) : 0;
      any |= n[j];
    }
    if (any < 16) {
      uint8_t* out = sink.reserve(static_cast<size_t>(24 * k) + 8);
      size_t at = 0;
      for (int64_t j = 0; j < k; ++j) {
        const bool near_end = start[j] + 16 > end;
        const uint8_t* src = near_end ? tail + (start[j] - tail_start) : ddata + start[j];
        at = put_short<16>(out, at, src, n[j], bit_mask(valid, j));
      }
      sink.commit(at);
      continue;
    }
    for (int64_t j = 0; j < k; ++j) {
      if (((valid >> j) & 1) == 0) {
        sink.put_byte(0);
      } else {
        put_value(sink, n[j] == 0 ? nullptr : ddata + start[j], n[j]);
      }
    }
  }
}

template <typename Offset>
void stage_dictionary_offsets(DigestSink& sink, const TypeNode& node, const ArrowArray& a,
                              int64_t first, int64_t len, const Validity& v) {
  switch (node.format[0]) {
    case 'c': return stage_dictionary_runs<Offset, int8_t>(sink, a, first, len, v);
    case 'C': return stage_dictionary_runs<Offset, uint8_t>(sink, a, first, len, v);
    case 's': return stage_dictionary_runs<Offset, int16_t>(sink, a, first, len, v);
    case 'S': return stage_dictionary_runs<Offset, uint16_t>(sink, a, first, len, v);
    case 'i': return stage_dictionary_runs<Offset, int32_t>(sink, a, first, len, v);
    case 'I': return stage_dictionary_runs<Offset, uint32_t>(sink, a, first, len, v);
    case 'l': return stage_dictionary_runs<Offset, int64_t>(sink, a, first, len, v);
    default: return stage_dictionary_runs<Offset, uint64_t>(sink, a, first, len, v);
  }
}

}  // namespace

void stage_dictionary(DigestSink& sink, const TypeNode& node, const ArrowArray& a, int64_t first,
                      int64_t len, const Validity& v) {
  if (node.children[0].kind == Kind::kLargeBinary) {
    stage_dictionary_offsets<int64_t>(sink, node, a, first, len, v);
  } else {
    stage_dictionary_offsets<int32_t>(sink, node, a, first, len, v);
  }
}

}  // namespace odf_hash::logical
