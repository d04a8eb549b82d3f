// Pin files (verify_pins.h): the check-list format with datasets for paths. Expected lines are
// written by hand here (the format of check_list.h), hashes are arbitrary valid multihashes.
#include <gtest/gtest.h>

#include "odf_hash/verify_pins.h"

namespace odf_hash::odf {
namespace {

const std::string kA = "f1620" + std::string(64, 'a');
const std::string kB = "f1620" + std::string(64, 'b');

Multihash hash(const std::string& text) {
  return Multihash::parse(text).value();
}

TEST(PinFile, FindsTheLastPinOfADatasetIgnoringTrailingSlashes) {
  PinFile f = PinFile::parse("# trusted heads\n" + kA + "  ds/one\n" + kB + "  ds/one/\n" + kA +
                             "  s3://bucket/two\n");
  EXPECT_TRUE(f.problems().empty());
  ASSERT_TRUE(f.find("ds/one").has_value());
  EXPECT_EQ(f.find("ds/one")->to_string(), kB);
  EXPECT_EQ(f.find("ds/one//")->to_string(), kB);
  EXPECT_EQ(f.find("s3://bucket/two")->to_string(), kA);
  EXPECT_FALSE(f.find("ds").has_value());
}

TEST(PinFile, SetReplacesInPlaceOrAppends) {
  PinFile f = PinFile::parse(kA + "  one\n" + kA + "  two\n" + kA + "  one/\n");
  f.set("one", hash(kB));
  f.set("three dir/with space", hash(kA));
  EXPECT_EQ(f.to_text(), kB + "  one\n" + kA + "  two\n" + kA + "  three dir/with space\n");
}

TEST(PinFile, UserInformationOfAUrlIsNeverWritten) {
  PinFile f;
  f.set("https://user:secret@example.org/ds", hash(kA));
  EXPECT_EQ(f.to_text().find("secret"), std::string::npos);
  EXPECT_TRUE(f.find("https://user:secret@example.org/ds").has_value());
}

TEST(PinFile, MalformedLinesAreReportedWithTheirNumber) {
  PinFile f = PinFile::parse(kA + "  ok\nnot a pin\n");
  ASSERT_EQ(f.problems().size(), 1u);
  EXPECT_EQ(f.problems()[0].line, 2u);
  EXPECT_EQ(f.entries().size(), 1u);
}

}  // namespace
}  // namespace odf_hash::odf
