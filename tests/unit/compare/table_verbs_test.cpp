// The one location type (io/table.h, remote/open_table.h): compare, compare_unordered,
// unordered_digest and data_slice take a Table, whether it was opened from paths, from objects,
// from a list of files read as one table or from a window of its rows, and say the same of the
// same records. Expected values come from the reference (the arrow0 hashes recorded in
// tests/conformance/blind_spots.json and vectors.json) and from how the fixtures were built
// (tests/conformance/blind_spots.py: row_count_run_original_whole.parquet holds the records of
// row_count_pyarrow_original.parquet followed by null_order_pyarrow_original.parquet's).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "odf_hash/compare/compare.h"
#include "odf_hash/compare/unordered.h"
#include "odf_hash/io/local_store.h"
#include "odf_hash/io/table.h"
#include "odf_hash/odf/slice.h"
#include "odf_hash/remote/open_table.h"

namespace fs = std::filesystem;
using namespace odf_hash;

namespace {

const fs::path kData = fs::path(ODF_HASH_SOURCE_DIR) / "tests" / "conformance";

std::string blind(const std::string& name) {
  return (kData / "data" / "blind_spots" / (name + ".parquet")).string();
}

nlohmann::json run_pair() {
  std::ifstream in(kData / "blind_spots.json");
  const nlohmann::json spots = nlohmann::json::parse(in);
  for (const auto& p : spots["pairs"]) {
    if (p["name"] == "row_count_run") return p;
  }
  return {};
}

std::vector<std::string> paths(const nlohmann::json& rels) {
  std::vector<std::string> out;
  for (const auto& r : rels) out.push_back((kData / r.get<std::string>()).string());
  return out;
}

Table objects_of(const std::vector<std::string>& files, RowWindow window = {}) {
  Table t;
  for (const auto& f : files) {
    auto o = open_local_file(f);
    EXPECT_TRUE(o.is_ok()) << o.status().message();
    if (o.is_ok()) t.objects.push_back(std::move(o).value());
  }
  t.window = window;
  return t;
}

TEST(TableVerbs, CompareSaysTheSameOfPathsAndOfObjects) {
  const nlohmann::json pair = run_pair();
  ASSERT_FALSE(pair.is_null());
  auto a = open_table(paths(pair["original_files"]));
  auto b = open_table(paths(pair["reproduced_files"]));
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  auto by_path = compare::compare(*a, *b);
  auto by_object = compare::compare(objects_of(paths(pair["original_files"])),
                                    objects_of(paths(pair["reproduced_files"])));
  ASSERT_TRUE(by_path.is_ok()) << by_path.status().message();
  ASSERT_TRUE(by_object.is_ok()) << by_object.status().message();
  for (const auto* c : {&*by_path, &*by_object}) {
    EXPECT_EQ(c->verdict, compare::CompareVerdict::kEquivalent);  // the reference: equal hashes
    EXPECT_EQ(c->original.logical->multihash().to_string(), pair["reference_logical"]);
    EXPECT_EQ(c->records, compare::FileComparison::Records::kDifferent);
    EXPECT_FALSE(c->original.physical.has_value());  // two files: no bytes of one file
    EXPECT_EQ(c->original.logical->num_rows, pair["rows"][0].get<uint64_t>());
    EXPECT_EQ(c->reproduced.logical->num_rows, pair["rows"][1].get<uint64_t>());
  }
  EXPECT_EQ(by_path->original.path, a->name());
  EXPECT_NE(by_path->original.path.find(" + "), std::string::npos);
  EXPECT_EQ(by_path->original.size, by_object->original.size);
  EXPECT_EQ(by_path->original.size, fs::file_size(blind("row_count_pyarrow_original")) +
                                        fs::file_size(blind("null_order_pyarrow_original")));
}

TEST(TableVerbs, AFileAndTheSameRecordsSplitInTwoAreEqual) {
  auto whole = open_table(blind("row_count_run_original_whole"));
  auto split = open_table(
      std::vector{blind("row_count_pyarrow_original"), blind("null_order_pyarrow_original")});
  ASSERT_TRUE(whole.is_ok() && split.is_ok());
  auto c = compare::compare(*whole, *split);
  ASSERT_TRUE(c.is_ok()) << c.status().message();
  EXPECT_EQ(c->verdict, compare::CompareVerdict::kEquivalent);
  EXPECT_EQ(c->records, compare::FileComparison::Records::kEqual);
  EXPECT_TRUE(compare::reproduction_verified(*c));

  auto dw = compare::unordered_digest(*whole);
  auto ds = compare::unordered_digest(*split);
  ASSERT_TRUE(dw.is_ok() && ds.is_ok());
  EXPECT_EQ(dw->digest, ds->digest);
  EXPECT_EQ(ds->rows, 10u);

  auto u = compare::compare_unordered(*whole, *split);
  ASSERT_TRUE(u.is_ok()) << u.status().message();
  EXPECT_TRUE(u->same_records);
  EXPECT_EQ(u->original.digest.rows, 10u);
}

// A table whose file only holds records (Arrow data in memory spilled for the comparison) is
// never compared as a file's bytes: the same file on both sides is then equivalent, not
// identical, and a slice of it is refused.
TEST(TableVerbs, ARecordsOnlyTableIsNeverAFile) {
  auto a = open_table(blind("row_count_run_original_whole"));
  auto b = open_table(blind("row_count_run_original_whole"));
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  ASSERT_TRUE(a->one_file());
  auto same = compare::compare(*a, *b);
  ASSERT_TRUE(same.is_ok()) << same.status().message();
  EXPECT_EQ(same->verdict, compare::CompareVerdict::kIdentical);
  b->records_only = true;
  EXPECT_FALSE(b->one_file());
  auto c = compare::compare(*a, *b);
  ASSERT_TRUE(c.is_ok()) << c.status().message();
  EXPECT_EQ(c->verdict, compare::CompareVerdict::kEquivalent);
  EXPECT_EQ(c->records, compare::FileComparison::Records::kEqual);
  EXPECT_FALSE(c->reproduced.physical.has_value());
  EXPECT_EQ(odf::data_slice(*b).status().code(), StatusCode::kInvalidArgument);
}

TEST(TableVerbs, AWindowIsTheRowsItKeeps) {
  // Rows 8 and 9 of the two files read as one table are the second file's.
  auto window = open_table(
      std::vector{blind("row_count_pyarrow_original"), blind("null_order_pyarrow_original")}, {},
      RowWindow{8, 2});
  auto second = open_table(blind("null_order_pyarrow_original"));
  ASSERT_TRUE(window.is_ok() && second.is_ok());
  auto dw = compare::unordered_digest(*window);
  auto d2 = compare::unordered_digest(*second);
  ASSERT_TRUE(dw.is_ok() && d2.is_ok());
  EXPECT_EQ(dw->digest, d2->digest);
  EXPECT_EQ(dw->rows, 2u);
  // Compared with the file: the same records, but never identical (a window of other bytes).
  auto c = compare::compare(*window, *second);
  ASSERT_TRUE(c.is_ok()) << c.status().message();
  EXPECT_EQ(c->verdict, compare::CompareVerdict::kEquivalent);
  EXPECT_EQ(c->records, compare::FileComparison::Records::kEqual);
  // One file whose window leaves rows out is not one whole file either.
  auto one = objects_of({blind("row_count_run_original_whole")}, RowWindow{8, std::nullopt});
  EXPECT_FALSE(one.one_file());
  auto c1 = compare::compare(one, *second);
  ASSERT_TRUE(c1.is_ok()) << c1.status().message();
  EXPECT_FALSE(c1->original.physical.has_value());
  EXPECT_EQ(c1->records, compare::FileComparison::Records::kEqual);
}

TEST(TableVerbs, ASliceIsOfOneWholeFile) {
  std::ifstream in(kData / "vectors.json");
  std::string reference;
  const nlohmann::json vectors = nlohmann::json::parse(in);
  for (const auto& v : vectors["vectors"]) {
    if (v["file"] == "data/pyarrow/base_default.parquet") reference = v["logical"];
  }
  ASSERT_FALSE(reference.empty());
  const std::string file = (kData / "data/pyarrow/base_default.parquet").string();
  auto t = open_table(file);
  ASSERT_TRUE(t.is_ok());
  odf::SliceOptions options;
  options.offset = 100;
  auto s = odf::data_slice(*t, options);
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  EXPECT_EQ(s->logical_hash.to_string(), reference);
  EXPECT_EQ(s->size, fs::file_size(file));
  EXPECT_EQ(s->offset_interval.start, 100u);

  auto two = open_table(std::vector{file, file});
  ASSERT_TRUE(two.is_ok());
  auto refused = odf::data_slice(*two);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  Table windowed = *t;
  windowed.window = RowWindow{1, std::nullopt};
  EXPECT_EQ(odf::data_slice(windowed).status().code(), StatusCode::kInvalidArgument);
}

TEST(TableVerbs, OpeningAndCheckingTables) {
  auto none = open_table(std::vector<std::string>{});
  ASSERT_FALSE(none.is_ok());
  EXPECT_EQ(none.status().code(), StatusCode::kInvalidArgument);
  const std::string missing = (kData / "no-such-file.parquet").string();
  auto absent = open_table(std::vector{blind("null_order_pyarrow_original"), missing});
  ASSERT_FALSE(absent.is_ok());
  EXPECT_NE(absent.status().message().find("no-such-file.parquet"), std::string::npos);

  CancelFlag cancel{false};
  StoreOptions store;
  store.cancel = &cancel;
  auto t = open_table(blind("null_order_pyarrow_original"), store);
  ASSERT_TRUE(t.is_ok());
  EXPECT_EQ(t->cancel, &cancel);
  EXPECT_TRUE(t->one_file());
  cancel = true;  // a cancelled table stops its verbs
  EXPECT_EQ(compare::unordered_digest(*t).status().code(), StatusCode::kCancelled);

  for (const Table& bad : {Table{}, Table{{nullptr}, {}}}) {
    EXPECT_EQ(compare::compare(bad, bad).status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(compare::unordered_digest(bad).status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(odf::data_slice(bad).status().code(), StatusCode::kInvalidArgument);
  }
}

}  // namespace
