// Single-state Keccak-f[1600] with AVX-512 (F + VL): one plane of the state per 512-bit
// register, lanes x = 0..4 in its 64-bit elements 0..4 (elements 5..7 carry don't-care
// values that never reach elements 0..4). Compiled with -mavx512f -mavx512vl and called only
// after a run-time check of the CPU (keccak_dispatch.cpp), so everything here except absorb_avx512
// has internal linkage.
//
// A round, with R[y] the register of plane y:
//   theta  C = R[0]^...^R[4] (two 3-input XORs, vpternlogq); every plane is XORed with
//          C rotated one element down and C rotated one element up and by one bit (vprolq),
//          one vpternlogq per plane;
//   rho    every plane rotated by its own five amounts (vprolvq);
//   pi     lane (x, y) moves to (y, 2x + 3y): plane y becomes column y. A permutation inside
//          each register (vpermq) puts the lanes of plane X in the order of the rows they go
//          to, so that register X now holds column X of the output: P[X][Y] = B(X, Y);
//   chi    works along rows, which in this column form is element-wise across registers:
//          column X = P[X] ^ (~P[X+1] & P[X+2]), one vpternlogq per column;
//   iota   on element 0 of column 0;
//   then a 5x5 transpose (unpack + two-source permutes) brings the columns back to planes.
// A round is a chain of four cross-lane permutes (theta, pi, two in the transpose). Where
// those are fast this beats a scalar Keccak; on AMD Zen 4, which runs 512-bit permutes in two
// passes (5-6 cycles each), it does not (about 6.5 cycles per byte against 5.1 for OpenSSL's
// scalar code on an idle core), so Sha3_256 measures before using it (sha3.cpp).
// GCC 12 reports the deliberately undefined source register inside its own AVX-512 intrinsics
// (_mm512_undefined_epi32 in avx512fintrin.h) as "may be used uninitialized".
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include "keccak.h"

