// How a store is opened (open_store.h, the factory of paths and URLs, takes them): S3
// endpoint and region, timeouts and retries of remote stores, the IPFS gateway, the link
// policy of local folders, and a cancellation flag. Plain values, copied into whatever they
// open: a verify task carries its StoreOptions to the worker that checks it (verify_plan.h),
// so they hold no credentials.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/io/cancel.h"

namespace odf_hash {

// A data file or checkpoint a metadata block adds (its multihash text and recorded size).
struct BlockObjectRef {
  bool checkpoint = false;
  std::string hash;
  uint64_t size = 0;
};
// The objects a metadata block's bytes add (none for bytes that are no block).
using BlockObjects = std::function<std::vector<BlockObjectRef>(const std::vector<uint8_t>&)>;

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

  // Remote stores (HTTP and S3): see the top of open_store.h.
  double connect_timeout_s = 10;
  double read_timeout_s = 30;
  unsigned max_attempts = 4;  // 1 means no retry

  // IPFS (ipfs://, ipns://): the HTTP gateway's URL ("http://127.0.0.1:8080"); empty:
  // resolve_ipfs_gateway (open_store.h).
  std::string ipfs_gateway;
  // IPFS: read GATEWAY/ipfs/CID/path (and ipns://) as plain HTTP objects, trusting the gateway
  // to serve the content the CID names, instead of checking every block against it (see the
  // top of open_store.h). For gateways without verifiable responses, and for ipns:// names.
  bool trust_gateway = false;

  // Local folders: follow symbolic links leaving the folder (local_store.h).
  bool follow_symlinks = false;

  // odf+http(s):// (the Smart Transfer Protocol): the node is asked for a download of each
  // object the blocks it sends add, which only the odf layer can read from a block: it sets
  // this (open_dataset_store). Empty: objects are read at their Simple Transfer Protocol paths.
  BlockObjects block_objects;
  // odf+http(s)://: a block the caller already holds (its multihash text) and its bytes
  // (fetch: the destination's head). The node is asked only for the blocks after it, and the
  // store serves it from these bytes (checked against its name like any block); a node whose
  // history does not hold it is asked for the whole chain (then the walk meets no such block
  // and says the history was rewritten). Empty: the whole chain.
  std::string begin_after;
  std::shared_ptr<const std::vector<uint8_t>> begin_after_block;
  // Set (from any thread) to stop the work early: see cancel.h. Null: never cancelled.
  const CancelFlag* cancel = nullptr;
};

// kInvalidArgument naming the option unless the timeouts are finite numbers of seconds from
// 0.1 to 3600 and max_attempts is from 1 to 20. open_store checks it for every URL.
Status check_store_options(const StoreOptions& options);

}  // namespace odf_hash
