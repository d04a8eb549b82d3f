// odf_hash/odf_hash.hpp, the whole C++ API in one include, compiles on its own (first include
// of this file) and gives every layer's names.
#include "odf_hash/odf_hash.hpp"

#include <gtest/gtest.h>

#include <string>

TEST(Umbrella, GivesEveryLayer) {
  // core, logical, io, remote, odf, compare, query: one name of each, as documented.
  EXPECT_EQ(odf_hash::resolve_threads(3), 3u);
  EXPECT_STREQ(
      odf_hash::compare::compare_verdict_name(odf_hash::compare::CompareVerdict::kDifferent),
      "different");
  EXPECT_STREQ(odf_hash::odf::problem_kind_name(odf_hash::odf::ProblemKind::kFileMissing),
               "file-missing");
  EXPECT_TRUE(odf_hash::RowWindow{}.whole());
  const odf_hash::StoreOptions store;          // io
  const odf_hash::LogicalHashOptions logical;  // logical
  const odf_hash::query::QueryCheck query;     // query
  (void)store;
  (void)logical;
  (void)query;
}
