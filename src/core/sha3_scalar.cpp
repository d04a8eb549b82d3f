// Sha3_256Scalar: the SHA3-256 sponge over one of our single-state Keccak kernels.
#include <cstring>

#include "keccak.h"
#include "keccak_dispatch.h"
#include "odf_hash/internal/core/sha3_multi.h"

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
  if (size == 0) return;
  const keccak::AbsorbFn absorb = keccak::kernels_for(level_).one;
  const auto* p = static_cast<const uint8_t*>(data);
  if (buf_len_ > 0) {
    size_t take = kSha3_256Rate - buf_len_;
    if (take > size) take = size;
    std::memcpy(buf_ + buf_len_, p, take);
    buf_len_ += take;
    p += take;
    size -= take;
    if (buf_len_ < kSha3_256Rate) return;
    absorb(state_, buf_, 1);
    buf_len_ = 0;
  }
  const size_t blocks = size / kSha3_256Rate;
  if (blocks > 0) absorb(state_, p, blocks);
  p += blocks * kSha3_256Rate;
  size -= blocks * kSha3_256Rate;
  if (size > 0) std::memcpy(buf_, p, size);
  buf_len_ = size;
}

Digest256 Sha3_256Scalar::finalize() noexcept {
  // FIPS 202 padding for SHA3: the domain bits 01 then pad10*1, i.e. 0x06 ... 0x80
  // (0x86 when a single byte remains).
  std::memset(buf_ + buf_len_, 0, kSha3_256Rate - buf_len_);
  buf_[buf_len_] = 0x06;
  buf_[kSha3_256Rate - 1] |= 0x80;
  keccak::kernels_for(level_).one(state_, buf_, 1);
  Digest256 out;
  for (size_t i = 0; i < 4; ++i) {
    for (size_t j = 0; j < 8; ++j) out[8 * i + j] = static_cast<uint8_t>(state_[i] >> (8 * j));
  }
  reset();
  return out;
}

Digest256 Sha3_256Scalar::digest(std::span<const uint8_t> bytes) noexcept {
  Sha3_256Scalar h;
  h.update(bytes);
  return h.finalize();
}

}  // namespace odf_hash
