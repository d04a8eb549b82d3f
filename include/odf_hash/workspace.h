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
// Aliases are untrusted text (a file of the dataset): escape them before printing. Nothing
// here writes. Thread safety: free functions, reentrant.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "odf_hash/open_store.h"
#include "odf_hash/status.h"
#include "odf_hash/store.h"

namespace odf_hash::odf {

struct WorkspaceDataset {
  // info/alias without surrounding whitespace (at most 1 KiB read), or the folder's name when
  // the dataset has no readable info/alias.
  std::string alias;
  std::string id;        // the folder's name (a kamu dataset id, "fed01…")
  std::string location;  // the dataset, as verify_dataset / open_store take it
};

struct Workspace {
  std::string location;  // the folder of datasets (".../.kamu/datasets"), as given + keys
  std::vector<WorkspaceDataset> datasets;  // ordered by alias, then id
  // Subfolders of the folder of datasets that are not datasets (skipped), in name order.
  std::vector<std::string> skipped;
};

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
