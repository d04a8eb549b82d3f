// Internal to remote: an HTTP(S) server as a read-only ObjectStore that cannot list (the
// ODF Simple Transfer Protocol's layout: objects at "{root}/{key}"). open_store.h states
// what the reads guarantee (streaming, ranges, retries, timeouts, sizes); no Arrow here.
#pragma once

#include <memory>
#include <string>

#include "curl_client.h"
#include "odf_hash/io/store.h"

namespace odf_hash::remote {

// `root` is an http:// or https:// URL without query or fragment; a trailing '/' is
// ignored. Nothing is requested until a key is opened or stat'ed.
// `client`, when given, is shared with other stores (its connections are reused): it must have
// been made with these `options` (all but `query`, which is the store's own).
Result<std::shared_ptr<ObjectStore>> open_http_store(const std::string& root,
                                                     const HttpOptions& options,
                                                     std::shared_ptr<CurlClient> client = nullptr);

}  // namespace odf_hash::remote
