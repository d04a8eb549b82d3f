// Opening a store (store.h) or one object from what a user typed: a local path, or a URL.
//
//   /data/my-dataset, ./ds               a local folder (local_store.h)
//   s3://bucket/prefix/dataset            S3, through Arrow C++'s S3 file system: the standard
//                                         AWS credential chain (environment, ~/.aws config and
//                                         credentials files, web identity, instance metadata)
//   http://host/path, https://host/path   any HTTP server, read-only, with the object layout of
//                                         the ODF Simple Transfer Protocol: {url}/refs/head,
//                                         {url}/blocks/{hash}, {url}/data/{hash}, ...
//   ipfs://CID/path                       IPFS, through an HTTP gateway
//                                         (StoreOptions::ipfs_gateway), anchored by the CID:
//                                         every block is asked for as a verifiable response
//                                         (GATEWAY/ipfs/BLOCK-CID?format=raw) and checked
//                                         against the CID that links to it, from the root CID
//                                         down the UnixFS path to each object; folders are
//                                         listed (verified content too). See
//                                         src/remote/ipfs/ipfs_store.h.
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

#include "odf_hash/cancel.h"
#include "odf_hash/logical.h"
#include "odf_hash/physical.h"
#include "odf_hash/status.h"
#include "odf_hash/store.h"

namespace odf_hash {

struct StoreOptions {
  // S3 (the names of the AWS CLI's options).
  // The endpoint to send S3 requests to ("http://127.0.0.1:9000", "https://s3.example.org");
  // empty: $AWS_ENDPOINT_URL_S3, else $AWS_ENDPOINT_URL, else AWS.
  std::string endpoint_url;
  // The bucket's region; empty: $AWS_REGION, else $AWS_DEFAULT_REGION, else asked of S3
  // (the bucket's region), else us-east-1.
  std::string region;
  // Anonymous requests, for public buckets: no credentials are looked for.
  bool no_sign_request = false;

  // Remote stores (HTTP and S3): see the top of this file.
  double connect_timeout_s = 10;
  double read_timeout_s = 30;
  unsigned max_attempts = 4;  // 1 means no retry

  // IPFS (ipfs://, ipns://): the HTTP gateway's URL ("http://127.0.0.1:8080"); empty:
  // resolve_ipfs_gateway.
  std::string ipfs_gateway;
  // IPFS: read GATEWAY/ipfs/CID/path (and ipns://) as plain HTTP objects, trusting the gateway
  // to serve the content the CID names, instead of checking every block against it (see the
  // top of this file). For gateways without verifiable responses, and for ipns:// names.
  bool trust_gateway = false;

  // Local folders: follow symbolic links leaving the folder (local_store.h).
  bool follow_symlinks = false;

  // Set (from any thread) to stop the work early: see cancel.h. Null: never cancelled.
  const CancelFlag* cancel = nullptr;
};

// kamu's default gateway (protocol.ipfs.httpGateway): a local IPFS daemon.
inline constexpr const char* kDefaultIpfsGateway = "http://localhost:8080";

// The gateway an ipfs:// URL is read through: `option` when not empty, else
// $ODF_HASH_IPFS_GATEWAY, else kamu's $KAMU_CONFIG__protocol__ipfs__httpGateway, else
// kDefaultIpfsGateway.
std::string resolve_ipfs_gateway(const std::string& option);

// kInvalidArgument naming the option unless the timeouts are finite numbers of seconds from
// 0.1 to 3600 and max_attempts is from 1 to 20. open_store checks it for every URL.
Status check_store_options(const StoreOptions& options);

// Whether `text` is a URL this factory opens remotely ("s3://", "http://", "https://",
// "ipfs://", "ipns://").
bool is_store_url(std::string_view text);

// Whether `text` is an "ipfs://" or "ipns://" URL (any case).
bool is_ipfs_url(std::string_view text);

// `text` (a URL, a path, or a message quoting URLs) with the user information of every URL
// in it replaced by "***": "https://user:secret@host/ds" -> "https://***@host/ds". Every
// place that shows a location (messages, reports, JSON, tasks) goes through it, so that a
// password typed in a URL never leaves the process that was given it. Text without
// "scheme://user@" is returned unchanged.
std::string redact_url(std::string_view text);

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

// The physical hash of a local file (physical_hash_file: "-" is standard input) or of the
// object at a URL (open_object, streamed). What every command and binding that takes
// "a path or a URL" of one file calls.
Result<PhysicalDigest> physical_hash_path_or_url(const std::string& name,
                                                 const StoreOptions& options = {},
                                                 const ProgressFn& progress = {});

// The logical hash of a local file (logical_hash_file) or of the object at a URL
// (open_object, range reads): logical_hash_object over open_object. What every binding that
// takes "a path or a URL" of one data file calls.
Result<LogicalDigest> logical_hash_path_or_url(const std::string& name,
                                               const LogicalHashOptions& logical_options = {},
                                               const StoreOptions& options = {});

// Shuts down what the remote stores started process-wide (the AWS SDK behind S3), which must
// happen before static destructors run: call it once, at the end of main, after every
// store and reader is destroyed. Harmless when no remote store was opened, or called twice;
// S3 stores opened afterwards fail. A program that does not call it gets it at exit (the
// first S3 store registers it with std::atexit), which is enough unless S3 objects are
// still alive in static storage then.
void shutdown_remote_stores();

}  // namespace odf_hash
