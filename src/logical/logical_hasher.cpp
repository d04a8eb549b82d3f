// LogicalHasher (the reference's RecordDigestV0), ArrayHasher (ArrayDigestV0) and the
// one-shot over an ArrowArrayStream.
#include <string>
#include <vector>

#include "array_check.h"
#include "bitmap.h"
#include "digest_sink.h"
#include "odf_hash/logical.h"
#include "type_node.h"
#include "value_hasher.h"

namespace odf_hash {

using logical::DigestSink;
using logical::Kind;
using logical::OwnedValidity;
using logical::TypeNode;
using logical::Validity;

namespace {

void put_u64(Sha3_256& h, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
  h.update(b, 8);
}

// Validates and hashes the slots [pos, pos + len) of one column, leaf or struct. Structs
// are flattened: each leaf below gets the bitmap inherited from its ancestors combined with
// its own, by the reference's rule (bitmap.h, docs/divergences.md).
struct ColumnWalker {
  std::vector<DigestSink>& sinks;
  size_t next_leaf = 0;

  Status walk(const TypeNode& node, const ArrowArray& array, int64_t pos, int64_t len,
              const Validity& inherited) {
    const OwnedValidity own = logical::own_validity(node, array, pos, len, true);
    const OwnedValidity combined = logical::combine_validity(inherited, own.v, len);
    if (node.kind == Kind::kStruct) {
      for (size_t c = 0; c < node.children.size(); ++c) {
        ODF_HASH_RETURN_IF_ERROR(
            walk(node.children[c], *array.children[c], array.offset + pos, len, combined.v));
      }
      return Status::ok();
    }
    return logical::hash_slots(sinks[next_leaf++], node, array, pos, len, combined.v);
  }
};

}  // namespace

struct LogicalHasher::Impl {
  TypeNode root;  // a struct whose children are the top-level columns
  std::vector<const TypeNode*> leaves;
  std::vector<std::string> leaf_paths;
  std::vector<DigestSink> sinks;
  Sha3_256 combined;
  Status error;
  uint64_t num_rows = 0;

