// Single-state Keccak-f[1600] with AVX-512 (F + VL): the 25 lanes in five 512-bit registers,
// five lanes each in elements 0..4 (elements 5..7 carry don't-care values that never reach
// elements 0..4). Compiled with -mavx512f -mavx512vl and called only after a run-time check of
// the CPU (keccak_dispatch.cpp), so everything here except absorb_avx512 has internal linkage.
//
// What bounds a round is port 5: every cross-lane permute runs there, one per cycle, and a
// round is one dependency chain, so the permutes of a round queue up behind each other. The
// rounds therefore alternate between two layouts chosen so that no round needs a transpose:
//
//   plane layout (even rounds in, odd rounds out): register y holds lane (x, y) in element x;
//   diagonal layout (odd rounds in): register k holds lane (x, x - k mod 5) in element x.
//
// In both, element x of every register holds a lane of column x, so theta is the same
// element-wise code (C = XOR of the registers; C[x - 1] and rol(C[x + 1]) are two permutes).
// pi sends lane (x, y) to (y, 2x + 3y):
//   even round: plane y becomes column y. One permute inside each register makes register X
//     column X with lane (X, Y) in element Y; chi, which works along rows, is then element-wise
//     across registers X, X+1, X+2. Register X of the result holds lane (X, Y) in element Y;
//     the diagonal layout wants lane (x, x - k) in element x of register k, so register k is
//     put together by masked blends (element j from register j + k, lane (j + k, j)) and
//     rotated by k elements (one permute; none for k = 0);
//   odd round: diagonal k goes whole to plane 2k, lane (x, x - k) to (x - k, 2k): register k is
//     plane 2k rotated by k elements. chi wants lanes x', x'+1, x'+2 of the row side by side:
//     three permutes of the register (rotations by k, k+1, k+2; the first is none for k = 0),
//     and the result is plane 2k in the plane layout.
// That is 11 permutes in an even round and 16 in an odd one, against 18 for one layout
// transposed back every round, and the blends run on port 0 as well. Where 512-bit permutes
// are slow this still loses to a scalar Keccak (AMD Zen 4 runs them in two passes), so
// Sha3_256 measures before using it (sha3.cpp).
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

// Element e of the result takes element (e + r) mod 5 of v.
inline V rotate_down(V v, int r) {
  return permute(v, r % 5, (r + 1) % 5, (r + 2) % 5, (r + 3) % 5, (r + 4) % 5);
}

// Rotation amounts of rho for lane (x, y) (FIPS 202 table 2), indexed [y][x].
constexpr long long kRho[5][5] = {
    {0, 1, 62, 28, 27},  {36, 44, 6, 55, 20}, {3, 10, 43, 25, 39},
    {41, 45, 15, 21, 8}, {18, 2, 61, 56, 14},
};

// rho of plane y (plane layout).
inline V rho_plane(V v, int y) {
  return _mm512_rolv_epi64(
      v, _mm512_setr_epi64(kRho[y][0], kRho[y][1], kRho[y][2], kRho[y][3], kRho[y][4], 0, 0, 0));
}

// rho of diagonal k (diagonal layout): element x holds lane (x, x - k).
inline V rho_diagonal(V v, int k) {
  return _mm512_rolv_epi64(
      v, _mm512_setr_epi64(kRho[(5 - k) % 5][0], kRho[(6 - k) % 5][1], kRho[(7 - k) % 5][2],
                           kRho[(8 - k) % 5][3], kRho[(9 - k) % 5][4], 0, 0, 0));
}

// theta on five registers of either layout (element x of each holds a lane of column x).
inline void theta(V& r0, V& r1, V& r2, V& r3, V& r4) {
  const V c =
      _mm512_ternarylogic_epi64(_mm512_ternarylogic_epi64(r0, r1, r2, kXor3), r3, r4, kXor3);
  const V c_prev = permute(c, 4, 0, 1, 2, 3);                       // C[x - 1]
  const V c_next = _mm512_rol_epi64(permute(c, 1, 2, 3, 4, 0), 1);  // rol(C[x + 1], 1)
  r0 = _mm512_ternarylogic_epi64(r0, c_prev, c_next, kXor3);
  r1 = _mm512_ternarylogic_epi64(r1, c_prev, c_next, kXor3);
  r2 = _mm512_ternarylogic_epi64(r2, c_prev, c_next, kXor3);
  r3 = _mm512_ternarylogic_epi64(r3, c_prev, c_next, kXor3);
  r4 = _mm512_ternarylogic_epi64(r4, c_prev, c_next, kXor3);
}

