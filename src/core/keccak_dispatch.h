// Internal to odf_hash_core: which Keccak kernels a level runs (defined in sha3_multi.cpp).
// Not included by the kernel files compiled with -mavx2 / -mbmi2 (see keccak.h).
#pragma once

#include "keccak.h"
#include "odf_hash/sha3_multi.h"

namespace odf_hash::keccak {

struct Kernels {
  AbsorbFn one;     // one state
  AbsorbX4Fn four;  // four interleaved states; null: `one` on each lane in turn
};

// The kernels of a supported level (an unsupported one gets the portable kernels).
Kernels kernels_for(KeccakLevel level) noexcept;

// The scalar level a single stream uses at `level`: kBmi2 when asked for at least that and
// supported, else kPortable.
KeccakLevel scalar_level_for(KeccakLevel level) noexcept;

// "Keccak level '<name>' is not supported by this CPU or build".
Status unsupported_level(KeccakLevel level);

}  // namespace odf_hash::keccak
