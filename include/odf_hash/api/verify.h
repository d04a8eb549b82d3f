// The request layer of `verify`: what the command, Python and the C ABI ask for, and what
// they get back, with the policy they share written once here:
//   - how many files are hashed at once when the caller does not say (every core for a
//     folder, kRemoteJobs for a URL, whose transfers wait on the network);
//   - a location is a dataset or a kamu workspace, each of whose entries is accounted for
//     (a dataset verified, an entry that is none reported as a not-a-dataset problem, a
//     --dataset name that selects nothing or several datasets as an error);
//   - how a dataset of a workspace is named ("alias", or "alias (id)" when datasets reported
//     together share the alias);
//   - the verify modes parsed and checked once (verify_args.h), the blocks of --expect-head
//     and --since refused for several datasets, the pin file read once and the new pins
//     written once, merged under its lock, after every dataset (verify_pins.h);
//   - the exit code (0 all valid, 1 some invalid, 2 some could not be verified).
// The fronts turn their arguments into a VerifyRequest and render what the observer is
// told; they decide nothing else.
//
// Thread safety: verify() runs the datasets one after another on the calling thread (each
// hashes its files on `jobs` threads) and calls the observer on the calling thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/odf/verify.h"
#include "odf_hash/odf/verify_args.h"
#include "odf_hash/odf/verify_pins.h"

namespace odf_hash::api {

// Files hashed at once for a URL when the caller does not say.
inline constexpr unsigned kRemoteJobs = 16;

// `asked` when not 0; otherwise every core for a local folder, kRemoteJobs for a URL.
unsigned verify_jobs(const std::string& location, unsigned asked);

// What a location must be.
enum class Target {
  kAny,        // a dataset, or a kamu workspace standing for each of its datasets
  kDataset,    // a dataset (a workspace is the not-a-dataset error saying so)
  kWorkspace,  // a kamu workspace (anything else: kNotFound "... not a kamu workspace")
};

struct VerifyRequest {
  // Folders or URLs; none: the locations of the pin file's pins (modes.pins), in its order.
  std::vector<std::string> locations;
  Target target = Target::kAny;
  // In a workspace, only the datasets of these ids or aliases (workspace.h select_datasets).
  // Given for a location that is no workspace: an error for that location.
  std::vector<std::string> datasets;
  bool datasets_given = false;  // `datasets` given, even empty (Python datasets=[])
  unsigned jobs = 0;            // 0: verify_jobs' default for each location
  bool integrity_only = false;
  bool strict = false;
  bool deep = false;
  StoreOptions store;
  odf::VerifyModeArgs modes;  // as given; parsed here (verify_args.h)
  odf::ArgSpelling spelling = odf::ArgSpelling::kFlags;
  // Stop at the first error and return it (Python raises it); otherwise an error is an
  // outcome and the other locations are verified (the command).
  bool stop_at_error = false;
};

// One dataset verified, an entry of a workspace that is not a dataset (a report with one
// not-a-dataset problem), or an error about a location, a selection or a dataset that could
// not be verified.
struct DatasetOutcome {
  std::string shown;      // the location, redacted (redact_url)
  std::string workspace;  // the workspace's location when part of one, else ""
  std::string alias;      // in a workspace: info/alias
  std::string name;       // in a workspace: the alias, or "alias (id)" (see the top)
  bool not_a_dataset = false;
  Result<odf::PinnedReport> result = Status::internal("not run");
  bool in_workspace() const { return !workspace.empty(); }
};

// After the datasets of a workspace (when it had some to report): its summary, a line per
// entry reported.
struct WorkspaceOutcome {
  struct Line {
    std::string name;     // DatasetOutcome::name
    bool error = false;   // could not be verified
    std::string verdict;  // the report's ("VALID", "INVALID (2 problems)", ...)
    // Entries the chain does not reference, listed but not problems (without `strict`).
    size_t unreferenced = 0;
    uint64_t unreferenced_bytes = 0;
    bool not_a_dataset = false;
  };
  std::string shown;
  size_t entries = 0;       // entries of the workspace's folder of datasets
  std::vector<Line> lines;  // the entries reported, in workspace order
};

// Told each outcome as soon as it is known, in order.
class VerifyObserver {
 public:
  virtual ~VerifyObserver() = default;
  // Whether progress is wanted (a terminal): then progress() is called while a dataset's
  // files are hashed (on the hashing threads, serialised) and progress_done() after.
  virtual bool wants_progress() const { return false; }
  virtual void progress(const std::string& /*shown*/, const odf::VerifyProgress& /*p*/) {}
  virtual void progress_done() {}
  virtual void dataset(const DatasetOutcome& outcome) = 0;
  virtual void workspace(const WorkspaceOutcome& /*w*/) {}
};

struct VerifyTally {
  uint64_t total = 0, valid = 0, invalid = 0, errors = 0, problems = 0, fallbacks = 0;
  uint64_t partial = 0;   // verified in part (since, sample)
  int exit_code() const;  // 2 some error, else 1 some invalid, else 0
};

struct VerifyResult {
  VerifyTally tally;
  odf::VerifyModes modes;      // as parsed: what was asked (a front shows pins when asked)
  std::vector<odf::Pin> pins;  // the pins this pass gives (with write_pins: written)
  Status pins_written;         // the error writing them, if any (then exit code 2)
  int exit_code() const { return pins_written.is_ok() ? tally.exit_code() : 2; }
};

// Verifies every location of `request`, telling `observer` each outcome. Errors (nothing or
// not all verified): a usage error (the modes, --expect-head / --since with several
// datasets; kInvalidArgument, as the front spells its options), the pin file cannot be read,
// or with stop_at_error the first error. The pins are written after every location
// (VerifyResult::pins_written).
Result<VerifyResult> verify(const VerifyRequest& request, VerifyObserver& observer);

}  // namespace odf_hash::api
