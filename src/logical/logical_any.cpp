// logical_hash_any_stream / logical_hash_any_array: records or one column, decided by the
// schema's format.
#include <cstring>
#include <string>

#include "odf_hash/logical/logical.h"

namespace odf_hash {
namespace {

bool is_struct(const ArrowSchema& schema) {
  return schema.format != nullptr && std::strcmp(schema.format, "+s") == 0;
}

LogicalDigest column_digest(const Digest256& digest, std::string format, uint64_t values) {
  LogicalDigest out;
  out.digest = digest;
  out.num_rows = values;
  out.columns.push_back({"", std::move(format), digest});
  return out;
}

// Forwards to the stream it owns, counting the values of the arrays it hands out.
struct CountingStream {
  ArrowArrayStream inner{};
  uint64_t values = 0;

  static CountingStream* self(ArrowArrayStream* s) {
    return static_cast<CountingStream*>(s->private_data);
  }
  static int get_schema(ArrowArrayStream* s, ArrowSchema* out) {
    return self(s)->inner.get_schema(&self(s)->inner, out);
  }
  static int get_next(ArrowArrayStream* s, ArrowArray* out) {
    const int rc = self(s)->inner.get_next(&self(s)->inner, out);
    if (rc == 0 && out->release != nullptr && out->length > 0) {
      self(s)->values += static_cast<uint64_t>(out->length);
    }
    return rc;
  }
  static const char* get_last_error(ArrowArrayStream* s) {
    ArrowArrayStream& in = self(s)->inner;
    return in.get_last_error != nullptr ? in.get_last_error(&in) : nullptr;
  }
  static void release(ArrowArrayStream* s) {
    ArrowArrayStream& in = self(s)->inner;
    if (in.release != nullptr) in.release(&in);
    s->release = nullptr;
  }
};

}  // namespace

Result<LogicalDigest> logical_hash_any_stream(ArrowArrayStream* stream,
                                              const LogicalHashOptions& options) {
  if (stream == nullptr || stream->release == nullptr) {
    return Status::invalid_argument("the Arrow stream is null or already released (consumed)");
  }
  if (stream->get_schema == nullptr) return logical_hash_stream(stream, options);  // its error
  ArrowSchema schema{};
  const int rc = stream->get_schema(stream, &schema);
  if (rc != 0) {
    const char* msg = stream->get_last_error != nullptr ? stream->get_last_error(stream) : nullptr;
    Status st = Status::io_error("reading the stream's schema failed (error " + std::to_string(rc) +
                                 ")" + (msg != nullptr ? std::string(": ") + msg : std::string()));
    stream->release(stream);
    return st;
  }
  const bool records = is_struct(schema);
  const std::string format = schema.format != nullptr ? schema.format : "";
  if (schema.release != nullptr) schema.release(&schema);
  if (records) return logical_hash_stream(stream, options);

  CountingStream counting{*stream, 0};
  stream->release = nullptr;  // moved into `counting`
  ArrowArrayStream wrapper{&CountingStream::get_schema, &CountingStream::get_next,
                           &CountingStream::get_last_error, &CountingStream::release, &counting};
  ODF_HASH_ASSIGN_OR_RETURN(Digest256 digest, array_hash_stream(&wrapper));
  return column_digest(digest, format, counting.values);
}

Result<LogicalDigest> logical_hash_any_array(const ArrowSchema& schema, const ArrowArray& array,
                                             const LogicalHashOptions& options) {
  if (is_struct(schema)) {
    ODF_HASH_ASSIGN_OR_RETURN(LogicalHasher hasher, LogicalHasher::create(schema, options));
    ODF_HASH_RETURN_IF_ERROR(hasher.update(array));
    return std::move(hasher).finalize();
  }
  ODF_HASH_ASSIGN_OR_RETURN(ArrayHasher hasher, ArrayHasher::create(schema));
  ODF_HASH_RETURN_IF_ERROR(hasher.update(array));
  ODF_HASH_ASSIGN_OR_RETURN(Digest256 digest, std::move(hasher).finalize());
  return column_digest(digest, schema.format != nullptr ? schema.format : "",
                       array.length > 0 ? static_cast<uint64_t>(array.length) : 0);
}

}  // namespace odf_hash
