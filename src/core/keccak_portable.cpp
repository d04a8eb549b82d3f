// Portable Keccak-f[1600] and the SHA3-256 sponge over it (Sha3_256Portable).
#include <bit>
#include <cstring>

#include "keccak.h"
#include "odf_hash/sha3_multi.h"

namespace odf_hash {
namespace keccak {
namespace {

// Rotation offsets (rho) by word index x + 5y.
constexpr int kRho[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                          25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};
// pi: word x + 5y moves to y + 5((2x + 3y) mod 5).
constexpr int kPi[25] = {0,  10, 20, 5, 15, 16, 1,  11, 21, 6, 7,  17, 2,
                         12, 22, 23, 8, 18, 3,  13, 14, 24, 9, 19, 4};

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

void permute(uint64_t state[kStateWords]) noexcept {
  uint64_t a[25];
  std::memcpy(a, state, sizeof a);
  for (int round = 0; round < 24; ++round) {
    uint64_t c[5], d[5], b[25];
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ std::rotl(c[(x + 1) % 5], 1);
#pragma GCC unroll 25
    for (int i = 0; i < 25; ++i) b[kPi[i]] = std::rotl(a[i] ^ d[i % 5], kRho[i]);
#pragma GCC unroll 5
    for (int y = 0; y < 25; y += 5) {
#pragma GCC unroll 5
      for (int x = 0; x < 5; ++x) {
        a[y + x] = b[y + x] ^ (~b[y + (x + 1) % 5] & b[y + (x + 2) % 5]);
      }
    }
    a[0] ^= kRoundConstants[round];
  }
  std::memcpy(state, a, sizeof a);
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
