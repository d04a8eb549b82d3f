// Logical hash of a data file: its arrow-rs-typed record stream through the logical hasher.
#include <string>
#include <utility>

#include "odf_hash/local_store.h"
#include "odf_hash/logical.h"
#include "odf_hash/reader.h"

namespace odf_hash {

Result<LogicalDigest> logical_hash_object(std::shared_ptr<ObjectReader> object,
                                          const LogicalHashOptions& options) {
  const std::string name = object->name();
  ArrowArrayStream stream{};
  ODF_HASH_RETURN_IF_ERROR(open_record_stream(std::move(object), &stream));
  Result<LogicalDigest> digest = logical_hash_stream(&stream, options);
  if (digest.is_ok()) return digest;
  // Reader errors already name the file; the hasher's (an unsupported type) do not.
  Status st = digest.status();
  if (st.message().rfind(name + ": ", 0) == 0) return st;
  return st.with_context(name);
}

Result<LogicalDigest> logical_hash_file(const std::string& path,
                                        const LogicalHashOptions& options) {
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_local_file(path));
  return logical_hash_object(std::move(object), options);
}

}  // namespace odf_hash
