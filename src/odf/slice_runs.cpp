// slice_runs (slice_runs.h): a merge of both sides' slices by offset.
#include "slice_runs.h"

#include <algorithm>
#include <string>

namespace odf_hash::odf::detail {

std::vector<SliceComparison> slice_runs(std::vector<SliceFile> original,
                                        std::vector<SliceFile> reproduced) {
  std::vector<SliceComparison> out;
  size_t i = 0, j = 0;
  auto alone = [&](const SliceFile& f, bool is_original) {
    SliceComparison s;
    s.interval = f.interval;
    (is_original ? s.original_files : s.reproduced_files).push_back(f);
    out.push_back(std::move(s));
  };
  while (i < original.size() || j < reproduced.size()) {
    if (j == reproduced.size() ||
        (i < original.size() && original[i].interval.start < reproduced[j].interval.start)) {
      alone(original[i++], true);
      continue;
    }
    if (i == original.size() || reproduced[j].interval.start < original[i].interval.start) {
      alone(reproduced[j++], false);
      continue;
    }
    // One start on both sides: extend the side that ends first until the ends meet.
    SliceComparison s;
    s.original_files.push_back(original[i++]);
    s.reproduced_files.push_back(reproduced[j++]);
    while (s.original_files.back().interval.end != s.reproduced_files.back().interval.end) {
      const bool extend_original =
          s.original_files.back().interval.end < s.reproduced_files.back().interval.end;
      std::vector<SliceFile>& files = extend_original ? original : reproduced;
      size_t& next = extend_original ? i : j;
      std::vector<SliceFile>& run = extend_original ? s.original_files : s.reproduced_files;
      if (next == files.size() || files[next].interval.start != run.back().interval.end + 1) {
        const uint64_t ea = s.original_files.back().interval.end;
        const uint64_t eb = s.reproduced_files.back().interval.end;
        s.error = "the slices from offset " +
                  std::to_string(s.original_files.front().interval.start) +
                  " never end at one offset on both sides: the " +
                  (extend_original ? "original's" : "reproduced dataset's") + " stop at " +
                  std::to_string(extend_original ? ea : eb) +
                  (next == files.size()
                       ? ""
                       : " and resume at " + std::to_string(files[next].interval.start)) +
                  ", the " + (extend_original ? "reproduced dataset's" : "original's") +
                  " go on to " + std::to_string(extend_original ? eb : ea);
        break;
      }
      run.push_back(files[next++]);
    }
    s.interval = {
        s.original_files.front().interval.start,
        std::max(s.original_files.back().interval.end, s.reproduced_files.back().interval.end)};
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace odf_hash::odf::detail
