// Grouping two datasets' slices into runs that end at one offset on both sides
// (src/odf/slice_runs.h, internal to odf): the offsets below are the expected runs written
// out by hand.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "../../../src/odf/slice_runs.h"

namespace {

using odf_hash::odf::SliceComparison;
using odf_hash::odf::SliceFile;
using odf_hash::odf::detail::slice_runs;

std::vector<SliceFile> files(const std::string& prefix,
                             std::vector<std::pair<uint64_t, uint64_t>> intervals) {
  std::vector<SliceFile> out;
  for (const auto& [s, e] : intervals) {
    out.push_back({prefix + std::to_string(s), {s, e}});
  }
  return out;
}

// (start, end, original files, reproduced files, has error) of each run.
struct Expected {
  uint64_t start, end;
  size_t a, b;
  bool error;
  bool operator==(const Expected&) const = default;
};

std::vector<Expected> shape(const std::vector<SliceComparison>& runs) {
  std::vector<Expected> out;
  for (const auto& r : runs) {
    out.push_back({r.interval.start, r.interval.end, r.original_files.size(),
                   r.reproduced_files.size(), !r.error.empty()});
  }
  return out;
}

TEST(SliceRuns, AlikeSlicesPairOneToOne) {
  auto runs = slice_runs(files("a", {{0, 99}, {100, 149}}), files("b", {{0, 99}, {100, 149}}));
  EXPECT_EQ(shape(runs), (std::vector<Expected>{{0, 99, 1, 1, false}, {100, 149, 1, 1, false}}));
  EXPECT_EQ(runs[1].original_files[0].file, "a100");
  EXPECT_EQ(runs[1].reproduced_files[0].file, "b100");
}

TEST(SliceRuns, OtherBoundariesMakeOneRun) {
  auto runs = slice_runs(files("a", {{0, 99}, {100, 149}, {150, 159}}),
                         files("b", {{0, 119}, {120, 149}, {150, 159}}));
  EXPECT_EQ(shape(runs), (std::vector<Expected>{{0, 149, 2, 2, false}, {150, 159, 1, 1, false}}));
  // Pulled after every ingest vs once: three slices against one.
  runs = slice_runs(files("a", {{0, 9}, {10, 19}, {20, 29}}), files("b", {{0, 29}}));
  EXPECT_EQ(shape(runs), (std::vector<Expected>{{0, 29, 3, 1, false}}));
}

TEST(SliceRuns, TailsAndOtherStartsStayOneSided) {
  auto runs = slice_runs(files("a", {{0, 99}, {100, 149}}), files("b", {{0, 99}}));
  EXPECT_EQ(shape(runs), (std::vector<Expected>{{0, 99, 1, 1, false}, {100, 149, 1, 0, false}}));
  runs = slice_runs(files("a", {{0, 9}}), files("b", {{5, 9}}));
  EXPECT_EQ(shape(runs), (std::vector<Expected>{{0, 9, 1, 0, false}, {5, 9, 0, 1, false}}));
  runs = slice_runs({}, files("b", {{0, 9}}));
  EXPECT_EQ(shape(runs), (std::vector<Expected>{{0, 9, 0, 1, false}}));
}

TEST(SliceRuns, EndsThatNeverMeetAreAnError) {
  // The reproduction stops at 119 while the original goes on to 149.
  auto runs = slice_runs(files("a", {{0, 99}, {100, 149}}), files("b", {{0, 119}}));
  ASSERT_EQ(shape(runs), (std::vector<Expected>{{0, 149, 2, 1, true}}));
  EXPECT_NE(runs[0].error.find("stop at 119"), std::string::npos) << runs[0].error;
  // A gap in the original's slices (100-149 missing) inside what the reproduction covers.
  runs = slice_runs(files("a", {{0, 99}, {150, 199}}), files("b", {{0, 199}}));
  ASSERT_EQ(shape(runs), (std::vector<Expected>{{0, 199, 1, 1, true}, {150, 199, 1, 0, false}}));
  EXPECT_NE(runs[0].error.find("resume at 150"), std::string::npos) << runs[0].error;
}

}  // namespace
