// The scalar Keccak compiled with BMI1+BMI2 (ANDN for chi, RORX for the rotations). Called
// only after a run-time check of the CPU (keccak_dispatch.cpp).
#include "keccak_scalar_rounds.h"

namespace odf_hash::keccak {

void absorb_bmi2(uint64_t state[kStateWords], const uint8_t* in, size_t blocks) noexcept {
  absorb_scalar(state, in, blocks);
}

}  // namespace odf_hash::keccak
