// Internal to odf_hash_core: the byte handling of one SHA3-256 sponge around a function that
// absorbs whole blocks (Sha3_256Scalar runs a kernel, PooledSha3_256 hands them to its pool):
// the partial block kept between updates, FIPS 202 padding, the digest squeezed out.
// Not included by the kernel files compiled with -mavx2 / -mbmi2 / -mavx512f (see keccak.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "keccak.h"
#include "odf_hash/core/sha3.h"

namespace odf_hash::keccak {

// One sponge is `state` (kStateWords words), `buf` (kRate bytes) holding the `buf_len` bytes
// of a partial block; `absorb(state, in, blocks)` absorbs whole blocks into `state`.

template <typename Absorb>
void sponge_update(uint64_t* state, uint8_t* buf, size_t& buf_len, const uint8_t* p, size_t size,
                   Absorb&& absorb) noexcept {
  if (size == 0) return;
  if (buf_len > 0) {
    const size_t take = std::min(kRate - buf_len, size);
    std::memcpy(buf + buf_len, p, take);
    buf_len += take;
    p += take;
    size -= take;
    if (buf_len < kRate) return;
    absorb(state, buf, 1);
    buf_len = 0;
  }
  const size_t blocks = size / kRate;
  if (blocks > 0) absorb(state, p, blocks);
  p += blocks * kRate;
  size -= blocks * kRate;
  if (size > 0) std::memcpy(buf, p, size);
  buf_len = size;
}

// The digest of everything absorbed; leaves the sponge empty (zero state, no bytes).
template <typename Absorb>
Digest256 sponge_finalize(uint64_t* state, uint8_t* buf, size_t& buf_len,
                          Absorb&& absorb) noexcept {
  // FIPS 202 padding for SHA3: the domain bits 01 then pad10*1, i.e. 0x06 ... 0x80
  // (0x86 when a single byte remains).
  std::memset(buf + buf_len, 0, kRate - buf_len);
  buf[buf_len] = 0x06;
  buf[kRate - 1] |= 0x80;
  absorb(state, buf, 1);
  Digest256 out;
  for (size_t i = 0; i < 4; ++i) {
    for (size_t j = 0; j < 8; ++j) out[8 * i + j] = static_cast<uint8_t>(state[i] >> (8 * j));
  }
  std::memset(state, 0, kStateWords * sizeof state[0]);
  buf_len = 0;
  return out;
}

}  // namespace odf_hash::keccak
