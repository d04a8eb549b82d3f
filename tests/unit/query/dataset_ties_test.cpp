// Answers tied to copies of their input datasets (verify_query.h, step 4): the copies kamu
// wrote when it answered (tests/data/query/datasets/), and the one whose history `kamu reset`
// rewrote after.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "odf_hash/query/verify_query.h"
#include "query_vectors.h"

namespace {

using odf_hash::StatusCode;
using odf_hash::query::QueryReport;
using odf_hash::query::QueryVerdict;
using odf_hash::query::QueryVerifyOptions;
using odf_hash::query::TieStatus;
using query_test::answer;
using query_test::kData;
using query_test::manifest;

std::string folder(const std::string& name) {
  return (kData / "datasets" / name).string();
}

odf_hash::Result<QueryReport> tied(const std::string& answer_name,
                                   std::vector<odf_hash::query::DatasetLocation> datasets) {
  QueryVerifyOptions o;
  EXPECT_TRUE(o.trusted.add(manifest()["keys"]["A"]["did"].get<std::string>(), "--trust").is_ok());
  o.datasets = std::move(datasets);
  return odf_hash::query::verify_query(answer(answer_name), o);
}

TEST(DatasetTies, OnTheChainOfTheCopyKamuAnsweredFrom) {
  auto r = tied("aos", {{"mix", folder("mix")}});
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  const auto& t = r->queries[0].datasets.at(0);
  EXPECT_EQ(t.status, TieStatus::kOnChain) << t.message;
  EXPECT_EQ(t.block_hash->to_string(), manifest()["datasets"]["mix"]["head"]);
  ASSERT_TRUE(t.report.has_value());
  EXPECT_TRUE(t.report->valid());
  EXPECT_EQ(r->verdict(), QueryVerdict::kValid);
  EXPECT_EQ(r->summary(),
            "VALID (signed by a trusted key; 1 of 1 input dataset tied to a verified copy)");
}

TEST(DatasetTies, AnOlderBlockOfTheChainToo) {
  auto r = tied("before", {{"mix", folder("mix")}});
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  const auto& t = r->queries[0].datasets.at(0);
  EXPECT_EQ(t.status, TieStatus::kOnChain) << t.message;
  EXPECT_EQ(t.block_hash->to_string(), manifest()["datasets"]["mix"]["first_head"]);
  EXPECT_LT(*t.report->scope.expected_head_sequence, t.report->blocks - 1);
}

TEST(DatasetTies, ARewrittenHistoryDoesNotHoldTheBlock) {
  auto r = tied("aos", {{"mix", folder("mix-rewritten")}});
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  const auto& t = r->queries[0].datasets.at(0);
  EXPECT_EQ(t.status, TieStatus::kNotOnChain);
  EXPECT_NE(t.message.find("computed over a history this copy does not contain"), std::string::npos)
      << t.message;
  EXPECT_EQ(r->verdict(), QueryVerdict::kMismatch);
  const std::string id = manifest()["datasets"]["mix"]["id"];
  EXPECT_EQ(r->findings(), std::vector<std::string>{"dataset mix (" + id + ")"});
  // The block below the rewrite is still there.
  auto before = tied("before", {{"mix", folder("mix-rewritten")}});
  ASSERT_TRUE(before.is_ok());
  EXPECT_EQ(before->queries[0].datasets[0].status, TieStatus::kOnChain);
}

TEST(DatasetTies, AnotherDatasetInThePlace) {
  auto r = tied("aos", {{"mix", folder("cities")}});
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  const auto& t = r->queries[0].datasets.at(0);
  EXPECT_EQ(t.status, TieStatus::kCopyInvalid);
  EXPECT_NE(t.message.find("is another dataset"), std::string::npos) << t.message;
}

TEST(DatasetTies, ByIdOrAliasInEveryQuery) {
  const std::string cities_id = manifest()["datasets"]["cities"]["id"];
  auto r = tied("sub-queries", {{"mix", folder("mix")}, {cities_id, folder("cities")}});
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  size_t on_chain = 0, total = 0;
  for (const auto& q : r->queries) {
    for (const auto& t : q.datasets) {
      ++total;
      on_chain += t.status == TieStatus::kOnChain;
    }
  }
  EXPECT_EQ(total, 4u);  // join: mix, cities; get: cities; B's: cities
  EXPECT_EQ(on_chain, 4u);
}

TEST(DatasetTies, NamesThatNameNothingOrOneDatasetTwice) {
  auto none = tied("aos", {{"nope", folder("mix")}});
  ASSERT_FALSE(none.is_ok());
  EXPECT_EQ(none.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(none.status().message().find("it names mix (did:odf:"), std::string::npos)
      << none.status().message();
  const std::string mix_id = manifest()["datasets"]["mix"]["id"];
  auto twice = tied("aos", {{"mix", folder("mix")}, {mix_id, folder("mix")}});
  ASSERT_FALSE(twice.is_ok());
  EXPECT_NE(twice.status().message().find("name one dataset"), std::string::npos);
  auto missing = tied("aos", {{"mix", folder("no-such-copy")}});
  ASSERT_FALSE(missing.is_ok());
  EXPECT_TRUE(missing.status().message().starts_with("--dataset mix: "))
      << missing.status().message();
}

}  // namespace
