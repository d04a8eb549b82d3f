// parse_byte_size (text.h): whole bytes with an optional binary suffix; any other text
// is an error saying the form, and an environment variable's bad value names the variable.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdint>
#include <string>

#include "odf_hash/core/text.h"

namespace {

using odf_hash::byte_size_from_env;
using odf_hash::parse_byte_size;

TEST(ByteSize, BytesAndBinarySuffixes) {
  EXPECT_EQ(*parse_byte_size("0"), 0u);
  EXPECT_EQ(*parse_byte_size("100"), 100u);
  EXPECT_EQ(*parse_byte_size("10K"), 10u * 1024);
  EXPECT_EQ(*parse_byte_size("10KiB"), 10u * 1024);
  EXPECT_EQ(*parse_byte_size("3M"), 3u * 1024 * 1024);
  EXPECT_EQ(*parse_byte_size("8G"), uint64_t{8} << 30);
  EXPECT_EQ(*parse_byte_size("2TiB"), uint64_t{2} << 40);
  EXPECT_EQ(*parse_byte_size("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(*parse_byte_size("16777215T"), uint64_t{16777215} << 40);
}

TEST(ByteSize, AnythingElseIsRefusedSayingTheForm) {
  for (const char* bad : {"1e9", "10k", "-1", "abc", "0x100", " 100", "100 ", "+5", "1.5G",
                          "18446744073709551616", "16777216T", "5GB", "5Gi", "G", "", "1KK"}) {
    auto r = parse_byte_size(bad);
    ASSERT_FALSE(r.is_ok()) << bad;
    EXPECT_NE(r.status().message().find("suffix K, M, G or T"), std::string::npos) << bad;
  }
}

TEST(ByteSize, EnvironmentVariable) {
  const char* name = "ODF_HASH_TEST_BYTE_SIZE";
  ::unsetenv(name);
  EXPECT_EQ(*byte_size_from_env(name, 7), 7u);
  ::setenv(name, "", 1);
  EXPECT_EQ(*byte_size_from_env(name, 7), 7u);
  ::setenv(name, "2M", 1);
  EXPECT_EQ(*byte_size_from_env(name, 7), 2u << 20);
  ::setenv(name, "1e9", 1);
  auto r = byte_size_from_env(name, 7);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().message().rfind("ODF_HASH_TEST_BYTE_SIZE=\"1e9\" is not a size", 0), 0u)
      << r.status().message();
  ::unsetenv(name);
}

}  // namespace
