// Randomized differential test: the optimised hasher (C Data Interface, staged, word-at-a-
// time) against the slow per-value reference in slow_reference.h, on random types, nesting,
// nulls at every level (with non-zero values under them), slicing and batch splits.
#include <gtest/gtest.h>

#include <random>

#include "logical_test_support.h"
#include "random_arrays.h"
#include "slow_reference.h"

namespace odf_hash::test {
namespace {

using arrow::field;

TEST(LogicalDifferential, OptimisedPathMatchesSlowReference) {
  int tables = 0, columns = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    Gen g(seed);
    arrow::FieldVector fields;
    std::vector<std::shared_ptr<arrow::Array>> cols;
    const int64_t n = g.chance(10) ? 0 : g.below(g.chance(20) ? 700 : 40);
    const int64_t ncols = 1 + g.below(4);
    for (int64_t c = 0; c < ncols; ++c) {
      auto type = g.column_type(3);
      fields.push_back(field("c" + std::to_string(c), type));
      cols.push_back(g.array(type, n));
      ASSERT_TRUE(cols.back()->ValidateFull().ok())
          << "seed " << seed << ": generator made an invalid " << type->ToString() << ": "
          << cols.back()->ValidateFull().ToString();
    }
    auto table = arrow::RecordBatch::Make(arrow::schema(fields), n, cols);
    const auto batches = random_batches(table, g);
    slow::Record ref;
    const std::string expected = ref.digest(batches);
    // The OpenSSL path, and multi-lane Keccak (at this CPU's level) with two threads.
    LogicalHashOptions serial;
    serial.multi_lane = LogicalHashOptions::MultiLane::kOff;
    LogicalHashOptions lanes;
    lanes.multi_lane = LogicalHashOptions::MultiLane::kOn;
    lanes.threads = 2;
    for (const LogicalHashOptions& options : {serial, lanes}) {
      ASSERT_EQ(batches_hex(batches, options), expected)
          << "seed " << seed << " schema " << table->schema()->ToString() << " in "
          << batches.size() << " batches, threads " << options.threads;
    }
    for (const auto& col : cols) {
      if (col->type_id() == arrow::Type::STRUCT) continue;
      ASSERT_EQ(array_hex(col), slow::array_digest(*col))
          << "seed " << seed << " column " << col->type()->ToString();
      ++columns;
    }
    ++tables;
  }
  EXPECT_EQ(tables, 400);
  EXPECT_GT(columns, 400);
}

}  // namespace
}  // namespace odf_hash::test
