// kamu's canonical JSON (canonical_json.h). The hashes expected are those kamu nodes computed:
// kamu's published answer, and every part of every answer recorded from a kamu 0.265 node
// (tests/data/query/). The literal canonical texts below are the rules those hashes pin down,
// each shown by a recorded answer holding such a value (named in the test).
#include <string>

#include <gtest/gtest.h>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/query/canonical_json.h"
#include "query_vectors.h"

namespace {

using odf_hash::Multihash;
using odf_hash::Sha3_256;
using odf_hash::StatusCode;
using odf_hash::query::canonical_json;
using query_test::published;

std::string hash_of_canonical(const std::string& json_text) {
  auto c = canonical_json(json_text);
  EXPECT_TRUE(c.is_ok()) << c.status().to_string();
  return c.is_ok() ? Multihash::sha3_256(Sha3_256::digest(*c)).to_string() : "";
}

std::string canon(const std::string& text) {
  auto c = canonical_json(text);
  EXPECT_TRUE(c.is_ok()) << text << ": " << c.status().to_string();
  return c.is_ok() ? *c : "";
}

// kamu's published answer (test_data_verify_handler): its three hashes, over the parts as
// kamu's test writes them (nlohmann's dump of them: the parts hold no float).
TEST(CanonicalJson, KamuPublishedAnswer) {
  const auto& a = published()["test_data_verify_handler"]["answer"];
  EXPECT_EQ(hash_of_canonical(a["input"].dump(2)), a["commitment"]["inputHash"]);
  EXPECT_EQ(hash_of_canonical(a["output"].dump()), a["commitment"]["outputHash"]);
  EXPECT_EQ(hash_of_canonical(a["subQueries"].dump()), a["commitment"]["subQueriesHash"]);
  const auto& s = published()["test_data_query_handler_success"];
  EXPECT_EQ(hash_of_canonical(s["input"].dump()), s["commitment"]["inputHash"]);
}

TEST(CanonicalJson, EmptyArrayIsKamusEmptySubQueriesHash) {
  EXPECT_EQ(hash_of_canonical("[ ]"),
            published()["test_data_verify_handler"]["answer"]["commitment"]["subQueriesHash"]);
}

TEST(CanonicalJson, KeysSortedByUtf8BytesNoWhitespace) {
  // answers/literals.json and unicode-query.json: keys with non-ASCII characters.
  EXPECT_EQ(canon(" { \"b\" : 1 , \"a\" : [ 2 , { \"d\":null, \"c\":true } ], \"Z\": false } "),
            "{\"Z\":false,\"a\":[2,{\"c\":true,\"d\":null}],\"b\":1}");
  // U+FFFF sorts before U+1F600 by UTF-8 bytes (UTF-16 order would put it after).
  EXPECT_EQ(canon("{\"\xF0\x9F\x98\x80\":1,\"\xEF\xBF\xBF\":2,\"\xC3\xA9\":3,\"z\":4}"),
            "{\"z\":4,\"\\u00e9\":3,\"\\uffff\":2,\"\\ud83d\\ude00\":1}");
}

TEST(CanonicalJson, NumbersKeepTheirText) {
  // answers/aos.json: 1e+21, 1e-7, -0.0, 1.0, 3.4e+38; literals.json: SQL literals.
  EXPECT_EQ(canon("[1.0, -0.0, -0, 1e+21, 1E5, 1e-7, 2537.07, 0.10]"),
            "[1.0,-0.0,-0,1e+21,1E5,1e-7,2537.07,0.10]");
  // Beyond 64 bits: no rounding either.
  EXPECT_EQ(canon("[18446744073709551616, -9223372036854775809, 12345678901234567890123]"),
            "[18446744073709551616,-9223372036854775809,12345678901234567890123]");
  // A number right after a string holding digits and a minus sign.
  EXPECT_EQ(canon("{\"k\\\"-1\":-2,\"x\":\"3e5\",\"y\":-0}"),
            "{\"k\\\"-1\":-2,\"x\":\"3e5\",\"y\":-0}");
}

TEST(CanonicalJson, StringEscapes) {
  // "Bé" -> "B\u00e9" (issue 35, measured on a kamu node).
  EXPECT_EQ(canon("\"B\xC3\xA9\""), "\"B\\u00e9\"");
  // answers/aos.json, column s: quotes, backslashes, short escapes, other control
  // characters and U+007F, U+2028, U+FEFF, 3- and 4-byte UTF-8; '/' and "'" as themselves.
  EXPECT_EQ(canon("\"q\\\"b\\\\\\/'\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\""),
            "\"q\\\"b\\\\/'\\b\\f\\n\\r\\t\\u0001\\u001f\\u007f\"");
  EXPECT_EQ(canon("\"\\u2028\\ufeff\xE4\xB8\xAD\xF0\x9D\x94\x98\""),
            "\"\\u2028\\ufeff\\u4e2d\\ud835\\udd18\"");
  EXPECT_EQ(canon("\"\\u0000\""), "\"\\u0000\"");
}

TEST(CanonicalJson, RefusesWhatKamuNeverWrites) {
  for (const char* bad : {"{\"a\":1,\"a\":2}", "[1,]", "{\"a\":1} x", "\"\\ud800\"", "\"\xC3\x28\"",
                          "\"\xED\xA0\x80\"", "[1e400]", "[NaN]", "// c\n1", "", "[01]", "\"\x01\"",
                          "\xEF\xBB\xBF{}"}) {
    auto c = canonical_json(bad);
    EXPECT_FALSE(c.is_ok()) << bad;
    if (!c.is_ok()) {
      EXPECT_EQ(c.status().code(), StatusCode::kParseError) << bad;
    }
  }
}

TEST(CanonicalJson, DuplicateKeyNamedWithItsPlace) {
  auto c = canonical_json("{\"input\":{\"datasets\":[{\"id\":1,\"id\":2}]}}");
  ASSERT_FALSE(c.is_ok());
  EXPECT_NE(c.status().message().find("\"id\" appears twice"), std::string::npos)
      << c.status().message();
  EXPECT_NE(c.status().message().find("input.datasets[0]"), std::string::npos)
      << c.status().message();
}

TEST(CanonicalJson, NestingBoundedWithoutRecursion) {
  const size_t max = odf_hash::query::kMaxJsonDepth;
  std::string ok = std::string(max, '[') + std::string(max, ']');
  EXPECT_EQ(canon(ok), ok);
  std::string deep = std::string(max + 1, '[') + std::string(max + 1, ']');
  auto c = canonical_json(deep);
  ASSERT_FALSE(c.is_ok());
  EXPECT_NE(c.status().message().find("deeper than"), std::string::npos);
  // A million levels: refused at the limit, no stack overflow.
  auto huge = canonical_json(std::string(1000000, '[') + std::string(1000000, ']'));
  EXPECT_FALSE(huge.is_ok());
}

TEST(CanonicalJson, AppendStringRefusesBytesThatAreNotUtf8) {
  std::string out = "x";
  EXPECT_FALSE(odf_hash::query::append_canonical_string(out, "\xFF").is_ok());
  EXPECT_EQ(out, "x");
  EXPECT_TRUE(odf_hash::query::append_canonical_string(out, "\xC3\xA9").is_ok());
  EXPECT_EQ(out, "x\"\\u00e9\"");
}

}  // namespace
