// Internal to remote: a kamu node's dataset read by the Smart Transfer Protocol
// (odf+http://host/[account/]dataset; smtp_store.cpp says how), as a read-only store that
// cannot list. open_store.h states what the reads guarantee.
#pragma once

#include <memory>
#include <string>

#include "http/curl_client.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"

namespace odf_hash::remote {

// Runs the pull flow at once: kNotFound for a dataset the node does not have (or hides),
// kIoError when the node cannot be reached or breaks the protocol, kParseError for a
// malformed blocks answer, kInvalidArgument beyond the bounds (smtp/block_tar.h).
// With `begin_after` (StoreOptions::begin_after) the flow asks only for the blocks after it.
Result<std::shared_ptr<ObjectStore>> open_smtp_store(const std::string& url,
                                                     const HttpOptions& http,
                                                     const StoreOptions& options);

}  // namespace odf_hash::remote
