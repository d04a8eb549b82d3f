// Private to fetch: the destination folder, written only through descriptors.
//
// DEST's folders (refs/, blocks/, data/, checkpoints/ and the private .odf-hash-fetch/) are
// opened once with openat(O_DIRECTORY|O_NOFOLLOW) below DEST's own descriptor, so a link
// planted in DEST is refused, never written through. Every file is first written in the
// private folder, flushed (fsync), then renamed to its final name (renameat within DEST's
// file system): a final name only ever holds complete, verified bytes.
//
// Thread safety: after open(), the methods may be called from several threads at once (each
// touches its own names; the descriptors are only read).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "odf_hash/core/status.h"
#include "odf_hash/internal/io/fd.h"

namespace odf_hash::odf::fetch_detail {

// The private folder's name in DEST.
inline constexpr const char* kPrivateFolder = ".odf-hash-fetch";

// Writes all `n` bytes at `p` to `fd` (retrying short writes); errors name `shown`.
Status write_all(int fd, const uint8_t* p, size_t n, const std::string& shown);

// A partial object in the private folder, open for appending.
struct PartialFile {
  io_internal::Fd fd;
  std::string name;           // in the private folder: "<object name>.partial"
  uint64_t size = 0;          // bytes already there (an earlier, interrupted fetch)
  uint64_t written_back = 0;  // bytes whose writing to disk was started (start_writeback)
};

// Starts writing the partial object's bytes up to `end` to disk once enough of them wait
// (Linux: sync_file_range, without waiting), so that the flush before its rename finds most
// of them on disk already instead of waiting for all of them at the end: a fetch's disk
// writes overlap its transfer. Advisory: the flush reports any error.
void start_writeback(PartialFile& partial, uint64_t end);

class DestFolder {
 public:
  // DEST at `path`: made when it does not exist (its parent must); an existing one must be a
  // folder (not a link) holding refs/ or blocks/ (a dataset), or nothing but data/,
  // checkpoints/, info/ and the private folder (new, or an interrupted first fetch), else
  // kInvalidArgument. Takes the lock of the private folder (kIoError "another fetch is writing
  // <path>" when taken).
  static Result<DestFolder> open(const std::string& path);

  const std::string& path() const noexcept { return path_; }

  // Opens the folder "data", "checkpoints", "blocks" or "refs", made when missing. Call it
  // before the threads start, for each folder they write in.
  Status make_folder(const std::string& name);

  // A regular file at `key` ("data/<name>"): its descriptor for reading, or nullopt when
  // there is nothing there. Anything else at that name (a folder, a link) is kInvalidArgument.
  Result<std::optional<io_internal::Fd>> open_final(const std::string& key);

  // The partial object for `name` (a multihash's canonical text): the one an earlier fetch
  // left, or a new empty one.
  Result<PartialFile> open_partial(const std::string& name);
  // Empties a partial object (its bytes did not verify).
  Status discard_partial(const PartialFile& partial);
  // Flushes the partial object and renames it to `key`.
  Status commit_partial(const PartialFile& partial, const std::string& key);

  // Writes `bytes` under `key` (temp file, fsync, rename).
  Status write_file(const std::string& key, std::span<const uint8_t> bytes);

  // Flushes the folders whose entries changed (the renames on disk).
  void sync_folders();

  // Removes the private folder when it holds nothing but the lock (no partial object to
  // resume): a fetch that completed leaves a plain dataset.
  void remove_private_folder_if_empty();

 private:
  std::string path_;
  io_internal::Fd root_, private_, lock_;
  io_internal::Fd refs_, blocks_, data_, checkpoints_;
  std::string shown(const std::string& key) const { return path_ + "/" + key; }
  // The descriptor of a key's folder (-1 when not made) and the name in it.
  int folder_of(const std::string& key, std::string* name) const;
  const io_internal::Fd* slot(const std::string& folder) const;
};

}  // namespace odf_hash::odf::fetch_detail
