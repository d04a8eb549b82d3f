#include "compare_sides.h"

#include <cstdint>
#include <cstdio>

#include "commands.h"
#include "odf_hash/compare/compare_json.h"
#include "problem_text.h"

namespace odf_hash::cli {

namespace {

std::string count(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// "the original", "the reproduction", "both sides": those that failed their verification.
std::string failed_sides(const compare::DatasetComparison& d) {
  const bool a = !d.original_check.vouched(), b = !d.reproduced_check.vouched();
  return a && b ? "both sides" : a ? "the original" : "the reproduction";
}

std::string offsets_text(const odf::OffsetInterval& i) {
  return "[" + std::to_string(i.start) + ", " +
         (i.end == UINT64_MAX ? std::string("...") : std::to_string(i.end)) + "]";
}

}  // namespace

void print_side_check(const compare::SideCheck& c) {
  uint64_t logical = 0;
  for (const auto& f : c.files) logical += f.outcome == odf::FileOutcome::kLogicalMatch;
  const std::string unchecked =
      c.files_unchecked == 0
          ? ""
          : " (" + count(c.files_unchecked, "other file") + ", not read, not checked)";
  if (c.vouched()) {
    const std::string fallback =
        logical == 0 ? ""
                     : " (" + std::to_string(logical) +
                           " by the logical fallback: other bytes, the recorded records)";
    std::printf("  verified  the chain to the seed; %s read, each matching its recorded hash%s%s\n",
                count(c.tasks.size(), "data file").c_str(), fallback.c_str(), unchecked.c_str());
    return;
  }
  std::printf(
      "  NOT VERIFIED  %s, as verify reports %s: nothing read from this side is "
      "vouched for\n",
      count(c.problems.size(), "problem").c_str(), c.problems.size() == 1 ? "it" : "them");
  if (c.files.size() < c.tasks.size()) {
    std::printf("  %s of %s read not checked\n",
                std::to_string(c.tasks.size() - c.files.size()).c_str(),
                count(c.tasks.size(), "data file").c_str());
  }
  if (c.unreached) {
    std::printf(
        "  unreached offsets %s: below the break in the chain (their blocks could not "
        "be read)\n",
        offsets_text(*c.unreached).c_str());
  }
  size_t i = 0;
  for (const auto& p : c.problems) std::fputs(problem_text(p, ++i, "  ").c_str(), stdout);
}

std::string slice_note(const compare::DatasetComparison& d, const compare::SliceComparison& s) {
  if (s.original_unreached || s.reproduced_unreached) {
    const char* which = s.original_unreached && s.reproduced_unreached ? "both chains are"
                        : s.original_unreached                         ? "the original's chain is"
                                               : "the reproduction's chain is";
    return std::string("  not compared: ") + which +
           " broken above these offsets (their blocks could not be read)";
  }
  if (s.error.empty() && s.comparison && !s.vouched) {
    return std::string("  not vouched for: compared as ") +
           compare::compare_verdict_name(s.comparison->verdict) + ", but " + failed_sides(d) +
           (failed_sides(d) == "both sides" ? " failed their" : " failed its") +
           " own verification";
  }
  return "";
}

void print_dataset_verdict(const compare::DatasetComparison& d) {
  switch (d.verdict) {
    case compare::DatasetVerdict::kSameRecords:
      std::printf("verdict     same records in every slice\n");
      return;
    case compare::DatasetVerdict::kDifferent: std::printf("verdict     different\n"); return;
    case compare::DatasetVerdict::kUnverified: {
      const std::string who = failed_sides(d);
      std::printf(
          "verdict     unverified: %s failed %s own verification (see the problems "
          "above): nothing is vouched for\n",
          who.c_str(), who == "both sides" ? "their" : "its");
      return;
    }
  }
}

int dataset_exit_code(const compare::DatasetComparison& d) {
  switch (d.verdict) {
    case compare::DatasetVerdict::kSameRecords: return kExitOk;
    case compare::DatasetVerdict::kDifferent: return kExitMismatch;
    case compare::DatasetVerdict::kUnverified: return kExitUnverified;
  }
  return kExitUnverified;
}

void add_verification_json(const compare::DatasetComparison& d, nlohmann::json& j) {
  j["original"]["verification"] = nlohmann::json::parse(compare::side_check_json(d.original_check));
  j["reproduced"]["verification"] =
      nlohmann::json::parse(compare::side_check_json(d.reproduced_check));
  j["verdict"] = compare::dataset_verdict_name(d.verdict);
  for (size_t i = 0; i < d.slices.size() && i < j["slices"].size(); ++i) {
    const compare::SliceComparison& s = d.slices[i];
    nlohmann::json& js = j["slices"][i];
    js["vouched"] = s.vouched;
    js["original_unreached"] = s.original_unreached;
    js["reproduced_unreached"] = s.reproduced_unreached;
  }
}

}  // namespace odf_hash::cli
