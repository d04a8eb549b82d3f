// records_digest_objects (unordered.h): the ordered digest of a table's records depends on the
// records and their order only, not on how they are split into batches or files (its chunks
// are cut by row index), and the order-independent one is unordered_digest_objects'. Tables
// are written here with Arrow C++; what is equal and what is not comes from how they were
// built.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "odf_hash/compare/unordered.h"
#include "odf_hash/io/local_store.h"
#include "reader_fixtures.h"

namespace odf_hash::test {
namespace {

// The ids `ids` (a null where negative) and their text, in IPC batches of `chunk` rows.
std::string table_file(const std::string& name, const std::vector<int64_t>& ids, int64_t chunk) {
  arrow::Int64Builder b;
  arrow::StringBuilder s;
  for (int64_t id : ids) {
    EXPECT_TRUE((id < 0 ? b.AppendNull() : b.Append(id)).ok());
    EXPECT_TRUE(s.Append("v" + std::to_string(id)).ok());
  }
  auto table = arrow::Table::Make(
      arrow::schema({arrow::field("id", arrow::int64()), arrow::field("s", arrow::utf8())}),
      {ok_or_die(b.Finish()), ok_or_die(s.Finish())});
  return write_ipc(name, table, /*stream=*/false, /*legacy=*/false, chunk);
}

std::vector<std::shared_ptr<ObjectReader>> open_all(const std::vector<std::string>& paths) {
  std::vector<std::shared_ptr<ObjectReader>> out;
  for (const auto& p : paths) {
    auto o = open_local_file(p);
    EXPECT_TRUE(o.is_ok()) << o.status().message();
    if (o.is_ok()) out.push_back(std::move(o).value());
  }
  return out;
}

compare::RecordsDigest digest(const std::vector<std::string>& paths, RowWindow window = {}) {
  auto r = compare::records_digest_objects(open_all(paths), window);
  EXPECT_TRUE(r.is_ok()) << r.status().message();
  return r.is_ok() ? *r : compare::RecordsDigest{};
}

// More than eight chunks of 4096 records, so that the multi-lane and the partial last chunk
// are both taken.
constexpr int64_t kRows = 8 * 4096 + 4096 * 3 + 17;

std::vector<int64_t> ids(int64_t first, int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = i % 97 == 5 ? -1 : first + i;
  return v;
}

TEST(RecordsDigest, BatchesAndFilesDoNotCount) {
  const auto all = ids(0, kRows);
  const compare::RecordsDigest one = digest({table_file("rd_one.arrow", all, 1 << 20)});
  const compare::RecordsDigest small = digest({table_file("rd_small.arrow", all, 1000)});
  const std::vector<int64_t> head(all.begin(), all.begin() + 5000),
      tail(all.begin() + 5000, all.end());
  const compare::RecordsDigest split =
      digest({table_file("rd_head.arrow", head, 333), table_file("rd_tail.arrow", tail, 4096)});
  EXPECT_EQ(one.ordered, small.ordered);
  EXPECT_EQ(one.ordered, split.ordered);
  EXPECT_EQ(one.unordered.digest, split.unordered.digest);
  EXPECT_EQ(one.unordered.rows, uint64_t(kRows));
  // The order-independent part is unordered_digest_objects'.
  auto u = compare::unordered_digest_objects(open_all({fixture_path("rd_small.arrow")}));
  ASSERT_TRUE(u.is_ok()) << u.status().message();
  EXPECT_EQ(u->digest, one.unordered.digest);
}

TEST(RecordsDigest, OrderCountsInTheOrderedDigestOnly) {
  auto all = ids(0, kRows);
  const compare::RecordsDigest a = digest({table_file("rd_order_a.arrow", all, 4000)});
  std::swap(all[10], all[kRows - 3]);  // two records in the first and the last chunk
  const compare::RecordsDigest b = digest({table_file("rd_order_b.arrow", all, 4000)});
  EXPECT_NE(a.ordered, b.ordered);
  EXPECT_EQ(a.unordered.digest, b.unordered.digest);
}

TEST(RecordsDigest, OneRecordMoreOrLess) {
  const auto all = ids(0, kRows);
  const compare::RecordsDigest a = digest({table_file("rd_len_a.arrow", all, 4096)});
  const std::vector<int64_t> fewer(all.begin(), all.end() - 1);
  const compare::RecordsDigest b = digest({table_file("rd_len_b.arrow", fewer, 4096)});
  EXPECT_NE(a.ordered, b.ordered);
  EXPECT_EQ(b.unordered.rows, uint64_t(kRows - 1));
  // The window of the first kRows - 1 rows of the whole table is that table.
  const compare::RecordsDigest w =
      digest({fixture_path("rd_len_a.arrow")}, RowWindow{0, uint64_t(kRows - 1)});
  EXPECT_EQ(w.ordered, b.ordered);
}

TEST(RecordsDigest, EmptyTable) {
  const compare::RecordsDigest a = digest({table_file("rd_empty_a.arrow", {}, 10)});
  const compare::RecordsDigest b = digest({table_file("rd_empty_b.arrow", {}, 1)});
  EXPECT_EQ(a.ordered, b.ordered);
  EXPECT_EQ(a.unordered.rows, 0u);
  EXPECT_FALSE(compare::records_digest_objects({}).is_ok());
}

}  // namespace
}  // namespace odf_hash::test
