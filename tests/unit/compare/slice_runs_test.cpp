// Cutting two datasets' slices into runs both hold and one-sided parts
// (src/compare/slice_runs.h, internal to odf): the entries below are written out by hand.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../../../src/compare/slice_runs.h"

namespace {

using odf_hash::compare::SliceComparison;
using odf_hash::compare::SliceFile;
using odf_hash::compare::detail::slice_runs;
using odf_hash::odf::OffsetInterval;

std::vector<SliceFile> files(const std::string& prefix,
                             std::vector<std::pair<uint64_t, uint64_t>> intervals) {
  std::vector<SliceFile> out;
  for (const auto& [s, e] : intervals) {
    out.push_back({prefix + std::to_string(s), {s, e}});
  }
  return out;
}

// Each entry as "start-end: original parts | reproduced parts", a part being the file's
// name with "[from-to]" when only that window of it is in the entry, and " ERR" when the
// entry carries an error.
std::string part_text(const SliceFile& f) {
  std::string t = f.file;
  if (f.window)
    t += "[" + std::to_string(f.window->start) + "-" + std::to_string(f.window->end) + "]";
  return t;
}

std::vector<std::string> shape(const std::vector<SliceComparison>& runs) {
  std::vector<std::string> out;
  for (const auto& r : runs) {
    std::string t = std::to_string(r.interval.start) + "-" + std::to_string(r.interval.end) + ":";
    for (const auto& f : r.original_files) t += " " + part_text(f);
    t += " |";
    for (const auto& f : r.reproduced_files) t += " " + part_text(f);
    if (!r.error.empty()) t += " ERR";
    out.push_back(t);
  }
  return out;
}

using Shape = std::vector<std::string>;

TEST(SliceRuns, AlikeSlicesPairOneToOne) {
  auto runs = slice_runs(files("a", {{0, 99}, {100, 149}}), files("b", {{0, 99}, {100, 149}}));
  EXPECT_EQ(shape(runs), (Shape{"0-99: a0 | b0", "100-149: a100 | b100"}));
  EXPECT_FALSE(runs[0].original_files[0].window.has_value());
}

TEST(SliceRuns, OtherBoundariesMakeOneRun) {
  auto runs = slice_runs(files("a", {{0, 99}, {100, 149}, {150, 159}}),
                         files("b", {{0, 119}, {120, 149}, {150, 159}}));
  EXPECT_EQ(shape(runs), (Shape{"0-149: a0 a100 | b0 b120", "150-159: a150 | b150"}));
  // Pulled after every ingest vs once: three slices against one.
  runs = slice_runs(files("a", {{0, 9}, {10, 19}, {20, 29}}), files("b", {{0, 29}}));
  EXPECT_EQ(shape(runs), (Shape{"0-29: a0 a10 a20 | b0"}));
}

TEST(SliceRuns, LongerReproductionIsComparedOverTheCommonOffsets) {
  // The reproduction was run later: 50 more records, in its one slice.
  auto runs = slice_runs(files("a", {{0, 149}}), files("b", {{0, 199}}));
  EXPECT_EQ(shape(runs), (Shape{"0-149: a0 | b0[0-149]", "150-199: | b0[150-199]"}));
  runs = slice_runs(files("a", {{0, 99}, {100, 149}}), files("b", {{0, 199}}));
  EXPECT_EQ(shape(runs), (Shape{"0-149: a0 a100 | b0[0-149]", "150-199: | b0[150-199]"}));
  // Whole slices more on the reproduction's side.
  runs = slice_runs(files("a", {{0, 99}}), files("b", {{0, 99}, {100, 149}, {150, 199}}));
  EXPECT_EQ(shape(runs), (Shape{"0-99: a0 | b0", "100-149: | b100", "150-199: | b150"}));
}

TEST(SliceRuns, LongerOriginalIsComparedOverTheCommonOffsets) {
  auto runs = slice_runs(files("a", {{0, 99}, {100, 149}}), files("b", {{0, 99}}));
  EXPECT_EQ(shape(runs), (Shape{"0-99: a0 | b0", "100-149: a100 |"}));
  runs = slice_runs(files("a", {{0, 199}}), files("b", {{0, 119}}));
  EXPECT_EQ(shape(runs), (Shape{"0-119: a0[0-119] | b0", "120-199: a0[120-199] |"}));
}

TEST(SliceRuns, EndsThatNeverMeetAreCutWhereOneSideStops) {
  // The reproduction stops at 119 while the original goes on to 149.
  auto runs = slice_runs(files("a", {{0, 99}, {100, 149}}), files("b", {{0, 119}}));
  EXPECT_EQ(shape(runs), (Shape{"0-119: a0 a100[100-119] | b0", "120-149: a100[120-149] |"}));
  // Each side's last slice goes past the other's: cut at the original's end.
  runs = slice_runs(files("a", {{0, 99}, {100, 199}}), files("b", {{0, 149}, {150, 249}}));
  EXPECT_EQ(shape(runs), (Shape{"0-199: a0 a100 | b0 b150[150-199]", "200-249: | b150[200-249]"}));
}

TEST(SliceRuns, GapsOnEitherSide) {
  // The reproduction lacks 150-159.
  auto runs = slice_runs(files("a", {{0, 99}, {100, 199}}), files("b", {{0, 149}, {160, 199}}));
  EXPECT_EQ(shape(runs), (Shape{"0-149: a0 a100[100-149] | b0", "150-159: a100[150-159] |",
                                "160-199: a100[160-199] | b160"}));
  // The original lacks 100-149.
  runs = slice_runs(files("a", {{0, 99}, {150, 199}}), files("b", {{0, 199}}));
  EXPECT_EQ(shape(runs), (Shape{"0-99: a0 | b0[0-99]", "100-149: | b0[100-149]",
                                "150-199: a150 | b0[150-199]"}));
  // Both have the same gap: nothing one-sided.
  runs = slice_runs(files("a", {{0, 9}, {20, 29}}), files("b", {{0, 9}, {20, 29}}));
  EXPECT_EQ(shape(runs), (Shape{"0-9: a0 | b0", "20-29: a20 | b20"}));
}

TEST(SliceRuns, LaterStartOnEitherSide) {
  auto runs = slice_runs(files("a", {{0, 9}}), files("b", {{5, 9}}));
  EXPECT_EQ(shape(runs), (Shape{"0-4: a0[0-4] |", "5-9: a0[5-9] | b5"}));
  runs = slice_runs(files("a", {{0, 99}, {100, 199}}), files("b", {{50, 199}}));
  EXPECT_EQ(shape(runs), (Shape{"0-49: a0[0-49] |", "50-199: a0[50-99] a100 | b50"}));
  runs = slice_runs(files("a", {{10, 19}}), files("b", {{0, 19}}));
  EXPECT_EQ(shape(runs), (Shape{"0-9: | b0[0-9]", "10-19: a10 | b0[10-19]"}));
}

TEST(SliceRuns, EmptySides) {
  EXPECT_TRUE(slice_runs({}, {}).empty());
  EXPECT_EQ(shape(slice_runs({}, files("b", {{0, 9}, {10, 19}}))),
            (Shape{"0-9: | b0", "10-19: | b10"}));
  EXPECT_EQ(shape(slice_runs(files("a", {{0, 9}}), {})), (Shape{"0-9: a0 |"}));
}

TEST(SliceRuns, MalformedChainsAreListedNotPaired) {
  // A duplicate and an overlapping interval on the original's side.
  auto runs = slice_runs(files("a", {{0, 99}, {50, 149}, {0, 99}}), files("b", {{0, 149}}));
  EXPECT_EQ(shape(runs), (Shape{"0-99: a0 | ERR", "0-99: a0 | b0[0-99]", "50-149: a50 | ERR",
                                "100-149: | b0[100-149]"}));
  EXPECT_NE(runs[2].error.find("overlaps"), std::string::npos) << runs[2].error;
  // An interval ending before it starts.
  runs = slice_runs(files("a", {{10, 5}}), files("b", {{0, 9}}));
  EXPECT_EQ(shape(runs), (Shape{"0-9: | b0", "10-5: a10 | ERR"}));
  // Offsets up to the largest: no wrap-around.
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  const std::string m = std::to_string(max), m1 = std::to_string(max - 1);
  runs = slice_runs(files("a", {{max - 1, max}}), files("b", {{max, max}}));
  EXPECT_EQ(shape(runs), (Shape{m1 + "-" + m1 + ": a" + m1 + "[" + m1 + "-" + m1 + "] |",
                                m + "-" + m + ": a" + m1 + "[" + m + "-" + m + "] | b" + m}));
  runs = slice_runs(files("a", {{0, max}}), files("b", {{0, max}}));
  EXPECT_EQ(shape(runs), (Shape{"0-" + m + ": a0 | b0"}));
}

// Random sides (with overlaps, duplicates and gaps): every offset of a side's well-formed
// slices is in exactly one entry of that side (its file's part), a run's files on both sides
// hold its whole interval, and the entries come by start.
TEST(SliceRuns, RandomSidesCoverEveryOffsetOnce) {
  std::mt19937_64 rng(24);
  for (int round = 0; round < 2000; ++round) {
    std::vector<std::pair<uint64_t, uint64_t>> sides[2];
    for (auto& side : sides) {
      uint64_t at = rng() % 5;
      const int n = int(rng() % 6);
      for (int k = 0; k < n; ++k) {
        const uint64_t len = rng() % 8;
        const bool overlap = rng() % 10 == 0 && at > 2;
        const uint64_t s = overlap ? at - 2 : at + rng() % 3;
        side.push_back({s, s + len});
        at = s + len + 1;
      }
    }
    auto runs = slice_runs(files("a", sides[0]), files("b", sides[1]));
    std::vector<int> seen[2] = {std::vector<int>(80, 0), std::vector<int>(80, 0)};
    for (size_t r = 0; r < runs.size(); ++r) {
      const auto& e = runs[r];
      if (r > 0) {
        EXPECT_LE(runs[r - 1].interval.start, e.interval.start);
      }
      if (!e.error.empty()) continue;
      ASSERT_LE(e.interval.start, e.interval.end);
      int side = 0;
      for (const auto* fs : {&e.original_files, &e.reproduced_files}) {
        uint64_t next = e.interval.start;
        for (const auto& f : *fs) {
          const OffsetInterval w = f.window.value_or(f.interval);
          EXPECT_EQ(w.start, next) << shape(runs)[r];
          EXPECT_LE(f.interval.start, w.start);
          EXPECT_LE(w.end, f.interval.end);
          for (uint64_t o = w.start; o <= w.end; ++o) ++seen[side][o];
          next = w.end + 1;
        }
        if (!fs->empty()) {
          EXPECT_EQ(next, e.interval.end + 1) << shape(runs)[r];
        }
        ++side;
      }
    }
    for (int side = 0; side < 2; ++side) {
      uint64_t last_end = 0;
      bool any = false;
      std::vector<std::pair<uint64_t, uint64_t>> sorted = sides[side];
      std::stable_sort(sorted.begin(), sorted.end());
      std::vector<int> expected(80, 0);
      for (const auto& [s, e] : sorted) {
        if (any && s <= last_end) continue;  // overlapping: listed with an error
        for (uint64_t o = s; o <= e; ++o) expected[o] = 1;
        last_end = e;
        any = true;
      }
      EXPECT_EQ(seen[side], expected) << "round " << round;
    }
  }
}

}  // namespace
