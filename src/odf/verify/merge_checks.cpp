// The merge of a plan's file checks into its report (merge_checks of verify_plan.h): each
// result bound to its task, the problems of the files, their hints, and the linked objects'
// summaries against the counts the checks found.
#include "odf_hash/odf/verify_plan.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "file_hints.h"
#include "linked_objects.h"
#include "odf_hash/core/text.h"

namespace odf_hash::odf {

namespace {

// AddData's linkedObjects summary against the data file: numObjectsNaive is the number of
// non-null link values; sizeNaive the sum of the linked objects' sizes, one per value
// (checked only when every object the file links was found).
void check_linked_summaries(const VerifyPlan& plan, DatasetReport& report) {
  for (const auto& s : plan.linked_summaries) {
    auto problem = [&](uint64_t expected, uint64_t actual, ProblemUnit unit, std::string message) {
      report.problems.push_back(
          Problem{ProblemKind::kLinkedObjectsSummaryMismatch, s.block, s.sequence_number,
                  s.data_file, ProblemValue::number(expected), ProblemValue::number(actual),
                  std::move(message), std::nullopt, unit});
    };
    if (s.values != s.recorded.num_objects_naive) {
      problem(s.recorded.num_objects_naive, s.values, ProblemUnit::kLinkValues,
              "AddData's linkedObjects.numObjectsNaive differs from the number of non-null "
              "ObjectLink values in the data file");
      continue;
    }
    uint64_t size = 0;
    bool known = true;
    for (auto [task, count] : s.objects) {
      const FileCheck* f = task < report.files.size() ? &report.files[task] : nullptr;
      if (f == nullptr || !f->size) {
        known = false;
        break;
      }
      size += *f->size * count;
    }
    if (known && size != s.recorded.size_naive) {
      problem(s.recorded.size_naive, size, ProblemUnit::kBytes,
              "AddData's linkedObjects.sizeNaive differs from the sizes of the objects the data "
              "file links (one per value)");
    }
  }
}

}  // namespace

Result<DatasetReport> merge_checks(const VerifyPlan& plan, std::vector<FileCheckResult> results) {
  const size_t n = plan.tasks.size();
  std::vector<std::optional<FileCheckResult>> by_task(n);
  for (auto& r : results) {
    if (r.task >= n) {
      return Status::invalid_argument("merge: a result names task " + std::to_string(r.task) +
                                      ", but the plan has " + std::to_string(n) + " tasks");
    }
    const FileTask& t = plan.tasks[r.task];
    if (by_task[r.task]) {
      return Status::invalid_argument("merge: two results for task " + std::to_string(r.task) +
                                      " (" + t.file + ")");
    }
    if (r.check.file != t.file || r.check.role != t.role || !(r.check.block == t.block) ||
        r.check.sequence_number != t.sequence_number) {
      return Status::invalid_argument(
          "merge: the result for task " + std::to_string(r.task) + " is about " +
          file_role_name(r.check.role) + " " + r.check.file + ", but the task checks " +
          file_role_name(t.role) + " " + t.file + ": a result of another plan");
    }
    if (r.task_digest != task_fingerprint(t)) {
      return Status::invalid_argument(
          "merge: the result for task " + std::to_string(r.task) + " (" + t.file +
          ") was computed against another task (another dataset, recorded size or hash, or "
          "options than this plan's: " +
          redact_url(t.dataset) + ")");
    }
    if ((r.check.outcome == FileOutcome::kFailed) != r.problem.has_value()) {
      return Status::invalid_argument("merge: the result for task " + std::to_string(r.task) +
                                      " (" + t.file +
                                      ") must hold a problem exactly when it failed");
    }
    by_task[r.task] = std::move(r);
  }
  DatasetReport report = plan.report;
  report.files.clear();
  for (size_t i = 0; i < n; ++i) {
    if (!by_task[i]) {
      return Status::invalid_argument("merge: no result for task " + std::to_string(i) + " (" +
                                      plan.tasks[i].file + ")");
    }
    FileCheckResult& r = *by_task[i];
    if (r.problem) report.problems.push_back(std::move(*r.problem));
    report.files.push_back(std::move(r.check));
  }
  detail::cap_linked_object_problems(report.problems);
  detail::add_file_hints(plan.tasks, report.problems);
  check_linked_summaries(plan, report);
  for (const auto& p : plan.unexpected) report.problems.push_back(p);
  return report;
}

}  // namespace odf_hash::odf
