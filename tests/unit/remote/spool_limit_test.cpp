// $ODF_HASH_HTTP_SPOOL_LIMIT (spool_file.h): whole bytes with an optional binary suffix; any
// other text is an error naming the variable, never the default without a word.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "../../../src/remote/spool_file.h"

namespace {

using odf_hash::remote::parse_spool_limit;

TEST(SpoolLimit, BytesAndBinarySuffixes) {
  EXPECT_EQ(*parse_spool_limit("0"), 0u);
  EXPECT_EQ(*parse_spool_limit("100"), 100u);
  EXPECT_EQ(*parse_spool_limit("10K"), 10u * 1024);
  EXPECT_EQ(*parse_spool_limit("10KiB"), 10u * 1024);
  EXPECT_EQ(*parse_spool_limit("3M"), 3u * 1024 * 1024);
  EXPECT_EQ(*parse_spool_limit("8G"), uint64_t{8} << 30);
  EXPECT_EQ(*parse_spool_limit("2TiB"), uint64_t{2} << 40);
  EXPECT_EQ(*parse_spool_limit("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(*parse_spool_limit("16777215T"), uint64_t{16777215} << 40);
}

TEST(SpoolLimit, AnythingElseIsRefusedNamingTheVariable) {
  for (const char* bad : {"1e9", "10k", "-1", "abc", "0x100", " 100", "100 ", "+5", "1.5G",
                          "18446744073709551616", "16777216T", "5GB", "5Gi", "G", "", "1KK"}) {
    auto r = parse_spool_limit(bad);
    ASSERT_FALSE(r.is_ok()) << bad;
    EXPECT_NE(r.status().message().find("ODF_HASH_HTTP_SPOOL_LIMIT"), std::string::npos) << bad;
    EXPECT_NE(r.status().message().find("suffix K, M, G or T"), std::string::npos) << bad;
  }
}

}  // namespace
