// Inside the S3 module (s3_module.h): an S3 bucket prefix as a read-only ObjectStore, through
// Arrow C++'s S3 file system (libarrow_s3), reached by src/remote's open_store through the
// Arrow module's table, so that only s3:// URLs load it. Guarantees in open_store.h.
#pragma once

#include <memory>
#include <string>

#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"

namespace odf_hash::remote {

// `url` is "s3://bucket" or "s3://bucket/prefix" (a trailing '/' is ignored). Initialises
// Arrow's S3 support on first use (finalised at exit). Errors: kInvalidArgument for a
// malformed URL or endpoint, kNotFound when nothing is under the prefix, kIoError when S3
// refuses (credentials, access denied, network).
Result<std::shared_ptr<ObjectStore>> open_s3_store(const std::string& url,
                                                   const StoreOptions& options);

// Finalises Arrow's S3 support if it was initialised (shutdown_remote_stores).
void shutdown_s3();

}  // namespace odf_hash::remote
