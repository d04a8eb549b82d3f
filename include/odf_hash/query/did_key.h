// did:key identifiers of Ed25519 public keys, and Ed25519 signatures (through OpenSSL).
//
// A kamu node names the key of its signature by a did:key (W3C CCG, "The did:key Method
// v0.7"): "did:key:" + 'z' + base58btc(varint(multicodec) || public key). Read here as that
// specification says, strictly: the multibase is base58btc, the multicodec is ed25519-pub
// (0xed, the varint bytes ed 01) followed by exactly 32 bytes, so an Ed25519 key's did:key
// starts "did:key:z6Mk". Another public key multicodec (secp256k1-pub 0xe7, p256-pub 0x1200, ...)
// is kUnsupported; anything else that is not such a did:key is kInvalidArgument. Since the
// encoding is canonical (one spelling per key), two did:keys name the same key exactly when
// their strings are equal.
//
// Thread safety: pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "odf_hash/core/status.h"

namespace odf_hash::query {

inline constexpr size_t kEd25519PublicKeySize = 32;
inline constexpr size_t kEd25519SignatureSize = 64;
// The multicodec of an Ed25519 public key (ed25519-pub).
inline constexpr uint64_t kMulticodecEd25519Pub = 0xed;

struct DidKey {
  std::array<uint8_t, kEd25519PublicKeySize> public_key{};

  // Parses "did:key:z6Mk…" (see above). Messages quote at most a short prefix of `did`.
  static Result<DidKey> parse(std::string_view did);
  // "did:key:z6Mk…".
  std::string to_string() const;

  friend bool operator==(const DidKey&, const DidKey&) = default;
};

// Whether `signature` is a valid Ed25519 signature (RFC 8032, pure Ed25519, as OpenSSL checks
// it) of `message` by `key`. false for any invalid signature or key; an error only when
// OpenSSL itself fails (out of memory).
Result<bool> verify_ed25519(const DidKey& key, std::span<const uint8_t> message,
                            std::span<const uint8_t, kEd25519SignatureSize> signature);

}  // namespace odf_hash::query
