// Trust files (trusted_keys.h): lines written here, keys of the recorded kamu nodes.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "odf_hash/query/trusted_keys.h"
#include "query_vectors.h"

namespace {

namespace fs = std::filesystem;
using odf_hash::StatusCode;
using odf_hash::query::DidKey;
using odf_hash::query::read_trust_file;
using odf_hash::query::TrustedKeys;

std::string did(const char* key) {
  return query_test::manifest()["keys"][key]["did"];
}

TEST(TrustFile, KeysNamesCommentsAndBlankLines) {
  const std::string text =
      "# the data team's nodes\n\n" + did("A") + "   kamu node é  \n" + did("B") + "\n";
  auto keys = TrustedKeys::parse(text, "trust.txt");
  ASSERT_TRUE(keys.is_ok()) << keys.status().to_string();
  ASSERT_EQ(keys->keys().size(), 2u);
  EXPECT_EQ(keys->keys()[0].name, "kamu node \xC3\xA9");
  EXPECT_EQ(keys->keys()[0].source, "trust.txt:3");
  EXPECT_EQ(keys->keys()[1].name, "");
  const auto* b = keys->find(*DidKey::parse(did("B")));
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->did, did("B"));
  EXPECT_EQ(TrustedKeys::parse("")->keys().size(), 0u);
}

TEST(TrustFile, TakenWholeOrNotAtAll) {
  struct Case {
    std::string text, why;
    StatusCode code = StatusCode::kInvalidArgument;
  };
  const Case cases[] = {
      {did("A") + "\n" + did("A") + " again\n",
       "line 2: the key is listed twice (first at line 1)"},
      {did("A") + "\r\n", "line 1: a carriage return"},
      {did("A") + "\tname\n", "line 1: a tab"},
      {did("A") + " a\x01b\n", "line 1: a control character"},
      {did("A") + " \xFF\n", "line 1: bytes that are not UTF-8"},
      {"did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme\n", "line 1: did:key",
       StatusCode::kUnsupported},
      {" " + did("A") + "\n", "line 1: not an Ed25519 did:key"},
      {"\n\nnot-a-did\n", "line 3: not an Ed25519 did:key"},
  };
  for (const Case& c : cases) {
    auto keys = TrustedKeys::parse(c.text);
    ASSERT_FALSE(keys.is_ok()) << c.text;
    EXPECT_EQ(keys.status().code(), c.code) << c.text;
    EXPECT_TRUE(keys.status().message().starts_with(c.why)) << keys.status().message();
  }
}

TEST(TrustFile, AddAndMergeKeepTheFirstEntry) {
  TrustedKeys keys = *TrustedKeys::parse(did("A") + " named\n", "f");
  ASSERT_TRUE(keys.add(did("A"), "--trust").is_ok());
  ASSERT_TRUE(keys.add(did("B"), "--trust").is_ok());
  EXPECT_FALSE(keys.add("did:key:nope", "--trust").is_ok());
  ASSERT_EQ(keys.keys().size(), 2u);
  EXPECT_EQ(keys.keys()[0].name, "named");
  TrustedKeys other;
  other.merge(keys);
  other.merge(keys);
  EXPECT_EQ(other.keys().size(), 2u);
}

class TrustFileOnDisk : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("odf_trust_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(TrustFileOnDisk, ReadBoundedAndNamedInErrors) {
  const fs::path file = dir_ / "keys";
  std::ofstream(file) << did("A") << " node A\n"
                      << "bad line\n";
  auto keys = read_trust_file(file.string());
  ASSERT_FALSE(keys.is_ok());
  EXPECT_TRUE(keys.status().message().starts_with(file.string() + ":2: "))
      << keys.status().message();
  // Over the bound: refused, whatever it holds.
  const fs::path big = dir_ / "big";
  std::ofstream(big) << std::string(odf_hash::query::kMaxTrustFileBytes + 1, '#');
  EXPECT_FALSE(read_trust_file(big.string()).is_ok());
  EXPECT_FALSE(read_trust_file("/dev/zero").is_ok());
  EXPECT_FALSE(read_trust_file((dir_ / "missing").string()).is_ok());
  EXPECT_FALSE(read_trust_file(dir_.string()).is_ok());
}

}  // namespace
