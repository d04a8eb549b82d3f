#include "odf_hash/sha3.h"

#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>

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

}  // namespace

// One OpenSSL EVP context per hasher. Allocation failure of a few hundred bytes (or an
// OpenSSL without SHA3) is the only way these calls fail; it is treated like std::bad_alloc
// would be: fatal, never a Status.
struct Sha3_256::Impl {
  EVP_MD_CTX* ctx = nullptr;

  Impl() {
    ctx = EVP_MD_CTX_new();
    if (ctx == nullptr || EVP_DigestInit_ex2(ctx, sha3_256_md(), nullptr) != 1) die_openssl();
  }
  ~Impl() { EVP_MD_CTX_free(ctx); }
};

Sha3_256::Sha3_256() : impl_(std::make_unique<Impl>()) {}
Sha3_256::~Sha3_256() = default;
Sha3_256::Sha3_256(Sha3_256&&) noexcept = default;
Sha3_256& Sha3_256::operator=(Sha3_256&&) noexcept = default;

void Sha3_256::update(const void* data, size_t size) noexcept {
  if (size == 0) return;
  EVP_DigestUpdate(impl_->ctx, data, size);
}

Digest256 Sha3_256::finalize() noexcept {
  Digest256 out{};
  unsigned int len = 0;
  EVP_DigestFinal_ex(impl_->ctx, out.data(), &len);
  if (EVP_DigestInit_ex2(impl_->ctx, sha3_256_md(), nullptr) != 1) die_openssl();
  return out;
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
