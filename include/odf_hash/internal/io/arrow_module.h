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

// A batch imported once into Arrow C++ to render many of its values (arrow/render_values.h):
// rendering a value costs the value, not an import of every column of its batch.
struct RenderBatch;

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
  // The same over a batch imported once: open (the schema and batch stay the caller's and
  // must outlive the handle), render any values, close.
  Result<RenderBatch*> (*open_render_batch)(const ArrowSchema& schema, const ArrowArray& batch);
  Result<std::vector<std::string>> (*render_batch_values)(const RenderBatch* batch,
                                                          const std::vector<int>& child_path,
                                                          const std::vector<int64_t>& rows,
                                                          size_t max_chars);
  void (*close_render_batch)(RenderBatch* batch);
  // Some top-level fields of a table typed as another table types them (arrow/module_api.h):
  // what compare neutralises a type or nullability difference with.
  Status (*open_cast_stream)(std::shared_ptr<ObjectReader> object,
                             std::shared_ptr<ObjectReader> like,
                             const std::vector<std::string>& fields, bool types,
                             ArrowArrayStream* out);
  // open_record_stream from near a row: a Parquet file's row groups before it passed over
  // (arrow/module_api.h), the rows skipped in *skipped.
  Status (*open_record_stream_from)(std::shared_ptr<ObjectReader> object, uint64_t first_row,
                                    ArrowArrayStream* out, uint64_t* skipped);
};

// A RenderBatch closed when it goes (null: none open).
class RenderBatchHandle {
 public:
  RenderBatchHandle() = default;
  RenderBatchHandle(const ArrowModuleApi* api, RenderBatch* batch) : api_(api), batch_(batch) {}
  RenderBatchHandle(RenderBatchHandle&& o) noexcept : api_(o.api_), batch_(o.batch_) {
    o.batch_ = nullptr;
  }
  RenderBatchHandle& operator=(RenderBatchHandle&& o) noexcept {
    if (this != &o) {
      reset();
      api_ = o.api_;
      batch_ = o.batch_;
      o.batch_ = nullptr;
    }
    return *this;
  }
  RenderBatchHandle(const RenderBatchHandle&) = delete;
  RenderBatchHandle& operator=(const RenderBatchHandle&) = delete;
  ~RenderBatchHandle() { reset(); }

  void reset() {
    if (batch_ != nullptr) api_->close_render_batch(batch_);
    batch_ = nullptr;
  }
  const RenderBatch* get() const { return batch_; }
  explicit operator bool() const { return batch_ != nullptr; }

 private:
  const ArrowModuleApi* api_ = nullptr;
  RenderBatch* batch_ = nullptr;
};

// Imports `batch` (of `schema`) for rendering; both must outlive the handle.
inline Result<RenderBatchHandle> open_render_batch(const ArrowModuleApi& api,
                                                   const ArrowSchema& schema,
                                                   const ArrowArray& batch) {
  ODF_HASH_ASSIGN_OR_RETURN(RenderBatch * b, api.open_render_batch(schema, batch));
  return RenderBatchHandle(&api, b);
}

// The module's table, loading the module on the first call (thread-safe; the module is
// never unloaded). An error says where the module was looked for and why each failed.
Result<const ArrowModuleApi*> arrow_module();

// Makes `api` the module instead of loading one: for programs that link the Arrow part in
// statically (the fuzzers). Call it before anything reads records.
void use_arrow_module(const ArrowModuleApi* api);

}  // namespace odf_hash::io_internal

// The one symbol the module exports (the module's table; never null).
extern "C" const odf_hash::io_internal::ArrowModuleApi* odf_hash_arrow_module_api();
