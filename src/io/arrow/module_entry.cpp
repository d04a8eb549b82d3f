// The Arrow module's one exported symbol: its table (../arrow_module.h).
#include "../arrow_module.h"
#include "module_api.h"

#ifndef ODF_HASH_ARROW_MODULE_ABI
#error "ODF_HASH_ARROW_MODULE_ABI must be defined by the build"
#endif

extern "C" __attribute__((visibility("default"))) const odf_hash::io_internal::ArrowModuleApi*
odf_hash_arrow_module_api() {
  static const odf_hash::io_internal::ArrowModuleApi api{
      sizeof(odf_hash::io_internal::ArrowModuleApi), ODF_HASH_ARROW_MODULE_ABI,
      &odf_hash::io_internal::open_arrow_record_stream};
  return &api;
}
