// Check-list parsing. Hashes are SHA3-256("abc") and SHA3-256("") (FIPS 202 examples) as
// sha3-256 multihashes, encoded in the various bases by Python (hashlib + base64 + a
// base58btc loop), not by odf-hash.
#include "odf_hash/core/check_list.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using odf_hash::CheckList;
using odf_hash::format_check_line;
using odf_hash::HashCode;
using odf_hash::Multihash;
using odf_hash::parse_check_line;
using odf_hash::parse_check_list;
using odf_hash::StatusCode;
using odf_hash::to_hex;

namespace {

constexpr const char* kAbcHex = "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532";
constexpr const char* kEmptyHex =
    "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a";
const std::string kAbcF = std::string("f1620") + kAbcHex;
const std::string kEmptyF = std::string("f1620") + kEmptyHex;
constexpr const char* kAbcZ = "zW1dPidZ6r5gZPoADdz6TDXv967KaD93Y9LEtYS9QLo8m7F";
constexpr const char* kAbcB = "bcyqdvgc5u5h6ejnsarobolll2oil3bk7bbxd5hkslndl7ysfcfbrkmq";
constexpr const char* kAbcU = "uFiA6mF2nT-IlsgRcFy1r05C9hV8Ibj6dUltGv-JFEUMVMg";

Multihash abc_hash() {
  auto h = Multihash::parse(kAbcF);
  EXPECT_TRUE(h.is_ok());
  return *h;
}

}  // namespace

TEST(CheckList, ParsesTextAndBinaryModeLines) {
  CheckList list = parse_check_list(kAbcF + "  data/a.parquet\n" + kEmptyF + " *b c.bin\n");
  ASSERT_TRUE(list.problems.empty());
  ASSERT_EQ(list.entries.size(), 2u);
  EXPECT_EQ(list.entries[0].path, "data/a.parquet");
  EXPECT_EQ(list.entries[0].line, 1u);
  EXPECT_EQ(list.entries[0].expected.code(), HashCode::kSha3_256);
  EXPECT_EQ(to_hex(list.entries[0].expected.digest()), kAbcHex);
  EXPECT_EQ(list.entries[1].path, "b c.bin");
  EXPECT_EQ(list.entries[1].line, 2u);
  EXPECT_EQ(to_hex(list.entries[1].expected.digest()), kEmptyHex);
}

TEST(CheckList, AcceptsHashesInAnyMultibase) {
  for (std::string hash :
       {kAbcF,
        std::string("F1620") + "3A985DA74FE225B2045C172D6BD390BD855F086E3E9D525B46BFE24511431532",
        std::string(kAbcZ), std::string(kAbcB), std::string(kAbcU)}) {
    CheckList list = parse_check_list(hash + "  x\n");
    ASSERT_EQ(list.entries.size(), 1u) << hash;
    EXPECT_EQ(list.entries[0].expected, abc_hash()) << hash;
  }
}

TEST(CheckList, IgnoresBlankAndCommentLinesAndCountsThem) {
  CheckList list = parse_check_list("# odf-hash check list\n\n   \n\t# indented comment\n" + kAbcF +
                                    "  a\r\n\r\n" + kEmptyF + "  b");
  ASSERT_TRUE(list.problems.empty());
  ASSERT_EQ(list.entries.size(), 2u);
  EXPECT_EQ(list.entries[0].path, "a");  // CRLF: the '\r' is not part of the path
  EXPECT_EQ(list.entries[0].line, 5u);
  EXPECT_EQ(list.entries[1].path, "b");  // no final newline
  EXPECT_EQ(list.entries[1].line, 7u);
}

TEST(CheckList, PathKeepsInnerAndTrailingSpaces) {
  CheckList list = parse_check_list(kAbcF + "   leading and trailing  \n");
  ASSERT_EQ(list.entries.size(), 1u);
  EXPECT_EQ(list.entries[0].path, " leading and trailing  ");
}