  // Schema part of the combined digest: every field depth-first, its name and level.
  void add_fields(const TypeNode& parent, uint64_t level) {
    for (const TypeNode& field : parent.children) {
      put_u64(combined, field.name.size());
      combined.update(field.name);
      put_u64(combined, level);
      if (field.kind == Kind::kStruct) {
        add_fields(field, level + 1);
      } else {
        leaves.push_back(&field);
      }
    }
  }
};

LogicalHasher::LogicalHasher(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LogicalHasher::LogicalHasher(LogicalHasher&&) noexcept = default;
LogicalHasher& LogicalHasher::operator=(LogicalHasher&&) noexcept = default;
LogicalHasher::~LogicalHasher() = default;

Result<LogicalHasher> LogicalHasher::create(const ArrowSchema& schema) {
  if (schema.format == nullptr || std::string(schema.format) != "+s") {
    return Status::invalid_argument(
        "the schema of a record batch must be a struct (format '+s'), got '" +
        std::string(schema.format != nullptr ? schema.format : "(null)") + "'");
  }
  if (schema.n_children < 0 || (schema.n_children > 0 && schema.children == nullptr)) {
    return Status::invalid_argument("record batch schema: malformed children");
  }
  auto impl = std::make_unique<Impl>();
  impl->root.kind = Kind::kStruct;
  impl->root.format = "+s";
  for (int64_t i = 0; i < schema.n_children; ++i) {
    const ArrowSchema* child = schema.children[i];
    if (child == nullptr) {
      return Status::invalid_argument("record batch schema: column " + std::to_string(i) +
                                      " is null");
    }
    const std::string name = child->name != nullptr ? child->name : "";
    ODF_HASH_ASSIGN_OR_RETURN(TypeNode column, logical::compile_type(*child, name, false));
    impl->root.children.push_back(std::move(column));
  }
  impl->add_fields(impl->root, 0);
  impl->sinks = std::vector<DigestSink>(impl->leaves.size());
  for (size_t i = 0; i < impl->leaves.size(); ++i) {
    const auto& type_bytes = impl->leaves[i]->type_bytes;
    impl->sinks[i].put(type_bytes.data(), type_bytes.size());
  }
  return LogicalHasher(std::move(impl));
}

Status LogicalHasher::update(const ArrowArray& batch) {
  Impl& s = *impl_;
  if (!s.error.is_ok()) return s.error;
  Status st = logical::check_array(s.root, batch, 0, batch.length);
  if (st.is_ok() && batch.n_buffers == 1 && batch.buffers[0] != nullptr &&
      logical::count_zero_bits(static_cast<const uint8_t*>(batch.buffers[0]), batch.offset,
                               batch.length) != 0) {
    st = Status::invalid_argument("a record batch cannot have null rows (its struct has nulls)");
  }
  if (st.is_ok()) {
    ColumnWalker walker{s.sinks};
    for (size_t c = 0; c < s.root.children.size() && st.is_ok(); ++c) {
      st = walker.walk(s.root.children[c], *batch.children[c], batch.offset, batch.length,
                       Validity{});
    }
  }
  if (!st.is_ok()) {
    s.error = st.with_context("record batch " + std::to_string(s.num_rows) + "+");
    return s.error;
  }
  s.num_rows += static_cast<uint64_t>(batch.length);
  return Status::ok();
}

Result<LogicalDigest> LogicalHasher::finalize() && {
  Impl& s = *impl_;
  if (!s.error.is_ok()) return s.error;
  LogicalDigest out;
  out.num_rows = s.num_rows;
  for (size_t i = 0; i < s.leaves.size(); ++i) {
    const Digest256 d = s.sinks[i].finalize();
    s.combined.update(d.data(), d.size());
    out.columns.push_back(ColumnDigest{s.leaves[i]->path, s.leaves[i]->format, d});
  }
  out.digest = s.combined.finalize();
  return out;
}

struct ArrayHasher::Impl {
  TypeNode node;
  DigestSink sink;
  Status error;
};

ArrayHasher::ArrayHasher(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ArrayHasher::ArrayHasher(ArrayHasher&&) noexcept = default;
ArrayHasher& ArrayHasher::operator=(ArrayHasher&&) noexcept = default;
ArrayHasher::~ArrayHasher() = default;

Result<ArrayHasher> ArrayHasher::create(const ArrowSchema& field) {
  const std::string name = field.name != nullptr ? field.name : "";
  ODF_HASH_ASSIGN_OR_RETURN(TypeNode node, logical::compile_type(field, name, false));
  if (node.kind == Kind::kStruct) {
    return Status::unsupported("column " + logical::describe(node) +
                               ": struct columns are flattened into leaf columns by "
                               "LogicalHasher; ArrayHasher takes a single non-struct column");
  }
  auto impl = std::make_unique<Impl>();
  impl->node = std::move(node);
  impl->sink.put(impl->node.type_bytes.data(), impl->node.type_bytes.size());
  return ArrayHasher(std::move(impl));
}

Status ArrayHasher::update(const ArrowArray& array) {
  Impl& s = *impl_;
  if (!s.error.is_ok()) return s.error;
  Status st = logical::check_array(s.node, array, 0, array.length);
  if (st.is_ok()) {
    const OwnedValidity own = logical::own_validity(s.node, array, 0, array.length, true);
    const OwnedValidity combined = logical::combine_validity(Validity{}, own.v, array.length);
    st = logical::hash_slots(s.sink, s.node, array, 0, array.length, combined.v);
  }
  if (!st.is_ok()) s.error = st;
  return st;
}

Result<Digest256> ArrayHasher::finalize() && {
  if (!impl_->error.is_ok()) return impl_->error;
  return impl_->sink.finalize();
}

namespace {

// Releases what it holds on every path out of logical_hash_stream.
struct StreamGuard {
  ArrowArrayStream* stream;
  ~StreamGuard() {
    if (stream->release != nullptr) stream->release(stream);
  }
};
struct SchemaGuard {
  ArrowSchema schema{};
  ~SchemaGuard() {
    if (schema.release != nullptr) schema.release(&schema);
  }
};
struct ArrayGuard {
  ArrowArray array{};
  ~ArrayGuard() {
    if (array.release != nullptr) array.release(&array);
  }
};

Status stream_error(ArrowArrayStream* stream, int rc, const char* what) {
  const char* msg = stream->get_last_error != nullptr ? stream->get_last_error(stream) : nullptr;
  return Status::io_error(std::string(what) + " failed (error " + std::to_string(rc) + ")" +
                          (msg != nullptr ? std::string(": ") + msg : std::string()));
}

}  // namespace

Result<LogicalDigest> logical_hash_stream(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) {
    return Status::invalid_argument("logical_hash_stream: the stream is null or released");
  }
  StreamGuard stream_guard{stream};
  if (stream->get_schema == nullptr || stream->get_next == nullptr) {
    return Status::invalid_argument("logical_hash_stream: the stream has no callbacks");
  }
  Result<LogicalHasher> hasher = Status::internal("unset");
  {
    SchemaGuard schema;
    const int rc = stream->get_schema(stream, &schema.schema);
    if (rc != 0) return stream_error(stream, rc, "reading the stream's schema");
    hasher = LogicalHasher::create(schema.schema);
    if (!hasher.is_ok()) return hasher.status();
  }
  while (true) {
    ArrayGuard batch;
    const int rc = stream->get_next(stream, &batch.array);
    if (rc != 0) return stream_error(stream, rc, "reading the next record batch");
    if (batch.array.release == nullptr) break;  // end of stream
    ODF_HASH_RETURN_IF_ERROR(hasher->update(batch.array));
  }
  return std::move(*hasher).finalize();
}

}  // namespace odf_hash
