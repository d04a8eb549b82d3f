// The hashes of a path or a URL (include/odf_hash/remote/hash_path_or_url.h).
#include "odf_hash/remote/hash_path_or_url.h"

#include "odf_hash/io/cancel.h"
#include "odf_hash/io/local_store.h"
#include "odf_hash/io/logical_file.h"
#include "odf_hash/remote/open_store.h"

namespace odf_hash {

Result<PhysicalDigest> physical_hash_path_or_url(const std::string& name,
                                                 const StoreOptions& options,
                                                 const ProgressFn& progress) {
  // The flag is checked between chunks too: a local file is read without a store.
  const ProgressFn checked = [&](uint64_t done, uint64_t total) {
    if (cancel_requested(options.cancel)) return false;
    return !progress || progress(done, total);
  };
  if (!is_store_url(name)) return physical_hash_file(name, checked);
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_object(name, options));
  return physical_hash_object(*object, checked);
}

Result<LogicalDigest> logical_hash_path_or_url(const std::string& name,
                                               const LogicalHashOptions& logical_options,
                                               const StoreOptions& options) {
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_object(name, options));
  LogicalHashOptions checked = logical_options;
  if (checked.cancel == nullptr) checked.cancel = options.cancel;
  return logical_hash_object(std::move(object), checked);
}

}  // namespace odf_hash
