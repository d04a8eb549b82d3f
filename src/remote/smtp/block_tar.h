// Private to remote/: the blocks of a Smart Transfer Protocol answer, a gzip'd tar (what kamu
// writes: tar-rs GNU headers, a regular file per block named by its hash, oldest first),
// unpacked within bounds whatever the node sends: at most kMaxBlocksBytes of tar in all (a
// gzip bomb stops there, with a message), entries of at most kMaxBlockBytes (the largest a
// metadata block may be), only regular-file entries with a name (anything else is an error).
// zlib inflates; the tar headers are read here: the tar kamu sends is one shape of ustar/GNU
// header (name, size, typeflag '0' or NUL), 512-byte blocks, two zero blocks at the end, and
// linking libarchive (with its compressors and XML) into every odf-hash for it would cost more
// than these lines. Checksums of the headers are checked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "odf_hash/core/status.h"

namespace odf_hash::remote::smtp {

inline constexpr uint64_t kMaxBlocksBytes = uint64_t{256} << 20;
inline constexpr uint64_t kMaxBlockBytes = uint64_t{64} << 20;

struct TarEntry {
  std::string name;
  std::vector<uint8_t> bytes;
};

// The entries of the gzip'd tar `gz`, in order. kParseError saying what is wrong (`shown`
// names the dataset), kInvalidArgument beyond the bounds.
Result<std::vector<TarEntry>> unpack_blocks(const std::vector<uint8_t>& gz,
                                            const std::string& shown);

}  // namespace odf_hash::remote::smtp
