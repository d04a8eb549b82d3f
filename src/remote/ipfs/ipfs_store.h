// Internal to remote: an ipfs:// dataset as an ObjectStore anchored by its CID.
//
// Every byte served is content the CID names: the store walks the UnixFS DAG from the root
// CID, block by block, each block fetched as a verifiable response and checked against the CID
// its parent's link gives (block_source.h), so a gateway can refuse or stall, but not
// substitute, add, drop or reorder anything below the CID a user typed.
//
//   key "a/b"  the URL's path components, then the key's, each looked up in the directory
//              reached so far: a plain Directory node by its links' names, a HAMT shard by the
//              name's hash (hamt.h), level by level;
//   list       a directory's entries, sorted by name; a HAMT's shards are walked whole, each
//              entry checked to sit in the buckets its name hashes to. A dag-pb entry is
//              fetched to say what it is (file, folder, symlink) and a file's size; a raw
//              block is a file whose size a listing does not give (stat says it). A directory
//              whose names collide or cannot be keys ("", ".", "..", '/' or NUL in them) is
//              refused (kParseError), not listed in part;
//   open       a file (raw block, or File node: unixfs_file.h), with read_at for ranges;
//   kinds      Directory and HAMT shards are kDirectory, File and Raw kFile, Symlink kSymlink
//              (its target as link_target, never followed), Metadata nodes and blocks of
//              other codecs kOther.
//
// Bounds: keys and URLs name at most a few dozen components; a HAMT is at most its hash's
// 64 bits deep, a listing walks at most kMaxHamtShards shards and returns at most
// kMaxListEntries entries; a sub-shard with no links is malformed (writers collapse them).
// Errors name the location (ipfs://CID/path) and, for a request, its URL.
//
// Thread safety: as store.h.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "../http/curl_client.h"
#include "ipfs_url.h"
#include "odf_hash/io/store.h"

namespace odf_hash::remote::ipfs {

inline constexpr size_t kMaxHamtShards = 1u << 16;
inline constexpr size_t kMaxListEntries = 1u << 22;

// The store of `url` (an ipfs:// URL parsed by parse_ipfs_url, not ipns://) read through the
// gateway at `gateway` (http(s), without query, fragment or trailing '/'). Nothing is requested
// until a key is used.
Result<std::shared_ptr<ObjectStore>> open_ipfs_store(const IpfsUrl& url, const std::string& gateway,
                                                     const HttpOptions& options);

}  // namespace odf_hash::remote::ipfs
