// Internal to odf_hash_core: the scalar Keccak-f[1600] rounds, compiled twice (portable, and
// with BMI1+BMI2 in keccak_scalar_bmi2.cpp). Everything here has internal linkage, so each
// including file gets its own copy compiled with its own flags; no std:: templates are used,
// since an out-of-line instance built with BMI2 could be picked by the linker for everyone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "keccak.h"

namespace odf_hash::keccak {
namespace {

inline uint64_t load_le64(const uint8_t* p) noexcept {
  uint64_t v;
  std::memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}

// n in 1..63.
inline uint64_t rol(uint64_t v, int n) noexcept {
  return (v << n) | (v >> (64 - n));
}

// chi on one plane: e[x] = b[x] ^ (~b[x+1] & b[x+2]).
inline void chi(uint64_t* e, uint64_t b0, uint64_t b1, uint64_t b2, uint64_t b3,
                uint64_t b4) noexcept {
  e[0] = b0 ^ (~b1 & b2);
  e[1] = b1 ^ (~b2 & b3);
  e[2] = b2 ^ (~b3 & b4);
  e[3] = b3 ^ (~b4 & b0);
  e[4] = b4 ^ (~b0 & b1);
}

// One round from state `a` into state `e`, a plane of the output at a time: output word
// (x, y) is rol(a[x' + 5y'] ^ d[x'], rho[x'][y']) with (x, y) = (y', 2x' + 3y' mod 5)
// (theta, rho and pi together), then chi, then iota on word 0.
// `a` and `e` never overlap; saying so (__restrict) lets the compiler keep the state in
// registers instead of reloading it after every store (3x faster at -O2).
__attribute__((always_inline)) inline void round(const uint64_t* __restrict a,
                                                 uint64_t* __restrict e, uint64_t rc) noexcept {
  // theta, written out (locals, not arrays, so they stay in registers).
  const uint64_t c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
  const uint64_t c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
  const uint64_t c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
  const uint64_t c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
  const uint64_t c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
  const uint64_t d[5] = {c4 ^ rol(c1, 1), c0 ^ rol(c2, 1), c1 ^ rol(c3, 1), c2 ^ rol(c4, 1),
                         c3 ^ rol(c0, 1)};
  chi(e + 0, a[0] ^ d[0], rol(a[6] ^ d[1], 44), rol(a[12] ^ d[2], 43), rol(a[18] ^ d[3], 21),
      rol(a[24] ^ d[4], 14));
  e[0] ^= rc;
  chi(e + 5, rol(a[3] ^ d[3], 28), rol(a[9] ^ d[4], 20), rol(a[10] ^ d[0], 3),
      rol(a[16] ^ d[1], 45), rol(a[22] ^ d[2], 61));
  chi(e + 10, rol(a[1] ^ d[1], 1), rol(a[7] ^ d[2], 6), rol(a[13] ^ d[3], 25), rol(a[19] ^ d[4], 8),
      rol(a[20] ^ d[0], 18));
  chi(e + 15, rol(a[4] ^ d[4], 27), rol(a[5] ^ d[0], 36), rol(a[11] ^ d[1], 10),
      rol(a[17] ^ d[2], 15), rol(a[23] ^ d[3], 56));
  chi(e + 20, rol(a[2] ^ d[2], 62), rol(a[8] ^ d[3], 55), rol(a[14] ^ d[4], 39),
      rol(a[15] ^ d[0], 41), rol(a[21] ^ d[1], 2));
}

// 24 rounds, two per iteration so that the state ping-pongs between `state` and `tmp`.
inline void permute_scalar(uint64_t state[kStateWords]) noexcept {
  uint64_t tmp[kStateWords];
  for (int r = 0; r < 24; r += 2) {
    round(state, tmp, kRoundConstants[r]);
    round(tmp, state, kRoundConstants[r + 1]);
  }
}

inline void absorb_scalar(uint64_t state[kStateWords], const uint8_t* in, size_t blocks) noexcept {
  for (size_t k = 0; k < blocks; ++k, in += kRate) {
    for (size_t i = 0; i < kRateWords; ++i) state[i] ^= load_le64(in + 8 * i);
    permute_scalar(state);
  }
}

}  // namespace
}  // namespace odf_hash::keccak
