// Logical hash of a data file: its arrow-rs-typed record stream through the logical hasher.
#include <string>

#include "odf_hash/logical.h"
#include "odf_hash/reader.h"

namespace odf_hash {

Result<LogicalDigest> logical_hash_file(const std::string& path,
                                        const LogicalHashOptions& options) {
  ArrowArrayStream stream{};
  ODF_HASH_RETURN_IF_ERROR(open_record_stream(path, &stream));
  Result<LogicalDigest> digest = logical_hash_stream(&stream, options);
  if (digest.is_ok()) return digest;
  // Reader errors already name the file; the hasher's (an unsupported type) do not.
  Status st = digest.status();
  if (st.message().rfind(path + ": ", 0) == 0) return st;
  return st.with_context(path);
}

}  // namespace odf_hash
