// Internal to remote: one IPFS block whose bytes matched its CID (check_block, cid.h), decoded
// by its codec; and what a block of a UnixFS file holds.
//
// Thread safety: a Block is immutable once made (shared between threads as
// shared_ptr<const Block>); the functions are pure.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cid.h"
#include "dag_pb.h"
#include "odf_hash/core/status.h"

namespace odf_hash::remote::ipfs {

struct Block {
  Cid cid;
  size_t size = 0;           // bytes of the block
  std::vector<uint8_t> raw;  // codec raw: the bytes
  PbNode node;               // codec dag-pb: the node, its Data decoded into unixfs (and dropped)
  UnixFsData unixfs;

  bool is_raw() const noexcept { return cid.codec == kCodecRaw; }
  // The file bytes this block holds itself: a raw block's bytes, a dag-pb node's UnixFS Data.
  std::span<const uint8_t> content() const noexcept {
    return is_raw() ? std::span<const uint8_t>(raw) : std::span<const uint8_t>(unixfs.data);
  }
};

// kUnsupported, naming the codec, unless `cid` is of a codec UnixFS is read from (raw,
// dag-pb).
Status check_codec(const Cid& cid);

// The block `cid` names, from its bytes (already checked against the CID). kUnsupported for a
// codec other than raw and dag-pb; kParseError, naming the CID, for a dag-pb block that does
// not decode or has no UnixFS Data.
Result<Block> decode_block(const Cid& cid, std::vector<uint8_t> bytes);

// The number of bytes a block of a file holds (raw: its length; a File or Raw node: its Data
// plus its blocksizes), after checking that the node is one: a type File or Raw, as many
// blocksizes as links, no named link, a filesize (when written) equal to that sum.
// kParseError naming the CID otherwise (a directory, a symlink, an inconsistent node).
Result<uint64_t> file_block_size(const Block& block);

}  // namespace odf_hash::remote::ipfs
