// suggest_multihash_fix: the advice next to a refused multihash. The multihash is the ODF
// spec's known example (SHA3-256 of "multihash"), its forms written by Python (hashlib,
// base58btc loop), not by odf-hash.
#include "odf_hash/core/multihash_hint.h"

#include <gtest/gtest.h>

#include <string>

#include "odf_hash/core/multihash.h"

using odf_hash::Multihash;
using odf_hash::suggest_multihash_fix;

namespace {

constexpr const char* kDigest = "08c3792b2a4deed1bd7ea2328fb5de5531eccf0fbfa04a7d800cdc267137c635";
const std::string kHex = std::string("f1620") + kDigest;
constexpr const char* kZ = "zW1a3CNT52HXiJNniLkWMeev3CPRy9QiNRMWGyTrVNg4hY8";

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(MultihashHint, OneCharacterMissingOrTooMany) {
  ASSERT_TRUE(Multihash::parse(kHex).is_ok());
  EXPECT_TRUE(has(suggest_multihash_fix(kHex.substr(0, 68)), "one character is missing"));
  EXPECT_TRUE(has(suggest_multihash_fix(kHex.substr(0, 30) + kHex.substr(31)),
                  "a sha3-256 multihash in base16 has 69 characters, this has 68"));
  EXPECT_TRUE(has(suggest_multihash_fix(kHex + "a"), "one character too many"));
  EXPECT_TRUE(
      has(suggest_multihash_fix(std::string(kZ).substr(1, 0) + "z" + std::string(kZ).substr(2)),
          "one character is missing (a sha3-256 multihash in base58btc"));
}

TEST(MultihashHint, BareDigestGetsTheMultihashForms) {
  const std::string hint = suggest_multihash_fix(kDigest);
  EXPECT_TRUE(has(hint, "bare SHA3-256 digest")) << hint;
  EXPECT_TRUE(has(hint, "as a physical hash it is " + kHex)) << hint;
  EXPECT_TRUE(has(hint, std::string("as a logical hash, f9680c0012") + kDigest)) << hint;
  // The suggestion parses, to the same digest.
  auto parsed = Multihash::parse(kHex);
  ASSERT_TRUE(parsed.is_ok());
  EXPECT_EQ(odf_hash::to_hex(parsed->digest()), kDigest);
}

TEST(MultihashHint, MissingPrefixAndSurroundings) {
  EXPECT_EQ(suggest_multihash_fix(kHex.substr(1)), "the multibase prefix is missing: " + kHex);
  EXPECT_EQ(suggest_multihash_fix(" " + kHex + "\n"),
            "remove the spaces or quotes around it: '" + kHex + "'");
  EXPECT_EQ(suggest_multihash_fix("\"" + kHex + "\""),
            "remove the spaces or quotes around it: '" + kHex + "'");
}

TEST(MultihashHint, NothingToSayAboutNonsense) {
  EXPECT_EQ(suggest_multihash_fix("xyz"), "");
  EXPECT_EQ(suggest_multihash_fix(""), "the hash is empty");
}
