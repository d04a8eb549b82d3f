// within_tolerance (compare/tolerance.h) is numpy.isclose's rule with the original as the
// reference, |reproduced - original| <= atol + rtol * |original|, and equal_nan=True: the cases
// below are numpy's documented ones (numpy.isclose's "Notes" and examples), worked by hand.
// compare_within_tolerance refuses a tolerance that is not a finite number >= 0. The values it
// reports on real files are checked against numpy in tests/cli/test_compare_tolerance.py.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "odf_hash/compare/tolerance.h"

using odf_hash::StatusCode;
using odf_hash::compare::Tolerance;
using odf_hash::compare::within_tolerance;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(Tolerance, RelativeToTheOriginal) {
  // numpy.isclose([1e10, 1e-7], [1.00001e10, 1e-8]) -> [True, False] (rtol 1e-5, atol 1e-8)
  const Tolerance numpy_default{1e-5, 1e-8};
  EXPECT_TRUE(within_tolerance(numpy_default, 1e10, 1.00001e10));
  EXPECT_FALSE(within_tolerance(numpy_default, 1e-7, 1e-8));
  // numpy.isclose([1e-8, 1e-7], [0.0, 0.0]) -> [True, False]
  EXPECT_TRUE(within_tolerance(numpy_default, 0.0, 1e-8));
  EXPECT_FALSE(within_tolerance(numpy_default, 0.0, 1e-7));
  // Not symmetric: the original is the reference. |111 - 100| = 11 <= 0.1 * 111, not <= 0.1 * 100.
  EXPECT_TRUE(within_tolerance({0.1, 0}, 111.0, 100.0));
  EXPECT_FALSE(within_tolerance({0.1, 0}, 100.0, 111.0));
  // No tolerance: only the same value.
  EXPECT_TRUE(within_tolerance({}, 2.5, 2.5));
  EXPECT_FALSE(within_tolerance({}, 2.5, std::nextafter(2.5, 3.0)));
  EXPECT_TRUE(within_tolerance({}, -0.0, 0.0));
}

TEST(Tolerance, NanAndInfinities) {
  const Tolerance t{1e-9, 1e-9};
  EXPECT_TRUE(within_tolerance(t, kNan, kNan));  // equal_nan=True
  EXPECT_FALSE(within_tolerance(t, kNan, 1.0));
  EXPECT_FALSE(within_tolerance(t, 1.0, kNan));
  EXPECT_TRUE(within_tolerance(t, kInf, kInf));
  EXPECT_FALSE(within_tolerance(t, kInf, -kInf));
  EXPECT_FALSE(within_tolerance({1e300, 1e300}, kInf, 1e308));
  EXPECT_FALSE(within_tolerance({1e300, 1e300}, 1e308, kInf));
}

TEST(Tolerance, RefusesWhatIsNotAFiniteNonNegativeNumber) {
  for (const Tolerance t :
       {Tolerance{-1e-9, 0}, Tolerance{0, -1}, Tolerance{kNan, 0}, Tolerance{0, kInf}}) {
    auto r = odf_hash::compare::compare_within_tolerance({}, {}, t);
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  }
  auto r = odf_hash::compare::compare_within_tolerance({}, {}, Tolerance{1e-9, 0});
  ASSERT_FALSE(r.is_ok());  // no object on either side
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
