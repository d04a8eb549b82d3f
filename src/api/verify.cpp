// The request layer of verify (api/verify.h): locations to datasets, workspaces to their
// entries, the modes and the pin file once, the tally and the exit code.
#include "odf_hash/api/verify.h"

#include <algorithm>
#include <mutex>
#include <utility>

#include "odf_hash/core/parallel.h"
#include "odf_hash/core/text.h"
#include "odf_hash/odf/workspace.h"
#include "odf_hash/remote/open_store.h"

namespace odf_hash::api {

unsigned verify_jobs(const std::string& location, unsigned asked) {
  if (asked != 0) return asked;
  return is_store_url(location) ? kRemoteJobs : resolve_threads(0);
}

int VerifyTally::exit_code() const {
  if (errors != 0) return 2;
  return invalid != 0 ? 1 : 0;
}

namespace {

class Run {
 public:
  Run(const VerifyRequest& request, VerifyObserver& observer, VerifyResult& out)
      : request_(request), observer_(observer), out_(out) {}

  // One location: a workspace's entries, or a dataset. An error stops the run only with
  // stop_at_error.
  Status location(const std::string& path) {
    const std::string shown = redact_url(path);
    if (request_.target == Target::kDataset) return dataset(path, nullptr);
    // A folder that is no dataset may be a kamu workspace; any error opening it is left to
    // the dataset's verification, which reports it as for a dataset.
    Result<std::optional<odf::Workspace>> ws = odf::open_workspace(path, request_.store);
    if (ws.is_ok() && ws->has_value()) return workspace(shown, **ws);
    if (request_.target == Target::kWorkspace) {
      if (!ws.is_ok()) return error(shown, ws.status());
      return error(shown,
                   Status::not_found(shown + ": not a kamu workspace (for one dataset, use " +
                                     flag("verify without --dataset", "odf_hash.verify") + ")"));
    }
    if (request_.datasets_given && ws.is_ok()) {
      return error(shown, Status::invalid_argument(
                              shown + ": --dataset selects datasets of a kamu workspace, "
                                      "and this is not one"));
    }
    return dataset(path, nullptr);
  }

 private:
  // A dataset (or an entry of a workspace, `entry` not null, whose line goes to `summary`)
  // verified and told.
  Status dataset(const std::string& path, const DatasetOutcome* entry,
                 WorkspaceOutcome* summary = nullptr) {
    odf::VerifyOptions options;
    options.jobs = verify_jobs(path, request_.jobs);
    options.integrity_only = request_.integrity_only;
    options.strict = request_.strict;
    options.store = request_.store;
    options.deep = request_.deep;
    out_.modes.apply(options);
    DatasetOutcome outcome = entry != nullptr ? *entry : DatasetOutcome{};
    outcome.shown = redact_url(path);
    std::mutex progress_mutex;
    if (observer_.wants_progress()) {
      options.progress = [&](const odf::VerifyProgress& p) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        observer_.progress(outcome.shown, p);
      };
    }
    outcome.result =
        odf::verify_with_pins(path, options, out_.modes.pins ? &*out_.modes.pins : nullptr,
                              out_.modes.write_pins.has_value());
    if (observer_.wants_progress()) observer_.progress_done();
    if (!outcome.result.is_ok()) {
      const Status& st = outcome.result.status();
      outcome.result = Status(st.code(), redact_url(st.message()));
    }
    return tell(outcome, summary);
  }

  Status error(const std::string& shown, const Status& st) {
    DatasetOutcome outcome;
    outcome.shown = shown;
    outcome.result = Status(st.code(), redact_url(st.message()));
    return tell(outcome);
  }

  // Counts an outcome, keeps its pin, adds its line to a workspace's `summary`, tells the
  // observer; with stop_at_error an error ends the run.
  Status tell(const DatasetOutcome& outcome, WorkspaceOutcome* summary = nullptr) {
    VerifyTally& t = out_.tally;
    ++t.total;
    if (!outcome.result.is_ok()) {
      ++t.errors;
      if (request_.stop_at_error) return outcome.result.status();
    } else {
      const odf::DatasetReport& report = outcome.result->report;
      (report.valid() ? t.valid : t.invalid) += 1;
      t.problems += report.problems.size();
      t.fallbacks += report.logical_fallbacks();
      t.partial += report.scope.partial() ? 1 : 0;
      if (outcome.result->pin) out_.pins.push_back(*outcome.result->pin);
    }
    if (summary != nullptr) summary->lines.push_back(line(outcome));
    observer_.dataset(outcome);
    return Status::ok();
  }

