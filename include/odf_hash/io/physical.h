// Physical hashing: SHA3-256 over the exact bytes of a whole file, as a sha3-256 multihash.
//
// Files are streamed in fixed-size chunks: memory use is constant whatever the file size.
// Thread safety: the functions are reentrant; hash distinct files from distinct threads.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"

namespace odf_hash {

// Called from the hashing thread with the bytes hashed so far and the total size (0 when
// unknown, e.g. stdin). Return false to cancel (the call then returns a kCancelled error).
using ProgressFn = std::function<bool(uint64_t done, uint64_t total)>;

struct PhysicalDigest {
  Multihash hash;
  uint64_t size = 0;  // bytes hashed
};

// Hashes the file at `path`; "-" means standard input. Like sha256sum, any file that can be
// read to its end is hashed: a regular file, a pipe (`<(cmd)`, /dev/stdin), a FIFO (which
// blocks until a writer comes, as `cat` would). Errors (missing file, directory, permission
// denied, read error) name the path. A large regular file is read ahead on a second
// thread (physical_hash_fd). Datasets are read through a store instead
// (local_store.h), which never opens anything but regular files.
Result<PhysicalDigest> physical_hash_file(const std::string& path, const ProgressFn& progress = {});

// Hashes an object of a store (store.h) from its current position to its end; progress
// totals are object.size().
Result<PhysicalDigest> physical_hash_object(ObjectReader& object, const ProgressFn& progress = {});

// Hashes everything readable from an open file descriptor (not closed). A regular file of
// 8 MiB or more is read ahead on a second thread (4 buffers of 512 KiB) while this one
// hashes, so the hash runs at the Keccak rate instead of paying the copy out of the page
// cache inline; the descriptor's offset is then undefined until the call returns.
Result<PhysicalDigest> physical_hash_fd(int fd, const std::string& name_for_errors,
                                        const ProgressFn& progress = {});

}  // namespace odf_hash
