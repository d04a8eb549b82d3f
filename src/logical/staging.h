// The building blocks of the bulk staging paths (binary_values.cpp, list_values.cpp): runs of
// 64 slots, one validity word per run, and slot writers with no branch per slot. Internal to
// src/logical/.
//
// A counted slot is what the reference hashes for a byte string (count = its byte length)
// or a list of fixed-width items with no null item (count = its item count, bytes = count
// times the item width): the count as a little-endian u64, then the bytes. A null slot is
// the marker byte 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "bitmap.h"
#include "digest_sink.h"

namespace odf_hash::logical::staging {

inline constexpr int64_t kRun = 64;  // slots per validity word
// How far ahead of the bytes being staged stage_short_run prefetches.
inline constexpr uintptr_t kPrefetchDistance = 4096;

inline uint64_t low_mask(int64_t k) {
  return k >= 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1;
}

// The validity word of slots [i, i + k) (k <= 64), all ones when there is no bitmap.
inline uint64_t run_validity(const Validity& v, int64_t i, int64_t k) {
  return v.present() ? load_bits(v.bits, v.offset + i, k) : low_mask(k);
}

// Little-endian stores and loads as single moves (GCC -O2 keeps a byte loop as a loop).
inline void store_u64(uint8_t* p, uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  std::memcpy(p, &v, 8);
}

inline uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}

// All ones when bit b of `word` is set, else 0.
inline uint64_t bit_mask(uint64_t word, int64_t b) {
  return uint64_t{0} - ((word >> b) & 1);
}

// One valid counted slot, the general way: u64 count + `n` bytes through the sink (large runs
// straight from `data`, which may be null when n is 0).
inline void put_counted(DigestSink& sink, uint64_t count, const uint8_t* data, uint64_t n) {
  if (n <= 256) {
    uint8_t* p = sink.reserve(8 + n);
    store_u64(p, count);
    if (n > 0) std::memcpy(p + 8, data, n);
    sink.commit(8 + n);
  } else {
    sink.put_u64(count);
    sink.put(data, n);
  }
}

// The slot writer of the fast paths. Writes a counted slot at out + at when valid (mask all
// ones): its u64 count, then kCopy bytes from src of which the first n count; a null slot
// (mask 0) writes a 0 u64 and advances by one byte (the next slot overwrites the rest).
// Returns the new end. `src` must be readable for kCopy bytes (also for a null slot) and
// out + at writable for 8 + kCopy bytes.
template <size_t kCopy>
inline size_t put_short(uint8_t* out, size_t at, const uint8_t* src, uint64_t count, uint64_t n,
                        uint64_t mask) {
  std::memcpy(out + at + 8, src, kCopy);
  store_u64(out + at, count & mask);
  return at + 1 + (mask & (7 + n));
}

// The same with an exact copy of n bytes (src may be null when n is 0).
inline size_t put_exact(uint8_t* out, size_t at, const uint8_t* src, uint64_t count, uint64_t n,
                        uint64_t mask) {
  store_u64(out + at, count & mask);
  if ((n & mask) != 0) std::memcpy(out + at + 8, src, n);
  return at + 1 + (mask & (7 + n));
}

// A run of k counted slots given by offsets o[0..k] (non-decreasing) into `data`, each slot's
// count o[j + 1] - o[j] and its bytes [o[j] << kShift, o[j + 1] << kShift) of `data`, every
// slot's byte length below kCopy. `end` is the last byte the offsets vouch for (relative to
// `data`): slots whose kCopy-byte read would pass it are copied exactly.
template <size_t kCopy, int kShift, typename Offset>
void stage_short_run(DigestSink& sink, const Offset* o, const uint8_t* data, int64_t end,
                     uint64_t valid, int64_t k) {
  const int64_t total = static_cast<int64_t>(o[k] - o[0]) << kShift;
  // Asks now for the bytes kPrefetchDistance past this run's: values are read once, from
  // memory, and the copies of a run otherwise wait on it (1-2% of the time of short strings
  // and short lists here). A prefetch past the end of the data does not fault.
  const uintptr_t next = reinterpret_cast<uintptr_t>(data) +
                         (static_cast<uintptr_t>(o[0]) << kShift) + kPrefetchDistance;
  for (uintptr_t p = next; p < next + static_cast<uintptr_t>(total); p += 64) {
    __builtin_prefetch(reinterpret_cast<const void*>(p));
  }
  uint8_t* out = sink.reserve(static_cast<size_t>(8 * k + total) + kCopy + 8);
  // Offsets never decrease, so the slots that can be copied wide are a prefix.
  int64_t wide = k;
  while (wide > 0 &&
         (static_cast<int64_t>(o[wide - 1]) << kShift) + static_cast<int64_t>(kCopy) > end) {
    --wide;
  }
  size_t at = 0;
  for (int64_t j = 0; j < wide; ++j) {
    const auto count = static_cast<uint64_t>(o[j + 1] - o[j]);
    at = put_short<kCopy>(out, at, data + (static_cast<int64_t>(o[j]) << kShift), count,
                          count << kShift, bit_mask(valid, j));
  }
  for (int64_t j = wide; j < k; ++j) {
    const auto count = static_cast<uint64_t>(o[j + 1] - o[j]);
    const uint8_t* src = count == 0 ? nullptr : data + (static_cast<int64_t>(o[j]) << kShift);
    at = put_exact(out, at, src, count, count << kShift, bit_mask(valid, j));
  }
  sink.commit(at);
}

// A run of k counted slots as above, of any lengths: short runs without a branch per slot
// (below 16, 32 or 64 bytes), others slot by slot.
template <int kShift, typename Offset>
void stage_counted_run(DigestSink& sink, const Offset* o, const uint8_t* data, int64_t end,
                       uint64_t valid, int64_t k) {
  // The OR of the counts bounds the largest one (null slots included: they have counts too,
  // usually 0). Compared before any shift, which could overflow.
  uint64_t any = 0;
  if (k == kRun) {
    // A constant trip count, which GCC vectorizes at -O2.
    for (int64_t j = 0; j < kRun; ++j) any |= static_cast<uint64_t>(o[j + 1] - o[j]);
  } else {
    for (int64_t j = 0; j < k; ++j) any |= static_cast<uint64_t>(o[j + 1] - o[j]);
  }
  if (any < (uint64_t{16} >> kShift))
    return stage_short_run<16, kShift>(sink, o, data, end, valid, k);
  if (any < (uint64_t{32} >> kShift))
    return stage_short_run<32, kShift>(sink, o, data, end, valid, k);
  if (any < (uint64_t{64} >> kShift))
    return stage_short_run<64, kShift>(sink, o, data, end, valid, k);
  for (int64_t j = 0; j < k; ++j) {
    if (((valid >> j) & 1) == 0) {
      sink.put_byte(0);
      continue;
    }
    const auto count = static_cast<uint64_t>(o[j + 1] - o[j]);
    put_counted(sink, count, count == 0 ? nullptr : data + (static_cast<int64_t>(o[j]) << kShift),
                count << kShift);
  }
}

}  // namespace odf_hash::logical::staging