  // Every entry of a kamu workspace that the request selects: a dataset verified, an entry
  // that is none reported as a not-a-dataset problem; then the workspace's summary.
  Status workspace(const std::string& shown, const odf::Workspace& ws) {
    const odf::WorkspaceSelection selection =
        request_.datasets_given && request_.datasets.empty()
            ? odf::WorkspaceSelection{}
            : odf::select_datasets(ws, request_.datasets, shown);
    for (const Status& e : selection.errors) ODF_HASH_RETURN_IF_ERROR(error(shown, e));
    if (ws.datasets.empty() && !request_.datasets_given) {
      return error(shown, Status::not_found(shown + ": the kamu workspace holds no dataset"));
    }
    const std::vector<const odf::WorkspaceDataset*>& chosen = selection.chosen;
    if (chosen.size() > 1 && (out_.modes.expect_head || out_.modes.since)) {
      // Block hashes belong to one dataset: applied to each, they would call every other
      // dataset's history rewritten.
      return error(
          shown, Status::invalid_argument(
                     shown + ": " + flag("--expect-head", "expect_head") + " and " +
                     flag("--since", "since") +
                     " name blocks of one dataset, and this workspace has several: "
                     "pick one with " +
                     flag("--dataset", "datasets") + ", or pin each in " + flag("--pins", "pins")));
    }
    WorkspaceOutcome summary;
    summary.shown = shown;
    summary.entries = ws.datasets.size();
    for (const odf::WorkspaceDataset* d : chosen) {
      DatasetOutcome entry;
      entry.workspace = shown;
      entry.alias = d->alias;
      // Named by its alias, and by its id too when another reported dataset shares it.
      const bool shared = std::count_if(chosen.begin(), chosen.end(),
                                        [&](const auto* o) { return o->alias == d->alias; }) > 1;
      entry.name = shared ? d->alias + " (" + d->id + ")" : d->alias;
      if (d->not_a_dataset.empty()) {
        ODF_HASH_RETURN_IF_ERROR(dataset(d->location, &entry, &summary));
      } else {
        entry.shown = redact_url(d->location);
        entry.not_a_dataset = true;
        entry.result = odf::PinnedReport{odf::not_a_dataset_report(*d), {}};
        ODF_HASH_RETURN_IF_ERROR(tell(entry, &summary));
      }
    }
    if (!chosen.empty()) observer_.workspace(summary);
    return Status::ok();
  }

  static WorkspaceOutcome::Line line(const DatasetOutcome& o) {
    WorkspaceOutcome::Line l;
    l.name = o.name;
    l.not_a_dataset = o.not_a_dataset;
    l.error = !o.result.is_ok();
    if (l.error) return l;
    const odf::DatasetReport& report = o.result->report;
    l.verdict = report.verdict();
    if (!report.strict) {
      l.unreferenced = report.unreferenced.size();
      l.unreferenced_bytes = report.unreferenced_bytes();
    }
    return l;
  }

  std::string flag(const char* cli, const char* python) const {
    return request_.spelling == odf::ArgSpelling::kFlags ? cli : python;
  }

  const VerifyRequest& request_;
  VerifyObserver& observer_;
  VerifyResult& out_;
};

}  // namespace

Result<VerifyResult> verify(const VerifyRequest& request, VerifyObserver& observer) {
  VerifyResult out;
  ODF_HASH_ASSIGN_OR_RETURN(out.modes, odf::parse_verify_modes(request.modes, request.spelling));
  if (request.locations.size() > 1 && (out.modes.expect_head || out.modes.since)) {
    return Status::invalid_argument(
        "--expect-head and --since name blocks of one dataset: give one dataset (for many, "
        "pin each in a --pins file)");
  }
  // No location: the datasets the pin file names, in its order (as `sha256sum -c LIST`
  // checks what its list names).
  std::vector<std::string> pinned;
  if (request.locations.empty() && out.modes.pins) {
    for (const auto& pin : out.modes.pins->pins()) pinned.push_back(pin.location);
    if (pinned.empty()) {
      return Status::invalid_argument("no dataset given, and the pin file names none");
    }
  } else if (request.locations.empty()) {
    return Status::invalid_argument("no dataset given (name one, or a --pins file)");
  }
  Run run(request, observer, out);
  for (const std::string& location : pinned.empty() ? request.locations : pinned) {
    ODF_HASH_RETURN_IF_ERROR(run.location(location));
  }
  if (out.modes.write_pins && !out.pins.empty()) {
    // Merged under a lock with the pins the file holds now (verify_pins.h).
    out.pins_written = odf::write_pins(*out.modes.write_pins, out.pins);
  }
  return out;
}

}  // namespace odf_hash::api
