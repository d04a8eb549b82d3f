// The S3 module, libodf_hash_s3.so (internal to io/arrow): Arrow's S3 file system
// (libarrow_s3 and the AWS SDK under it, ~3 MiB of resident pages once loaded) is needed only
// by s3:// URLs, so the S3 store (s3_store.cpp) is a module of its own that the Arrow module
// loads from its own directory on the first s3:// URL, instead of a library every reading
// command maps.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"

namespace odf_hash::io_internal {

struct S3ModuleApi {
  // sizeof(S3ModuleApi) and ODF_HASH_ARROW_MODULE_ABI of the build that made the module.
  uint32_t size;
  const char* abi;
  Result<std::shared_ptr<ObjectStore>> (*open_s3_store)(const std::string& url,
                                                        const StoreOptions& options);
  void (*shutdown_s3)();
};

// What the Arrow module's table points at: open_s3_store loads the S3 module on first use
// (an error names where it was looked for); shutdown_s3 does nothing when it was never loaded.
Result<std::shared_ptr<ObjectStore>> open_s3_store_through_module(const std::string& url,
                                                                  const StoreOptions& options);
void shutdown_s3_through_module();

}  // namespace odf_hash::io_internal

// The one symbol the S3 module exports (its table; never null).
extern "C" const odf_hash::io_internal::S3ModuleApi* odf_hash_s3_module_api();
