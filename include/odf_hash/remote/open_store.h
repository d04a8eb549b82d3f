// Opening a store (store.h) or one object from what a user typed: a local path, or a URL.
//
//   /data/my-dataset, ./ds               a local folder (local_store.h)
//   s3://bucket/prefix/dataset            S3, through Arrow C++'s S3 file system: the standard
//                                         AWS credential chain (environment, ~/.aws config and
//                                         credentials files, web identity, instance metadata)
//   http://host/path, https://host/path   any HTTP server, read-only, with the object layout of
//                                         the ODF Simple Transfer Protocol: {url}/refs/head,
//                                         {url}/blocks/{hash}, {url}/data/{hash}, ...;
//                                         $ODF_HASH_BEARER_TOKEN goes to the URL's host (a kamu
//                                         node's private dataset), not on to another host a
//                                         redirect leads to
//   ipfs://CID/path                       IPFS, through an HTTP gateway
//                                         (StoreOptions::ipfs_gateway), anchored by the CID:
//                                         every block is asked for as a verifiable response
//                                         (GATEWAY/ipfs/BLOCK-CID?format=raw) and checked
//                                         against the CID that links to it, from the root CID
//                                         down the UnixFS path to each object; folders are
//                                         listed (verified content too).
//   odf+http(s)://host/[account/]dataset  a kamu node's dataset by its Smart Transfer Protocol
//                                         (remote/smtp/): the whole chain's raw blocks in one
//                                         WebSocket answer (over TLS for odf+https://), then the
//                                         objects the blocks add from the download URLs the
//                                         node gives (with the headers it names for them);
//                                         $ODF_HASH_BEARER_TOKEN goes to the node's own address
//                                         only
//   ipns://NAME/path                      refused (kInvalidArgument): nothing anchors what a
//                                         gateway resolves a name to, unless
//                                         StoreOptions::trust_gateway, which reads
//                                         GATEWAY/ipfs/CID/path and GATEWAY/ipns/NAME/path as
//                                         http:// objects, as kamu reads IPFS.
// IPFS paths are checked first: an ipfs:// name must be a CID, and a path component that is
// "." or ".." (also percent-encoded) is refused (kInvalidArgument), as are '?' and '#'.
//
// HTTP servers cannot list folders (ObjectStore::can_list() is false): objects are found by
// their expected keys. S3 prefixes and IPFS folders (read through the CID) are listed. Nothing is
// ever written, whatever the store.
//
// Remote reads (both HTTP and S3):
//  - a sequential read streams the object (one GET; the physical hash is computed as the
//    bytes arrive, no temporary file); read_at issues range GETs (Parquet, Arrow IPC);
//  - HTTP requests that time out, are reset or answer 5xx / 429 are retried up to
//    `max_attempts` times in all, waiting 0.25 s, 0.5 s, 1 s, ... (at most 4 s) in between;
//    a stream cut mid-body resumes where it stopped (a Range request, If-Range on the
//    ETag). S3 requests are retried by the AWS SDK's standard strategy, `max_attempts` in
//    all;
//  - errors name the URL: kNotFound for 404 (a missing object), kIoError for anything else,
//    "access denied" for 401 / 403, and a body that ends before its size (Content-Length,
//    or the size the caller expects) is a kIoError, never fewer bytes; a body longer than
//    its size is a kIoError too, never more bytes;
//  - a body slower than 1 KiB/s on average over any `read_timeout_s` (a stalled server, or
//    a slow-loris one dripping a byte at a time) fails the request (retried as above); connecting
//    is bounded by `connect_timeout_s`; at most 8 HTTP redirects are followed, to http or https
//    only, and never from https to http; $CURL_CA_BUNDLE names the certificates https servers are
//    checked against.
// Memory: a streamed object holds at most 1 MiB of received bytes waiting to be read (HTTP)
// or one 4 MiB chunk (S3); range reads land in the caller's buffer. An IPFS file holds its
// last block (at most 2 MiB, typically 256 KiB) and the block being fetched; an IPFS store
// caches at most 32 MiB of folder and inner nodes.
//
// Thread safety: as store.h. The stores share connections between threads where the
// library allows (curl's DNS cache and TLS sessions, the AWS SDK's client).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"

namespace odf_hash {

// kamu's default gateway (protocol.ipfs.httpGateway): a local IPFS daemon.
inline constexpr const char* kDefaultIpfsGateway = "http://localhost:8080";

// The gateway an ipfs:// URL is read through: `option` when not empty, else
// $ODF_HASH_IPFS_GATEWAY, else kamu's $KAMU_CONFIG__protocol__ipfs__httpGateway, else
// kDefaultIpfsGateway.
std::string resolve_ipfs_gateway(const std::string& option);

// Whether `text` is a URL this factory opens remotely ("s3://", "http://", "https://",
// "ipfs://", "ipns://", "odf+http://", "odf+https://").
bool is_store_url(std::string_view text);

// Whether `text` is an "ipfs://" or "ipns://" URL (any case).
bool is_ipfs_url(std::string_view text);

// Whether `text` is an odf+http(s):// URL (a node's dataset by the Smart Transfer Protocol:
// opening its store runs a pull flow; such a location is never a workspace).
bool is_smtp_url(std::string_view text);

// The dataset folder or prefix at `url_or_path`. A local path must be a folder
// (open_local_folder); a URL is not contacted yet beyond what its store needs to start
// (the S3 bucket's region when unknown). kInvalidArgument for a malformed URL, kUnsupported
// for a scheme this build cannot open.
Result<std::shared_ptr<ObjectStore>> open_store(const std::string& url_or_path,
                                                const StoreOptions& options = {});

// One object, opened for reading: a local regular file (open_local_file), or the object at a
// URL (its last '/'-separated component is the key, the rest the store). The reader keeps
// what it needs of its store alive.
Result<std::unique_ptr<ObjectReader>> open_object(const std::string& url_or_path,
                                                  const StoreOptions& options = {});

// Shuts down what the remote stores started process-wide (the AWS SDK behind S3), which must
// happen before static destructors run: call it once, at the end of main, after every
// store and reader is destroyed. Harmless when no remote store was opened, or called twice;
// S3 stores opened afterwards fail. A program that does not call it gets it at exit (the
// first S3 store registers it with std::atexit), which is enough unless S3 objects are
// still alive in static storage then.
void shutdown_remote_stores();

}  // namespace odf_hash
