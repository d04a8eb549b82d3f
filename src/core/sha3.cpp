// Sha3_256 (OpenSSL, or our single-state Keccak where it is faster) and Sha3_256OpenSsl.
#include "odf_hash/core/sha3.h"

#include <openssl/evp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "keccak.h"
#include "keccak_dispatch.h"
#include "odf_hash/internal/core/sha3_multi.h"

namespace odf_hash {

namespace {

[[noreturn]] void die_openssl() {
  std::fputs("odf-hash: OpenSSL could not initialise SHA3-256\n", stderr);
  std::abort();
}

// The SHA3-256 implementation, fetched from OpenSSL's default provider once per process:
// passing EVP_sha3_256() instead would repeat the provider look-up (a locked table search)
// at every init, which costs more than hashing a short message.
const EVP_MD* sha3_256_md() {
  static EVP_MD* md = EVP_MD_fetch(nullptr, "SHA3-256", nullptr);
  if (md == nullptr) die_openssl();
  return md;
}

// How fast our single-state kernels absorb against OpenSSL's SHA3-256 on this CPU, measured
// once per process: OpenSSL's time over the kernel's (above 1: ours is faster; 0: the CPU
// lacks the kernel). OpenSSL's x86-64 Keccak is scalar code. On AMD Zen 3 and 4 it runs at
// the speed of our BMI2 kernel and faster than our AVX-512 one (Zen 4 runs 512-bit permutes
// in two passes), so OpenSSL is kept there; on an Intel Xeon with AVX-512 (Sapphire Rapids
// class) our BMI2 and AVX-512 kernels both run 10-25% faster than it. Timings are 9
// alternating rounds of 16 blocks per implementation (about 100 microseconds in all),
// compared by the median of their ratios, so that one interruption cannot decide.
struct SingleStreamSpeeds {
  double bmi2 = 0;
  double avx512 = 0;
};

SingleStreamSpeeds measure_single_stream() {
  SingleStreamSpeeds speeds;
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  if (!keccak_level_supported(KeccakLevel::kBmi2)) return speeds;
  const bool avx512 = keccak_level_supported(KeccakLevel::kAvx512);
  constexpr size_t kBlocks = 16;
  constexpr int kReps = 9;
  alignas(64) uint8_t data[kBlocks * kSha3_256Rate];
  for (size_t i = 0; i < sizeof data; ++i) data[i] = static_cast<uint8_t>(i * 131 + 7);
  uint64_t state[keccak::kStateWords] = {};
  Sha3_256OpenSsl openssl;
  using Clock = std::chrono::steady_clock;
  const auto nanos = [](Clock::time_point from, Clock::time_point to) {
    return static_cast<double>(std::max<Clock::rep>((to - from).count(), 1));
  };
  double bmi2_ratio[kReps], avx512_ratio[kReps];
  for (int rep = 0; rep < kReps; ++rep) {
    const auto t0 = Clock::now();
    openssl.update(data, sizeof data);
    const auto t1 = Clock::now();
    keccak::absorb_bmi2(state, data, kBlocks);
    const auto t2 = Clock::now();
    if (avx512) keccak::absorb_avx512(state, data, kBlocks);
    const auto t3 = Clock::now();
    bmi2_ratio[rep] = nanos(t0, t1) / nanos(t1, t2);
    avx512_ratio[rep] = nanos(t0, t1) / nanos(t2, t3);
  }
  std::nth_element(bmi2_ratio, bmi2_ratio + kReps / 2, bmi2_ratio + kReps);
  speeds.bmi2 = bmi2_ratio[kReps / 2];
  if (avx512) {
    std::nth_element(avx512_ratio, avx512_ratio + kReps / 2, avx512_ratio + kReps);
    speeds.avx512 = avx512_ratio[kReps / 2];
  }
#endif
  return speeds;
}

const SingleStreamSpeeds& single_stream_speeds() {
  static const SingleStreamSpeeds speeds = measure_single_stream();
  return speeds;
}

// Margins a kernel must win by before it replaces the one it is compared with, so that two
// of about the same speed do not trade places from one process to the next.
constexpr double kOwnOverOpenSsl = 1.08;
constexpr double kAvx512OverBmi2 = 1.05;

}  // namespace

bool keccak::avx512_single_is_faster() noexcept {
  const SingleStreamSpeeds& speeds = single_stream_speeds();
  return speeds.avx512 >= speeds.bmi2 * kAvx512OverBmi2;
}

namespace {

// The Keccak level Sha3_256 runs when made now, or nullopt for OpenSSL: the faster of our
// single-state kernels that the current level allows (multi_lane_level, which
// ODF_HASH_KECCAK_LEVEL can lower) where it beats OpenSSL by the margin.
std::optional<KeccakLevel> own_level_now() {
  const KeccakLevel single = keccak::single_level_for(multi_lane_level());
  if (single == KeccakLevel::kPortable) return std::nullopt;
  const SingleStreamSpeeds& speeds = single_stream_speeds();
  const bool avx512 = single == KeccakLevel::kAvx512 && keccak::avx512_single_is_faster();
  if ((avx512 ? speeds.avx512 : speeds.bmi2) < kOwnOverOpenSsl) return std::nullopt;
  return avx512 ? KeccakLevel::kAvx512 : KeccakLevel::kBmi2;
}

}  // namespace

// One OpenSSL EVP context per hasher. Allocation failure of a few hundred bytes (or an
// OpenSSL without SHA3) is the only way these calls fail; it is treated like std::bad_alloc
// would be: fatal, never a Status.
struct Sha3_256OpenSsl::Impl {
  EVP_MD_CTX* ctx = nullptr;

