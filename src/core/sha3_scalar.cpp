// Sha3_256Scalar: the SHA3-256 sponge over one of our single-state Keccak kernels.
#include <cstring>

#include "keccak.h"
#include "keccak_dispatch.h"
#include "odf_hash/internal/core/sha3_multi.h"
#include "sha3_sponge.h"

namespace odf_hash {

Sha3_256Scalar::Sha3_256Scalar() noexcept : Sha3_256Scalar(multi_lane_level()) {}

Sha3_256Scalar::Sha3_256Scalar(KeccakLevel level) noexcept
    : level_(keccak::single_level_for(level)) {
  reset();
}

Result<Sha3_256Scalar> Sha3_256Scalar::create(KeccakLevel level) {
  if (!keccak_level_supported(level)) return keccak::unsupported_level(level);
  return Sha3_256Scalar(level);
}

void Sha3_256Scalar::reset() noexcept {
  std::memset(state_, 0, sizeof state_);
  buf_len_ = 0;
}

void Sha3_256Scalar::update(const void* data, size_t size) noexcept {
  keccak::sponge_update(state_, buf_, buf_len_, static_cast<const uint8_t*>(data), size,
                        keccak::kernels_for(level_).one);
}

Digest256 Sha3_256Scalar::finalize() noexcept {
  return keccak::sponge_finalize(state_, buf_, buf_len_, keccak::kernels_for(level_).one);
}

Digest256 Sha3_256Scalar::digest(std::span<const uint8_t> bytes) noexcept {
  Sha3_256Scalar h;
  h.update(bytes);
  return h.finalize();
}

}  // namespace odf_hash
