#include "sample.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "odf_hash/core/sha3.h"

namespace odf_hash::odf::detail {

namespace {

constexpr double kRequestBytes = 64 * 1024;

// u in (0, 1) from the seed and the file's key.
double uniform(uint64_t seed, const std::string& file) {
  Sha3_256 h;
  uint8_t s[8];
  for (int i = 0; i < 8; ++i) s[i] = static_cast<uint8_t>(seed >> (8 * i));
  h.update(s, sizeof s);
  h.update(reinterpret_cast<const uint8_t*>(file.data()), file.size());
  Digest256 d = h.finalize();
  uint64_t x = 0;
  std::memcpy(&x, d.data(), sizeof x);
  return (static_cast<double>(x >> 11) + 0.5) / 9007199254740992.0;  // 53 bits, never 0 or 1
}

}  // namespace

void sample_tasks(const VerifyOptions& options, VerifyPlan& plan) {
  if (!options.sample_fraction && !options.sample_count) return;
  VerifyScope& scope = plan.report.scope;
  scope.sampled = true;
  scope.sample_seed = options.sample_seed;
  scope.sample_spec = options.sample_spec;
  const size_t n = plan.tasks.size();
  scope.files_total = n;
  scope.bytes_total = plan.bytes_total();

  std::vector<std::pair<double, size_t>> keys;  // (key, task index)
  keys.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const FileTask& t = plan.tasks[i];
    const double w = static_cast<double>(t.size) + kRequestBytes;
    keys.emplace_back(std::log(uniform(options.sample_seed, t.file)) / w, i);
  }
  std::sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<bool> keep(n, false);
  uint64_t bytes = 0, files = 0;
  for (const auto& [key, i] : keys) {
    if (options.sample_count && files >= *options.sample_count) break;
    if (options.sample_fraction && files > 0 &&
        static_cast<double>(bytes) >=
            *options.sample_fraction * static_cast<double>(scope.bytes_total)) {
      break;
    }
    keep[i] = true;
    ++files;
    bytes += plan.tasks[i].size;
  }
  scope.files_checked = files;
  scope.bytes_checked = bytes;

  std::vector<FileTask> kept;
  std::vector<uint64_t> new_id(n, UINT64_MAX);
  for (size_t i = 0; i < n; ++i) {
    if (!keep[i]) continue;
    new_id[i] = kept.size();
    kept.push_back(std::move(plan.tasks[i]));
    kept.back().id = new_id[i];
  }
  plan.tasks = std::move(kept);
  if (files < n) {
    scope.skipped.push_back(std::to_string(n - files) + " of " + std::to_string(n) +
                            " files: not read (--sample " + scope.sample_spec + ", seed " +
                            std::to_string(scope.sample_seed) + ")");
  }
  size_t dropped = 0;
  std::vector<LinkedSummaryCheck> summaries;
  for (auto& s : plan.linked_summaries) {
    bool all = true;
    for (auto& [task, count] : s.objects) {
      all = all && new_id[task] != UINT64_MAX;
      if (all) task = new_id[task];
    }
    if (all) {
      summaries.push_back(std::move(s));
    } else {
      ++dropped;
    }
  }
  plan.linked_summaries = std::move(summaries);
  if (dropped != 0) {
    scope.skipped.push_back("the linkedObjects summaries of " + std::to_string(dropped) +
                            " data files: not checked (their objects were not all sampled)");
  }
}

}  // namespace odf_hash::odf::detail
