// An ODF dataset directory on disk, and its metadata chain.
//
//   <dataset>/refs/head                   the head block's hash, as multibase text
//   <dataset>/blocks/<blockHash>          one metadata block per file
//   <dataset>/data/<physicalHash>         data part files (Parquet)
//   <dataset>/checkpoints/<physicalHash>  checkpoint files (opaque)
//   <dataset>/info/                       auxiliary files, ignored
//
// File names are multibase multihashes. Any final multibase encoding is accepted (older
// datasets name files in base58btc), so files are found by decoded hash, never by string.
// Files whose name starts with ".pending-" are temporary files of a writer and are ignored.
//
// Nothing here writes to the dataset. Thread safety: a DatasetDir is immutable after open
// and may be shared between threads.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "odf_hash/multihash.h"
#include "odf_hash/odf_block.h"
#include "odf_hash/status.h"

namespace odf_hash::odf {

// One file of blocks/, data/ or checkpoints/ whose name decodes as a multihash.
struct DatasetFile {
  std::string name;      // file name as found on disk
  std::string rel_path;  // "data/<name>", relative to the dataset root
  Multihash hash;
};

class DatasetDir {
 public:
  // Lists blocks/, data/ and checkpoints/ (a missing folder is empty; a dataset without
  // any data yet has no data/ folder). Errors only when `path` is not a readable
  // directory or a listing fails.
  static Result<DatasetDir> open(const std::string& path);

  const std::string& path() const noexcept { return path_; }

  // Reads and decodes refs/head (surrounding whitespace ignored). kNotFound when the file
  // does not exist, kParseError when it does not hold a valid multihash.
  Result<Multihash> read_head() const;

  // The file named by `hash` in a folder, if present.
  const DatasetFile* find_block(const Multihash& hash) const;
  const DatasetFile* find_data(const Multihash& hash) const;
  const DatasetFile* find_checkpoint(const Multihash& hash) const;

  // Every entry of the three folders in name order (".pending-*" excluded).
  const std::vector<DatasetFile>& blocks() const noexcept { return blocks_; }
  const std::vector<DatasetFile>& data_files() const noexcept { return data_; }
  const std::vector<DatasetFile>& checkpoints() const noexcept { return checkpoints_; }
  // Entries whose name is not a multihash, or that are not regular files, as relative
  // paths ("data/notes.txt"), in name order.
  const std::vector<std::string>& foreign_entries() const noexcept { return foreign_; }

  // Absolute-or-as-given path of a relative path inside the dataset.
  std::string full_path(const std::string& rel_path) const;

 private:
  std::string path_;
  std::vector<DatasetFile> blocks_, data_, checkpoints_;
  // Binary multihash -> index of the first file (in name order) with that hash.
  std::map<std::string, size_t> block_index_, data_index_, checkpoint_index_;
  std::vector<std::string> foreign_;
};

// A block of the chain, with its hash and file bytes' provenance.
struct ChainBlock {
  Multihash hash;
  std::string rel_path;  // "blocks/<name>"
  MetadataBlock block;
};

}  // namespace odf_hash::odf
