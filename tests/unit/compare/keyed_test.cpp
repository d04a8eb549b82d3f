// compare_keyed (keyed.h) against a plain in-memory reference: per key, each side's multiset
// of values in a std::map, counted by the definitions in keyed.h. Tables of a few hundred
// thousand rows, so that every partition holds entries, partitions span several spill blocks
// and batches end mid-run; keys short enough to be kept whole (int64) and long enough to be
// hashed (strings), nulls among them; keys only on one side, held by several rows, and held
// by one row a side with another value. What is equal and what is not comes from how the
// tables were built, never from compare_keyed.
#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "odf_hash/compare/keyed.h"
#include "odf_hash/io/local_store.h"
#include "reader_fixtures.h"

namespace odf_hash::test {
namespace {

// A row: its key (nullopt: a null key) and its value.
struct Row {
  std::optional<int64_t> key;
  int64_t value = 0;
};

// Int64 keys in an IPC file, in a Parquet file of many row groups (the rows shown are read
// again from the row group holding the first), or long string keys.
enum class KeyKind { kInt, kIntParquet, kLongString };

std::string key_text(int64_t k) {
  return "customer-" + std::to_string(1000000000 + k);  // 19 bytes: hashed, never kept whole
}

std::string write_rows(const std::string& name, const std::vector<Row>& rows, KeyKind kind) {
  arrow::Int64Builder ik, v;
  arrow::StringBuilder sk;
  for (const Row& r : rows) {
    if (kind != KeyKind::kLongString) {
      EXPECT_TRUE((r.key ? ik.Append(*r.key) : ik.AppendNull()).ok());
    } else {
      EXPECT_TRUE((r.key ? sk.Append(key_text(*r.key)) : sk.AppendNull()).ok());
    }
    EXPECT_TRUE(v.Append(r.value).ok());
  }
  auto key_type = kind != KeyKind::kLongString ? arrow::int64() : arrow::utf8();
  std::shared_ptr<arrow::Array> keys =
      kind != KeyKind::kLongString ? ok_or_die(ik.Finish()) : ok_or_die(sk.Finish());
  auto table = arrow::Table::Make(
      arrow::schema({arrow::field("id", key_type), arrow::field("value", arrow::int64())}),
      {keys, ok_or_die(v.Finish())});
  if (kind == KeyKind::kIntParquet) {
    ParquetOptions options;
    options.row_group_size = 7001;
    return write_parquet(name + ".parquet", table, options);
  }
  return write_ipc(name + ".arrow", table, /*stream=*/false, /*legacy=*/false, /*chunk=*/70001);
}

Table table_of(const std::string& path) {
  auto o = open_local_file(path);
  EXPECT_TRUE(o.is_ok()) << o.status().message();
  return Table::of(std::move(o).value());
}

// What compare_keyed must find, worked out from the rows alone.
struct Expected {
  uint64_t only_a = 0, only_b = 0;
  uint64_t dup_keys_a = 0, dup_rows_a = 0, dup_keys_b = 0, dup_rows_b = 0;
  uint64_t matched = 0, changed = 0;
  std::optional<uint64_t> first_changed_row_a;  // of the one-row-a-side changes
};

Expected reference(const std::vector<Row>& a, const std::vector<Row>& b) {
  // key -> (rows of a: values, first row), (values of b)
  std::map<std::optional<int64_t>, std::multiset<int64_t>> va, vb;
  std::map<std::optional<int64_t>, uint64_t> row_a;
  for (size_t i = 0; i < a.size(); ++i) {
    va[a[i].key].insert(a[i].value);
    row_a.emplace(a[i].key, i);
  }
  for (const Row& r : b) vb[r.key].insert(r.value);
  Expected e;
  for (const auto& [k, values] : va) {
    auto it = vb.find(k);
    if (it == vb.end()) {
      e.only_a += values.size();
      continue;
    }
    ++e.matched;
    if (values.size() > 1) {
      ++e.dup_keys_a;
      e.dup_rows_a += values.size();
    }
    if (it->second.size() > 1) {
      ++e.dup_keys_b;
      e.dup_rows_b += it->second.size();
    }
    if (values != it->second) {
      ++e.changed;
      if (values.size() == 1 && it->second.size() == 1 &&
          (!e.first_changed_row_a || row_a[k] < *e.first_changed_row_a)) {
        e.first_changed_row_a = row_a[k];
      }
    }
  }
  for (const auto& [k, values] : vb) {
    if (va.count(k) == 0) e.only_b += values.size();
  }
  return e;
}

constexpr int64_t kKeys = 150000;

// The original: keys 0..kKeys-1 (every 1000th held by two rows with one value, key 7 null),
// value 3k + 1.
std::vector<Row> original_rows() {
  std::vector<Row> rows;
  for (int64_t k = 0; k < kKeys; ++k) {
    rows.push_back({k == 7 ? std::nullopt : std::optional<int64_t>(k), 3 * k + 1});
    if (k % 1000 == 0) rows.push_back({k, 3 * k + 1});
  }
  return rows;
}

std::vector<Row> shuffled(std::vector<Row> rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::shuffle(rows.begin(), rows.end(), rng);
  return rows;
}

// The reproduction: shuffled; every 501st key dropped, 300 new keys, every 777th key's value
// changed, key 2000 held by a third row (another multiset), key 5 by two rows.
std::vector<Row> edited(const std::vector<Row>& original) {
  std::vector<Row> rows;
  for (const Row& r : original) {
    if (r.key && *r.key % 501 == 0) continue;
    Row x = r;
    if (r.key && *r.key % 777 == 3) x.value += 1;
    rows.push_back(x);
  }
  for (int64_t k = kKeys; k < kKeys + 300; ++k) rows.push_back({k, 3 * k + 1});
  rows.push_back({2000, 6001});
  rows.push_back({5, 16});
  return shuffled(std::move(rows), 42);
}

void expect_matches(const compare::KeyedComparison& got, const Expected& e, uint64_t rows_a,
                    uint64_t rows_b) {
  EXPECT_EQ(got.original.rows, rows_a);
  EXPECT_EQ(got.reproduced.rows, rows_b);
  EXPECT_EQ(got.original.only_here, e.only_a);
  EXPECT_EQ(got.reproduced.only_here, e.only_b);
  EXPECT_EQ(got.original.duplicate_keys, e.dup_keys_a);
  EXPECT_EQ(got.original.duplicate_rows, e.dup_rows_a);
  EXPECT_EQ(got.reproduced.duplicate_keys, e.dup_keys_b);
  EXPECT_EQ(got.reproduced.duplicate_rows, e.dup_rows_b);
  EXPECT_EQ(got.matched_keys, e.matched);
  EXPECT_EQ(got.changed_keys, e.changed);
}

class KeyedByKind : public ::testing::TestWithParam<KeyKind> {};

TEST_P(KeyedByKind, FindsWhatTheReferenceFinds) {
  const std::string tag = std::to_string(int(GetParam()));
  const auto a = original_rows();
  const auto b = edited(a);
  const Expected e = reference(a, b);
  ASSERT_GT(e.only_a, 0u);
  ASSERT_GT(e.only_b, 0u);
  ASSERT_GT(e.changed, 100u);
  ASSERT_GT(e.dup_keys_a, 0u);
  compare::KeyedOptions options;
  options.key = {"id"};
  auto got = compare::compare_keyed(table_of(write_rows("keyed_a_" + tag, a, GetParam())),
                                    table_of(write_rows("keyed_b_" + tag, b, GetParam())), options);
  ASSERT_TRUE(got.is_ok()) << got.status().message();
  expect_matches(*got, e, a.size(), b.size());
  EXPECT_FALSE(got->same_records);
  EXPECT_FALSE(got->same_values);
  ASSERT_FALSE(got->changes.empty());
  ASSERT_TRUE(e.first_changed_row_a.has_value());
  EXPECT_EQ(got->changes[0].original_row, *e.first_changed_row_a);
  const Row& ra = a[*e.first_changed_row_a];
  const Row& rb = b[got->changes[0].reproduced_row];
  EXPECT_EQ(rb.key, ra.key);
  // The two rows read again: the value column, before and after.
  ASSERT_EQ(got->changes[0].values.size(), 1u);
  EXPECT_EQ(got->changes[0].values[0].column, "value");
  EXPECT_EQ(got->changes[0].values[0].original, std::to_string(ra.value));
  EXPECT_EQ(got->changes[0].values[0].reproduced, std::to_string(rb.value));
}

TEST_P(KeyedByKind, AShuffledCopyHoldsTheSameRecords) {
  const std::string tag = std::to_string(int(GetParam()));
  const auto a = original_rows();
  const auto b = shuffled(a, 7);
  compare::KeyedOptions options;
  options.key = {"id"};
  auto got =
      compare::compare_keyed(table_of(write_rows("keyed_same_a_" + tag, a, GetParam())),
                             table_of(write_rows("keyed_same_b_" + tag, b, GetParam())), options);
  ASSERT_TRUE(got.is_ok()) << got.status().message();
  expect_matches(*got, reference(a, b), a.size(), b.size());
  EXPECT_TRUE(got->same_records);
  EXPECT_EQ(got->matched_keys, uint64_t(kKeys));
  EXPECT_EQ(got->original.duplicate_keys, uint64_t(kKeys / 1000));
}

INSTANTIATE_TEST_SUITE_P(Keys, KeyedByKind,
                         ::testing::Values(KeyKind::kInt, KeyKind::kIntParquet,
                                           KeyKind::kLongString),
                         [](const auto& p) {
                           return p.param == KeyKind::kInt          ? "Int64"
                                  : p.param == KeyKind::kIntParquet ? "Int64Parquet"
                                                                    : "LongString";
                         });

}  // namespace
}  // namespace odf_hash::test
