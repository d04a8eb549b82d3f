// Internal to odf_hash_core: Keccak-f[1600] kernels behind Sha3_256 (when it does not use
// OpenSSL), Sha3_256Scalar, Sha3_256x4 and Sha3_256x8.
//
// This header holds declarations and constant data only, no inline code: the kernel files are
// compiled with -mavx2 / -mbmi2 / -mavx512f, and an inline function emitted there could be
// picked by the linker for callers on CPUs without those instructions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace odf_hash::keccak {

inline constexpr size_t kRate = 136;       // SHA3-256 rate in bytes
inline constexpr size_t kRateWords = 17;   // kRate / 8
inline constexpr size_t kStateWords = 25;  // 1600 bits
inline constexpr size_t kMaxLanes = 8;     // the widest kernel (Sha3_256x8)

// Keccak-f[1600] round constants (iota), FIPS 202 section 3.2.5.
inline constexpr uint64_t kRoundConstants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

// One state: word x + 5y is lane (x, y) of FIPS 202, bytes little-endian.
// XORs `blocks` consecutive kRate-byte blocks from `in` into one state, permuting after each.
using AbsorbFn = void (*)(uint64_t* state, const uint8_t* in, size_t blocks) noexcept;
void absorb_portable(uint64_t state[kStateWords], const uint8_t* in, size_t blocks) noexcept;
#if defined(ODF_HASH_HAVE_X86_KERNELS)
void absorb_bmi2(uint64_t state[kStateWords], const uint8_t* in, size_t blocks) noexcept;
// One state in five 512-bit registers (keccak_avx512.cpp).
void absorb_avx512(uint64_t state[kStateWords], const uint8_t* in, size_t blocks) noexcept;
#endif

// Interleaved states: word w of lane l at state[stride * w + l] (stride = the lanes of the
// layout: 4 for Sha3_256x4, 8 for Sha3_256x8).
//
// Four of them: absorbs `blocks` consecutive blocks from in[l] into lane l, for lanes 0..3 of
// the layout starting at `state` (a 4-lane kernel runs either half of an 8-lane layout).
using AbsorbX4Fn = void (*)(uint64_t* state, size_t stride, const uint8_t* const in[4],
                            size_t blocks) noexcept;
// Eight of them (stride 8).
using AbsorbX8Fn = void (*)(uint64_t* state, const uint8_t* const in[8], size_t blocks) noexcept;
#if defined(ODF_HASH_HAVE_X86_KERNELS)
void absorb_x4_avx2(uint64_t* state, size_t stride, const uint8_t* const in[4],
                    size_t blocks) noexcept;
void absorb_x8_avx512(uint64_t* state, const uint8_t* const in[8], size_t blocks) noexcept;
#endif

// Absorbs `blocks` consecutive blocks from `in` into lane `lane` only of an interleaved state,
// with the single-state kernel `absorb`.
void absorb_one_lane(uint64_t* state, size_t stride, size_t lane, const uint8_t* in, size_t blocks,
                     AbsorbFn absorb) noexcept;

}  // namespace odf_hash::keccak
