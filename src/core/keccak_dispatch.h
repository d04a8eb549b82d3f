// Internal to odf_hash_core: which Keccak kernels a level runs (keccak_dispatch.cpp).
// Not included by the kernel files compiled with -mavx2 / -mbmi2 / -mavx512f (see keccak.h).
#pragma once

#include "keccak.h"
#include "odf_hash/internal/core/sha3_multi.h"

namespace odf_hash::keccak {

struct Kernels {
  AbsorbFn one;      // one state
  AbsorbX4Fn four;   // four interleaved states; null: `one` on each lane in turn
  AbsorbX8Fn eight;  // eight interleaved states; null: `four` on each half, or `one`
};

// The kernels of a supported level (an unsupported one gets the portable kernels).
Kernels kernels_for(KeccakLevel level) noexcept;

// kernels_for(level) with `one` the faster single-state kernel for a lane absorbed alone
// (Sha3_256Lanes, when the other lanes have run out): at the kAvx512 level, the AVX-512
// kernel only where it beats the scalar BMI2 one (avx512_single_is_faster), as Sha3_256
// decides; the BMI2 kernel otherwise. A wide column beside narrow ones spends most of its
// bytes there.
Kernels lane_kernels_for(KeccakLevel level) noexcept;

// Whether the AVX-512 single-state kernel beats the scalar (BMI2 / OpenSSL) one on this CPU,
// measured once per process (sha3.cpp says how).
bool avx512_single_is_faster() noexcept;

// The single-stream level of `level`: kAvx512 at kAvx512; at kBmi2 and kAvx2 kBmi2 when this
// CPU has BMI1+BMI2, else kPortable; kPortable at kPortable.
KeccakLevel single_level_for(KeccakLevel level) noexcept;

// "Keccak level '<name>' is not supported by this CPU or build".
Status unsupported_level(KeccakLevel level);

}  // namespace odf_hash::keccak