namespace odf_hash::keccak {
namespace {

using V = __m512i;

// vpternlogq truth tables: a ^ b ^ c, and a ^ (~b & c).
constexpr int kXor3 = 0x96;
constexpr int kChi = 0xd2;

// Element e of the result takes element idx[e] of v (elements 5..7 are don't-care).
inline V permute(V v, long long i0, long long i1, long long i2, long long i3, long long i4) {
  return _mm512_permutexvar_epi64(_mm512_setr_epi64(i0, i1, i2, i3, i4, 5, 6, 7), v);
}

// Rotation amounts of rho, plane y, lane x (FIPS 202 table 2).
constexpr long long kRho[5][5] = {
    {0, 1, 62, 28, 27},  {36, 44, 6, 55, 20}, {3, 10, 43, 25, 39},
    {41, 45, 15, 21, 8}, {18, 2, 61, 56, 14},
};

inline V rho(V v, int y) {
  return _mm512_rolv_epi64(
      v, _mm512_setr_epi64(kRho[y][0], kRho[y][1], kRho[y][2], kRho[y][3], kRho[y][4], 0, 0, 0));
}

// pi as a permutation inside plane X: element Y of the result is lane (X + 3Y) mod 5,
// which pi sends to (X, Y).
inline V to_column(V v, long long x) {
  return permute(v, x % 5, (x + 3) % 5, (x + 6) % 5, (x + 9) % 5, (x + 12) % 5);
}

inline void permute_avx512(V& r0, V& r1, V& r2, V& r3, V& r4) {
  for (int round = 0; round < 24; ++round) {
    // theta
    const V c =
        _mm512_ternarylogic_epi64(_mm512_ternarylogic_epi64(r0, r1, r2, kXor3), r3, r4, kXor3);
    const V c_prev = permute(c, 4, 0, 1, 2, 3);                       // C[x - 1]
    const V c_next = _mm512_rol_epi64(permute(c, 1, 2, 3, 4, 0), 1);  // rol(C[x + 1], 1)
    // rho and pi
    const V p0 = to_column(rho(_mm512_ternarylogic_epi64(r0, c_prev, c_next, kXor3), 0), 0);
    const V p1 = to_column(rho(_mm512_ternarylogic_epi64(r1, c_prev, c_next, kXor3), 1), 1);
    const V p2 = to_column(rho(_mm512_ternarylogic_epi64(r2, c_prev, c_next, kXor3), 2), 2);
    const V p3 = to_column(rho(_mm512_ternarylogic_epi64(r3, c_prev, c_next, kXor3), 3), 3);
    const V p4 = to_column(rho(_mm512_ternarylogic_epi64(r4, c_prev, c_next, kXor3), 4), 4);
    // chi (columns) and iota
    const V e0 = _mm512_xor_si512(
        _mm512_ternarylogic_epi64(p0, p1, p2, kChi),
        _mm512_maskz_set1_epi64(1, static_cast<long long>(kRoundConstants[round])));
    const V e1 = _mm512_ternarylogic_epi64(p1, p2, p3, kChi);
    const V e2 = _mm512_ternarylogic_epi64(p2, p3, p4, kChi);
    const V e3 = _mm512_ternarylogic_epi64(p3, p4, p0, kChi);
    const V e4 = _mm512_ternarylogic_epi64(p4, p0, p1, kChi);
    // Transpose: plane Y = (e0[Y], e1[Y], e2[Y], e3[Y], e4[Y]). Columns interleaved in
    // pairs: lo01 = e0[0] e1[0] e0[2] e1[2] e0[4] e1[4] . ., hi01 = e0[1] e1[1] e0[3] e1[3]
    // . . . . (likewise lo23, hi23), with the elements of e4 that planes 0..3 need put in
    // the free slots 6 and 7 of lo23 / hi23. In a two-source permute, index i < 8 picks
    // element i of the first source and 8 + i element i of the second.
    const V lo01 = _mm512_unpacklo_epi64(e0, e1), hi01 = _mm512_unpackhi_epi64(e0, e1);
    const V lo23 = _mm512_unpacklo_epi64(e2, e3), hi23 = _mm512_unpackhi_epi64(e2, e3);
    const V lo23e = _mm512_permutex2var_epi64(lo23, _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 8, 10), e4);
    const V hi23e = _mm512_permutex2var_epi64(hi23, _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 9, 11), e4);
    const V even0 = _mm512_setr_epi64(0, 1, 8, 9, 14, 5, 6, 7);
    const V even2 = _mm512_setr_epi64(2, 3, 10, 11, 15, 5, 6, 7);
    r0 = _mm512_permutex2var_epi64(lo01, even0, lo23e);
    r1 = _mm512_permutex2var_epi64(hi01, even0, hi23e);
    r2 = _mm512_permutex2var_epi64(lo01, even2, lo23e);
    r3 = _mm512_permutex2var_epi64(hi01, even2, hi23e);
    // Plane 4: e4[4] is already in element 4.
    r4 = _mm512_mask_blend_epi64(
        0x10, _mm512_permutex2var_epi64(lo01, _mm512_setr_epi64(4, 5, 12, 13, 4, 5, 6, 7), lo23),
        e4);
  }
}

}  // namespace

void absorb_avx512(uint64_t state[kStateWords], const uint8_t* in, size_t blocks) noexcept {
  if (blocks == 0) return;
  V r0 = _mm512_maskz_loadu_epi64(0x1f, state);
  V r1 = _mm512_maskz_loadu_epi64(0x1f, state + 5);
  V r2 = _mm512_maskz_loadu_epi64(0x1f, state + 10);
  V r3 = _mm512_maskz_loadu_epi64(0x1f, state + 15);
  V r4 = _mm512_maskz_loadu_epi64(0x1f, state + 20);
  for (size_t k = 0; k < blocks; ++k, in += kRate) {
    // The 17 rate words: planes 0..2 whole, plane 3 lanes 0 and 1. Masked loads never touch
    // the bytes of masked-off elements, so nothing past the block is read.
    r0 = _mm512_xor_si512(r0, _mm512_maskz_loadu_epi64(0x1f, in));
    r1 = _mm512_xor_si512(r1, _mm512_maskz_loadu_epi64(0x1f, in + 40));
    r2 = _mm512_xor_si512(r2, _mm512_maskz_loadu_epi64(0x1f, in + 80));
    r3 = _mm512_xor_si512(r3, _mm512_maskz_loadu_epi64(0x03, in + 120));
    permute_avx512(r0, r1, r2, r3, r4);
  }
  _mm512_mask_storeu_epi64(state, 0x1f, r0);
  _mm512_mask_storeu_epi64(state + 5, 0x1f, r1);
  _mm512_mask_storeu_epi64(state + 10, 0x1f, r2);
  _mm512_mask_storeu_epi64(state + 15, 0x1f, r3);
  _mm512_mask_storeu_epi64(state + 20, 0x1f, r4);
}

}  // namespace odf_hash::keccak
