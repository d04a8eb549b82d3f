// The local implementations of the object interface (store.h): a folder as an ObjectStore,
// and a single file named on the command line as an ObjectReader.
//
// A local folder holding a dataset is untrusted: its author chose the kind of every name,
// not only the bytes. The folder store therefore
//  - reports the kind of every entry (stat, list) and opens regular files only: a
//    directory, a FIFO, a socket or a device is never opened for reading (so never blocks:
//    a FIFO read would wait for a writer forever), only reported;
//  - checks kinds on what it opened, never on a name it opens afterwards: every name is
//    first opened with O_PATH (no side effect, even on a device), fstat'ed, and reopened for
//    reading only when it is a regular file, with O_NONBLOCK|O_NOCTTY, then fstat'ed again
//    and compared (device and inode) with what was checked;
//  - resolves names one component at a time from the root's descriptor (openat with
//    O_NOFOLLOW, as openat2's RESOLVE_BENEATH would), following a symbolic link only when
//    its target, taken relative to the link's folder, stays inside the root. A link that is
//    absolute or climbs out of the root with ".." is not followed: the name is reported as
//    kSymlink, with the link and its target (unless follow_symlinks is set, which follows
//    every link, like `cp -L`). The root path itself is the caller's and is followed;
//  - bounds every read by the size found when the file was opened (and by
//    OpenOptions::max_size): a file that grows while it is read is an error.
//
// Thread safety: as store.h. The store holds one descriptor on the root folder.
#pragma once

#include <memory>
#include <string>

#include "odf_hash/io/store.h"

namespace odf_hash {

struct LocalFolderOptions {
  // Follow every symbolic link, also those leaving the folder (--follow-symlinks).
  bool follow_symlinks = false;
};

// The folder at `path` (a symbolic link to a folder is fine) as an ObjectStore whose
// location() is `path` + "/" + key. kNotFound when nothing is at `path`, kInvalidArgument
// when it is not a folder, kIoError when it cannot be opened (permission denied).
Result<std::shared_ptr<ObjectStore>> open_local_folder(const std::string& path,
                                                       const LocalFolderOptions& options = {});

// A file named by the user (a command line argument): opened as `cat` would, following
// links. Only regular files can be read at random offsets (Parquet, Arrow IPC files), so
// anything else is kInvalidArgument saying what it is; use physical_hash_file for streams.
Result<std::unique_ptr<ObjectReader>> open_local_file(const std::string& path);

// What `path` names, following links, found without opening it (so that a FIFO's writer is
// not woken): kFile for a regular file. kNotFound when nothing is there (a dangling link),
// kIoError when it cannot be looked at.
Result<ObjectKind> local_path_kind(const std::string& path);

}  // namespace odf_hash
