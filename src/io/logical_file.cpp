// Logical hash of a data file: its arrow-rs-typed record stream through the logical hasher,
// as one stream or, for a Parquet file on several threads, as column groups each read and
// hashed on its own thread (LogicalFileOptions::column_streams).
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include "odf_hash/core/parallel.h"
#include "odf_hash/internal/io/arrow_module.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/io/local_store.h"
#include "odf_hash/io/logical_file.h"
#include "odf_hash/io/record_stream.h"
#include "odf_hash/logical/logical.h"

namespace odf_hash {

namespace {

using ColumnStreams = LogicalFileOptions::ColumnStreams;

// Below this many decompressed bytes in the footer, a file is read as one stream under
// kAuto: opening more readers would cost more than decoding in parallel gains.
constexpr uint64_t kMinSplitBytes = 8u << 20;

// Groups per thread: a file's fields are cut into up to kGroupsPerThread x threads groups,
// which `threads` workers hash one after another, heaviest first, so that only the columns
// of the groups being read have a Parquet column reader open. Each open column holds a
// decompressed page and its decoded dictionary (up to 1 MiB each with the writers' defaults)
// besides its share of the batches. On the eight columns of bench/endtoend.sh's file (two
// threads), four groups instead of two took the peak RSS from ~60 to ~49 MiB; eight (one
// column each) to ~47 MiB, but then each column hashes alone, without the multi-lane Keccak
// that hashes a group's columns together, and the CPU time grew by ~15% (~7% with four).
// Each group also opens its own reader (one more parse of the footer).
constexpr size_t kGroupsPerThread = 2;

// Top-level fields split into at most `k` groups of similar weight (the heaviest field to
// the lightest group first), each group's fields ascending; no empty group; the heaviest
// group first (the order the workers take them in).
std::vector<std::vector<int>> balance(const std::vector<uint64_t>& weights, size_t k) {
  std::vector<int> order(weights.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return weights[a] > weights[b]; });
  std::vector<std::vector<int>> groups(std::min(k, weights.size()));
  std::vector<uint64_t> load(groups.size(), 0);
  for (int f : order) {
    const size_t g = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    groups[g].push_back(f);
    load[g] += weights[f];
  }
  std::vector<size_t> by_load(groups.size());
  for (size_t g = 0; g < by_load.size(); ++g) by_load[g] = g;
  std::stable_sort(by_load.begin(), by_load.end(),
                   [&](size_t a, size_t b) { return load[a] > load[b]; });
  std::vector<std::vector<int>> out;
  for (size_t g : by_load) {
    std::sort(groups[g].begin(), groups[g].end());
    out.push_back(std::move(groups[g]));
  }
  return out;
}

// A stream whose get_next fails once `cancel` is set: the other groups stop early when one
// fails (the file is then read again as one stream for the error).
struct Cancellable {
  ArrowArrayStream inner{};
  const std::atomic<bool>* cancel = nullptr;

  static int get_schema(ArrowArrayStream* s, ArrowSchema* out) {
    auto* self = static_cast<Cancellable*>(s->private_data);
    return self->inner.get_schema(&self->inner, out);
  }
  static int get_next(ArrowArrayStream* s, ArrowArray* out) {
    auto* self = static_cast<Cancellable*>(s->private_data);
    if (self->cancel->load(std::memory_order_relaxed)) return ECANCELED;
    return self->inner.get_next(&self->inner, out);
  }
  static const char* get_last_error(ArrowArrayStream* s) {
    auto* self = static_cast<Cancellable*>(s->private_data);
    if (self->cancel->load(std::memory_order_relaxed)) return "cancelled";
    return self->inner.get_last_error != nullptr ? self->inner.get_last_error(&self->inner)
                                                 : nullptr;
  }
  static void release(ArrowArrayStream* s) {
    auto* self = static_cast<Cancellable*>(s->private_data);
    if (self->inner.release != nullptr) self->inner.release(&self->inner);
    delete self;
    s->release = nullptr;
  }

