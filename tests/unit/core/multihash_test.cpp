// Multihash: the ODF spec's example (SHA3-256 of ASCII "multihash", in base16 and
// base58btc), the arrow0-sha3-256 prefix, equality across bases, and strict decoding.
#include "odf_hash/core/multihash.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "odf_hash/core/multibase.h"
#include "odf_hash/core/sha3.h"

namespace odf_hash {
namespace {

using Bytes = std::vector<uint8_t>;

// From /work/shared/spec/odf-essentials.md ("Known value").
constexpr char kMultihashHex[] =
    "f162008c3792b2a4deed1bd7ea2328fb5de5531eccf0fbfa04a7d800cdc267137c635";
constexpr char kMultihashB58[] = "zW1a3CNT52HXiJNniLkWMeev3CPRy9QiNRMWGyTrVNg4hY8";
// SHA3-256("multihash") as computed by Python hashlib.
constexpr char kDigestHex[] = "08c3792b2a4deed1bd7ea2328fb5de5531eccf0fbfa04a7d800cdc267137c635";

Digest256 digest_of_hex(std::string_view hex) {
  Digest256 d{};
  for (size_t i = 0; i < d.size(); ++i) {
    d[i] = static_cast<uint8_t>(std::stoi(std::string(hex.substr(2 * i, 2)), nullptr, 16));
  }
  return d;
}

Bytes bytes_of_hex(std::string_view hex) {
  Bytes out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

TEST(MultihashSpecExample, Sha3OfMultihashInBase16) {
  const Multihash mh = Multihash::sha3_256(Sha3_256::digest("multihash"));
  EXPECT_EQ(to_hex(mh.digest()), kDigestHex);
  EXPECT_EQ(mh.to_string(), kMultihashHex);
  EXPECT_EQ(mh.to_string(multibase::Base::kBase16), kMultihashHex);
  auto parsed = Multihash::parse(kMultihashHex);
  ASSERT_TRUE(parsed.is_ok()) << parsed.status().to_string();
  EXPECT_EQ(parsed->code(), HashCode::kSha3_256);
  EXPECT_EQ(parsed->digest(), digest_of_hex(kDigestHex));
  EXPECT_EQ(*parsed, mh);
}

TEST(MultihashSpecExample, Sha3OfMultihashInBase58Btc) {
  const Multihash mh = Multihash::sha3_256(digest_of_hex(kDigestHex));
  EXPECT_EQ(mh.to_string(multibase::Base::kBase58Btc), kMultihashB58);
  auto parsed = Multihash::parse(kMultihashB58);
  ASSERT_TRUE(parsed.is_ok()) << parsed.status().to_string();
  EXPECT_EQ(*parsed, mh);
  EXPECT_EQ(parsed->to_string(), kMultihashHex);
}

TEST(MultihashSpecExample, ShortStringIsTheLastEightCharacters) {
  const Multihash mh = Multihash::sha3_256(digest_of_hex(kDigestHex));
  const std::string full = kMultihashHex;
  EXPECT_EQ(mh.short_string(), full.substr(full.size() - 8));
  EXPECT_EQ(mh.short_string(), "7137c635");
}

TEST(MultihashSpecExample, BinaryForm) {
  const Multihash mh = Multihash::sha3_256(digest_of_hex(kDigestHex));
  const Bytes b = mh.to_bytes();
  EXPECT_EQ(b, bytes_of_hex(std::string("1620") + kDigestHex));
  auto back = Multihash::from_bytes(b);
  ASSERT_TRUE(back.is_ok());
  EXPECT_EQ(*back, mh);
}

TEST(MultihashArrow0, PrefixIsF9680C00120) {
  const Multihash mh = Multihash::arrow0_sha3_256(digest_of_hex(kDigestHex));
  const std::string s = mh.to_string();
  EXPECT_EQ(s, std::string("f9680c00120") + kDigestHex);
  EXPECT_EQ(s.size(), 75u);
  const Bytes b = mh.to_bytes();
  EXPECT_EQ(Bytes(b.begin(), b.begin() + 5), (Bytes{0x96, 0x80, 0xc0, 0x01, 0x20}));
  auto parsed = Multihash::parse(s);
  ASSERT_TRUE(parsed.is_ok());
  EXPECT_EQ(parsed->code(), HashCode::kArrow0Sha3_256);
  EXPECT_EQ(*parsed, mh);
  EXPECT_EQ(mh.to_string().size(), 75u);
  EXPECT_EQ(Multihash::sha3_256(mh.digest()).to_string().size(), 69u);
}

TEST(MultihashEquality, IsOnCodeAndDigestAcrossEveryBase) {
  for (const Multihash& mh :
       {Multihash::sha3_256(digest_of_hex(kDigestHex)),
        Multihash::arrow0_sha3_256(Sha3_256::digest("abc")), Multihash::sha3_256(Digest256{}),
        Multihash::arrow0_sha3_256(Digest256{})}) {
    for (multibase::Base base : multibase::all_bases()) {
      const std::string s = mh.to_string(base);
      auto parsed = Multihash::parse(s);
      ASSERT_TRUE(parsed.is_ok()) << s << ": " << parsed.status().to_string();
      EXPECT_EQ(*parsed, mh) << s;
    }
  }
}

TEST(MultihashEquality, UpperCaseHexIsTheSameHash) {
  std::string upper = kMultihashHex;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto parsed = Multihash::parse(upper);
  ASSERT_TRUE(parsed.is_ok()) << parsed.status().to_string();
  EXPECT_EQ(parsed->to_string(), kMultihashHex);
}

TEST(MultihashEquality, DifferentCodeOrDigestDiffers) {
  const Digest256 d = digest_of_hex(kDigestHex);
  Digest256 d2 = d;
  d2[31] ^= 1;
  EXPECT_FALSE(Multihash::sha3_256(d) == Multihash::arrow0_sha3_256(d));
  EXPECT_FALSE(Multihash::sha3_256(d) == Multihash::sha3_256(d2));
  EXPECT_TRUE(Multihash::sha3_256(d) == Multihash(HashCode::kSha3_256, d));
}

TEST(MultihashCodes, NamesBothWays) {
  EXPECT_STREQ(hash_code_name(0x16), "sha3-256");
  EXPECT_STREQ(hash_code_name(0x300016), "arrow0-sha3-256");
  EXPECT_EQ(hash_code_name(0x12), nullptr);
  EXPECT_EQ(hash_code_from_name("sha3-256"), HashCode::kSha3_256);
  EXPECT_EQ(hash_code_from_name("arrow0-sha3-256"), HashCode::kArrow0Sha3_256);
  EXPECT_EQ(hash_code_from_name("sha2-256"), std::nullopt);
  EXPECT_EQ(hash_code_from_name(""), std::nullopt);
}

void expect_bytes_error(const Bytes& b, const char* fragment) {
  auto r = Multihash::from_bytes(b);
  ASSERT_FALSE(r.is_ok()) << to_hex(b);
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find(fragment), std::string::npos)
      << "'" << r.status().message() << "' lacks '" << fragment << "'";
}

TEST(MultihashMalformed, BinaryForms) {
  const Bytes digest = bytes_of_hex(kDigestHex);
  auto with = [&](Bytes head, size_t digest_bytes) {
    head.insert(head.end(), digest.begin(),
                digest.begin() + static_cast<ptrdiff_t>(std::min(digest_bytes, digest.size())));
    while (digest_bytes-- > digest.size()) head.push_back(0xee);
    return head;
  };
  expect_bytes_error({}, "multihash code: varint: no bytes");
  expect_bytes_error({0x96, 0x80}, "multihash code: varint: truncated");
  expect_bytes_error({0x96, 0x80, 0xc0}, "truncated");
  expect_bytes_error(with({0x12, 0x20}, 32), "unknown hash code 0x12");
  expect_bytes_error(with({0x14, 0x40}, 64), "unknown hash code 0x14");
  expect_bytes_error(with({0x96, 0x80, 0xc0, 0x81, 0x00, 0x20}, 32), "non-minimal");
  expect_bytes_error({0x16}, "multihash digest length: varint: no bytes");
  expect_bytes_error({0x16, 0xa0}, "multihash digest length: varint: truncated");
  expect_bytes_error(with({0x16, 0x20}, 31), "declared digest length 32 but 31 bytes follow");
  expect_bytes_error(with({0x16, 0x20}, 33), "declared digest length 32 but 33 bytes follow");
  expect_bytes_error(with({0x16, 0x20}, 0), "declared digest length 32 but 0 bytes follow");
  expect_bytes_error(with({0x16, 0x10}, 16), "sha3-256 digest must be 32 bytes, not 16");
  expect_bytes_error(with({0x96, 0x80, 0xc0, 0x01, 0x21}, 33), "digest must be 32 bytes, not 33");
  expect_bytes_error({0x16, 0x00}, "not 0");
  expect_bytes_error({0x16, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
                     "declared digest length 9223372036854775807 but 0 bytes follow");
}

TEST(MultihashMalformed, StringsNameTheTextAndTheProblem) {
  struct Case {
    std::string text;
    const char* fragment;
  };
  const std::string hex = kMultihashHex;
  for (const Case& c : {
           Case{"", "empty"},
           Case{"x1620", "unknown prefix"},
           Case{hex.substr(0, hex.size() - 1), "cannot encode"},
           Case{hex.substr(0, hex.size() - 2), "but 31 bytes follow"},
           Case{hex + "00", "but 33 bytes follow"},
           Case{"f1220" + hex.substr(5), "unknown hash code 0x12"},
           Case{"f", "varint: no bytes"},
           Case{hex.substr(0, 10) + "g" + hex.substr(11), "'g' at index 10"},
           Case{"zW1a3CNT52HXiJNniLkWMeev3CPRy9QiNRMWGyTrVNg4hY0", "'0' at index 46"},
           Case{"mFiAIw3krKk3u0b1+ojKPtd5VMezPD7+gSn2ADNwmcTfGNQ==", "takes no padding"},
       }) {
    auto r = Multihash::parse(c.text);
    ASSERT_FALSE(r.is_ok()) << c.text;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().to_string();
    EXPECT_NE(r.status().message().find(c.fragment), std::string::npos)
        << "'" << r.status().message() << "' lacks '" << c.fragment << "'";
    EXPECT_NE(r.status().message().find("hash '" + c.text.substr(0, 20)), std::string::npos)
        << r.status().message();
  }
}

TEST(MultihashMalformed, HugeInputIsQuotedShortly) {
  const std::string huge = "f" + std::string(100000, '0');
  auto r = Multihash::parse(huge);
  ASSERT_FALSE(r.is_ok());
  EXPECT_LT(r.status().message().size(), 300u) << r.status().message();
  EXPECT_NE(r.status().message().find("100001 characters"), std::string::npos);
  EXPECT_NE(r.status().message().find("too long"), std::string::npos);
}

TEST(MultihashMalformed, LengthCapLeavesRoomForTheWidestBase) {
  const Multihash mh = Multihash::arrow0_sha3_256(Sha3_256::digest("abc"));
  const std::string base2 = mh.to_string(multibase::Base::kBase2);
  EXPECT_EQ(base2.size(), 1u + 8u * 37u);
  EXPECT_LE(base2.size(), kMaxMultihashTextLength);
  EXPECT_TRUE(Multihash::parse(base2).is_ok());
  // Just over the cap: rejected before any decoding, whatever the content.
  EXPECT_FALSE(Multihash::parse(std::string(kMaxMultihashTextLength + 1, 'f')).is_ok());
}

TEST(MultihashMalformed, ControlCharactersAreEscapedInMessages) {
  auto r = Multihash::parse(std::string_view("f16\n\0", 5));
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("\\x0a\\x00"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace odf_hash
