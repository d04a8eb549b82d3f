// Portable Keccak-f[1600] and the SHA3-256 sponge over it (Sha3_256Portable).
#include <bit>
#include <cstring>

#include "keccak.h"
#include "odf_hash/sha3_multi.h"

namespace odf_hash {
namespace keccak {
namespace {

inline uint64_t load_le64(const uint8_t* p) noexcept {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

inline void xor_block(uint64_t a[kStateWords], const uint8_t* in) noexcept {
#pragma GCC unroll 17
  for (size_t i = 0; i < kRateWords; ++i) a[i] ^= load_le64(in + 8 * i);
}

}  // namespace

namespace {

inline uint64_t rol(uint64_t v, int n) noexcept {
  return std::rotl(v, n);
}

// chi on one plane: e[x] = b[x] ^ (~b[x+1] & b[x+2]).
inline void chi(uint64_t* e, uint64_t b0, uint64_t b1, uint64_t b2, uint64_t b3,
                uint64_t b4) noexcept {
  e[0] = b0 ^ (~b1 & b2);
  e[1] = b1 ^ (~b2 & b3);
  e[2] = b2 ^ (~b3 & b4);
  e[3] = b3 ^ (~b4 & b0);
  e[4] = b4 ^ (~b0 & b1);
}

// One round from state `a` into state `e`, a plane of the output at a time: output word
// (x, y) is rol(a[x' + 5y'] ^ d[x'], rho[x'][y']) with (x, y) = (y', 2x' + 3y' mod 5)
// (theta, rho and pi together), then chi, then iota on word 0.
inline void round(const uint64_t* a, uint64_t* e, uint64_t rc) noexcept {
  uint64_t c[5], d[5];
  for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
  for (int x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ rol(c[(x + 1) % 5], 1);
  chi(e + 0, a[0] ^ d[0], rol(a[6] ^ d[1], 44), rol(a[12] ^ d[2], 43), rol(a[18] ^ d[3], 21),
      rol(a[24] ^ d[4], 14));
  e[0] ^= rc;
  chi(e + 5, rol(a[3] ^ d[3], 28), rol(a[9] ^ d[4], 20), rol(a[10] ^ d[0], 3),
      rol(a[16] ^ d[1], 45), rol(a[22] ^ d[2], 61));
  chi(e + 10, rol(a[1] ^ d[1], 1), rol(a[7] ^ d[2], 6), rol(a[13] ^ d[3], 25), rol(a[19] ^ d[4], 8),
      rol(a[20] ^ d[0], 18));
  chi(e + 15, rol(a[4] ^ d[4], 27), rol(a[5] ^ d[0], 36), rol(a[11] ^ d[1], 10),
      rol(a[17] ^ d[2], 15), rol(a[23] ^ d[3], 56));
  chi(e + 20, rol(a[2] ^ d[2], 62), rol(a[8] ^ d[3], 55), rol(a[14] ^ d[4], 39),
      rol(a[15] ^ d[0], 41), rol(a[21] ^ d[1], 2));
}

}  // namespace

void permute(uint64_t state[kStateWords]) noexcept {
  uint64_t tmp[25];
  for (int r = 0; r < 24; r += 2) {
    round(state, tmp, kRoundConstants[r]);
    round(tmp, state, kRoundConstants[r + 1]);
  }
}

void absorb(uint64_t state[kStateWords], const uint8_t* in, size_t blocks) noexcept {
  for (size_t k = 0; k < blocks; ++k, in += kRate) {
    xor_block(state, in);
    permute(state);
  }
}

void absorb_one_lane(uint64_t* state, size_t lane, const uint8_t* in, size_t blocks) noexcept {
  if (blocks == 0) return;
  uint64_t a[kStateWords];
  for (size_t w = 0; w < kStateWords; ++w) a[w] = state[kLanes * w + lane];
  absorb(a, in, blocks);
  for (size_t w = 0; w < kStateWords; ++w) state[kLanes * w + lane] = a[w];
}

void absorb_x4_portable(uint64_t* state, const uint8_t* const in[kLanes], size_t blocks) noexcept {
  for (size_t lane = 0; lane < kLanes; ++lane) absorb_one_lane(state, lane, in[lane], blocks);
}

}  // namespace keccak

void Sha3_256Portable::reset() noexcept {
  std::memset(state_, 0, sizeof state_);
  buf_len_ = 0;
}

void Sha3_256Portable::update(const void* data, size_t size) noexcept {
  if (size == 0) return;
  const auto* p = static_cast<const uint8_t*>(data);
  if (buf_len_ > 0) {
    size_t take = kSha3_256Rate - buf_len_;
    if (take > size) take = size;
    std::memcpy(buf_ + buf_len_, p, take);
    buf_len_ += take;
    p += take;
    size -= take;
    if (buf_len_ < kSha3_256Rate) return;
    keccak::absorb(state_, buf_, 1);
    buf_len_ = 0;
  }
  size_t blocks = size / kSha3_256Rate;
  keccak::absorb(state_, p, blocks);
  p += blocks * kSha3_256Rate;
  size -= blocks * kSha3_256Rate;
  std::memcpy(buf_, p, size);
  buf_len_ = size;
}

Digest256 Sha3_256Portable::finalize() noexcept {
  // FIPS 202 padding for SHA3: the domain bits 01 then pad10*1, i.e. 0x06 ... 0x80
  // (0x86 when a single byte remains).
  std::memset(buf_ + buf_len_, 0, kSha3_256Rate - buf_len_);
  buf_[buf_len_] = 0x06;
  buf_[kSha3_256Rate - 1] |= 0x80;
  keccak::absorb(state_, buf_, 1);
  Digest256 out;
  for (size_t i = 0; i < 4; ++i) {
    for (size_t j = 0; j < 8; ++j) out[8 * i + j] = static_cast<uint8_t>(state_[i] >> (8 * j));
  }
  reset();
  return out;
}

Digest256 Sha3_256Portable::digest(std::span<const uint8_t> bytes) noexcept {
  Sha3_256Portable h;
  h.update(bytes);
  return h.finalize();
}

}  // namespace odf_hash
