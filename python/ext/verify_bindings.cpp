// The verify bindings: verify (a dataset or a kamu workspace's entries, through the request
// layer api/verify.h), plan / check / merge (verify_plan.h) and the problem kinds. Reports
// cross as the objects `verify --json` prints (report_dict): one vocabulary, no positional
// tuples; plans, tasks and results as their versioned JSON text, the form a task takes to
// another process (Dask, Ray), validated here by the C++ parsers when it comes back.
#include <Python.h>
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common.h"
#include "interruptible.h"
#include "odf_hash/api/fetch.h"
#include "odf_hash/api/verify.h"
#include "odf_hash/core/text.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/io/read_counter.h"
#include "odf_hash/odf/fetch.h"
#include "odf_hash/odf/fetch_json.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/odf/verify_args.h"
#include "odf_hash/odf/verify_json.h"
#include "odf_hash/odf/verify_plan.h"
#include "odf_hash/odf/verify_plan_json.h"
#include "os_string.h"

namespace odf_hash_py {

using namespace nb::literals;

namespace {

// nlohmann's value as the Python object json.loads would give (strings decoded with
// surrogateescape, as os.fsdecode does).
nb::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::boolean: return nb::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return nb::int_(j.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      return nb::steal(PyLong_FromUnsignedLongLong(j.get<uint64_t>()));
    case nlohmann::json::value_t::number_float: return nb::float_(j.get<double>());
    case nlohmann::json::value_t::string: return nb::cast(OsString(j.get<std::string>()));
    case nlohmann::json::value_t::array: {
      nb::list out;
      for (const auto& e : j) out.append(to_python(e));
      return out;
    }
    case nlohmann::json::value_t::object: {
      nb::dict out;
      for (const auto& [k, e] : j.items()) out[nb::str(k.c_str())] = to_python(e);
      return out;
    }
    default: return nb::none();
  }
}

// A problem in the vocabulary of `verify --json` (problem_json.cpp), its texts as the
// system's bytes (a file name that is not UTF-8 round-trips through os.fsencode).
nb::dict problem_dict(const odf_hash::odf::Problem& p) {
  auto text = [](const std::string& s) -> nb::object {
    return s.empty() ? nb::none() : nb::cast(OsString(s));
  };
  nb::dict d;
  d["kind"] = odf_hash::odf::problem_kind_name(p.kind);
  d["message"] = OsString(odf_hash::redact_url(p.message));
  d["block"] = p.block ? nb::cast(p.block->to_string()) : nb::none();
  d["sequence_number"] = p.sequence_number ? nb::cast(*p.sequence_number) : nb::none();
  d["file"] = text(p.file);
  // A number as an int, a text as a str, nothing as None; the numbers' unit.
  auto value = [&](const odf_hash::odf::ProblemValue& v) -> nb::object {
    if (const auto n = v.as_number()) return nb::cast(*n);
    return text(v.text());
  };
  d["expected"] = value(p.expected);
  d["actual"] = value(p.actual);
  const char* unit = odf_hash::odf::problem_unit_name(p.unit);
  d["unit"] = unit != nullptr ? nb::cast(unit) : nb::none();
  if (p.link) {
    nb::dict link;
    link["data_file"] = OsString(p.link->data_file);
    link["column"] = OsString(p.link->column);
    link["row"] = p.link->row;
    d["link"] = link;
  }
  return d;
}

// A report for odf_hash.Report: {"document": the object `verify --json` prints for the
// dataset (verify_json.h: one vocabulary for the command, the C ABI and Python), "problems":
// its problems in that vocabulary but with the system's bytes (problem_dict), where the
// document, being JSON, has U+FFFD for bytes that are not UTF-8. Called with the GIL held.
nb::dict report_dict(const odf_hash::odf::DatasetReport& report) {
  nb::list problems;
  for (const auto& p : report.problems) problems.append(problem_dict(p));
  nb::dict d;
  d["document"] = to_python(nlohmann::json::parse(odf_hash::odf::verify_report_json(report)));
  d["problems"] = problems;
  return d;
}

// The verify modes as the Python keywords gave them, as text (verify_args.h parses and checks
// them, as for the command's flags): (expect_head, since, sample, seed, deep); None: not
// given. The pin files come apart: they are paths.
using ModesTuple = std::tuple<std::optional<std::string>, std::optional<std::string>,
                              std::optional<std::string>, std::optional<std::string>, bool>;

odf_hash::odf::VerifyModeArgs mode_args(const ModesTuple& modes,
                                        const std::optional<OsString>& pins = std::nullopt,
                                        const std::optional<OsString>& write_pins = std::nullopt) {
  odf_hash::odf::VerifyModeArgs a;
  std::tie(a.expect_head, a.since, a.sample, a.seed, std::ignore) = modes;
  if (pins) a.pins = pins->value;
  if (write_pins) a.write_pins = write_pins->value;
  return a;
}

odf_hash::odf::VerifyOptions verify_options(bool integrity_only, bool strict,
                                            const StoreTuple& store, const ModesTuple& modes,
                                            const odf_hash::CancelFlag& cancel) {
  odf_hash::odf::VerifyOptions options;
  options.integrity_only = integrity_only;
  options.strict = strict;
  options.store = store_for(store, cancel);
  options.deep = std::get<4>(modes);
  return options;
}

// api::verify (api/verify.h) for odf_hash.verify (one dataset) and verify_workspace (a
// workspace's entries): [(name, report_dict)] in order, name being "" for a dataset outside
// a workspace; the first error raised. jobs 0: the library's default (16 for a URL).
class Collector final : public odf_hash::api::VerifyObserver {
 public:
  // `counter`, when set, counts the bytes of the files hashed so far, dataset after dataset
  // (a progress callback).
  explicit Collector(std::shared_ptr<odf_hash::ReadCounter> counter = nullptr)
      : counter_(std::move(counter)) {}

