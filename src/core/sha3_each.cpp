// sha3_256_each (sha3_multi.h): many short messages, eight one-block messages per permutation
// of the 8-lane kernel.
#include <algorithm>
#include <bit>
#include <cstring>

#include "keccak.h"
#include "keccak_dispatch.h"
#include "odf_hash/internal/core/sha3_multi.h"

namespace odf_hash {

namespace {

constexpr size_t kRate = keccak::kRate;
constexpr size_t kGroup = 8;

// Pads a message of n < 136 bytes into `block` (FIPS 202: 0x06, zeros, 0x80 in the last byte).
void pad_into(uint8_t* block, const uint8_t* msg, size_t n) {
  if (n > 0) std::memcpy(block, msg, n);  // msg may be null when n is 0
  std::memset(block + n, 0, kRate - n);
  block[n] = 0x06;
  block[kRate - 1] |= 0x80;
}

// The digest of lane `lane` of interleaved states of `lanes` lanes: the first 32 bytes of
// its state, words little-endian.
Digest256 squeeze(const uint64_t* state, size_t lanes, size_t lane) {
  Digest256 out;
  for (size_t w = 0; w < 4; ++w) {
    const uint64_t v = state[lanes * w + lane];
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(out.data() + 8 * w, &v, 8);
    } else {
      for (size_t b = 0; b < 8; ++b) out[8 * w + b] = static_cast<uint8_t>(v >> (8 * b));
    }
  }
  return out;
}

// Eight (or fewer: `k`) one-block messages, each from a fresh state.
void one_block_group(const keccak::Kernels& kernels, const uint8_t* const msg[kGroup],
                     const size_t len[kGroup], size_t k, Digest256* out) {
  alignas(64) uint8_t blocks[kGroup][kRate];
  alignas(64) uint64_t state[keccak::kStateWords * kGroup];
  const uint8_t* in[kGroup];
  for (size_t l = 0; l < kGroup; ++l) {
    if (l < k) pad_into(blocks[l], msg[l], len[l]);
    in[l] = blocks[l < k ? l : 0];  // lanes past k repeat lane 0 (digests not kept)
  }
  std::memset(state, 0, sizeof state);
  if (kernels.eight != nullptr) {
    kernels.eight(state, in, 1);
  } else if (kernels.four != nullptr) {
    kernels.four(state, kGroup, in, 1);
    kernels.four(state + 4, kGroup, in + 4, 1);
  } else {
    for (size_t l = 0; l < k; ++l) keccak::absorb_one_lane(state, kGroup, l, in[l], 1, kernels.one);
  }
  for (size_t l = 0; l < k; ++l) out[l] = squeeze(state, kGroup, l);
}

}  // namespace

void sha3_256_each(const uint8_t* data, const uint64_t* ends, size_t count, Digest256* out,
                   KeccakLevel level) noexcept {
  const keccak::Kernels kernels = keccak::kernels_for(level);
  for (size_t i = 0; i < count; i += kGroup) {
    const size_t k = std::min(kGroup, count - i);
    const uint8_t* msg[kGroup];
    size_t len[kGroup];
    bool one_block = true;
    for (size_t l = 0; l < k; ++l) {
      const uint64_t b = i + l == 0 ? 0 : ends[i + l - 1];
      msg[l] = data + b;
      len[l] = size_t(ends[i + l] - b);
      one_block = one_block && len[l] < kRate;
    }
    if (one_block) {
      one_block_group(kernels, msg, len, k, out + i);
      continue;
    }
    auto lanes = Sha3_256Lanes<kGroup>::create(level);
    if (!lanes.is_ok()) lanes = Sha3_256Lanes<kGroup>::create(KeccakLevel::kPortable);
    Sha3_256Lanes<kGroup>& h = lanes.value();
    for (size_t l = 0; l < k; ++l) h.update(l, msg[l], len[l]);
    const std::array<Digest256, kGroup> d = h.finalize();
    std::copy(d.begin(), d.begin() + long(k), out + i);
  }
}

}  // namespace odf_hash
