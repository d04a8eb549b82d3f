// Internal to remote: content identifiers (CIDs, github.com/multiformats/cid) of IPFS blocks,
// and the check that a block is the one its CID names. The one place where what a gateway
// sends becomes content odf-hash trusts: every block of an ipfs:// dataset goes through
// check_block before anything reads it.
//
//   CIDv0  a bare sha2-256 multihash (0x12 0x20 + 32 bytes), written in base58btc without a
//          multibase prefix ("Qm…", 46 characters); its codec is dag-pb.
//   CIDv1  varint version (1), varint codec, multihash (varint code, varint length, digest),
//          written with a multibase prefix ("bafy…": base32).
//
// Any codec parses (a directory may link to anything); UnixFS is read from dag-pb (0x70) and
// raw (0x55) blocks only, which the store checks. Hashes checked: sha2-256 (0x12, what IPFS
// writes), sha2-512 (0x13), sha3-256 (0x16) and sha3-512 (0x14), through OpenSSL, at their
// full digest length; and identity (0x00), whose digest is the block itself (content inlined
// in the CID: nothing is fetched). Anything else is kUnsupported, naming the hash.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/status.h"

namespace odf_hash::remote::ipfs {

// Multicodec codes (github.com/multiformats/multicodec, table.csv).
inline constexpr uint64_t kCodecRaw = 0x55;
inline constexpr uint64_t kCodecDagPb = 0x70;
inline constexpr uint64_t kHashIdentity = 0x00;
inline constexpr uint64_t kHashSha2_256 = 0x12;
inline constexpr uint64_t kHashSha2_512 = 0x13;
inline constexpr uint64_t kHashSha3_512 = 0x14;
inline constexpr uint64_t kHashSha3_256 = 0x16;

// The largest block odf-hash accepts from a gateway or inlined in a CID. IPFS implementations
// exchange blocks of at most 1 MiB (Kubo's chunker and bitswap limit; 256 KiB by default);
// twice that leaves room for other writers and bounds what one request may hold in memory.
inline constexpr size_t kMaxBlockBytes = 2u << 20;

struct Cid {
  uint64_t version = 1;  // 0 or 1
  uint64_t codec = kCodecRaw;
  uint64_t hash_code = kHashSha2_256;
  std::vector<uint8_t> digest;
  std::vector<uint8_t> bytes;  // the binary CID: v0 the multihash, v1 version + codec + it

  // The canonical text: base58btc for v0 ("Qm…"), base32 lower case for v1 ("bafy…").
  std::string to_string() const;
  bool operator==(const Cid& other) const { return bytes == other.bytes; }
};

// "dag-pb", "raw", "dag-cbor", ... or "0x71" for a code without a name here.
std::string codec_name(uint64_t codec);

// A CID as written in a URL or a path. kInvalidArgument naming what is wrong ("not a CID:
// ...") for anything else: another multibase than the CID spec allows, a body that does not
// decode, a version other than 0 or 1, a malformed or truncated multihash, trailing bytes.
Result<Cid> parse_cid(std::string_view text);

// A binary CID, as a dag-pb link holds it. kParseError naming what is wrong.
Result<Cid> cid_from_bytes(std::span<const uint8_t> bytes);

// OK when `block` is the block `cid` names: its hash function applied to the bytes gives the
// CID's digest (identity: the bytes are the digest). kUnsupported for a hash function not
// listed above, or a digest shorter than the function's (truncated); kIoError when the bytes
// are another block's (what a gateway substituting content sends); nothing else is said of
// the bytes (their codec is for the caller to decode).
Status check_block(const Cid& cid, std::span<const uint8_t> block);

}  // namespace odf_hash::remote::ipfs
