// 8-lane Keccak-f[1600] with AVX-512F: eight independent states, word w of the eight lanes in
// one __m512i, so the whole state of all lanes (25 registers) stays in the 32 zmm registers.
// Rotations are one vprolq each and theta's 5-way XOR and chi are vpternlogq. Compiled with
// -mavx512f -mavx512vl and called only after a run-time check of the CPU (keccak_dispatch.cpp), so
// everything here except absorb_x8_avx512 has internal linkage.
// GCC 12 reports the deliberately undefined source register inside its own AVX-512 intrinsics
// (_mm512_undefined_epi32 in avx512fintrin.h) as "may be used uninitialized".
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <cstring>

#include "keccak.h"

namespace odf_hash::keccak {
namespace {

using V = __m512i;

// vpternlogq truth tables: a ^ b ^ c, and a ^ (~b & c).
constexpr int kXor3 = 0x96;
constexpr int kChi = 0xd2;

inline V xor3(V a, V b, V c) {
  return _mm512_ternarylogic_epi64(a, b, c, kXor3);
}

template <int N>
inline V rol(V v) {
  if constexpr (N == 0) {
    return v;
  } else {
    return _mm512_rol_epi64(v, N);
  }
}

// rol(a ^ d, N): theta's effect on one word, then rho.
template <int N>
inline V td(V a, V d) {
  return rol<N>(_mm512_xor_si512(a, d));
}

// One round from the 25 words `a` into the 25 words `e` (named variables, not arrays, so that
// the compiler keeps both states in registers). Output word (x, y) is
// rol(a[x' + 5y'] ^ d[x'], rho) with (x, y) = (y', 2x' + 3y') (theta, rho and pi), then chi
// (e[x] = b[x] ^ (~b[x+1] & b[x+2]), one vpternlogq), then iota on word 0.
#define ODF_HASH_X8_ROUND(a, e, rc)                                                               \
  do {                                                                                            \
    const V c0 = xor3(xor3(a##0, a##5, a##10), a##15, a##20);                                     \
    const V c1 = xor3(xor3(a##1, a##6, a##11), a##16, a##21);                                     \
    const V c2 = xor3(xor3(a##2, a##7, a##12), a##17, a##22);                                     \
    const V c3 = xor3(xor3(a##3, a##8, a##13), a##18, a##23);                                     \
    const V c4 = xor3(xor3(a##4, a##9, a##14), a##19, a##24);                                     \
    const V d0 = _mm512_xor_si512(c4, rol<1>(c1));                                                \
    const V d1 = _mm512_xor_si512(c0, rol<1>(c2));                                                \
    const V d2 = _mm512_xor_si512(c1, rol<1>(c3));                                                \
    const V d3 = _mm512_xor_si512(c2, rol<1>(c4));                                                \
    const V d4 = _mm512_xor_si512(c3, rol<1>(c0));                                                \
    ODF_HASH_X8_PLANE(e, 0, 1, 2, 3, 4, _mm512_xor_si512(a##0, d0), td<44>(a##6, d1),             \
                      td<43>(a##12, d2), td<21>(a##18, d3), td<14>(a##24, d4));                   \
    e##0 = _mm512_xor_si512(e##0, _mm512_set1_epi64(static_cast<long long>(rc)));                 \
    ODF_HASH_X8_PLANE(e, 5, 6, 7, 8, 9, td<28>(a##3, d3), td<20>(a##9, d4), td<3>(a##10, d0),     \
                      td<45>(a##16, d1), td<61>(a##22, d2));                                      \
    ODF_HASH_X8_PLANE(e, 10, 11, 12, 13, 14, td<1>(a##1, d1), td<6>(a##7, d2), td<25>(a##13, d3), \
                      td<8>(a##19, d4), td<18>(a##20, d0));                                       \
    ODF_HASH_X8_PLANE(e, 15, 16, 17, 18, 19, td<27>(a##4, d4), td<36>(a##5, d0),                  \
                      td<10>(a##11, d1), td<15>(a##17, d2), td<56>(a##23, d3));                   \
    ODF_HASH_X8_PLANE(e, 20, 21, 22, 23, 24, td<62>(a##2, d2), td<55>(a##8, d3),                  \
                      td<39>(a##14, d4), td<41>(a##15, d0), td<2>(a##21, d1));                    \
  } while (0)

#define ODF_HASH_X8_PLANE(e, i0, i1, i2, i3, i4, b0_, b1_, b2_, b3_, b4_) \
  do {                                                                    \
    const V b0 = b0_, b1 = b1_, b2 = b2_, b3 = b3_, b4 = b4_;             \
    e##i0 = _mm512_ternarylogic_epi64(b0, b1, b2, kChi);                  \
    e##i1 = _mm512_ternarylogic_epi64(b1, b2, b3, kChi);                  \
    e##i2 = _mm512_ternarylogic_epi64(b2, b3, b4, kChi);                  \
    e##i3 = _mm512_ternarylogic_epi64(b3, b4, b0, kChi);                  \
    e##i4 = _mm512_ternarylogic_epi64(b4, b0, b1, kChi);                  \
  } while (0)

inline V load(const uint8_t* p) {
  return _mm512_loadu_si512(p);
}

// Words w..w+7 of the eight lanes' blocks, transposed: out[k] holds word w + k of lanes 0..7.
inline void transpose_words(const uint8_t* const p[8], size_t w, V out[8]) {
  const V r0 = load(p[0] + 8 * w), r1 = load(p[1] + 8 * w), r2 = load(p[2] + 8 * w);
  const V r3 = load(p[3] + 8 * w), r4 = load(p[4] + 8 * w), r5 = load(p[5] + 8 * w);
  const V r6 = load(p[6] + 8 * w), r7 = load(p[7] + 8 * w);
  // Pairs of lanes: even words (0 2 4 6) and odd words (1 3 5 7) of lanes 2i, 2i+1.
  const V e01 = _mm512_unpacklo_epi64(r0, r1), o01 = _mm512_unpackhi_epi64(r0, r1);
  const V e23 = _mm512_unpacklo_epi64(r2, r3), o23 = _mm512_unpackhi_epi64(r2, r3);
  const V e45 = _mm512_unpacklo_epi64(r4, r5), o45 = _mm512_unpackhi_epi64(r4, r5);
  const V e67 = _mm512_unpacklo_epi64(r6, r7), o67 = _mm512_unpackhi_epi64(r6, r7);
  // Quads of lanes: words {0, 4}, {2, 6}, {1, 5}, {3, 7} of lanes 0..3 (then 4..7). Index
  // i < 8 picks element i of the first source, 8 + i element i of the second.
  const V lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
  const V hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
  const V w04a = _mm512_permutex2var_epi64(e01, lo, e23),
          w26a = _mm512_permutex2var_epi64(e01, hi, e23);
  const V w15a = _mm512_permutex2var_epi64(o01, lo, o23),
          w37a = _mm512_permutex2var_epi64(o01, hi, o23);
  const V w04b = _mm512_permutex2var_epi64(e45, lo, e67),
          w26b = _mm512_permutex2var_epi64(e45, hi, e67);
  const V w15b = _mm512_permutex2var_epi64(o45, lo, o67),
          w37b = _mm512_permutex2var_epi64(o45, hi, o67);
  // 128-bit halves of lanes 0..3 then 4..7: 0x44 takes halves 0, 1 of each, 0xee halves 2, 3.
  out[0] = _mm512_shuffle_i64x2(w04a, w04b, 0x44);
  out[4] = _mm512_shuffle_i64x2(w04a, w04b, 0xee);
  out[2] = _mm512_shuffle_i64x2(w26a, w26b, 0x44);
  out[6] = _mm512_shuffle_i64x2(w26a, w26b, 0xee);
  out[1] = _mm512_shuffle_i64x2(w15a, w15b, 0x44);
  out[5] = _mm512_shuffle_i64x2(w15a, w15b, 0xee);
  out[3] = _mm512_shuffle_i64x2(w37a, w37b, 0x44);
  out[7] = _mm512_shuffle_i64x2(w37a, w37b, 0xee);
}

inline long long word_at(const uint8_t* p) {
  long long v;
  std::memcpy(&v, p, 8);
  return v;
}

// One 136-byte block of each lane, transposed: x[w] holds word w of lanes 0..7.
inline void load_block(const uint8_t* const p[8], V x[17]) {
  transpose_words(p, 0, x);
  transpose_words(p, 8, x + 8);
  x[16] = _mm512_setr_epi64(word_at(p[0] + 128), word_at(p[1] + 128), word_at(p[2] + 128),
                            word_at(p[3] + 128), word_at(p[4] + 128), word_at(p[5] + 128),
                            word_at(p[6] + 128), word_at(p[7] + 128));
}

}  // namespace

void absorb_x8_avx512(uint64_t* state, const uint8_t* const in[8], size_t blocks) noexcept {
  if (blocks == 0) return;
  V w[25];
  for (int i = 0; i < 25; ++i) w[i] = _mm512_loadu_si512(state + 8 * i);
  V a0 = w[0], a1 = w[1], a2 = w[2], a3 = w[3], a4 = w[4], a5 = w[5], a6 = w[6], a7 = w[7],
    a8 = w[8], a9 = w[9], a10 = w[10], a11 = w[11], a12 = w[12], a13 = w[13], a14 = w[14],
    a15 = w[15], a16 = w[16], a17 = w[17], a18 = w[18], a19 = w[19], a20 = w[20], a21 = w[21],
    a22 = w[22], a23 = w[23], a24 = w[24];
  V e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15, e16, e17, e18, e19, e20,
      e21, e22, e23, e24;
  const uint8_t* p[8];
  for (int l = 0; l < 8; ++l) p[l] = in[l];
  for (size_t k = 0; k < blocks; ++k) {
    V x[17];
    load_block(p, x);
    a0 = _mm512_xor_si512(a0, x[0]);
    a1 = _mm512_xor_si512(a1, x[1]);
    a2 = _mm512_xor_si512(a2, x[2]);
    a3 = _mm512_xor_si512(a3, x[3]);
    a4 = _mm512_xor_si512(a4, x[4]);
    a5 = _mm512_xor_si512(a5, x[5]);
    a6 = _mm512_xor_si512(a6, x[6]);
    a7 = _mm512_xor_si512(a7, x[7]);
    a8 = _mm512_xor_si512(a8, x[8]);
    a9 = _mm512_xor_si512(a9, x[9]);
    a10 = _mm512_xor_si512(a10, x[10]);
    a11 = _mm512_xor_si512(a11, x[11]);
    a12 = _mm512_xor_si512(a12, x[12]);
    a13 = _mm512_xor_si512(a13, x[13]);
    a14 = _mm512_xor_si512(a14, x[14]);
    a15 = _mm512_xor_si512(a15, x[15]);
    a16 = _mm512_xor_si512(a16, x[16]);
    for (int r = 0; r < 24; r += 2) {
      ODF_HASH_X8_ROUND(a, e, kRoundConstants[r]);
      ODF_HASH_X8_ROUND(e, a, kRoundConstants[r + 1]);
    }
    for (int l = 0; l < 8; ++l) p[l] += kRate;
  }
  w[0] = a0, w[1] = a1, w[2] = a2, w[3] = a3, w[4] = a4, w[5] = a5, w[6] = a6, w[7] = a7;
  w[8] = a8, w[9] = a9, w[10] = a10, w[11] = a11, w[12] = a12, w[13] = a13, w[14] = a14;
  w[15] = a15, w[16] = a16, w[17] = a17, w[18] = a18, w[19] = a19, w[20] = a20, w[21] = a21;
  w[22] = a22, w[23] = a23, w[24] = a24;
  for (int i = 0; i < 25; ++i) _mm512_storeu_si512(state + 8 * i, w[i]);
}

}  // namespace odf_hash::keccak
