// Internal to remote: IPFS blocks fetched from an HTTP gateway as verifiable responses, checked
// against their CIDs, decoded, and kept in a bounded cache.
//
// A block is asked for as the trustless gateway spec says (specs.ipfs.tech/http-gateways/
// trustless-gateway): GET GATEWAY/ipfs/CID?format=raw with "Accept: application/vnd.ipld.raw".
// The answer must be a 2xx with that Content-Type, no Content-Encoding, at most kMaxBlockBytes
// (announced or sent: a longer body stops the transfer); its bytes must hash to the CID
// (check_block), else the error names the URL and what the gateway did, and says that
// --trust-gateway is the way to read through a gateway that cannot answer so. Requests use the
// HTTP store's client (curl_client.h): its timeouts (connect, and a body slower than 1 KiB/s
// over read_timeout_s fails an attempt), redirects (at most 8, never https to http), and
// attempts (timeouts, resets, 5xx, 408 and 429 are tried again, max_attempts in all). Every
// failure is a kIoError (a block the gateway cannot give is unavailable, not absent: the CID
// says it exists), except kUnsupported for a codec or hash odf-hash does not read.
//
// Identity CIDs are answered from the CID itself, nothing requested.
//
// Cache: decoded dag-pb nodes that have links (directories, HAMT shards, the inner nodes of
// a file's DAG) or are small (at most 64 KiB: a metadata block written as a dag-pb leaf) stay
// in a least-recently-used cache of at most kCacheBytes of decoded blocks (their bytes and
// their links' memory), so that resolving "blocks/<hash>" for each block of a chain fetches
// the root and blocks/ once. Raw blocks and large leaves (file contents) are not kept: a
// reader keeps its last leaf itself.
//
// Thread safety: get() may be called from any number of threads at once.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "../http/curl_client.h"
#include "block.h"

namespace odf_hash::remote::ipfs {

// Bytes of blocks the cache keeps, per store.
inline constexpr size_t kCacheBytes = 32u << 20;

class BlockSource {
 public:
  // `gateway`: an http(s) URL without query, fragment or trailing '/'; `shown` is it without
  // its user information (messages).
  BlockSource(std::string gateway, std::string shown, const HttpOptions& options);

  // The block `cid` names. kUnsupported for a codec other than dag-pb and raw (checked before
  // any request) or a hash check_block does not support; kParseError for a block that hashes
  // right but does not decode (decode_block: malformed content, which the CID pins); kIoError
  // for anything the gateway did wrong or could not do.
  Result<std::shared_ptr<const Block>> get(const Cid& cid) const;

  // "GATEWAY/ipfs/CID?format=raw", without user information.
  std::string block_url(const Cid& cid) const;
  const std::string& gateway() const noexcept { return shown_; }

 private:
  Result<std::vector<uint8_t>> download(const Cid& cid) const;
  std::shared_ptr<const Block> cached(const std::string& key) const;
  void keep(const std::string& key, std::shared_ptr<const Block> block) const;

  std::string gateway_;
  std::string shown_;
  std::shared_ptr<CurlClient> client_;

  mutable std::mutex mu_;
  using Lru = std::list<std::pair<std::string, std::shared_ptr<const Block>>>;
  mutable Lru lru_;  // most recently used first
  mutable std::unordered_map<std::string, Lru::iterator> index_;
  mutable size_t cached_bytes_ = 0;
};

}  // namespace odf_hash::remote::ipfs
