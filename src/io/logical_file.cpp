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
  const std::string& msg = st.message();
  if (msg.rfind(name + ": ", 0) == 0) return st;
  // The logical layer wraps errors of the C stream as "reading the next record batch failed
  // (error N): <Arrow code>: <what the reader said>"; the reader's message already says
  // "<name>: reading record batch K: <reason>", so it is kept alone.
  const size_t at = msg.find(": " + name + ": ");
  if (at != std::string::npos) return Status(st.code(), msg.substr(at + 2));
  return st.with_context(name);
}

Result<LogicalDigest> logical_hash_file(const std::string& path,
                                        const LogicalHashOptions& options) {
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_local_file(path));
  return logical_hash_object(std::move(object), options);
}

}  // namespace odf_hash