TEST(CheckList, ReportsEachMalformedLineWithItsNumberAndGoesOn) {
  const std::string text = kAbcF + "  ok-1\n" +          // 1
                           kAbcF + "\n" +                // 2: no path
                           kAbcF + " one-space\n" +      // 3: one space
                           kAbcF + "  \n" +              // 4: empty path
                           "f1620abcd  short\n" +        // 5: bad hash
                           "xyz  unknown-base\n" +       // 6: bad hash
                           kEmptyF + "  ok-7\n" +        // 7
                           "\\" + kAbcF + "  bad\\q\n";  // 8: bad escape
  CheckList list = parse_check_list(text);
  ASSERT_EQ(list.entries.size(), 2u);
  EXPECT_EQ(list.entries[0].line, 1u);
  EXPECT_EQ(list.entries[1].line, 7u);
  ASSERT_EQ(list.problems.size(), 6u);
  EXPECT_EQ(list.problems[0].line, 2u);
  EXPECT_NE(list.problems[0].reason.find("no path"), std::string::npos);
  EXPECT_EQ(list.problems[1].line, 3u);
  EXPECT_NE(list.problems[1].reason.find("two spaces"), std::string::npos);
  EXPECT_EQ(list.problems[2].line, 4u);
  EXPECT_EQ(list.problems[2].reason, "empty path");
  EXPECT_EQ(list.problems[3].line, 5u);
  EXPECT_EQ(list.problems[3].reason.rfind("invalid hash: ", 0), 0u);
  EXPECT_EQ(list.problems[4].line, 6u);
  EXPECT_EQ(list.problems[4].reason.rfind("invalid hash: ", 0), 0u);
  EXPECT_EQ(list.problems[5].line, 8u);
  EXPECT_NE(list.problems[5].reason.find("unknown escape"), std::string::npos);
}

TEST(CheckList, ParseLineClassifiesBlankCommentEntryAndError) {
  auto blank = parse_check_line("  \r", 3);
  ASSERT_TRUE(blank.is_ok());
  EXPECT_FALSE(blank->has_value());
  auto comment = parse_check_line("#" + kAbcF + "  x", 3);
  ASSERT_TRUE(comment.is_ok());
  EXPECT_FALSE(comment->has_value());
  auto entry = parse_check_line(kAbcF + "  x", 3);
  ASSERT_TRUE(entry.is_ok());
  ASSERT_TRUE(entry->has_value());
  EXPECT_EQ((*entry)->line, 3u);
  auto error = parse_check_line("nonsense", 3);
  ASSERT_FALSE(error.is_ok());
  EXPECT_EQ(error.status().code(), StatusCode::kParseError);
}

TEST(CheckList, NulInPathIsMalformed) {
  std::string line = kAbcF + "  a";
  line.push_back('\0');
  line += "b";
  CheckList list = parse_check_list(line);
  EXPECT_TRUE(list.entries.empty());
  ASSERT_EQ(list.problems.size(), 1u);
  EXPECT_EQ(list.problems[0].reason, "path contains a NUL byte");
}

TEST(CheckList, FormatWritesTwoSpacesAndCanonicalHash) {
  EXPECT_EQ(format_check_line(abc_hash(), "dir/file name"), kAbcF + "  dir/file name");
}

// coreutils' convention for names holding a newline or a backslash.
TEST(CheckList, FormatEscapesNewlineCarriageReturnAndBackslash) {
  const std::string path = "a\\b\nc\rd";
  const std::string line = format_check_line(abc_hash(), path);
  EXPECT_EQ(line, "\\" + kAbcF + "  a\\\\b\\nc\\rd");
  CheckList list = parse_check_list(line + "\n");
  ASSERT_EQ(list.entries.size(), 1u);
  EXPECT_EQ(list.entries[0].path, path);
  EXPECT_EQ(list.entries[0].expected, abc_hash());
}

