// The Arrow module's one exported symbol: its table (../arrow_module.h).
#include "module_api.h"
#include "odf_hash/internal/io/arrow_module.h"
#include "render_values.h"
#if ODF_HASH_HAVE_S3
#include "odf_hash/internal/io/s3_module.h"
#endif

#ifndef ODF_HASH_ARROW_MODULE_ABI
#error "ODF_HASH_ARROW_MODULE_ABI must be defined by the build"
#endif

extern "C" __attribute__((visibility("default"))) const odf_hash::io_internal::ArrowModuleApi*
odf_hash_arrow_module_api() {
  static const odf_hash::io_internal::ArrowModuleApi api {
    sizeof(odf_hash::io_internal::ArrowModuleApi), ODF_HASH_ARROW_MODULE_ABI,
        &odf_hash::io_internal::open_arrow_record_stream,
        &odf_hash::io_internal::open_parquet_fields_stream,
        &odf_hash::io_internal::parquet_field_weights,
#if ODF_HASH_HAVE_S3
        &odf_hash::io_internal::open_s3_store_through_module,
        &odf_hash::io_internal::shutdown_s3_through_module,
#else
        nullptr, nullptr,
#endif
        &odf_hash::io_internal::render_values, &odf_hash::io_internal::open_render_batch,
        &odf_hash::io_internal::render_batch_values, &odf_hash::io_internal::close_render_batch,
        &odf_hash::io_internal::open_cast_stream,
        &odf_hash::io_internal::open_arrow_record_stream_from,
  };
  return &api;
}
