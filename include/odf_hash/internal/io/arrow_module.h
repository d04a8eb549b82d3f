// The Arrow module: the part of io that needs Arrow C++ and Parquet C++ (reading Parquet and
// Arrow IPC files as arrow-rs-typed record streams), built as its own shared object,
// libodf_hash_arrow.so, and loaded on first use (internal to io).
//
// Why a module: hashing bytes (physical, decode, --check, verify of a dataset whose files
// match physically) needs none of Arrow, but linking libarrow and libparquet into the
// program made every start load ~60 MB of libraries and their static initialisers: ~15 ms
// and 24 MiB of RSS for `odf-hash physical` of a tiny file, 3x openssl. With the module,
// only a command that reads records pays for Arrow, once per process. (A separate
// executable the CLI calls would also do for the CLI, but not for the library, the C ABI
// and the Python extension, which read records in-process.)
//
// The interface between the program and the module is this table of C++ function pointers.
// Both sides must come from the same build (same compiler, same headers): the table carries
// the build's ODF_HASH_ARROW_MODULE_ABI string and the loader refuses a module from another
// build with a clear error, never calls into it.
//
// Where the module is looked for, first found wins (the loader's error lists every place):
//   1. $ODF_HASH_ARROW_MODULE, the path of the module file;
//   2. beside the object holding this code (the odf-hash program, libodf_hash.so, the Python
//      extension) and beside the running program: <dir>/libodf_hash_arrow.so,
//      <dir>/odf_hash/…, <dir>/../libodf_hash_arrow.so, <dir>/../<libdir>/odf_hash/…;
//   3. the build tree it was built in, then the install prefix it was configured for.
#pragma once

#include <cstdint>
#include <memory>

#include <string>
#include <vector>

#include "odf_hash/arrow_c_data.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"

namespace odf_hash::io_internal {

struct ArrowModuleApi {
  // sizeof(ArrowModuleApi) and ODF_HASH_ARROW_MODULE_ABI of the build that made the module.
  uint32_t size;
  const char* abi;
  // open_record_stream (record_stream.h) over a non-null object, with a non-null `out`.
  Status (*open_record_stream)(std::shared_ptr<ObjectReader> object, ArrowArrayStream* out);
  // Column groups of a Parquet file (arrow/module_api.h): a stream of some top-level fields,
  // and the weights of the fields.
  Status (*open_parquet_fields_stream)(std::shared_ptr<ObjectReader> object,
                                       const std::vector<int>& fields, ArrowArrayStream* out);
  Result<std::vector<uint64_t>> (*parquet_field_weights)(std::shared_ptr<ObjectReader> object);
  // The S3 store (open_store.h, src/remote/s3/s3_store.h) and its process-wide shutdown;
  // null when the build found no Arrow S3 support.
  Result<std::shared_ptr<ObjectStore>> (*open_s3_store)(const std::string& url,
                                                        const StoreOptions& options);
  void (*shutdown_s3)();
  // Values of one column of a batch as safe, cut text (arrow/render_values.h): the rows a
  // diff shows.
  Result<std::vector<std::string>> (*render_values)(const ArrowSchema& schema,
                                                    const ArrowArray& batch,
                                                    const std::vector<int>& child_path,
                                                    const std::vector<int64_t>& rows,
                                                    size_t max_chars);
};

// The module's table, loading the module on the first call (thread-safe; the module is
// never unloaded). An error says where the module was looked for and why each failed.
Result<const ArrowModuleApi*> arrow_module();

// Makes `api` the module instead of loading one: for programs that link the Arrow part in
// statically (the fuzzers). Call it before anything reads records.
void use_arrow_module(const ArrowModuleApi* api);

}  // namespace odf_hash::io_internal

// The one symbol the module exports (the module's table; never null).
extern "C" const odf_hash::io_internal::ArrowModuleApi* odf_hash_arrow_module_api();
