// Differential test of the bulk staging of lists of fixed-width items (stage_fixed_lists in
// src/logical/value_hasher.cpp, over staging.h) and of the masked fixed-width writer, against
// the slow per-value reference (slow_reference.h): List and LargeList of every fixed width
// (1 to 32 bytes), with null lists (whose offsets still span items), null items in some
// 64-list runs only or everywhere, a first offset that is not 0, item arrays with an offset,
// sliced lists, item counts around the 16 / 32 / 64-byte copy sizes and long lists; top-level
// and inside nullable structs, in random batch splits. Nullable fixed-width columns of every
// width and null density run through the same comparison.
//
// Item buffers are allocated at their exact size (std::vector, not Arrow's padded
// allocations), so that a copy reading past the items the offsets vouch for is caught by the
// ASan build.
#include <arrow/api.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "logical_test_support.h"
#include "slow_reference.h"

namespace odf_hash::test {
namespace {

using arrow::field;

class ListGen {
 public:
  explicit ListGen(uint64_t seed) : rng_(seed) {}

  int64_t below(int64_t n) { return static_cast<int64_t>(rng_() % static_cast<uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }

  std::shared_ptr<arrow::DataType> item_type() {
    static const std::shared_ptr<arrow::DataType> types[] = {
        arrow::int8(),    arrow::uint8(),           arrow::int16(),          arrow::float16(),
        arrow::int32(),   arrow::float32(),         arrow::date32(),         arrow::int64(),
        arrow::float64(), arrow::decimal128(38, 2), arrow::decimal256(76, 4)};
    return types[below(11)];
  }

  // An item count: mostly short (the branch-free runs), around the copy sizes, or long.
  int64_t count(int profile, int64_t width) {
    switch (profile) {
      case 0: return below(4);
      case 1: return below(8);
      case 2: {
        const int64_t bytes[] = {0, 15, 16, 17, 31, 32, 33, 63, 64, 65};
        return bytes[below(10)] / width + below(2);
      }
      case 3: return chance(3) ? 1100 + below(400) : below(70);
      default: return chance(50) ? 0 : below(3);
    }
  }

  // n values of `type` of random bytes (decimals kept within their precision).
  std::shared_ptr<arrow::Buffer> values(const arrow::DataType& type, int64_t n) {
    const int64_t width = type.byte_width();
    std::vector<uint8_t> bytes(static_cast<size_t>(n * width));
    for (auto& b : bytes) b = static_cast<uint8_t>(rng_());
    if (arrow::is_decimal(type.id())) {
      for (int64_t i = 0; i < n; ++i) bytes[static_cast<size_t>((i + 1) * width - 1)] = 0;
    }
    return exact(std::move(bytes));
  }

  template <typename T>
  std::shared_ptr<arrow::Buffer> exact(std::vector<T> v) {
    v.shrink_to_fit();
    return arrow::Buffer::FromVector(std::move(v));
  }

  // `percent` nulls (no bitmap when percent < 0); for items, nulls in some 64-item stretches
  // only when `patchy`.
  std::shared_ptr<arrow::Buffer> validity(int64_t n, int percent, bool patchy, int64_t& nulls) {
    nulls = 0;
    if (percent < 0) return nullptr;
    std::vector<uint8_t> bits(static_cast<size_t>((n + 7) / 8));
    bool stretch_has_nulls = true;
    for (int64_t i = 0; i < n; ++i) {
      if (patchy && i % 64 == 0) stretch_has_nulls = chance(20);
      const bool valid = !(stretch_has_nulls && chance(percent));
      if (valid) bits[static_cast<size_t>(i / 8)] |= static_cast<uint8_t>(1 << (i % 8));
      nulls += !valid;
    }
    return exact(std::move(bits));
  }
  int null_percent() {
    static const int p[] = {-1, 0, 3, 30, 90, 100};
    return p[below(6)];
  }

  // A List (Offset int32_t) or LargeList (int64_t) column of n slots over an item array that
  // may itself be a slice.
  template <typename Offset>
  std::shared_ptr<arrow::Array> lists(int64_t n) {
    const auto type = item_type();
    const int64_t width = type->byte_width();
    const int profile = static_cast<int>(below(5));
    int64_t list_nulls = 0;
    auto list_bits = validity(n, null_percent(), false, list_nulls);
    std::vector<Offset> off{static_cast<Offset>(chance(30) ? below(20) : 0)};
    for (int64_t i = 0; i < n; ++i)
      off.push_back(off.back() + static_cast<Offset>(count(profile, width)));
    const int64_t item_skip = chance(30) ? below(9) : 0;
    const int64_t items_len = static_cast<int64_t>(off.back()) + (chance(30) ? below(5) : 0);
    const int64_t total = item_skip + items_len;
    int64_t item_nulls = 0;
    const int item_percent = chance(60) ? -1 : null_percent();
    auto item_bits = validity(total, item_percent, chance(50), item_nulls);
    auto items = arrow::MakeArray(
        arrow::ArrayData::Make(type, total, {item_bits, values(*type, total)}, item_nulls));
    items = items->Slice(item_skip, items_len);
    const auto list_type = sizeof(Offset) == 4 ? arrow::list(type) : arrow::large_list(type);
    return arrow::MakeArray(arrow::ArrayData::Make(list_type, n, {list_bits, exact(std::move(off))},
                                                   {items->data()}, list_nulls));
  }

  // A nullable fixed-width column.
  std::shared_ptr<arrow::Array> fixed(int64_t n) {
    const auto type = item_type();
    int64_t nulls = 0;
    auto bits = validity(n, null_percent(), chance(50), nulls);
    return arrow::MakeArray(arrow::ArrayData::Make(type, n, {bits, values(*type, n)}, nulls));
  }

  std::shared_ptr<arrow::Array> column(int64_t n) {
    const int64_t extra = chance(40) ? below(70) : 0;
    std::shared_ptr<arrow::Array> a;
    switch (below(3)) {
      case 0: a = lists<int32_t>(n + extra); break;
      case 1: a = lists<int64_t>(n + extra); break;
      default: a = fixed(n + extra); break;
    }
    return a->Slice(below(extra + 1), n);
  }

 private:
  std::mt19937_64 rng_;
};

TEST(ListStaging, MatchesSlowReference) {
  int tables = 0, columns = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    ListGen g(seed);
    const int64_t n = g.chance(5) ? 0 : g.chance(30) ? 200 + g.below(800) : g.below(150);
    const int64_t ncols = 1 + g.below(3);
    arrow::FieldVector fields;
    std::vector<std::shared_ptr<arrow::Array>> cols;
    for (int64_t c = 0; c < ncols; ++c) {
      std::shared_ptr<arrow::Array> col = g.column(n);
      ASSERT_TRUE(col->ValidateFull().ok()) << "seed " << seed << ": " << col->ValidateFull();
      if (g.chance(25)) {
        int64_t nulls = 0;
        auto bits = g.validity(n, 50, false, nulls);
        col = std::make_shared<arrow::StructArray>(arrow::struct_({field("s", col->type())}), n,
                                                   arrow::ArrayVector{col}, bits, nulls);
      }
      fields.push_back(field("c" + std::to_string(c), col->type()));
      cols.push_back(col);
    }
    auto table = arrow::RecordBatch::Make(arrow::schema(fields), n, cols);
    const auto batches = random_batches(table, g);
    slow::Record ref;
    const std::string expected = ref.digest(batches);
    for (auto multi_lane :
         {LogicalHashOptions::MultiLane::kOff, LogicalHashOptions::MultiLane::kOn}) {
      LogicalHashOptions options;
      options.multi_lane = multi_lane;
      ASSERT_EQ(batches_hex(batches, options), expected)
          << "seed " << seed << " schema " << table->schema()->ToString() << " in "
          << batches.size() << " batches, multi-lane "
          << (multi_lane == LogicalHashOptions::MultiLane::kOn ? "on" : "off");
    }
    for (const auto& col : cols) {
      if (col->type_id() == arrow::Type::STRUCT) continue;
      ASSERT_EQ(array_hex(col), slow::array_digest(*col))
          << "seed " << seed << " column " << col->type()->ToString();
      ++columns;
    }
    ++tables;
  }
  EXPECT_EQ(tables, 300);
  EXPECT_GT(columns, 300);
}

}  // namespace
}  // namespace odf_hash::test
