// kamu workspaces, and folders that are not ODF datasets.
//
// A dataset folder (dataset.h) is one holding refs/ or blocks/, whatever they are: a dataset
// whose refs/head was deleted, or whose blocks/ is a FIFO, is still a dataset, and
// verification reports its problems. A listable folder holding neither is not a dataset:
// DatasetDir::open refuses it (kNotFound, not_a_dataset_status), saying what it looks like.
// A store that cannot list (HTTP) is always taken as a dataset.
//
// A kamu workspace is the folder holding .kamu/ (kamu init), with its datasets in
// .kamu/datasets/<dataset id>/, each named by its alias, the content of info/alias. Also
// accepted as a workspace: .kamu itself, .kamu/datasets itself, and any folder that is not a
// dataset and holds only folders, at least one of them a dataset (e.g. a folder of datasets
// pushed with `kamu push --to file:///...`).
//
// Every entry of the folder of datasets is accounted for: a dataset (verified), or an entry
// that is not one (a file, a FIFO, a folder with neither refs/ nor blocks/, a link leaving
// the workspace or leading nowhere), which is reported as a not-a-dataset problem
// (not_a_dataset_report) and so makes the workspace's result INVALID: nothing under
// .kamu/datasets is left out silently. A link staying inside the workspace is followed;
// one leaving it only with StoreOptions::follow_symlinks.
//
// Aliases are untrusted text (a file of the dataset): escape them before printing. Nothing
// here writes. Thread safety: free functions, reentrant.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/odf/verify.h"

namespace odf_hash::odf {

// One entry of the folder of datasets.
struct WorkspaceDataset {
  // info/alias without surrounding whitespace (at most 1 KiB read), or the entry's name when
  // it has no readable info/alias.
  std::string alias;
  std::string id;        // the entry's name (a kamu dataset id, "fed01…")
  std::string location;  // the dataset, as verify_dataset / open_store take it
  // Empty for a dataset; otherwise what the entry is instead, as the end of a sentence ("a
  // regular file, not a dataset folder"; untrusted parts escaped).
  std::string not_a_dataset;
};

struct Workspace {
  std::string location;  // the folder of datasets (".../.kamu/datasets"), as given + keys
  // Every entry of that folder, datasets or not, ordered by alias, then id.
  std::vector<WorkspaceDataset> datasets;
};

// The entries `names` select (aliases or dataset ids, as --dataset gives them; every entry
// when `names` is empty), in workspace order, each once; a name is first taken as an id.
// One error per name that selects none (kNotFound "<shown>: the workspace has no dataset
// aliased ...", listing the aliases) or an alias naming several datasets (kInvalidArgument,
// listing their ids, to be given instead).
struct WorkspaceSelection {
  std::vector<const WorkspaceDataset*> chosen;  // pointers into the Workspace
  std::vector<Status> errors;
};
WorkspaceSelection select_datasets(const Workspace& ws, const std::vector<std::string>& names,
                                   const std::string& shown);

// The report of an entry that is not a dataset: its location, one not-a-dataset problem
// saying what it is (so INVALID), nothing else checked.
DatasetReport not_a_dataset_report(const WorkspaceDataset& entry);

// Whether the root of `store` is a dataset by the test above. True when it cannot list.
Result<bool> is_dataset_root(const ObjectStore& store);

// The workspace at `url_or_path` (a local folder or a listable URL), or nullopt when it is
// a dataset or no workspace (see the top of this file). Errors: the folder cannot be opened
// or listed.
Result<std::optional<Workspace>> open_workspace(const std::string& url_or_path,
                                                const StoreOptions& options = {});

// The error for a folder that is not a dataset: kNotFound "<shown>: not an ODF dataset (no
// refs/ nor blocks/): <what it looks like and what to do>" -- a kamu workspace (give the
// workspace to `odf-hash verify`, or odf_hash.verify_workspace in Python), the blocks/,
// data/ or checkpoints/ folder of a dataset (verify its parent), an empty folder, or an
// unrelated one.
Status not_a_dataset_status(const ObjectStore& store, const std::string& shown);

}  // namespace odf_hash::odf
