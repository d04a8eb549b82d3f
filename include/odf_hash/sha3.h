// SHA3-256 (FIPS 202) as a streaming hasher.
//
// Backed by OpenSSL 3's EVP interface. The exact bytes hashed are the bytes passed to
// update(), in order, with no framing. Lengths are in bytes.
//
// Thread safety: one Sha3_256 object must not be used from two threads at once; distinct
// objects are independent.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace odf_hash {

inline constexpr size_t kSha3_256DigestSize = 32;
inline constexpr size_t kSha3_256Rate = 136;  // bytes absorbed per Keccak-f[1600] permutation
using Digest256 = std::array<uint8_t, kSha3_256DigestSize>;

class Sha3_256 {
 public:
  Sha3_256();
  ~Sha3_256();
  Sha3_256(Sha3_256&&) noexcept;
  Sha3_256& operator=(Sha3_256&&) noexcept;
  Sha3_256(const Sha3_256&) = delete;
  Sha3_256& operator=(const Sha3_256&) = delete;

  // Absorbs `size` bytes. `data` may be null when size is 0.
  void update(const void* data, size_t size) noexcept;
  void update(std::span<const uint8_t> bytes) noexcept { update(bytes.data(), bytes.size()); }
  void update(std::string_view s) noexcept { update(s.data(), s.size()); }

  // Returns the digest of everything absorbed since construction (or the last finalize)
  // and resets the hasher to the empty state, ready for a new message.
  Digest256 finalize() noexcept;

  // One-shot helper.
  static Digest256 digest(std::span<const uint8_t> bytes) noexcept;
  static Digest256 digest(std::string_view s) noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Lower-case hex of bytes (for messages and tests).
std::string to_hex(std::span<const uint8_t> bytes);

}  // namespace odf_hash
