// Internal to odf_hash_core: which Keccak kernels a level runs (keccak_dispatch.cpp).
// Not included by the kernel files compiled with -mavx2 / -mbmi2 / -mavx512f (see keccak.h).
#pragma once

#include "keccak.h"
#include "odf_hash/sha3_multi.h"

namespace odf_hash::keccak {

struct Kernels {
  AbsorbFn one;      // one state
  AbsorbX4Fn four;   // four interleaved states; null: `one` on each lane in turn
  AbsorbX8Fn eight;  // eight interleaved states; null: `four` on each half, or `one`
};

// The kernels of a supported level (an unsupported one gets the portable kernels).
Kernels kernels_for(KeccakLevel level) noexcept;

// The single-stream level of `level`: kAvx512 at kAvx512; at kBmi2 and kAvx2 kBmi2 when this
// CPU has BMI1+BMI2, else kPortable; kPortable at kPortable.
KeccakLevel single_level_for(KeccakLevel level) noexcept;

// "Keccak level '<name>' is not supported by this CPU or build".
Status unsupported_level(KeccakLevel level);

}  // namespace odf_hash::keccak
