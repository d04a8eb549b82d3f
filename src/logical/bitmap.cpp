#include "bitmap.h"

#include <cstring>

namespace odf_hash::logical {

namespace {

// Bytes p[0..8) as a little-endian word, one load.
uint64_t load_le64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}

// Set bits of a word, without a call: std::popcount compiles to a libgcc call on baseline
// x86-64 (no POPCNT instruction assumed).
int popcount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

}  // namespace

uint64_t load_bits(const uint8_t* bits, int64_t pos, int64_t n) {
  const uint8_t* p = bits + (pos >> 3);
  const int shift = static_cast<int>(pos & 7);
  const int64_t nbytes = (shift + n + 7) >> 3;  // at most 9
  uint64_t lo = 0;
  if (nbytes >= 8) {
    lo = load_le64(p);
  } else {
    for (int64_t k = 0; k < nbytes; ++k) lo |= static_cast<uint64_t>(p[k]) << (8 * k);
  }
  uint64_t word = lo >> shift;
  if (nbytes > 8) word |= static_cast<uint64_t>(p[8]) << (64 - shift);
  if (n < 64) word &= (uint64_t{1} << n) - 1;
  return word;
}

int64_t count_zero_bits(const uint8_t* bits, int64_t pos, int64_t n) {
  int64_t ones = 0;
  int64_t i = 0;
  // Align to a byte boundary, then whole 64-bit words.
  while (i < n && ((pos + i) & 7) != 0) {
    ones += get_bit(bits, pos + i);
    ++i;
  }
  const uint8_t* p = bits + ((pos + i) >> 3);
  while (n - i >= 64) {
    ones += popcount64(load_le64(p));
    p += 8;
    i += 64;
  }
  while (n - i >= 8) {
    ones += popcount64(*p++);
    i += 8;
  }
  for (; i < n; ++i) ones += get_bit(bits, pos + i);
  return n - ones;
}

OwnedValidity make_owned_bitmap(int64_t n) {
  OwnedValidity o;
  o.storage.assign(static_cast<size_t>((n + 7) / 8), 0);
  return o;
}

void seal_owned_bitmap(OwnedValidity& o, int64_t n) {
  if (o.storage.empty()) o.storage.push_back(0);  // a valid pointer even for n == 0
  o.v.bits = o.storage.data();
  o.v.offset = 0;
  o.v.null_count = count_zero_bits(o.v.bits, 0, n);
}

OwnedValidity combine_validity(const Validity& inherited, const Validity& own, int64_t n) {
  const bool inherited_has_nulls = inherited.present() && inherited.null_count != 0;
  const bool own_has_nulls = own.present() && own.null_count != 0;
  if (!inherited.present()) {
    return own_has_nulls ? OwnedValidity(own) : OwnedValidity();
  }
  if (!own_has_nulls) {
    return inherited_has_nulls ? OwnedValidity(inherited) : OwnedValidity();
  }
  if (!inherited_has_nulls) return OwnedValidity();  // the reference drops both here
  OwnedValidity out = make_owned_bitmap(n);
  for (int64_t i = 0; i < n; i += 64) {
    const int64_t k = n - i < 64 ? n - i : 64;
    const uint64_t w =
        load_bits(inherited.bits, inherited.offset + i, k) | load_bits(own.bits, own.offset + i, k);
    for (int64_t b = 0; b < k; b += 8) {
      out.storage[static_cast<size_t>((i + b) >> 3)] = static_cast<uint8_t>(w >> b);
    }
  }
  seal_owned_bitmap(out, n);
  return out;
}

}  // namespace odf_hash::logical