  // Wraps *inner (moved from) into *out.
  static void wrap(ArrowArrayStream* inner, const std::atomic<bool>* cancel,
                   ArrowArrayStream* out) {
    auto* self = new Cancellable;
    self->inner = *inner;
    inner->release = nullptr;
    self->cancel = cancel;
    *out = ArrowArrayStream{&get_schema, &get_next, &get_last_error, &release, self};
  }
};

// The file's digest from its column groups, each opened as its own Parquet stream and hashed
// by one of `workers` threads (the calling one among them, fewer when the system refuses
// threads), which take the groups in order. Any failure is returned as an error; the caller
// then reads the file as one stream.
Result<LogicalDigest> hash_column_groups(const io_internal::ArrowModuleApi& api,
                                         const std::shared_ptr<ObjectReader>& object,
                                         const std::vector<std::vector<int>>& groups,
                                         unsigned workers, const LogicalHashOptions& options) {
  ArrowArrayStream whole{};
  ODF_HASH_RETURN_IF_ERROR(api.open_record_stream(object, &whole));
  ArrowSchema schema{};
  const int rc = whole.get_schema(&whole, &schema);
  whole.release(&whole);
  if (rc != 0) return Status::io_error(object->name() + ": reading the stream's schema failed");

  LogicalHashOptions one = options;  // each group is one stream
  // Each group reads its next batch on a thread of its own while it hashes the current one
  // (logical_hash_stream with 2 threads; a group's lane groups rarely need more): the heaviest
  // group, often a single wide column, would otherwise bound the wall time alone.
  one.threads = 2;
  std::atomic<bool> cancel{false};
  std::vector<Result<LogicalDigest>> results(groups.size(), Status::internal("not run"));
  const auto run = [&](size_t g) {
    if (cancel.load(std::memory_order_relaxed)) return;  // stays "not run"
    ArrowArrayStream raw{};
    Status st = api.open_parquet_fields_stream(object, groups[g], &raw);
    if (st.is_ok()) {
      ArrowArrayStream stream{};
      Cancellable::wrap(&raw, &cancel, &stream);
      results[g] = logical_hash_stream(&stream, one);
    } else {
      results[g] = st;
    }
    if (!results[g].is_ok()) cancel.store(true, std::memory_order_relaxed);
  };
  parallel_for(groups.size(), workers, run);  // fewer threads when refused: the same digest
  Result<LogicalDigest> out = Status::internal("a column group was not hashed");
  std::vector<FieldsDigest> parts;
  bool ok = true;
  for (size_t g = 0; g < groups.size() && ok; ++g) {
    ok = results[g].is_ok();
    if (ok) parts.push_back(FieldsDigest{groups[g], std::move(results[g]).value()});
  }
  if (ok) out = combine_fields_digests(schema, std::move(parts));
  schema.release(&schema);
  return out;
}

// The digest from column groups when the options and the file call for it; nullopt-like
// error status kUnsupported (never reported) when the file is to be read as one stream.
Result<LogicalDigest> try_column_groups(const std::shared_ptr<ObjectReader>& object,
                                        const LogicalFileOptions& options) {
  const Status no = Status::unsupported("one stream");
  if (options.column_streams == ColumnStreams::kOff) return no;
  const unsigned threads = resolve_threads(options.threads);
  if (threads < 2) return no;
  Result<const io_internal::ArrowModuleApi*> api = io_internal::arrow_module();
  if (!api.is_ok()) return no;
  Result<std::vector<uint64_t>> weights = (*api)->parquet_field_weights(object);
  if (!weights.is_ok() || weights->size() < 2) return no;
  if (options.column_streams == ColumnStreams::kAuto) {
    uint64_t total = 0;
    for (uint64_t w : *weights) total += w;
    if (total < kMinSplitBytes) return no;
  }
  const auto groups = balance(*weights, size_t{threads} * kGroupsPerThread);
  Result<LogicalDigest> digest = hash_column_groups(**api, object, groups, threads, options);
  if (!digest.is_ok()) return no;
  return digest;
}

}  // namespace

Result<LogicalDigest> logical_hash_object(std::shared_ptr<ObjectReader> object,
                                          const LogicalFileOptions& options) {
  const std::string name = object->name();
  {
    Result<LogicalDigest> split = try_column_groups(object, options);
    if (split.is_ok()) return split;
  }
  if (cancel_requested(options.cancel)) return cancelled_status(name);
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

Result<LogicalDigest> logical_hash_objects(std::vector<std::shared_ptr<ObjectReader>> objects,
                                           const LogicalFileOptions& options, RowWindow window) {
  if (objects.size() == 1 && window.whole()) {
    return logical_hash_object(std::move(objects[0]), options);
  }
  if (cancel_requested(options.cancel)) return cancelled_status("the data files");
  ArrowArrayStream stream{};
  ODF_HASH_RETURN_IF_ERROR(open_concatenated_record_stream(std::move(objects), &stream, window));
  Result<LogicalDigest> digest = logical_hash_stream(&stream, options);
  if (digest.is_ok()) return digest;
  // The stream's messages name the object: the logical layer's "reading the next record
  // batch failed (error N): " before them is dropped.
  Status st = digest.status();
  const std::string& msg = st.message();
  const size_t at = msg.find("failed (error ");
  const size_t colon = at == std::string::npos ? at : msg.find("): ", at);
  if (colon != std::string::npos) return Status(st.code(), msg.substr(colon + 3));
  return st;
}

Result<LogicalDigest> logical_hash_file(const std::string& path,
                                        const LogicalFileOptions& options) {
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_local_file(path));
  return logical_hash_object(std::move(object), options);
}

}  // namespace odf_hash
