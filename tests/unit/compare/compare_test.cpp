// compare_files / compare_object_groups (compare.h): the two verdicts kept apart. What ODF
// checks (arrow0) comes from the reference: tests/conformance/blind_spots.json records the
// reference's hash of each file (tests/conformance/blind_spots.py, checked against the
// reference tool by the ctest conformance_blind_spots), vectors.json that of the pyarrow
// fixtures. What the records are comes from the construction written in the same files.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "odf_hash/compare/compare.h"
#include "odf_hash/compare/compare_json.h"
#include "odf_hash/io/local_store.h"

namespace fs = std::filesystem;
using namespace odf_hash;
using namespace odf_hash::compare;

namespace {

const fs::path kConformance = fs::path(ODF_HASH_SOURCE_DIR) / "tests" / "conformance";

nlohmann::json blind_spots() {
  std::ifstream in(kConformance / "blind_spots.json");
  return nlohmann::json::parse(in);
}

FileComparison::Records records_of(const std::string& name) {
  if (name == "equal") return FileComparison::Records::kEqual;
  if (name == "same-other-order") return FileComparison::Records::kSameOtherOrder;
  if (name == "different") return FileComparison::Records::kDifferent;
  return FileComparison::Records::kUnknown;
}

std::string path_of(const nlohmann::json& rel) {
  return (kConformance / rel.get<std::string>()).string();
}

std::vector<std::shared_ptr<ObjectReader>> open_all(const nlohmann::json& rels) {
  std::vector<std::shared_ptr<ObjectReader>> out;
  for (const auto& r : rels) {
    auto o = open_local_file(path_of(r));
    EXPECT_TRUE(o.is_ok()) << o.status().message();
    if (o.is_ok()) out.push_back(std::move(o).value());
  }
  return out;
}

// The records' verdict and where, as the pair's construction says.
void expect_records(const FileComparison& c, const nlohmann::json& pair) {
  const std::string name = pair["name"];
  EXPECT_EQ(c.verdict, CompareVerdict::kEquivalent) << name;  // the reference: equal hashes
  EXPECT_EQ(c.original.logical->multihash().to_string(), pair["reference_logical"]) << name;
  EXPECT_EQ(c.reproduced.logical->multihash().to_string(), pair["reference_logical"]) << name;
  EXPECT_EQ(c.records, records_of(pair["records"])) << name;
  EXPECT_FALSE(reproduction_verified(c)) << name;
  ASSERT_TRUE(c.rows.has_value()) << name;
  EXPECT_EQ(c.rows->original_rows, pair["rows"][0].get<uint64_t>()) << name;
  EXPECT_EQ(c.rows->reproduced_rows, pair["rows"][1].get<uint64_t>()) << name;
  size_t differing = 0;
  for (const auto& col : c.rows->columns) differing += col.differing_rows;
  EXPECT_EQ(differing, pair["differing"].size()) << name;
  for (const auto& d : pair["differing"]) {
    auto col = std::find_if(
        c.rows->columns.begin(), c.rows->columns.end(),
        [&](const compare::ColumnRowDifferences& x) { return x.column == d["field"]; });
    ASSERT_NE(col, c.rows->columns.end()) << name << ": " << d["field"];
    auto row = std::find_if(
        col->first.begin(), col->first.end(),
        [&](const compare::DifferingRow& r) { return r.row == d["row"].get<uint64_t>(); });
    ASSERT_NE(row, col->first.end()) << name << ": row " << d["row"];
    EXPECT_NE(row->original, row->reproduced) << name;
    if (d["null"] == "original") {
      EXPECT_EQ(row->original, "null") << name;
      EXPECT_NE(row->reproduced, "null") << name;
    } else if (d["null"] == "reproduced") {
      EXPECT_NE(row->original, "null") << name;
      EXPECT_EQ(row->reproduced, "null") << name;
    }
  }
  const bool named = std::any_of(c.causes.begin(), c.causes.end(), [&](const auto& k) {
    return k.kind == pair["blind_spot"].get<std::string>();
  });
  EXPECT_TRUE(named) << name << ": the blind spot " << pair["blind_spot"] << " is not named";
  const auto j = nlohmann::json::parse(file_comparison_json(c));
  EXPECT_EQ(j["verdict"], "equivalent") << name;
  EXPECT_EQ(j["records"], pair["records"]) << name;
  EXPECT_EQ(j["verified"], false) << name;
  EXPECT_FALSE(j["differences"].empty()) << name;
}

TEST(Compare, BlindSpotsOfArrow0AreDifferentRecords) {
  const nlohmann::json pairs = blind_spots()["pairs"];
  size_t files = 0;
  for (const auto& pair : pairs) {
    if (pair.contains("original_files")) continue;  // a run: below
    auto c = compare_files(path_of(pair["original"]), path_of(pair["reproduced"]));
    ASSERT_TRUE(c.is_ok()) << c.status().message();
    expect_records(*c, pair);
    ++files;
  }
  EXPECT_GE(files, 12u);
}

TEST(Compare, BlindSpotsInRunsOfFiles) {
  const nlohmann::json pairs = blind_spots()["pairs"];
  size_t runs = 0;
  for (const auto& pair : pairs) {
    if (!pair.contains("original_files")) continue;
    auto c =
        compare_object_groups(open_all(pair["original_files"]), open_all(pair["reproduced_files"]));
    ASSERT_TRUE(c.is_ok()) << c.status().message();
    EXPECT_FALSE(c->original.physical.has_value());  // no bytes of one file to compare
    expect_records(*c, pair);
    ++runs;
  }
  EXPECT_GE(runs, 1u);
}

TEST(Compare, WithoutLocatingTheRecordsStillDiffer) {
  const auto pair = blind_spots()["pairs"][0];
  CompareOptions options;
  options.locate_rows = false;
  auto c = compare_files(path_of(pair["original"]), path_of(pair["reproduced"]), {}, options);
  ASSERT_TRUE(c.is_ok()) << c.status().message();
  EXPECT_EQ(c->verdict, CompareVerdict::kEquivalent);
  EXPECT_EQ(c->records, records_of(pair["records"]));
  EXPECT_FALSE(c->rows.has_value());
  EXPECT_FALSE(reproduction_verified(*c));
  EXPECT_FALSE(c->causes.empty());
}

// The same table written with other codecs and row groups (make_pyarrow_fixtures.py writes
// both from base_table()): the reference's hashes in vectors.json are equal.
TEST(Compare, ReencodedRecordsAreEqualAndVerified) {
  std::ifstream in(kConformance / "vectors.json");
  const auto vectors = nlohmann::json::parse(in)["vectors"];
  std::string ha, hb;
  for (const auto& v : vectors) {
    if (v["file"] == "data/pyarrow/base_default.parquet") ha = v["logical"];
    if (v["file"] == "data/pyarrow/base_zstd_small_groups.parquet") hb = v["logical"];
  }
  ASSERT_FALSE(ha.empty());
  ASSERT_EQ(ha, hb);
  auto c = compare_files((kConformance / "data/pyarrow/base_default.parquet").string(),
                         (kConformance / "data/pyarrow/base_zstd_small_groups.parquet").string());
  ASSERT_TRUE(c.is_ok()) << c.status().message();
  EXPECT_NE(c->original.physical, c->reproduced.physical);
  EXPECT_EQ(c->verdict, CompareVerdict::kEquivalent);
  EXPECT_EQ(c->original.logical->multihash().to_string(), ha);
  EXPECT_EQ(c->records, FileComparison::Records::kEqual);
  EXPECT_TRUE(reproduction_verified(*c));
  EXPECT_FALSE(c->rows.has_value());
  EXPECT_TRUE(c->causes.empty());
  const auto j = nlohmann::json::parse(file_comparison_json(*c));
  EXPECT_EQ(j["records"], "equal");
  EXPECT_EQ(j["verified"], true);
}

TEST(Compare, IdenticalBytesAreEqualRecords) {
  const std::string f = (kConformance / "data/pyarrow/base_default.parquet").string();
  auto c = compare_files(f, f);
  ASSERT_TRUE(c.is_ok()) << c.status().message();
  EXPECT_EQ(c->verdict, CompareVerdict::kIdentical);
  EXPECT_EQ(c->records, FileComparison::Records::kEqual);
  EXPECT_TRUE(reproduction_verified(*c));
  EXPECT_FALSE(c->original.logical.has_value());  // nothing read beyond the bytes
}

// --ignore-order on a blind spot: the records only one side has are named.
TEST(Compare, IgnoreOrderNamesTheRecordsOfABlindSpot) {
  const nlohmann::json pairs = blind_spots()["pairs"];
  for (const auto& pair : pairs) {
    if (pair["name"] != "struct_null_pyarrow") continue;
    auto u =
        compare_unordered_paths_or_urls(path_of(pair["original"]), path_of(pair["reproduced"]));
    ASSERT_TRUE(u.is_ok()) << u.status().message();
    EXPECT_FALSE(u->same_records);
    EXPECT_FALSE(u->same_values);
    EXPECT_EQ(u->original.only_here, 1u);
    EXPECT_EQ(u->reproduced.only_here, 1u);
    ASSERT_EQ(u->original.examples.size(), 1u);
    EXPECT_EQ(u->original.examples[0].row, 0u);
    return;
  }
  FAIL() << "no struct_null_pyarrow pair";
}

}  // namespace
