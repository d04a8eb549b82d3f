// The verify modes as a user gives them (verify_args.h): empty values refused in both
// spellings, the sample, the seed, and --since with --write-pins without an anchor.
#include <filesystem>
#include <fstream>
#include <string>

#include "broken_dataset.h"
#include "odf_hash/odf/verify_args.h"

namespace {

const std::string kHead = "f1620" + std::string(64, 'a');

Status parsed(const VerifyModeArgs& a, ArgSpelling s = ArgSpelling::kFlags) {
  return parse_verify_modes(a, s).status();
}

TEST(VerifyArgs, AnEmptyValueIsRefusedNeverOff) {
  const std::vector<std::pair<std::optional<std::string> VerifyModeArgs::*, std::string>> options =
      {{&VerifyModeArgs::expect_head, "expect_head"},
       {&VerifyModeArgs::since, "since"},
       {&VerifyModeArgs::sample, "sample"},
       {&VerifyModeArgs::seed, "seed"},
       {&VerifyModeArgs::pins, "pins"},
       {&VerifyModeArgs::write_pins, "write_pins"}};
  for (const auto& [member, key] : options) {
    VerifyModeArgs a;
    a.*member = "";
    Status keyword = parsed(a, ArgSpelling::kKeywords);
    EXPECT_EQ(keyword.code(), StatusCode::kInvalidArgument) << key;
    EXPECT_EQ(keyword.message(), key + ": " + kEmptyValueRefused);
    std::string flag = "--" + key;
    for (char& c : flag) c = c == '_' ? '-' : c;
    EXPECT_EQ(parsed(a).message(), flag + ": " + kEmptyValueRefused);
  }
}

TEST(VerifyArgs, ModesParsedAsTheCommandAlwaysDid) {
  VerifyModeArgs a;
  a.expect_head = kHead;
  a.sample = "1%";
  a.seed = "7";
  auto m = parse_verify_modes(a, ArgSpelling::kFlags);
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  EXPECT_EQ(m->expect_head->to_string(), kHead);
  EXPECT_DOUBLE_EQ(*m->sample_fraction, 0.01);
  EXPECT_EQ(m->sample_seed, 7u);
  EXPECT_EQ(m->sample_spec, "1%");
  VerifyOptions options;
  m->apply(options);
  EXPECT_EQ(options.sample_seed, 7u);
  EXPECT_EQ(options.expect_head, m->expect_head);
  a = {};
  a.sample = "25";
  EXPECT_EQ(*parse_verify_modes(a, ArgSpelling::kFlags)->sample_count, 25u);
  for (const char* bad : {"0", "-3", "1.5", "x", "2%%", "101%"}) {
    a.sample = bad;
    EXPECT_EQ(parsed(a).code(), StatusCode::kInvalidArgument) << bad;
  }
  a = {};
  a.seed = "7";
  EXPECT_EQ(parsed(a).message(), "--seed is used with --sample only");
  a.sample = "2";
  for (const char* bad : {"-1", "+1", " 1", "18446744073709551616", "1e3"}) {
    a.seed = bad;
    EXPECT_EQ(parsed(a).code(), StatusCode::kInvalidArgument) << bad;
  }
  a = {};
  a.since = "zz";
  EXPECT_NE(parsed(a).message().find("--since \"zz\": not a multihash"), std::string::npos);
}

class VerifyArgsFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) /
            ("odf_verify_args_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

// --since X --write-pins P would pin heads whose chain below X nothing checked: refused
// unless --expect-head or --pins anchors it.
TEST_F(VerifyArgsFiles, SinceWithWritePinsNeedsAnAnchor) {
  VerifyModeArgs a;
  a.since = kHead;
  a.write_pins = (root_ / "pins").string();
  Status st = parsed(a);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("--since with --write-pins pins heads"), std::string::npos);
  a.expect_head = kHead;
  EXPECT_TRUE(parsed(a).is_ok());
  a.expect_head.reset();
  std::ofstream(root_ / "pins") << kHead << "  /somewhere\n";
  a.pins = (root_ / "pins").string();
  auto m = parse_verify_modes(a, ArgSpelling::kFlags);
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  EXPECT_EQ(m->pins->pins().size(), 1u);
  EXPECT_EQ(m->write_pins, a.write_pins);
}

TEST_F(VerifyArgsFiles, PinFilesAreCheckedBeforeAnyVerification) {
  VerifyModeArgs a;
  a.pins = (root_ / "missing").string();
  EXPECT_EQ(parsed(a).code(), StatusCode::kNotFound);
  a.pins = "/dev/zero";
  EXPECT_EQ(parsed(a).code(), StatusCode::kInvalidArgument);
  a.pins.reset();
  a.write_pins = "/dev/full";
  EXPECT_EQ(parsed(a).code(), StatusCode::kInvalidArgument);
  a.write_pins = (root_ / "no-such-folder" / "pins").string();
  EXPECT_FALSE(parsed(a).is_ok());
  a.write_pins = root_.string();
  EXPECT_FALSE(parsed(a).is_ok());
}

}  // namespace
