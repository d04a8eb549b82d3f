// Sha3_256 (OpenSSL, or our single-state Keccak where it is faster) and Sha3_256OpenSsl.
#include "odf_hash/sha3.h"

#include <openssl/evp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "keccak.h"
#include "keccak_dispatch.h"
#include "odf_hash/sha3_multi.h"

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

// Whether our AVX-512 single-state permutation beats OpenSSL's Keccak on this CPU, measured
// once. OpenSSL's x86-64 Keccak is scalar code running at the speed of our BMI2 kernel (within
// a few percent: bench/keccak.sh), and timing the two raw kernels avoids charging OpenSSL's
// per-call EVP overhead to it on short timings: 7 alternating timings of 16 blocks each
// (about 80 microseconds), compared by the median of their ratios so that one interruption
// cannot decide; the AVX-512 kernel must be 15% faster. Where cross-lane shuffles are fast it
// is; on an idle AMD Zen 4, which runs 512-bit shuffles in two passes, it is 20% slower (6.5
// cycles per byte against 5.2), and close when the core's other hardware thread is busy (the
// scalar code shares its ALUs, the latency-bound vector code hardly notices).
bool avx512_single_beats_openssl() {
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  static const bool yes = [] {
    if (!keccak_level_supported(KeccakLevel::kAvx512) ||
        !keccak_level_supported(KeccakLevel::kBmi2)) {
      return false;
    }
    constexpr size_t kBlocks = 16;
    constexpr int kReps = 7;
    alignas(64) uint8_t data[kBlocks * kSha3_256Rate];
    for (size_t i = 0; i < sizeof data; ++i) data[i] = static_cast<uint8_t>(i * 131 + 7);
    uint64_t ours[keccak::kStateWords] = {}, scalar[keccak::kStateWords] = {};
    using Clock = std::chrono::steady_clock;
    double ratio[kReps];  // the scalar kernel's time over the AVX-512 one's
    for (int rep = 0; rep < kReps; ++rep) {
      const auto t0 = Clock::now();
      keccak::absorb_avx512(ours, data, kBlocks);
      const auto t1 = Clock::now();
      keccak::absorb_bmi2(scalar, data, kBlocks);
      const auto t2 = Clock::now();
      const auto avx512 = std::max<Clock::rep>((t1 - t0).count(), 1);
      ratio[rep] = static_cast<double>((t2 - t1).count()) / static_cast<double>(avx512);
    }
    std::nth_element(ratio, ratio + kReps / 2, ratio + kReps);
    return ratio[kReps / 2] >= 1.15;
  }();
  return yes;
#else
  return false;
#endif
}

}  // namespace

bool keccak::avx512_single_is_faster() noexcept {
  return avx512_single_beats_openssl();
}

namespace {

// The Keccak level Sha3_256 runs when made now, or nullopt for OpenSSL.
std::optional<KeccakLevel> own_level_now() {
  const KeccakLevel single = keccak::single_level_for(multi_lane_level());
  if (single == KeccakLevel::kAvx512 && avx512_single_beats_openssl()) return single;
  return std::nullopt;
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
