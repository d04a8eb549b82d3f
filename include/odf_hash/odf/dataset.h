// An ODF dataset in a store (a local folder, S3, HTTP: open_store.h), and its metadata chain.
//
//   <dataset>/refs/head                   the head block's hash, as multibase text
//   <dataset>/blocks/<blockHash>          one metadata block per file
//   <dataset>/data/<physicalHash>         data part files (Parquet)
//   <dataset>/checkpoints/<physicalHash>  checkpoint files (opaque)
//   <dataset>/info/                       auxiliary files, ignored
//
// File names are multihashes in their canonical form (Multihash::to_string: "f1620" and 64
// lower-case hex digits), the only name kamu writes and opens: a file is found by that name
// only. A name that decodes to a multihash in another spelling (upper-case "F1620…",
// base58btc "z…") is listed, but find_* never return it; misnamed_* say that it exists, for
// messages. Files whose name starts with ".pending-" are temporary files of a writer and
// are ignored.
// A store that cannot list its folders (HTTP) is read by canonical names (`f1620…`), as the
// spec's Simple Transfer Protocol names objects; the dataset is then not listed (listed()).
//
// Every name is untrusted, down to its kind: entries are listed with their kind (a folder,
// a FIFO, a link the store does not follow, see local_store.h), and only regular files are
// ever opened.
//
// Nothing here writes to the dataset. Thread safety: a DatasetDir is immutable after open
// and may be shared between threads (the store allows concurrent calls).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/odf/odf_block.h"

namespace odf_hash::odf {

// One entry of blocks/, data/ or checkpoints/ whose name decodes as a multihash.
struct DatasetFile {
  std::string name;      // the name as listed (canonical when the store cannot list)
  std::string rel_path;  // "data/<name>", the key in the store
  Multihash hash;
  bool canonical = true;  // name == hash.to_string(): the one name kamu opens
  // What the name is, links resolved as the store's policy says (kSymlink: a link the
  // store does not follow, with its target in link_target).
  ObjectKind kind = ObjectKind::kFile;
  std::string link_target;
  bool broken_link = false;      // a link that leads nowhere or loops (kind kSymlink)
  std::optional<uint64_t> size;  // of a kFile, when the listing said it (ObjectEntry::size)
};

// An entry of the dataset that is not a hash-named file of the three folders: a name that
// is not a multihash, or one of the folders when it is not a folder.
struct DatasetEntry {
  std::string rel_path;  // "data/notes.txt"
  ObjectKind kind = ObjectKind::kFile;
  std::string link_target;  // for kSymlink
  bool broken_link = false;
  std::optional<uint64_t> size;  // of a kFile, when the listing said it (ObjectEntry::size)
};

// The store of the dataset at `url_or_path` (open_store): the one way every command, verify,
// plan_verify and check_file open a dataset. A local folder that does not exist is
// kNotFound "<path>: no such dataset directory". Messages name URLs without their user
// information (redact_url).
Result<std::shared_ptr<ObjectStore>> open_dataset_store(const std::string& url_or_path,
                                                        const StoreOptions& options = {});

class DatasetDir {
 public:
  // The dataset at `url_or_path`, a local folder or a URL, opened by open_dataset_store
  // (below), then as open(store). kNotFound when there is nothing there; other errors when
  // it is not a readable directory, a listing fails or the store cannot be reached.
  static Result<DatasetDir> open(const std::string& url_or_path, const StoreOptions& options = {},
                                 bool list_folders = true);

  // A dataset at the root of `store`. Lists blocks/, data/ and checkpoints/ when the store
  // can list (a missing folder is empty: a dataset without data yet has no data/ folder).
  // A listable root holding neither refs/ nor blocks/ is not a dataset: kNotFound saying
  // what it looks like (workspace.h, not_a_dataset_status).
  // A store that cannot list (HTTP) is opened at refs/head once: an I/O error then (the
  // server refuses connections, times out, denies access) is returned, since nothing of
  // the dataset could be read; a missing refs/head is left to verification to report.
  // `list_folders` false (verify --since, which reads a few names of a large dataset): a
  // store that can list is only asked whether the root is a dataset, and the dataset is then
  // read by canonical names as if the store could not list (listed() is false).
  static Result<DatasetDir> open(std::shared_ptr<const ObjectStore> store,
                                 bool list_folders = true);

  // The dataset's location for messages (the folder path, the URL).
  const std::string& path() const noexcept { return path_; }
  const ObjectStore& store() const noexcept { return *store_; }

  // False when the store cannot list: find_* then name files by their canonical key, and
  // blocks(), data_files(), checkpoints() and foreign_entries() are empty.
  bool listed() const noexcept { return listed_; }

  // Reads and decodes refs/head (surrounding whitespace ignored). kNotFound when it does
  // not exist, kParseError when it does not hold a valid multihash, kIoError when it cannot
  // be read or is not a regular file. Messages quote at most a short escaped prefix of it.
  Result<Multihash> read_head() const;

  // The file named by `hash` in a folder: the listed one, or the canonical name (which may
  // not exist) when the folder was not listed (a store that cannot list, a folder that is
  // not a directory). nullopt when listed and absent.
  // Only the canonical name counts (see the top of this file).
  std::optional<DatasetFile> find_block(const Multihash& hash) const;
  std::optional<DatasetFile> find_data(const Multihash& hash) const;
  std::optional<DatasetFile> find_checkpoint(const Multihash& hash) const;

  // The first listed file (in name order) holding `hash` under a non-canonical name, for a
  // message saying why the canonical one is missing. nullopt when there is none or the
  // folder was not listed.
  std::optional<DatasetFile> misnamed_block(const Multihash& hash) const;
  std::optional<DatasetFile> misnamed_data(const Multihash& hash) const;
  std::optional<DatasetFile> misnamed_checkpoint(const Multihash& hash) const;

  // Every hash-named entry of the three folders in name order (".pending-*" excluded).
  const std::vector<DatasetFile>& blocks() const noexcept { return blocks_; }
  const std::vector<DatasetFile>& data_files() const noexcept { return data_; }
  const std::vector<DatasetFile>& checkpoints() const noexcept { return checkpoints_; }
  // Entries whose name is not a multihash, and the three folders when they are not
  // directories (a link the store does not follow, a file...), in name order.
  const std::vector<DatasetEntry>& foreign_entries() const noexcept { return foreign_; }

  // The location of a key of the dataset, for messages.
  std::string location(const std::string& rel_path) const { return store_->location(rel_path); }

 private:
  // Lists `folder` into `files`; false in *listed when it is there but not a directory.
  Status list_folder(const std::string& folder, std::vector<DatasetFile>& files, bool* listed);

  std::shared_ptr<const ObjectStore> store_;
  std::string path_;
  bool listed_ = false;
  bool blocks_listed_ = false, data_listed_ = false, checkpoints_listed_ = false;
  std::vector<DatasetFile> blocks_, data_, checkpoints_;
  // Binary multihash -> index of the file with the canonical name, and of the first file
  // (in name order) holding that hash under another name.
  std::map<std::string, size_t> block_index_, data_index_, checkpoint_index_;
  std::map<std::string, size_t> block_misnamed_, data_misnamed_, checkpoint_misnamed_;
  std::vector<DatasetEntry> foreign_;
};

// A block of the chain, with its hash and file bytes' provenance.
struct ChainBlock {
  Multihash hash;
  std::string rel_path;  // "blocks/<name>"
  MetadataBlock block;
};

}  // namespace odf_hash::odf
