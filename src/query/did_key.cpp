// did:key and Ed25519 (include/odf_hash/query/did_key.h).
#include "odf_hash/query/did_key.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "odf_hash/core/multibase.h"
#include "odf_hash/core/text.h"
#include "odf_hash/core/varint.h"
#include "odf_hash/io/store.h"

namespace odf_hash::query {

namespace {

constexpr std::string_view kPrefix = "did:key:";

// The DID for messages (untrusted text: cut and escaped).
std::string shown(std::string_view did) {
  return escape_untrusted(did, 80);
}

// The multicodec table's name of the other public keys did:key names, or nullptr for a code
// that is no public key type of the table.
const char* key_codec_name(uint64_t codec) {
  switch (codec) {
    case 0xe7: return "secp256k1-pub";
    case 0x1200: return "p256-pub";
    case 0x1201: return "p384-pub";
    case 0x1202: return "p521-pub";
    case 0xec: return "x25519-pub";
    case 0xeb: return "bls12_381-g2-pub";
    case 0x1205: return "rsa-pub";
    default: return nullptr;
  }
}

}  // namespace

Result<DidKey> DidKey::parse(std::string_view did) {
  auto refuse = [&](const std::string& why) {
    return Status::invalid_argument("not an Ed25519 did:key: \"" + shown(did) + "\": " + why);
  };
  if (!did.starts_with(kPrefix)) return refuse("it does not start with \"did:key:\"");
  const std::string_view mb = did.substr(kPrefix.size());
  if (mb.empty() || mb.front() != 'z') {
    return refuse("a did:key is 'z' and base58btc after \"did:key:\"");
  }
  auto bytes = multibase::decode(mb);
  if (!bytes.is_ok()) return refuse(bytes.status().message());
  auto codec = varint::decode(*bytes);
  if (!codec.is_ok()) return refuse("its multicodec: " + codec.status().message());
  if (codec->value != kMulticodecEd25519Pub) {
    // A key of another type is a did:key odf-hash does not check; any other code (a changed
    // or cut DID decodes to one) is no did:key at all.
    const char* name = key_codec_name(codec->value);
    if (name == nullptr) {
      char code[32];
      std::snprintf(code, sizeof code, "0x%llx", static_cast<unsigned long long>(codec->value));
      return refuse(std::string("its multicodec ") + code + " is no public key type");
    }
    return Status::unsupported("did:key \"" + shown(did) + "\" names a " + name +
                               " key; odf-hash checks Ed25519 keys (ed25519-pub) only");
  }
  const size_t key_size = bytes->size() - codec->length;
  if (key_size != kEd25519PublicKeySize) {
    return refuse("an Ed25519 public key is 32 bytes, this one " + std::to_string(key_size));
  }
  DidKey key;
  std::copy(bytes->begin() + codec->length, bytes->end(), key.public_key.begin());
  return key;
}

std::string DidKey::to_string() const {
  std::vector<uint8_t> bytes;
  varint::append(bytes, kMulticodecEd25519Pub);
  bytes.insert(bytes.end(), public_key.begin(), public_key.end());
  return std::string(kPrefix) + multibase::encode(multibase::Base::kBase58Btc, bytes);
}

Result<bool> verify_ed25519(const DidKey& key, std::span<const uint8_t> message,
                            std::span<const uint8_t, kEd25519SignatureSize> signature) {
  struct Free {
    void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
  };
  // OpenSSL leaves its reasons for a refusal in this thread's error queue: not ours to keep.
  struct ClearErrors {
    ~ClearErrors() { ERR_clear_error(); }
  } clear;
  std::unique_ptr<EVP_PKEY, Free> pkey(EVP_PKEY_new_raw_public_key(
      EVP_PKEY_ED25519, nullptr, key.public_key.data(), key.public_key.size()));
  if (!pkey) return false;  // not a key OpenSSL accepts
  std::unique_ptr<EVP_MD_CTX, Free> ctx(EVP_MD_CTX_new());
  if (!ctx) return Status::internal("OpenSSL: out of memory");
  if (EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) != 1) {
    return Status::internal("OpenSSL: cannot start an Ed25519 verification");
  }
  return EVP_DigestVerify(ctx.get(), signature.data(), signature.size(), message.data(),
                          message.size()) == 1;
}

}  // namespace odf_hash::query