  void dataset(const odf_hash::api::DatasetOutcome& o) override {
    out.emplace_back(o.name, o.result->report);  // errors stop the run
  }
  bool wants_progress() const override { return counter_ != nullptr; }
  void progress(const std::string&, const odf_hash::odf::VerifyProgress& p) override {
    last_ = p.bytes_done;
    counter_->bytes.store(before_ + last_, std::memory_order_relaxed);
  }
  void progress_done() override {
    before_ += last_;
    last_ = 0;
  }
  std::vector<std::pair<std::string, odf_hash::odf::DatasetReport>> out;

 private:
  std::shared_ptr<odf_hash::ReadCounter> counter_;
  uint64_t before_ = 0;  // the bytes of the datasets done
  uint64_t last_ = 0;    // of the dataset being verified
};

nb::list verify(const OsString& path_arg, bool workspace,
                const std::optional<std::vector<OsString>>& names, unsigned jobs,
                bool integrity_only, bool strict, const StoreTuple& store, const ModesTuple& modes,
                const std::optional<OsString>& pins, const std::optional<OsString>& write_pins,
                const nb::object& progress) {
  odf_hash::CancelFlag cancel{false};
  odf_hash::api::VerifyRequest request;
  request.locations = {path_arg.value};
  request.target = workspace ? odf_hash::api::Target::kWorkspace : odf_hash::api::Target::kDataset;
  if (names) {
    request.datasets_given = true;
    for (const auto& n : *names) request.datasets.push_back(n.value);
  }
  request.jobs = jobs;
  request.integrity_only = integrity_only;
  request.strict = strict;
  request.deep = std::get<4>(modes);
  request.store = store_for(store, cancel);
  request.modes = mode_args(modes, pins, write_pins);
  request.spelling = odf_hash::odf::ArgSpelling::kKeywords;
  request.stop_at_error = true;
  auto counter = progress.is_none() ? nullptr : std::make_shared<odf_hash::ReadCounter>();
  Collector collector(counter);
  auto r = run_interruptible(
      cancel,
      [&]() -> odf_hash::Result<odf_hash::api::VerifyResult> {
        return odf_hash::api::verify(request, collector);
      },
      progress_tick(progress, counter));
  odf_hash::api::VerifyResult result = value_or_raise(std::move(r));
  if (!result.pins_written.is_ok()) throw LibraryError(result.pins_written);
  nb::list out;
  for (const auto& [name, report] : collector.out)
    out.append(nb::make_tuple(name, report_dict(report)));
  return out;
}

// Plan / check / merge (verify_plan.h), each side as its versioned JSON text: the Python
// layer's Task, CheckResult and Plan are plain data built from it (cheap to pickle), and
// everything that comes back is validated here by the C++ parsers.
std::string plan_verify(const OsString& path_arg, bool integrity_only, bool strict,
                        const StoreTuple& store, const ModesTuple& modes) {
  const std::string& path = path_arg.value;
  odf_hash::CancelFlag cancel{false};
  odf_hash::odf::VerifyOptions options =
      verify_options(integrity_only, strict, store, modes, cancel);
  auto r = run_interruptible(cancel, [&]() -> odf_hash::Result<odf_hash::odf::VerifyPlan> {
    ODF_HASH_ASSIGN_OR_RETURN(
        odf_hash::odf::VerifyModes m,
        odf_hash::odf::parse_verify_modes(mode_args(modes), odf_hash::odf::ArgSpelling::kKeywords));
    m.apply(options);
    return odf_hash::odf::plan_verify(path, options);
  });
  return odf_hash::odf::verify_plan_json(value_or_raise(std::move(r)));
}

// The worker's policy (odf_hash.Allow): None, or (datasets, endpoints, follow_symlinks).
using PolicyTuple = std::tuple<std::vector<std::string>, std::vector<std::string>, bool>;

std::string check_task(const std::string& task_json, const std::optional<PolicyTuple>& allow) {
  odf_hash::CancelFlag cancel{false};
  auto r = run_interruptible(cancel, [&]() -> odf_hash::Result<odf_hash::odf::FileCheckResult> {
    auto task = odf_hash::odf::parse_file_task_json(task_json);
    if (!task.is_ok()) return task.status();
    if (!allow) return odf_hash::odf::check_file(*task, &cancel);
    odf_hash::odf::TaskPolicy policy;
    std::tie(policy.datasets, policy.endpoints, policy.follow_symlinks) = *allow;
    return odf_hash::odf::check_file(*task, policy, &cancel);
  });
  return odf_hash::odf::check_result_json(value_or_raise(std::move(r)));
}

nb::dict merge_checks(const std::string& plan_json, const std::vector<std::string>& results) {
  odf_hash::Result<odf_hash::odf::DatasetReport> r = odf_hash::Status::internal("not run");
  {
    nb::gil_scoped_release unlocked;
    [&] {
      auto plan = odf_hash::odf::parse_verify_plan_json(plan_json);
      if (!plan.is_ok()) {
        r = plan.status();
        return;
      }
      std::vector<odf_hash::odf::FileCheckResult> parsed;
      parsed.reserve(results.size());
      for (size_t i = 0; i < results.size(); ++i) {
        auto one = odf_hash::odf::parse_check_result_json(results[i]);
        if (!one.is_ok()) {
          r = odf_hash::Status::parse_error("results[" + std::to_string(i) +
                                            "]: " + one.status().message());
          return;
        }
        parsed.push_back(std::move(*one));
      }
      r = odf_hash::odf::merge_checks(*plan, std::move(parsed));
    }();
  }
  return report_dict(value_or_raise(std::move(r)));
}

// The canonical JSON of a task / result / plan after validation (Task.from_json...).
std::string normalize_task(const std::string& text) {
  return odf_hash::odf::file_task_json(value_or_raise(odf_hash::odf::parse_file_task_json(text)));
}
std::string normalize_result(const std::string& text) {
  return odf_hash::odf::check_result_json(
      value_or_raise(odf_hash::odf::parse_check_result_json(text)));
}
std::string normalize_plan(const std::string& text) {
  odf_hash::Result<odf_hash::odf::VerifyPlan> r = odf_hash::Status::internal("not run");
  {
    nb::gil_scoped_release unlocked;
    r = odf_hash::odf::parse_verify_plan_json(text);
  }
  return odf_hash::odf::verify_plan_json(value_or_raise(std::move(r)));
}

std::vector<std::string> problem_kinds() {
  std::vector<std::string> out;
  for (int k = 0;; ++k) {
    const char* name = odf_hash::odf::problem_kind_name(static_cast<odf_hash::odf::ProblemKind>(k));
    if (name == nullptr || std::strcmp(name, "unknown") == 0) break;
    out.emplace_back(name);
  }
  return out;
}

// api::fetch (api/fetch.h) for odf_hash.fetch: {"document": the object `fetch --json`
// prints, "problems": its problems with the system's bytes, "alias": in a workspace}.
nb::dict fetch(const OsString& source, const OsString& dest, unsigned jobs,
               const std::optional<std::string>& expect_head, bool force,
               const std::optional<OsString>& dataset, const std::optional<OsString>& alias,
               const std::optional<OsString>& pins, const StoreTuple& store,
               const nb::object& progress) {
  odf_hash::CancelFlag cancel{false};
  odf_hash::api::FetchRequest request;
  request.source = source.value;
  request.dest = dest.value;
  request.jobs = jobs;
  request.force = force;
  request.expect_head = expect_head;
  if (dataset) request.dataset = dataset->value;
  if (alias) request.alias = alias->value;
  if (pins) request.pins = pins->value;
  request.store = store_for(store, cancel);
  request.spelling = odf_hash::odf::ArgSpelling::kKeywords;
  auto counter = progress.is_none() ? nullptr : std::make_shared<odf_hash::ReadCounter>();
  if (counter) {
    request.progress = [counter](const odf_hash::odf::FetchProgress& p) {
      counter->bytes.store(p.bytes_done, std::memory_order_relaxed);
    };
  }
  auto r = run_interruptible(
      cancel, [&] { return odf_hash::api::fetch(request); }, progress_tick(progress, counter));
  odf_hash::api::FetchResult result = value_or_raise(std::move(r));
  nb::list problems;
  for (const auto& p : result.report.problems) problems.append(problem_dict(p));
  nb::dict d;
  d["document"] = to_python(nlohmann::json::parse(odf_hash::odf::fetch_report_json(result.report)));
  d["problems"] = problems;
  d["alias"] = result.alias.empty() ? nb::none() : nb::cast(OsString(result.alias));
  return d;
}

}  // namespace

