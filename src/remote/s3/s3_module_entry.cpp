// The S3 module's one exported symbol: its table (s3_module.h).
#include "odf_hash/internal/io/s3_module.h"
#include "s3_store.h"

#ifndef ODF_HASH_ARROW_MODULE_ABI
#error "ODF_HASH_ARROW_MODULE_ABI must be defined by the build"
#endif

extern "C" __attribute__((visibility("default"))) const odf_hash::io_internal::S3ModuleApi*
odf_hash_s3_module_api() {
  static const odf_hash::io_internal::S3ModuleApi api{
      sizeof(odf_hash::io_internal::S3ModuleApi), ODF_HASH_ARROW_MODULE_ABI,
      &odf_hash::remote::open_s3_store, &odf_hash::remote::shutdown_s3};
  return &api;
}
