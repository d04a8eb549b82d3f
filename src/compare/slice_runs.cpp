// slice_runs (slice_runs.h): a sweep along the offset line, both sides' slices in step.
#include "slice_runs.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

namespace odf_hash::compare::detail {

namespace {

std::string interval_text(const odf::OffsetInterval& i) {
  return "[" + std::to_string(i.start) + ", " + std::to_string(i.end) + "]";
}

// The slices of one side that can be paired (disjoint, increasing); the others become
// error entries of `out`.
std::vector<SliceFile> well_formed(std::vector<SliceFile> files, bool is_original,
                                   std::vector<SliceComparison>& out) {
  std::stable_sort(files.begin(), files.end(), [](const SliceFile& x, const SliceFile& y) {
    return x.interval.start != y.interval.start ? x.interval.start < y.interval.start
                                                : x.interval.end < y.interval.end;
  });
  std::vector<SliceFile> kept;
  for (SliceFile& f : files) {
    std::string error;
    if (f.interval.end < f.interval.start) {
      error = "the slice's offset interval " + interval_text(f.interval) + " ends before it starts";
    } else if (!kept.empty() && f.interval.start <= kept.back().interval.end) {
      error = "the slice's offset interval " + interval_text(f.interval) +
              " overlaps the one before it, " + interval_text(kept.back().interval) +
              " (a malformed chain): not compared";
    }
    if (error.empty()) {
      kept.push_back(std::move(f));
      continue;
    }
    SliceComparison s;
    s.interval = f.interval;
    s.error = std::move(error);
    (is_original ? s.original_files : s.reproduced_files).push_back(std::move(f));
    out.push_back(std::move(s));
  }
  return kept;
}

// `f` as part of the entry [from, to]: with its window when it holds more.
SliceFile part(const SliceFile& f, uint64_t from, uint64_t to) {
  SliceFile p = f;
  const odf::OffsetInterval w{std::max(from, f.interval.start), std::min(to, f.interval.end)};
  if (w.start != f.interval.start || w.end != f.interval.end) p.window = w;
  return p;
}

}  // namespace

std::vector<SliceComparison> slice_runs(std::vector<SliceFile> original,
                                        std::vector<SliceFile> reproduced) {
  std::vector<SliceComparison> out;
  const std::vector<SliceFile> a = well_formed(std::move(original), true, out);
  const std::vector<SliceFile> b = well_formed(std::move(reproduced), false, out);
  size_t i = 0, j = 0;  // the first slice of each side ending at `cur` or after
  std::optional<uint64_t> cur;
  if (!a.empty() || !b.empty()) {
    cur = std::min(a.empty() ? std::numeric_limits<uint64_t>::max() : a[0].interval.start,
                   b.empty() ? std::numeric_limits<uint64_t>::max() : b[0].interval.start);
  }
  // Each step emits [*cur, end] (end >= *cur) and moves cur past it, or moves cur to the next
  // start: the sweep ends.
  while (cur && (i < a.size() || j < b.size())) {
    const bool in_a = i < a.size() && a[i].interval.start <= *cur;
    const bool in_b = j < b.size() && b[j].interval.start <= *cur;
    uint64_t end = 0;
    if (!in_a && !in_b) {
      cur = std::min(i < a.size() ? a[i].interval.start : std::numeric_limits<uint64_t>::max(),
                     j < b.size() ? b[j].interval.start : std::numeric_limits<uint64_t>::max());
      continue;
    }
    SliceComparison s;
    if (in_a && in_b) {
      // Both hold *cur: extend the side that ends first while its next slice follows on,
      // until the ends meet; else cut where that side stops.
      size_t ia = i, ib = j;  // the last slice of the run on each side
      while (a[ia].interval.end != b[ib].interval.end) {
        const bool extend_a = a[ia].interval.end < b[ib].interval.end;
        const std::vector<SliceFile>& side = extend_a ? a : b;
        size_t& last = extend_a ? ia : ib;
        if (last + 1 == side.size() ||
            side[last + 1].interval.start != side[last].interval.end + 1) {
          break;
        }
        ++last;
      }
      end = std::min(a[ia].interval.end, b[ib].interval.end);
      for (size_t k = i; k <= ia; ++k) s.original_files.push_back(part(a[k], *cur, end));
      for (size_t k = j; k <= ib; ++k) s.reproduced_files.push_back(part(b[k], *cur, end));
    } else {
      // One side alone, up to its slice's end or the other side's next start.
      const std::vector<SliceFile>& side = in_a ? a : b;
      const size_t k = in_a ? i : j;
      const size_t other = in_a ? j : i;
      const std::vector<SliceFile>& others = in_a ? b : a;
      end = side[k].interval.end;
      if (other < others.size()) end = std::min(end, others[other].interval.start - 1);
      (in_a ? s.original_files : s.reproduced_files).push_back(part(side[k], *cur, end));
    }
    s.interval = {*cur, end};
    out.push_back(std::move(s));
    if (end == std::numeric_limits<uint64_t>::max()) break;  // nothing can follow
    cur = end + 1;
    while (i < a.size() && a[i].interval.end < *cur) ++i;
    while (j < b.size() && b[j].interval.end < *cur) ++j;
  }
  std::stable_sort(out.begin(), out.end(), [](const SliceComparison& x, const SliceComparison& y) {
    return x.interval.start != y.interval.start ? x.interval.start < y.interval.start
                                                : x.interval.end < y.interval.end;
  });
  return out;
}

}  // namespace odf_hash::compare::detail
