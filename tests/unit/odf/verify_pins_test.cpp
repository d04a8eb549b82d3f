// Pin files (verify_pins.h): lines written by hand here (hashes arbitrary valid multihashes,
// ids in two multibases), looked up by every spelling of a location made here (folders,
// links, relative paths), and verify_with_pins over copies of the example datasets, whose
// dataset id is computed here as the generator derives it (OpenSSL's SHA3).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "broken_dataset.h"
#include "odf_hash/odf/verify_pins.h"

namespace {

const std::string kA = "f1620" + std::string(64, 'a');
const std::string kB = "f1620" + std::string(64, 'b');
const std::string kId = "did:odf:fed01" + std::string(64, 'c');

Multihash hash(const std::string& text) {
  return Multihash::parse(text).value();
}

// did:odf:fed01 + SHA3-256("odf-hash example <name>") (scripts/generate_example_datasets.py).
std::string example_id(const std::string& name) {
  const std::string seed = "odf-hash example " + name;
  const auto mh = sha3_multihash(std::vector<uint8_t>(seed.begin(), seed.end()));
  return "did:odf:fed01" + hex_string(mh).substr(5);  // "f1620" + digest -> the digest
}

// A temporary folder (the working folder during the test) holding a copy of the example root
// dataset as ds/, a link to it, and the derivative as other/.
class Pins : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_ = fs::current_path();
    root_ = fs::weakly_canonical(fs::path(::testing::TempDir())) /
            ("odf_pins_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    fs::copy(kSource / "examples/datasets/root", root_ / "ds", fs::copy_options::recursive);
    fs::copy(kSource / "examples/datasets/derivative", root_ / "other",
             fs::copy_options::recursive);
    fs::create_directory_symlink(root_ / "ds", root_ / "link");
    fs::current_path(root_);
    head_ = read_text(root_ / "ds" / "refs" / "head");
  }
  void TearDown() override {
    fs::current_path(saved_);
    fs::remove_all(root_);
  }
  static std::string read_text(const fs::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::string ds() const { return (root_ / "ds").string(); }

  fs::path saved_, root_;
  std::string head_;
};

TEST_F(Pins, EverySpellingOfTheLocationFindsItsPin) {
  auto f = PinFile::parse("# trusted heads\n" + kA + " " + kId + "  " + ds() + "\n" + kB +
                          "  s3://Bucket/two/\n");
  ASSERT_TRUE(f.is_ok()) << f.status().message();
  for (const std::string& spelling : {ds(), std::string("ds"), std::string("./ds/"), "/" + ds(),
                                      std::string("link"), ds() + "/../ds"}) {
    const Pin* p = f->find(spelling);
    ASSERT_NE(p, nullptr) << spelling;
    EXPECT_EQ(p->head.to_string(), kA);
    EXPECT_EQ(p->dataset_id, kId);
    EXPECT_EQ(p->line, 2u);
  }
  const Pin* s3 = f->find("S3://user:secret@Bucket/two");
  ASSERT_NE(s3, nullptr);
  EXPECT_FALSE(s3->dataset_id.has_value());  // an old line: the head only
  EXPECT_EQ(f->find("other"), nullptr);
}

TEST_F(Pins, ALocationNamedTwiceAndMalformedLinesAreErrors) {
  auto twice = PinFile::parse(kA + "  ds\n" + kB + " " + kId + "  ./link/\n", "pins.txt");
  ASSERT_FALSE(twice.is_ok());
  EXPECT_EQ(twice.status().message(),
            "pins.txt:2: \"./link/\" is pinned on line 1 already (both are " + ds() +
                "): a pin file names each dataset once");
  for (const std::string& bad :
       {std::string("not a pin\n"), kA + " did:odf:?  ds\n", kA + " " + kId + " ds\n",
        kA + " " + kId + "\n", kA + " did:web:x  ds\n"}) {
    auto r = PinFile::parse(kA + "  first\n" + bad);
    ASSERT_FALSE(r.is_ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_TRUE(r.status().message().starts_with("line 2: ")) << r.status().message();
  }
}

TEST_F(Pins, LinesRoundTripWithIdsAndEscapes) {
  PinFile f = PinFile::parse(kA + "  old/relative\n").value();
  f.set(Pin{hash(kB), kId, "https://user:secret@Example.org:443/ds/", "", 0});
  f.set(Pin{hash(kA), std::nullopt, "/tmp/odd\nname", "", 0});
  f.set(Pin{hash(kB), std::nullopt, "old/./relative", "", 0});  // replaces line 1
  const std::string text = f.to_text();
  // Written at their canonical locations: the relative line replaced by the pin of its
  // place, the URL without its user information.
  EXPECT_EQ(text, kB + "  " + (root_ / "old" / "relative").string() + "\n" + kB + " " + kId +
                      "  https://example.org/ds\n" + "\\" + kA + "  /tmp/odd\\nname\n");
  EXPECT_EQ(text.find("secret"), std::string::npos);
  auto again = PinFile::parse(text);
  ASSERT_TRUE(again.is_ok()) << again.status().message();
  ASSERT_EQ(again->pins().size(), 3u);
  EXPECT_EQ(again->pins()[1].dataset_id, kId);
  EXPECT_EQ(again->pins()[2].location, "/tmp/odd\nname");
  EXPECT_EQ(again->to_text(), text);
}

TEST(DatasetIds, AnyMultibaseGivesTheHexForm) {
  EXPECT_EQ(canonical_dataset_id("did:odf:fed01aa").value(), "did:odf:fed01aa");
  EXPECT_EQ(canonical_dataset_id("did:odf:FED01AA").value(), "did:odf:fed01aa");
  EXPECT_EQ(canonical_dataset_id("did:odf:b5ua2u").value(), "did:odf:fed01aa");  // base32
  EXPECT_FALSE(canonical_dataset_id("did:odf:").is_ok());
  EXPECT_FALSE(canonical_dataset_id("did:key:fed01").is_ok());
  EXPECT_FALSE(canonical_dataset_id("did:odf:f0").is_ok());
}

TEST_F(Pins, VerifyWithPinsAppliesThePinOfAnySpelling) {
  const std::string id = example_id("root");
  auto pins = PinFile::parse(head_ + " " + id + "  " + ds() + "\n").value();
  auto r = verify_with_pins("./link/", {}, &pins, true);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_TRUE(r->report.valid());
  EXPECT_TRUE(r->report.scope.expected_head_found);
  EXPECT_EQ(r->report.scope.expected_dataset_id, id);
  EXPECT_EQ(r->report.dataset_id, id);
  ASSERT_TRUE(r->pin.has_value());
  EXPECT_EQ(format_pin_line(*r->pin), head_ + " " + id + "  " + ds());
  // Not named by the file: verified without a pin, and the scope says so.
  auto other = verify_with_pins("other", {}, &pins, false);
  ASSERT_TRUE(other.is_ok());
  EXPECT_TRUE(other->report.valid());
  ASSERT_EQ(other->report.scope.skipped.size(), 1u);
  EXPECT_NE(other->report.scope.skipped[0].find("names no pin for \"other\""), std::string::npos);
}

// Another dataset put where the pinned one was: its own id, not the pin's.
TEST_F(Pins, AnotherDatasetInThePlaceIsADistinctProblem) {
  auto pins = PinFile::parse(head_ + " " + example_id("root") + "  " + ds() + "\n").value();
  fs::remove_all(root_ / "ds");
  fs::rename(root_ / "other", root_ / "ds");
  auto r = verify_with_pins("ds", {}, &pins, true);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  ASSERT_EQ(r->report.problems.size(), 2u);
  EXPECT_EQ(r->report.problems[0].kind, ProblemKind::kDatasetIdMismatch);
  EXPECT_EQ(r->report.problems[0].expected, example_id("root"));
  EXPECT_EQ(r->report.problems[0].actual, example_id("derivative"));
  EXPECT_EQ(r->report.problems[1].kind, ProblemKind::kHistoryRewritten);
  EXPECT_FALSE(r->pin.has_value());
  // An old line (no id) gives the head only: history-rewritten alone, and the scope says the
  // id was not checked.
  auto old = PinFile::parse(head_ + "  ds\n").value();
  r = verify_with_pins("ds", {}, &old, false);
  ASSERT_TRUE(r.is_ok());
  ASSERT_EQ(r->report.problems.size(), 1u);
  EXPECT_EQ(r->report.problems[0].kind, ProblemKind::kHistoryRewritten);
  EXPECT_NE(r->report.scope.skipped.at(0).find("dataset id: not checked"), std::string::npos);
}

// --since: a head whose chain below the --since block nothing anchors is not pinned; with the
// trusted head found on the chain it is, with the pin's id (the Seed is not read).
TEST_F(Pins, SinceIsPinnedOnlyWhenAnchored) {
  VerifyOptions since;
  since.since = hash(head_);
  auto r = verify_with_pins("ds", since, nullptr, true);
  ASSERT_TRUE(r.is_ok());
  EXPECT_TRUE(r->report.valid());
  EXPECT_FALSE(r->pin.has_value());
  EXPECT_NE(r->report.scope.skipped.back().find("--write-pins: not pinned: --since"),
            std::string::npos);
  auto pins = PinFile::parse(head_ + " " + example_id("root") + "  ds\n").value();
  r = verify_with_pins("ds", since, &pins, true);
  ASSERT_TRUE(r.is_ok());
  ASSERT_TRUE(r->pin.has_value());
  EXPECT_EQ(r->pin->dataset_id, example_id("root"));
  EXPECT_FALSE(r->report.dataset_id.has_value());
  // A sampled pass is never pinned.
  VerifyOptions sampled;
  sampled.sample_count = 1;
  r = verify_with_pins("ds", sampled, nullptr, true);
  ASSERT_TRUE(r.is_ok());
  EXPECT_FALSE(r->pin.has_value());
}

TEST_F(Pins, WritePinsMergesAndRefusesABrokenFile) {
  const fs::path file = root_ / "pins";
  std::ofstream(file) << kA + "  /elsewhere\n";
  ASSERT_TRUE(write_pins(file.string(), {Pin{hash(kB), kId, "ds", "", 0}}).is_ok());
  EXPECT_EQ(read_text(file), kA + "  /elsewhere\n" + kB + " " + kId + "  " + ds() + "\n");
  auto read = read_pin_file(file.string());
  ASSERT_TRUE(read.is_ok());
  EXPECT_NE(read->find(ds()), nullptr);
  std::ofstream(file, std::ios::app) << "garbage\n";
  Status st = write_pins(file.string(), {Pin{hash(kA), kId, "ds", "", 0}});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find(":3: "), std::string::npos) << st.message();
  EXPECT_NE(read_text(file).find("garbage"), std::string::npos);
  // Larger than kMaxPinFileBytes: refused, whatever it holds.
  fs::resize_file(file, kMaxPinFileBytes + 1);
  auto big = read_pin_file(file.string());
  ASSERT_FALSE(big.is_ok());
  EXPECT_NE(big.status().message().find("larger than 16 MiB"), std::string::npos);
  EXPECT_FALSE(read_pin_file("/dev/zero").is_ok());
  EXPECT_FALSE(check_pin_file_target("/dev/full").is_ok());
}

}  // namespace
