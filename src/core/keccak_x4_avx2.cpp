// 4-lane Keccak-f[1600] with AVX2: four independent states, word w of the four lanes in one
// __m256i. Compiled with -mavx2 and called only after a run-time check of the CPU
// (keccak_dispatch.cpp), so nothing in this file may be reachable from elsewhere except through
// absorb_x4_avx2: everything else has internal linkage.
#include <immintrin.h>

#include "keccak.h"

namespace odf_hash::keccak {
namespace {

using V = __m256i;

inline V XOR(V a, V b) {
  return _mm256_xor_si256(a, b);
}

// Rotations by 8 and 56 are byte shuffles (one instruction instead of three).
template <int N>
inline V rol(V v) {
  if constexpr (N == 0) {
    return v;
  } else if constexpr (N == 1) {
    return _mm256_or_si256(_mm256_add_epi64(v, v), _mm256_srli_epi64(v, 63));  // add: any ALU
  } else if constexpr (N == 8) {
    const V k = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2,
                                 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14);
    return _mm256_shuffle_epi8(v, k);
  } else if constexpr (N == 56) {
    const V k = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4,
                                 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8);
    return _mm256_shuffle_epi8(v, k);
  } else {
    return _mm256_or_si256(_mm256_slli_epi64(v, N), _mm256_srli_epi64(v, 64 - N));
  }
}

// chi on one plane: e[x] = b[x] ^ (~b[x+1] & b[x+2]).
inline void chi(V* e, V b0, V b1, V b2, V b3, V b4) {
  e[0] = XOR(b0, _mm256_andnot_si256(b1, b2));
  e[1] = XOR(b1, _mm256_andnot_si256(b2, b3));
  e[2] = XOR(b2, _mm256_andnot_si256(b3, b4));
  e[3] = XOR(b3, _mm256_andnot_si256(b4, b0));
  e[4] = XOR(b4, _mm256_andnot_si256(b0, b1));
}

// One round from state `a` into state `e`. Output plane y takes, for x = 0..4, word
// b[x] = rol(a[x'+5y'] ^ d[x'], rho) with (x, y) = (y', 2x'+3y' mod 5) (theta, rho, pi), then
// chi; computing a plane at a time keeps five values live instead of twenty-five.
inline void round(const V* a, V* e, uint64_t rc) {
  V c[5], d[5];
  for (int x = 0; x < 5; ++x) {
    c[x] = XOR(XOR(XOR(a[x], a[x + 5]), XOR(a[x + 10], a[x + 15])), a[x + 20]);
  }
  d[0] = XOR(c[4], rol<1>(c[1]));
  d[1] = XOR(c[0], rol<1>(c[2]));
  d[2] = XOR(c[1], rol<1>(c[3]));
  d[3] = XOR(c[2], rol<1>(c[4]));
  d[4] = XOR(c[3], rol<1>(c[0]));
  chi(e + 0, XOR(a[0], d[0]), rol<44>(XOR(a[6], d[1])), rol<43>(XOR(a[12], d[2])),
      rol<21>(XOR(a[18], d[3])), rol<14>(XOR(a[24], d[4])));
  e[0] = XOR(e[0], _mm256_set1_epi64x(static_cast<long long>(rc)));
  chi(e + 5, rol<28>(XOR(a[3], d[3])), rol<20>(XOR(a[9], d[4])), rol<3>(XOR(a[10], d[0])),
      rol<45>(XOR(a[16], d[1])), rol<61>(XOR(a[22], d[2])));
  chi(e + 10, rol<1>(XOR(a[1], d[1])), rol<6>(XOR(a[7], d[2])), rol<25>(XOR(a[13], d[3])),
      rol<8>(XOR(a[19], d[4])), rol<18>(XOR(a[20], d[0])));
  chi(e + 15, rol<27>(XOR(a[4], d[4])), rol<36>(XOR(a[5], d[0])), rol<10>(XOR(a[11], d[1])),
      rol<15>(XOR(a[17], d[2])), rol<56>(XOR(a[23], d[3])));
  chi(e + 20, rol<62>(XOR(a[2], d[2])), rol<55>(XOR(a[8], d[3])), rol<39>(XOR(a[14], d[4])),
      rol<41>(XOR(a[15], d[0])), rol<2>(XOR(a[21], d[1])));
}

// 24 rounds, two per iteration so that the state ping-pongs between `a` and `tmp`.
inline void permute_x4(V a[25]) {
  V tmp[25];
  for (int r = 0; r < 24; r += 2) {
    round(a, tmp, kRoundConstants[r]);
    round(tmp, a, kRoundConstants[r + 1]);
  }
}

inline V load(const uint8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const V*>(p));
}

// XORs one 136-byte block of each lane into the interleaved state: words 0..15 by 4x4
// transposes of 64-bit words, word 16 assembled from four 64-bit loads.
inline void xor_blocks(V a[25], const uint8_t* p0, const uint8_t* p1, const uint8_t* p2,
                       const uint8_t* p3) {
  for (int w = 0; w < 16; w += 4) {
    const V r0 = load(p0 + 8 * w), r1 = load(p1 + 8 * w);
    const V r2 = load(p2 + 8 * w), r3 = load(p3 + 8 * w);
    const V t0 = _mm256_unpacklo_epi64(r0, r1), t1 = _mm256_unpackhi_epi64(r0, r1);
    const V t2 = _mm256_unpacklo_epi64(r2, r3), t3 = _mm256_unpackhi_epi64(r2, r3);
    a[w + 0] = XOR(a[w + 0], _mm256_permute2x128_si256(t0, t2, 0x20));
    a[w + 1] = XOR(a[w + 1], _mm256_permute2x128_si256(t1, t3, 0x20));
    a[w + 2] = XOR(a[w + 2], _mm256_permute2x128_si256(t0, t2, 0x31));
    a[w + 3] = XOR(a[w + 3], _mm256_permute2x128_si256(t1, t3, 0x31));
  }
  const __m128i q0 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p0 + 128));
  const __m128i q1 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p1 + 128));
  const __m128i q2 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p2 + 128));
  const __m128i q3 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p3 + 128));
  a[16] = XOR(a[16], _mm256_set_m128i(_mm_unpacklo_epi64(q2, q3), _mm_unpacklo_epi64(q0, q1)));
}

}  // namespace

void absorb_x4_avx2(uint64_t* state, size_t stride, const uint8_t* const in[4],
                    size_t blocks) noexcept {
  if (blocks == 0) return;
  V a[25];
  for (size_t w = 0; w < 25; ++w) {
    a[w] = _mm256_loadu_si256(reinterpret_cast<const V*>(state + stride * w));
  }
  const uint8_t *p0 = in[0], *p1 = in[1], *p2 = in[2], *p3 = in[3];
  for (size_t k = 0; k < blocks; ++k) {
    xor_blocks(a, p0, p1, p2, p3);
    permute_x4(a);
    p0 += kRate;
    p1 += kRate;
    p2 += kRate;
    p3 += kRate;
  }
  for (size_t w = 0; w < 25; ++w) {
    _mm256_storeu_si256(reinterpret_cast<V*>(state + stride * w), a[w]);
  }
}

}  // namespace odf_hash::keccak
