// Unsigned varints. Expected encodings are the examples of the multiformats
// unsigned-varint spec and the ODF spec (0x300016 -> 96 80 c0 01).
#include "odf_hash/core/varint.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace odf_hash::varint {
namespace {

std::vector<uint8_t> encoded(uint64_t v) {
  std::vector<uint8_t> out;
  append(out, v);
  return out;
}

using Bytes = std::vector<uint8_t>;

TEST(VarintAppend, SpecExamples) {
  EXPECT_EQ(encoded(0), (Bytes{0x00}));
  EXPECT_EQ(encoded(1), (Bytes{0x01}));
  EXPECT_EQ(encoded(127), (Bytes{0x7f}));
  EXPECT_EQ(encoded(128), (Bytes{0x80, 0x01}));
  EXPECT_EQ(encoded(255), (Bytes{0xff, 0x01}));
  EXPECT_EQ(encoded(300), (Bytes{0xac, 0x02}));
  EXPECT_EQ(encoded(16384), (Bytes{0x80, 0x80, 0x01}));
  EXPECT_EQ(encoded(0x16), (Bytes{0x16}));
  EXPECT_EQ(encoded(0x300016), (Bytes{0x96, 0x80, 0xc0, 0x01}));
  EXPECT_EQ(encoded((uint64_t{1} << 63) - 1),
            (Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}));
}

TEST(VarintAppend, AppendsAfterExistingBytes) {
  Bytes out = {0xaa};
  append(out, 300);
  append(out, 1);
  EXPECT_EQ(out, (Bytes{0xaa, 0xac, 0x02, 0x01}));
}

TEST(VarintDecode, SpecExamples) {
  const Bytes b = {0x96, 0x80, 0xc0, 0x01, 0x20};
  auto d = decode(b);
  ASSERT_TRUE(d.is_ok()) << d.status().to_string();
  EXPECT_EQ(d->value, 0x300016u);
  EXPECT_EQ(d->length, 4u);  // stops at the end of the varint, not of the input

  const Bytes max = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
  d = decode(max);
  ASSERT_TRUE(d.is_ok());
  EXPECT_EQ(d->value, (uint64_t{1} << 63) - 1);
  EXPECT_EQ(d->length, 9u);
}

TEST(VarintDecode, RoundTripsRandomValuesOfEveryWidth) {
  std::mt19937_64 rng(42);
  for (int bits = 0; bits <= 63; ++bits) {
    for (int i = 0; i < 50; ++i) {
      const uint64_t v = bits == 0 ? 0 : (rng() >> (64 - bits)) | (uint64_t{1} << (bits - 1));
      Bytes b = encoded(v);
      EXPECT_EQ(b.size(), bits == 0 ? 1u : static_cast<size_t>((bits + 6) / 7));
      b.push_back(0x55);  // trailing data is not consumed
      auto d = decode(b);
      ASSERT_TRUE(d.is_ok()) << v;
      EXPECT_EQ(d->value, v);
      EXPECT_EQ(d->length, b.size() - 1);
    }
  }
}

TEST(VarintDecode, EmptyIsTruncated) {
  auto d = decode({});
  ASSERT_FALSE(d.is_ok());
  EXPECT_EQ(d.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(d.status().message().find("truncated"), std::string::npos);
}

TEST(VarintDecode, ContinuationBitAtEndIsTruncated) {
  for (const Bytes& b : {Bytes{0x80}, Bytes{0xff, 0xff}, Bytes{0x96, 0x80, 0xc0},
                         Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}) {
    auto d = decode(b);
    ASSERT_FALSE(d.is_ok()) << b.size();
    EXPECT_NE(d.status().message().find("truncated"), std::string::npos) << d.status().message();
  }
}

TEST(VarintDecode, NonMinimalIsRejected) {
  for (const Bytes& b : {Bytes{0x80, 0x00}, Bytes{0x81, 0x00}, Bytes{0x96, 0x80, 0xc0, 0x81, 0x00},
                         Bytes{0xff, 0x80, 0x00}}) {
    auto d = decode(b);
    ASSERT_FALSE(d.is_ok());
    EXPECT_NE(d.status().message().find("non-minimal"), std::string::npos) << d.status().message();
  }
}

TEST(VarintDecode, MoreThanNineBytesOverflows) {
  const Bytes ten = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  auto d = decode(ten);
  ASSERT_FALSE(d.is_ok());
  EXPECT_NE(d.status().message().find("longer than 9 bytes"), std::string::npos)
      << d.status().message();
  const Bytes nine_continued = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
  EXPECT_FALSE(decode(nine_continued).is_ok());
}

}  // namespace
}  // namespace odf_hash::varint
