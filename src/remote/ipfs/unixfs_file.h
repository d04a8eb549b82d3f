// Internal to remote: one UnixFS file read from blocks checked against their CIDs, as an
// ObjectReader (store.h).
//
// A file is a raw block (its bytes), or a dag-pb node of type File (or the legacy Raw) whose
// bytes are its own Data followed by those of its children, in link order, child i holding
// blocksizes[i] bytes; a child is a raw block or such a node in turn. So a byte at offset o is
// found by walking down from the root, at each node skipping the children whose blocksizes
// end before o (what the spec's "offset list" is for): read_at fetches only the blocks of the
// range asked, which Parquet's footer-first reads need. A node is consistent or the read fails
// (kParseError naming the file): as many blocksizes as links, links without names, a filesize
// (when written) equal to its Data plus its blocksizes, each child exactly the size its parent
// gives it, at most kMaxFileDepth levels. These are facts of the content the CID pins, not of
// the gateway; what the gateway does wrong is BlockSource's errors.
//
// Memory: the reader keeps the last leaf it read (at most kMaxBlockBytes); the file's inner
// nodes come from the BlockSource's cache.
//
// Thread safety: as store.h (read_at from several threads at once, and beside read()).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "block_source.h"
#include "odf_hash/io/store.h"

namespace odf_hash::remote::ipfs {

// Deeper than any DAG a UnixFS writer makes of a file that exists (Kubo's balanced layout of
// 174 links a node is 6 levels deep at 1 PiB; its trickle layout grows a level per few
// thousand leaves).
inline constexpr unsigned kMaxFileDepth = 64;

// A reader of the file whose top block is `root`, of `size` bytes (file_block_size(*root),
// block.h),
// named `name` in messages.
std::unique_ptr<ObjectReader> open_unixfs_file(std::shared_ptr<const BlockSource> source,
                                               std::shared_ptr<const Block> root, uint64_t size,
                                               std::string name);

}  // namespace odf_hash::remote::ipfs
