// Internal to remote: the pure parts of UnixFS HAMT-sharded directories (specs.ipfs.tech/unixfs,
// "HAMTDirectory"), which Kubo writes for a folder whose node would pass 256 KiB (an ODF
// dataset's blocks/ or data/ with thousands of files).
//
// A shard is a dag-pb node of UnixFS type HAMTShard with a fanout F (a power of two, a
// multiple of 8, at most 1024) and hashType murmur3-x64-64 (0x22). A name's hash is the first
// 64 bits (h1) of MurmurHash3_x64_128 with seed 0 over its bytes; Kubo writes it big-endian and
// takes log2(F) bits per level from its most significant end, so level d's bucket is bits
// [d * log2(F), (d + 1) * log2(F)) counted from the top. Each link of a shard is named by its
// bucket in upper-case hex, padded to the digits of F - 1 ("00".."FF" for 256), followed by
// the entry's name for an entry, or by nothing for a sub-shard holding the bucket's next
// level. The shard's Data is a bitfield of its occupied buckets: bit i is bit (i % 8) of byte
// (F / 8 - 1 - i / 8), the bytes of a big-endian integer (Kubo's go-bitfield), which may be
// written without its leading zero bytes.
//
// The store (ipfs_store.cpp) walks shards with these, checking each shard with
// check_hamt_shard and each listed entry's name against the buckets that led to it, so that a
// shard cannot hide, move or repeat an entry.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "dag_pb.h"
#include "odf_hash/core/status.h"

namespace odf_hash::remote::ipfs {

inline constexpr uint64_t kHashMurmur3X64_64 = 0x22;

// h1 of MurmurHash3_x64_128 (Austin Appleby's reference, seed 0): the HAMT hash of a name.
uint64_t murmur3_x64_64(std::span<const uint8_t> bytes);

struct HamtLayout {
  uint64_t fanout = 256;
  unsigned bits = 8;       // log2(fanout): hash bits per level
  size_t pad = 2;          // hex digits of a link's bucket prefix
  unsigned max_depth = 8;  // levels a 64-bit hash covers: 64 / bits
};

// The layout of a shard; kParseError unless it is a HAMTShard with hashType 0x22 and a valid
// fanout (kUnsupported for another hash type).
Result<HamtLayout> hamt_layout(const UnixFsData& shard);

// The bucket of `hash` at level `depth` (0: the root shard). Precondition: depth < max_depth.
unsigned hamt_bucket(uint64_t hash, const HamtLayout& layout, unsigned depth);

// A shard's link, from its name: the bucket and the entry's name ("" for a sub-shard).
struct HamtSlot {
  unsigned bucket = 0;
  std::string_view entry;
};
Result<HamtSlot> hamt_slot(std::string_view link_name, const HamtLayout& layout);

// OK when every link of `node` has a well-formed name, no two share a bucket, and the bitfield
// has exactly their buckets set; kParseError naming the first fault.
Status check_hamt_shard(const PbNode& node, const UnixFsData& shard, const HamtLayout& layout);

}  // namespace odf_hash::remote::ipfs
