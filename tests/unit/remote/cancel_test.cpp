// StoreOptions::cancel (cancel.h): once set, every call of a store opened with it, every read
// of an object opened before, and the path-or-URL hashes fail with kCancelled naming what
// they were doing; before, nothing changes.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "odf_hash/io/cancel.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/remote/hash_path_or_url.h"
#include "odf_hash/remote/open_store.h"

namespace fs = std::filesystem;
using namespace odf_hash;

namespace {

class CancelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "odf_hash_cancel_test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    fs::create_directories(root_ / "data");
    std::ofstream(root_ / "data" / "a", std::ios::binary) << "alpha";
    options_.cancel = &flag_;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  static void expect_cancelled(const Status& st, const std::string& what) {
    EXPECT_EQ(st.code(), StatusCode::kCancelled) << what << ": " << st.to_string();
    EXPECT_NE(st.message().find("cancelled"), std::string::npos) << what;
  }

  fs::path root_;
  CancelFlag flag_{false};
  StoreOptions options_;
};

TEST_F(CancelTest, SetFlagStopsEveryCallOfALocalStore) {
  auto s = open_store(root_.string(), options_);
  ASSERT_TRUE(s.is_ok()) << s.status().to_string();
  auto opened = (*s)->open("data/a");
  ASSERT_TRUE(opened.is_ok() && opened->reader);
  uint8_t buf[8];
  auto first = opened->reader->read_at(0, buf, 2);
  ASSERT_TRUE(first.is_ok());
  EXPECT_EQ(*first, 2u);
  ASSERT_TRUE((*s)->list("data").is_ok());

  flag_.store(true);
  expect_cancelled((*s)->list("data").status(), "list");
  expect_cancelled((*s)->stat("data/a").status(), "stat");
  expect_cancelled((*s)->open("data/a").status(), "open");
  expect_cancelled(opened->reader->read_at(0, buf, 2).status(), "read_at");
  expect_cancelled(opened->reader->read(buf, 2).status(), "read");
}

TEST_F(CancelTest, PathOrUrlHashesStopOnceTheFlagIsSet) {
  const std::string file = (root_ / "data" / "a").string();
  auto before = physical_hash_path_or_url(file, options_);
  ASSERT_TRUE(before.is_ok()) << before.status().to_string();
  EXPECT_EQ(before->size, 5u);
  // "alpha": SHA3-256 by OpenSSL (openssl dgst -sha3-256).
  EXPECT_EQ(before->hash.to_string(),
            "f1620271878f8a927b4566ac951fc815b18dfad8d0302d61d11d80cbe15b7a3a056af");
  flag_.store(true);
  expect_cancelled(physical_hash_path_or_url(file, options_).status(), "physical");
  auto object = open_object(file, options_);
  ASSERT_TRUE(object.is_ok());
  uint8_t buf[8];
  expect_cancelled((*object)->read(buf, 2).status(), "open_object's reader");
  expect_cancelled(logical_hash_path_or_url(file, {}, options_).status(), "logical");
}

TEST(CancelScope, NestsAndIsPerThread) {
  CancelFlag outer{false};
  CancelFlag inner{false};
  EXPECT_FALSE(CancelScope::requested());
  {
    CancelScope a(&outer);
    outer.store(true);
    EXPECT_TRUE(CancelScope::requested());
    {
      CancelScope b(&inner);  // the innermost scope's flag decides
      EXPECT_FALSE(CancelScope::requested());
      CancelScope c(nullptr);  // adds nothing
      EXPECT_FALSE(CancelScope::requested());
      inner.store(true);
      EXPECT_TRUE(CancelScope::requested());
    }
    bool other_thread = true;
    std::thread([&] { other_thread = CancelScope::requested(); }).join();
    EXPECT_FALSE(other_thread);
    EXPECT_TRUE(CancelScope::requested());
  }
  EXPECT_FALSE(CancelScope::requested());
}

}  // namespace
