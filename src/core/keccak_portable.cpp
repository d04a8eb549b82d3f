// The portable Keccak kernels: one state, and one lane of interleaved states at a time.
#include "keccak.h"
#include "keccak_scalar_rounds.h"

namespace odf_hash::keccak {

void absorb_portable(uint64_t state[kStateWords], const uint8_t* in, size_t blocks) noexcept {
  absorb_scalar(state, in, blocks);
}

void absorb_one_lane(uint64_t* state, size_t stride, size_t lane, const uint8_t* in, size_t blocks,
                     AbsorbFn absorb) noexcept {
  if (blocks == 0) return;
  uint64_t a[kStateWords];
  for (size_t w = 0; w < kStateWords; ++w) a[w] = state[stride * w + lane];
  absorb(a, in, blocks);
  for (size_t w = 0; w < kStateWords; ++w) state[stride * w + lane] = a[w];
}

}  // namespace odf_hash::keccak