// pi inside plane X: element Y of the result is lane (X + 3Y) mod 5 of the plane, which pi
// sends to (X, Y).
inline V to_column(V v, long long x) {
  return permute(v, x % 5, (x + 3) % 5, (x + 6) % 5, (x + 9) % 5, (x + 12) % 5);
}

// Element j of the result is element j of e[(j + k) mod 5] (masked blends, bit j = element j).
inline V diagonal(const V e[5], int k) {
  const V lo = _mm512_mask_blend_epi64(0x02, e[k % 5], e[(k + 1) % 5]);         // elements 0, 1
  const V mid = _mm512_mask_blend_epi64(0x08, e[(k + 2) % 5], e[(k + 3) % 5]);  // 2, 3
  return _mm512_mask_blend_epi64(0x10, _mm512_mask_blend_epi64(0x0c, lo, mid), e[(k + 4) % 5]);
}

// A round from the plane layout to the diagonal layout.
inline void even_round(V& r0, V& r1, V& r2, V& r3, V& r4, uint64_t round_constant) {
  theta(r0, r1, r2, r3, r4);
  const V p0 = to_column(rho_plane(r0, 0), 0);
  const V p1 = to_column(rho_plane(r1, 1), 1);
  const V p2 = to_column(rho_plane(r2, 2), 2);
  const V p3 = to_column(rho_plane(r3, 3), 3);
  const V p4 = to_column(rho_plane(r4, 4), 4);
  // chi (register X: lane (X, Y) in element Y) and iota on lane (0, 0).
  V e[5];
  e[0] = _mm512_xor_si512(_mm512_ternarylogic_epi64(p0, p1, p2, kChi),
                          _mm512_maskz_set1_epi64(1, static_cast<long long>(round_constant)));
  e[1] = _mm512_ternarylogic_epi64(p1, p2, p3, kChi);
  e[2] = _mm512_ternarylogic_epi64(p2, p3, p4, kChi);
  e[3] = _mm512_ternarylogic_epi64(p3, p4, p0, kChi);
  e[4] = _mm512_ternarylogic_epi64(p4, p0, p1, kChi);
  // Diagonal k: element j of diagonal(e, k) is lane (j + k, j), which belongs in element
  // j + k: rotate up by k, i.e. element x takes element x - k.
  r0 = diagonal(e, 0);
  r1 = rotate_down(diagonal(e, 1), 4);
  r2 = rotate_down(diagonal(e, 2), 3);
  r3 = rotate_down(diagonal(e, 3), 2);
  r4 = rotate_down(diagonal(e, 4), 1);
}

// chi along plane 2k from diagonal k after rho: element x of b holds lane (x - k, 2k) of the
// plane after pi, so lanes x', x'+1 and x'+2 sit in elements x' + k, x' + k + 1, x' + k + 2.
inline V chi_from_diagonal(V b, int k) {
  const V here = k == 0 ? b : rotate_down(b, k);
  return _mm512_ternarylogic_epi64(here, rotate_down(b, k + 1), rotate_down(b, k + 2), kChi);
}

// A round from the diagonal layout to the plane layout.
inline void odd_round(V& r0, V& r1, V& r2, V& r3, V& r4, uint64_t round_constant) {
  theta(r0, r1, r2, r3, r4);
  const V b0 = rho_diagonal(r0, 0), b1 = rho_diagonal(r1, 1), b2 = rho_diagonal(r2, 2),
          b3 = rho_diagonal(r3, 3), b4 = rho_diagonal(r4, 4);
  // Diagonal k becomes plane 2k mod 5; iota on lane (0, 0), element 0 of plane 0.
  r0 = _mm512_xor_si512(chi_from_diagonal(b0, 0),
                        _mm512_maskz_set1_epi64(1, static_cast<long long>(round_constant)));
  r2 = chi_from_diagonal(b1, 1);
  r4 = chi_from_diagonal(b2, 2);
  r1 = chi_from_diagonal(b3, 3);
  r3 = chi_from_diagonal(b4, 4);
}

inline void permute_avx512(V& r0, V& r1, V& r2, V& r3, V& r4) {
  for (int round = 0; round < 24; round += 2) {
    even_round(r0, r1, r2, r3, r4, kRoundConstants[round]);
    odd_round(r0, r1, r2, r3, r4, kRoundConstants[round + 1]);
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