// Other control characters (escape sequences that would drive a terminal) as \xHH behind the
// same leading backslash; every byte from 0x00 to 0x1f and 0x7f round-trips.
TEST(CheckList, FormatEscapesOtherControlCharactersAsHex) {
  const std::string path = std::string("t\x1b]0;x\x07") + "\x7f" + "end";
  const std::string line = format_check_line(abc_hash(), path);
  EXPECT_EQ(line, "\\" + kAbcF + "  t\\x1b]0;x\\x07\\x7fend");
  for (int c = 1; c < 0x20; ++c) {
    const std::string p = std::string("n") + static_cast<char>(c) + "m";
    const std::string l = format_check_line(abc_hash(), p);
    for (char ch : l) EXPECT_FALSE(static_cast<unsigned char>(ch) < 0x20) << c;
    CheckList list = parse_check_list(l + "\n");
    ASSERT_EQ(list.entries.size(), 1u) << c;
    EXPECT_EQ(list.entries[0].path, p) << c;
  }
  CheckList list = parse_check_list(line + "\n");
  ASSERT_EQ(list.entries.size(), 1u);
  EXPECT_EQ(list.entries[0].path, path);
}

// A \x with fewer than two hex digits is malformed, not a silent byte.
TEST(CheckList, BadHexEscapeIsMalformed) {
  for (const char* bad : {"\\x", "\\x4", "\\xg0", "a\\x1"}) {
    CheckList list = parse_check_list("\\" + kAbcF + "  " + bad + "\n");
    EXPECT_TRUE(list.entries.empty()) << bad;
    EXPECT_EQ(list.problems.size(), 1u) << bad;
  }
}

// The lines the other SHA3-256 tools write, as `openssl dgst -sha3-256 [-r]` printed them for
// a file holding "abc", and as sha3sum / rhash (two spaces) and BSD --tag lines spell them.
TEST(CheckList, ReadsTheListsOfOtherSha3Tools) {
  const std::string upper = "3A985DA74FE225B2045C172D6BD390BD855F086E3E9D525B46BFE24511431532";
  struct Case {
    std::string line;
    std::string path;
    odf_hash::CheckLineFormat format;
  };
  using F = odf_hash::CheckLineFormat;
  for (const Case& c : std::vector<Case>{
           {std::string(kAbcHex) + "  a b.txt", "a b.txt", F::kBareDigest},
           {std::string(kAbcHex) + " *dir/a", "dir/a", F::kBareDigest},
           {upper + "  x", "x", F::kBareDigest},
           {std::string("SHA3-256 (a (1).txt) = ") + kAbcHex, "a (1).txt", F::kBsdTag},
           {std::string("SHA3-256(/tmp/abc)= ") + kAbcHex, "/tmp/abc", F::kBsdTag},
           {std::string("sha3-256 (x) = ") + upper, "x", F::kBsdTag},
           {std::string("\\SHA3-256 (a\\nb) = ") + kAbcHex, "a\nb", F::kBsdTag},
       }) {
    auto parsed = parse_check_line(c.line, 7);
    ASSERT_TRUE(parsed.is_ok()) << c.line << ": " << parsed.status().message();
    ASSERT_TRUE(parsed->has_value()) << c.line;
    const auto& e = **parsed;
    EXPECT_EQ(e.expected, abc_hash()) << c.line;
    EXPECT_EQ(e.path, c.path) << c.line;
    EXPECT_EQ(e.format, c.format) << c.line;
    EXPECT_EQ(e.line, 7u);
  }
}

TEST(CheckList, SaysWhyOtherAlgorithmsAreRefused) {
  // SHA-256("abc") from hashlib: a sha256sum list given to the SHA3 check.
  const std::string sha256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  auto bsd = parse_check_line("SHA256 (a) = " + sha256, 1);
  ASSERT_FALSE(bsd.is_ok());
  EXPECT_NE(bsd.status().message().find("SHA256 checksum, not SHA3-256"), std::string::npos)
      << bsd.status().message();
  // SHA-1("abc"): 40 hex digits.
  auto sha1 = parse_check_line("a9993e364706816aba3e25717850c26c9cd0d89d  a", 1);
  ASSERT_FALSE(sha1.is_ok());
  EXPECT_NE(sha1.status().message().find("160 bits: not SHA3-256"), std::string::npos)
      << sha1.status().message();
  auto short_bsd = parse_check_line("SHA3-256 (a) = 3a985da7", 1);
  ASSERT_FALSE(short_bsd.is_ok());
  EXPECT_NE(short_bsd.status().message().find("64 hex digits"), std::string::npos);
}
