// SHA3-256 (FIPS 202) as a streaming hasher.
//
// The exact bytes hashed are the bytes passed to update(), in order, with no framing. Lengths
// are in bytes.
//
// Sha3_256 is the hasher of every single stream of the library (physical hashes, columns
// hashed alone, the combined logical digest). It runs OpenSSL 3's EVP SHA3-256 unless one of
// our own single-state Keccak kernels beats it on this CPU: the scalar BMI2 one at the kBmi2
// level and above, or the AVX-512 one at kAvx512 (sha3_multi.h; the default level, or the one
// ODF_HASH_KECCAK_LEVEL or set_multi_lane_level chose when the object was made). A
// measurement made once per process, at first use (about 100 microseconds), times the three;
// ours must be at least 8% faster than OpenSSL, and the AVX-512 kernel 5% faster than the
// BMI2 one. On AMD Zen 3 and 4 that keeps OpenSSL; on an Intel Xeon with AVX-512 our kernels
// run 10-25% faster than it. The digest is the same either
// way. Sha3_256OpenSsl always runs OpenSSL: it is the reference the tests check our kernels
// against.
//
// Thread safety: one hasher object must not be used from two threads at once; distinct
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

  // What this object runs: "openssl", or the name of our Keccak level ("bmi2", "avx512").
  const char* implementation() const noexcept;
  // What an object made now would run.
  static const char* default_implementation() noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// SHA3-256 through OpenSSL's EVP interface, always. Same API as Sha3_256.
class Sha3_256OpenSsl {
 public:
  Sha3_256OpenSsl();
  ~Sha3_256OpenSsl();
  Sha3_256OpenSsl(Sha3_256OpenSsl&&) noexcept;
  Sha3_256OpenSsl& operator=(Sha3_256OpenSsl&&) noexcept;
  Sha3_256OpenSsl(const Sha3_256OpenSsl&) = delete;
  Sha3_256OpenSsl& operator=(const Sha3_256OpenSsl&) = delete;

  void update(const void* data, size_t size) noexcept;
  void update(std::span<const uint8_t> bytes) noexcept { update(bytes.data(), bytes.size()); }
  void update(std::string_view s) noexcept { update(s.data(), s.size()); }
  Digest256 finalize() noexcept;

  static Digest256 digest(std::span<const uint8_t> bytes) noexcept;
  static Digest256 digest(std::string_view s) noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Lower-case hex of bytes (for messages and tests).
std::string to_hex(std::span<const uint8_t> bytes);

}  // namespace odf_hash
