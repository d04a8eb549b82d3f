// canonical_location (location.h): every spelling of one place gives one text, on real
// folders and links made here, and on URLs written by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "odf_hash/internal/remote/location.h"

namespace {

namespace fs = std::filesystem;
using odf_hash::canonical_location;

// A temporary folder holding ds/ and a link to it; removed (and the working folder restored)
// whatever the test does.
class Locations : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_ = fs::current_path();
    root_ = fs::weakly_canonical(fs::path(::testing::TempDir())) /
            ("odf_location_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "ds" / "refs");
    fs::create_directories(root_ / "other");
    fs::create_directory_symlink(root_ / "ds", root_ / "link");
    fs::create_directory_symlink("../ds", root_ / "other" / "relative-link");
    fs::current_path(root_);
  }
  void TearDown() override {
    fs::current_path(saved_);
    fs::remove_all(root_);
  }
  fs::path saved_, root_;
};

TEST_F(Locations, EverySpellingOfAFolderGivesItsRealPath) {
  const std::string real = (root_ / "ds").string();
  for (const std::string& spelling :
       {real, real + "/", real + "//", "/" + real, std::string("ds"), std::string("./ds"),
        std::string("ds/"), std::string("./ds/refs/.."), std::string("other/../ds"),
        std::string("link"), (root_ / "link").string() + "/", std::string("other/relative-link"),
        real + "/./"}) {
    EXPECT_EQ(canonical_location(spelling), real) << spelling;
  }
  EXPECT_NE(canonical_location("other"), real);
}

TEST_F(Locations, APathThatDoesNotExistKeepsItsRestResolvedByText) {
  const std::string real = (root_ / "ds").string();
  EXPECT_EQ(canonical_location("link/not-yet/../new/./x/"), real + "/new/x");
  EXPECT_EQ(canonical_location("missing/../ds"), real);
  EXPECT_EQ(canonical_location(""), "");
}

TEST(CanonicalUrl, SchemeHostPortPathAndUserInformation) {
  EXPECT_EQ(canonical_location("HTTP://Example.ORG:80/a/./b/../ds/"), "http://example.org/a/ds");
  EXPECT_EQ(canonical_location("https://user:secret@Host:443//a//ds"), "https://host/a/ds");
  EXPECT_EQ(canonical_location("https://host:8443/ds"), "https://host:8443/ds");
  EXPECT_EQ(canonical_location("http://host:/ds"), "http://host/ds");
  EXPECT_EQ(canonical_location("http://[::1]:80/ds"), "http://[::1]/ds");
  EXPECT_EQ(canonical_location("http://[::1]:8080/ds"), "http://[::1]:8080/ds");
  // A password holding '/' never reaches the text (redact_url hides it first).
  EXPECT_EQ(canonical_location("http://u:pa/ss@host/ds"), "http://host/ds");
  // Percent-escapes: unreserved characters decoded, the others' hex in upper case.
  EXPECT_EQ(canonical_location("http://h/%7Euser/a%2fb/c"), "http://h/~user/a%2Fb/c");
  EXPECT_EQ(canonical_location("http://h/a/b/%2E%2E/c"), "http://h/a/c");
  EXPECT_EQ(canonical_location("http://h/ds?x=1#f"), "http://h/ds?x=1#f");
  EXPECT_EQ(canonical_location("http://h/"), "http://h");
}

TEST(CanonicalUrl, BucketsCidsAndNamesKeepTheirCase) {
  EXPECT_EQ(canonical_location("S3://MyBucket/Prefix/ds/"), "s3://MyBucket/Prefix/ds");
  EXPECT_EQ(canonical_location("ipfs://QmYwAPJzv5CZsnA/ds/../x"), "ipfs://QmYwAPJzv5CZsnA/x");
  EXPECT_EQ(canonical_location("IPNS://Name.Example/ds"), "ipns://Name.Example/ds");
}

}  // namespace
