// The request layer of `fetch` (odf/fetch.h): what the command, Python and the C ABI ask for,
// with the policy they share written once here:
//   - how many files are transferred at once when the caller does not say (verify_jobs);
//   - a source that is a kamu workspace names one of its datasets (`dataset`: an id or an
//     alias, as `verify --dataset`), which is then the source, and whose alias is the default
//     alias in a destination workspace;
//   - a destination that is a kamu workspace (the folder holding .kamu/, .kamu or
//     .kamu/datasets) receives the dataset as kamu lays datasets out, so that kamu uses it as
//     its own: the dataset aliased `alias` there is fetched into (incrementally); otherwise
//     a new one is fetched into .kamu/.odf-hash-fetch/<staging>/ (kamu does not look there;
//     an interrupted fetch is resumed from it) and, once complete and verified, given
//     info/alias and renamed to .kamu/datasets/<its id> (from its Seed). The alias defaults
//     to the source workspace dataset's alias, else the source's last path component;
//   - a trusted head given as text is parsed here (kInvalidArgument naming the option), or
//     read from a pin file as verify reads it (no pin for the source: said in `skipped`).
// Thread safety: fetch() is reentrant.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "odf_hash/core/status.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/odf/fetch.h"
#include "odf_hash/odf/verify_args.h"

namespace odf_hash::api {

struct FetchRequest {
  std::string source;                  // a dataset or a kamu workspace (with `dataset`)
  std::string dest;                    // a local folder: a dataset folder or a kamu workspace
  std::optional<std::string> dataset;  // in a source workspace: the dataset's id or alias
  std::optional<std::string> alias;    // in a destination workspace (see the top)
  unsigned jobs = 0;                   // 0: verify_jobs' default for the source
  bool force = false;
  std::optional<std::string> expect_head;  // multihash text
  // A pin file (verify_pins.h): the source's pin, found by its location (any spelling), is
  // its trusted head and dataset id, as for verify --pins. Not with expect_head.
  std::optional<std::string> pins;
  StoreOptions store;
  std::function<void(const odf::FetchProgress&)> progress;
  // How messages name the options: "--expect-head" (the command) or "expect_head" (Python).
  odf::ArgSpelling spelling = odf::ArgSpelling::kFlags;
};

struct FetchResult {
  odf::FetchReport report;
  std::string alias;  // into a workspace: the dataset's alias there; else ""
};

// Errors as odf::fetch_dataset's, and kInvalidArgument / kNotFound for a request that names
// no single dataset: a source workspace without `dataset` (the message lists its aliases),
// a `dataset` that selects none or several, `dataset` or `alias` where no workspace is, a
// new dataset whose id the destination workspace already holds under another alias.
Result<FetchResult> fetch(const FetchRequest& request);

}  // namespace odf_hash::api