void bind_verify(nb::module_& m) {
  m.def("fetch", &fetch, "source"_a, "dest"_a, "jobs"_a, "expect_head"_a.none(), "force"_a,
        "dataset"_a.none(), "alias"_a.none(), "pins"_a.none(), "store"_a,
        "progress"_a = nb::none());
  m.def("verify", &verify, "path"_a, "workspace"_a, "names"_a.none(), "jobs"_a, "integrity_only"_a,
        "strict"_a, "store"_a, "modes"_a, "pins"_a.none(), "write_pins"_a.none(),
        "progress"_a = nb::none());
  m.def("plan_verify", &plan_verify, "path"_a, "integrity_only"_a, "strict"_a, "store"_a,
        "modes"_a);
  m.def("check_task", &check_task, "task_json"_a, "allow"_a = nb::none());
  m.def("merge_checks", &merge_checks, "plan_json"_a, "results"_a);
  m.def("normalize_task", &normalize_task, "text"_a);
  m.def("normalize_result", &normalize_result, "text"_a);
  m.def("normalize_plan", &normalize_plan, "text"_a);
  m.def("plan_json_version", [] { return odf_hash::odf::kVerifyPlanJsonVersion; });
  m.def("problem_kinds", &problem_kinds);
}

}  // namespace odf_hash_py
