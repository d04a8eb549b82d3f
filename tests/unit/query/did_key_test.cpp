// did:key and Ed25519 (did_key.h). Expected keys are derived by OpenSSL from the seeds kamu's
// identity config takes (the public key of a private key: not the code under test), the
// signatures are kamu's and RFC 8032's, and the base64url of proofValue is decoded again with
// OpenSSL's base64 decoder.
#include <openssl/evp.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "odf_hash/core/multibase.h"
#include "odf_hash/query/did_key.h"
#include "query_vectors.h"

namespace {

using odf_hash::StatusCode;
using odf_hash::query::DidKey;
using odf_hash::query::verify_ed25519;

std::vector<uint8_t> from_hex(const std::string& hex) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// The Ed25519 public key of a 32-byte seed, by OpenSSL.
std::array<uint8_t, 32> public_key_of(const std::vector<uint8_t>& seed) {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
      EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, seed.data(), seed.size()),
      EVP_PKEY_free);
  std::array<uint8_t, 32> pub{};
  size_t len = pub.size();
  EXPECT_TRUE(key && EVP_PKEY_get_raw_public_key(key.get(), pub.data(), &len) == 1);
  return pub;
}

// base64url without padding through OpenSSL's (standard alphabet) decoder.
std::vector<uint8_t> openssl_base64url(std::string text) {
  for (char& c : text) c = c == '-' ? '+' : c == '_' ? '/' : c;
  while (text.size() % 4 != 0) text += '=';
  std::vector<uint8_t> out(text.size());
  int n = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(text.data()),
                          static_cast<int>(text.size()));
  EXPECT_GE(n, 0);
  out.resize(static_cast<size_t>(n) - (text.size() - text.find_last_not_of('=') - 1));
  return out;
}

TEST(DidKey, KamuNodesKeysFromTheirSeeds) {
  for (const auto& [name, key] : query_test::manifest()["keys"].items()) {
    auto did = DidKey::parse(key["did"].get<std::string>());
    ASSERT_TRUE(did.is_ok()) << did.status().to_string();
    EXPECT_EQ(did->public_key, public_key_of(from_hex(key["seed"]))) << name;
    EXPECT_EQ(did->to_string(), key["did"]);
  }
  const auto& published = query_test::published()["key"];
  EXPECT_EQ(DidKey::parse(published["did"].get<std::string>())->public_key,
            public_key_of(from_hex(published["seed"])));
}

TEST(DidKey, StrictlyEd25519PerTheDidKeySpec) {
  const std::string good = query_test::published()["key"]["did"];
  const std::string body = good.substr(std::string("did:key:z").size());
  const std::vector<std::string> bad_dids = {"did:key:",
                                             "did:web:" + body,
                                             "DID:key:z" + body,
                                             "did:key:" + body,
                                             "did:key:z" + body + "1",
                                             "did:key:z" + body.substr(0, body.size() - 1),
                                             "did:key:z0OIl",
                                             "did:key:z"};
  for (const std::string& bad : bad_dids) {
    auto k = DidKey::parse(bad);
    EXPECT_FALSE(k.is_ok()) << bad;
    if (!k.is_ok()) {
      EXPECT_EQ(k.status().code(), StatusCode::kInvalidArgument) << bad;
    }
  }
  // The same key in base16 is not a did:key (the spec says base58btc).
  auto raw = odf_hash::multibase::decode("z" + body);
  ASSERT_TRUE(raw.is_ok());
  EXPECT_FALSE(DidKey::parse("did:key:" +
                             odf_hash::multibase::encode(odf_hash::multibase::Base::kBase16, *raw))
                   .is_ok());
  // secp256k1 and P-256 keys from the did:key specification's examples: unsupported.
  for (const char* other : {"did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme",
                            "did:key:zDnaerDaTF5BXEavCrfRZEk316dpbLsfPDZ3WJ5hRTPFU2169"}) {
    auto k = DidKey::parse(other);
    ASSERT_FALSE(k.is_ok());
    EXPECT_EQ(k.status().code(), StatusCode::kUnsupported) << other;
  }
}

TEST(Ed25519, Rfc8032TestVector1) {
  DidKey key;
  const auto pub = from_hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  std::copy(pub.begin(), pub.end(), key.public_key.begin());
  const auto sig = from_hex(
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e3970"
      "1cf9b46bd25bf5f0595bbe24655141438e7a100b");
  auto ok = verify_ed25519(key, {}, std::span<const uint8_t, 64>(sig.data(), 64));
  ASSERT_TRUE(ok.is_ok());
  EXPECT_TRUE(*ok);
  const uint8_t one = 1;
  EXPECT_FALSE(*verify_ed25519(key, {&one, 1}, std::span<const uint8_t, 64>(sig.data(), 64)));
}

TEST(Ed25519, KamuPublishedSignatureAndItsBadOne) {
  const auto& p = query_test::published()["test_data_verify_handler"];
  const auto& c = p["answer"]["commitment"];
  const std::string message = "{\"inputHash\":\"" + c["inputHash"].get<std::string>() +
                              "\",\"outputHash\":\"" + c["outputHash"].get<std::string>() +
                              "\",\"subQueriesHash\":\"" + c["subQueriesHash"].get<std::string>() +
                              "\"}";
  const auto key = *DidKey::parse(p["answer"]["proof"]["verificationMethod"].get<std::string>());
  for (const auto& [value, valid] :
       {std::pair{p["answer"]["proof"]["proofValue"].get<std::string>(), true},
        std::pair{p["bad_proof_value"].get<std::string>(), false}}) {
    auto sig = odf_hash::multibase::decode(value);
    ASSERT_TRUE(sig.is_ok());
    EXPECT_EQ(*sig, openssl_base64url(value.substr(1)));
    ASSERT_EQ(sig->size(), 64u);
    auto ok =
        verify_ed25519(key, {reinterpret_cast<const uint8_t*>(message.data()), message.size()},
                       std::span<const uint8_t, 64>(sig->data(), 64));
    ASSERT_TRUE(ok.is_ok());
    EXPECT_EQ(*ok, valid) << value;
    // One bit of the message changed.
    std::string changed = message;
    changed[20] ^= 1;
    EXPECT_FALSE(*verify_ed25519(key,
                                 {reinterpret_cast<const uint8_t*>(changed.data()), changed.size()},
                                 std::span<const uint8_t, 64>(sig->data(), 64)));
  }
}

TEST(Ed25519, KeysOpenSslRefusesAreNotValid) {
  DidKey key;  // all zero bytes: a small-order point
  std::vector<uint8_t> sig(64, 0);
  auto ok = verify_ed25519(key, {}, std::span<const uint8_t, 64>(sig.data(), 64));
  ASSERT_TRUE(ok.is_ok());
  EXPECT_FALSE(*ok);
}

}  // namespace