  Impl() {
    ctx = EVP_MD_CTX_new();
    if (ctx == nullptr || EVP_DigestInit_ex2(ctx, sha3_256_md(), nullptr) != 1) die_openssl();
  }
  ~Impl() { EVP_MD_CTX_free(ctx); }
};

Sha3_256OpenSsl::Sha3_256OpenSsl() : impl_(std::make_unique<Impl>()) {}
Sha3_256OpenSsl::~Sha3_256OpenSsl() = default;
Sha3_256OpenSsl::Sha3_256OpenSsl(Sha3_256OpenSsl&&) noexcept = default;
Sha3_256OpenSsl& Sha3_256OpenSsl::operator=(Sha3_256OpenSsl&&) noexcept = default;

void Sha3_256OpenSsl::update(const void* data, size_t size) noexcept {
  if (size == 0) return;
  EVP_DigestUpdate(impl_->ctx, data, size);
}

Digest256 Sha3_256OpenSsl::finalize() noexcept {
  Digest256 out{};
  unsigned int len = 0;
  EVP_DigestFinal_ex(impl_->ctx, out.data(), &len);
  if (EVP_DigestInit_ex2(impl_->ctx, sha3_256_md(), nullptr) != 1) die_openssl();
  return out;
}

Digest256 Sha3_256OpenSsl::digest(std::span<const uint8_t> bytes) noexcept {
  Sha3_256OpenSsl h;
  h.update(bytes);
  return h.finalize();
}

Digest256 Sha3_256OpenSsl::digest(std::string_view s) noexcept {
  Sha3_256OpenSsl h;
  h.update(s);
  return h.finalize();
}

// Exactly one of the two is set.
struct Sha3_256::Impl {
  std::optional<Sha3_256OpenSsl> openssl;
  std::optional<Sha3_256Scalar> own;

  Impl() {
    if (const auto level = own_level_now()) {
      own.emplace(Sha3_256Scalar::create(*level).value());
    } else {
      openssl.emplace();
    }
  }
};

Sha3_256::Sha3_256() : impl_(std::make_unique<Impl>()) {}
Sha3_256::~Sha3_256() = default;
Sha3_256::Sha3_256(Sha3_256&&) noexcept = default;
Sha3_256& Sha3_256::operator=(Sha3_256&&) noexcept = default;

void Sha3_256::update(const void* data, size_t size) noexcept {
  if (size == 0) return;
  if (impl_->own) {
    impl_->own->update(data, size);
  } else {
    impl_->openssl->update(data, size);
  }
}

Digest256 Sha3_256::finalize() noexcept {
  return impl_->own ? impl_->own->finalize() : impl_->openssl->finalize();
}

Digest256 Sha3_256::digest(std::span<const uint8_t> bytes) noexcept {
  Sha3_256 h;
  h.update(bytes);
  return h.finalize();
}

Digest256 Sha3_256::digest(std::string_view s) noexcept {
  Sha3_256 h;
  h.update(s);
  return h.finalize();
}

const char* Sha3_256::implementation() const noexcept {
  return impl_->own ? keccak_level_name(impl_->own->level()) : "openssl";
}

const char* Sha3_256::default_implementation() noexcept {
  const auto level = own_level_now();
  return level ? keccak_level_name(*level) : "openssl";
}

std::string to_hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xf]);
  }
  return out;
}

}  // namespace odf_hash
