// Internal to remote: the two protobuf layers of a UnixFS block, decoded from bytes that
// check_block (cid.h) has already matched with their CID.
//
// dag-pb (ipld.io/specs/codecs/dag-pb/spec), the outer layer:
//   message PBLink { bytes Hash = 1; string Name = 2; uint64 Tsize = 3; }
//   message PBNode { repeated PBLink Links = 2; bytes Data = 1; }
// decoded as strictly as that spec asks, but for one thing: no other fields, each field of a
// link at most once and in order, Hash present and a CID, Data at most once; Data may come
// before the links as well as after them (the canonical order, what Kubo writes by default),
// since writers exist that put it first (Kubo's Import.UnixFSPBNodeFieldOrder, js-dag-pb's
// "data-first") and the UnixFS spec says readers must accept both.
//
// UnixFS (specs.ipfs.tech/unixfs), the PBNode's Data:
//   message Data { DataType Type = 1; bytes Data = 2; uint64 filesize = 3;
//                  repeated uint64 blocksizes = 4; uint64 hashType = 5; uint64 fanout = 6;
//                  uint32 mode = 7; UnixTime mtime = 8; }
// Type must be present and one of the six types; blocksizes may be packed or not; fields
// odf-hash does not use (mode, mtime, any later one) are skipped by their wire type.
//
// Protobuf varints are up to 10 bytes (not necessarily minimal); a length that runs past the
// end, a group wire type, or a value out of range is a kParseError naming the field. Never a
// crash, whatever the bytes (fuzzed by tests/fuzz/ipfs_block_fuzz.cpp).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cid.h"
#include "odf_hash/core/status.h"

namespace odf_hash::remote::ipfs {

struct PbLink {
  Cid hash;
  std::string name;  // absent is "": the UnixFS spec reads them alike

  std::optional<uint64_t> tsize;  // a hint, never trusted (the spec says so)
};

struct PbNode {
  std::vector<PbLink> links;
  std::optional<std::vector<uint8_t>> data;
};

// A dag-pb block.
Result<PbNode> decode_dag_pb(std::span<const uint8_t> block);

enum class UnixFsType : uint8_t {
  kRaw = 0,  // legacy: a file leaf in a dag-pb envelope
  kDirectory = 1,
  kFile = 2,
  kMetadata = 3,
  kSymlink = 4,
  kHamtShard = 5,
};

// "raw", "directory", "file", "metadata", "symlink", "HAMT shard".
const char* unixfs_type_name(UnixFsType type);

struct UnixFsData {
  UnixFsType type = UnixFsType::kRaw;
  std::vector<uint8_t> data;  // file bytes, a symlink's target, a HAMT shard's bitfield
  std::optional<uint64_t> filesize;
  std::vector<uint64_t> blocksizes;
  std::optional<uint64_t> hash_type;
  std::optional<uint64_t> fanout;
};

// The UnixFS message of a PBNode's Data.
Result<UnixFsData> decode_unixfs(std::span<const uint8_t> data);

}  // namespace odf_hash::remote::ipfs
