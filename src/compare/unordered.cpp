// compare_unordered and unordered_digest (unordered.h): record digests summed and
// spilled to partitions on disk, partitions compared pairwise only when the sums differ.
#include "odf_hash/compare/unordered.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "odf_hash/core/parallel.h"
#include "odf_hash/internal/core/sha3_multi.h"
#include "odf_hash/internal/io/arrow_module.h"
#include "odf_hash/internal/io/concat_stream.h"
#include "odf_hash/internal/io/owned_c_data.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/logical/record_digest.h"
#include "record_text.h"
#include "spill.h"

namespace odf_hash::compare {

namespace {

using io_internal::Owned;

// One record as spilled, 16 bytes: the first 11 bytes of its digest (enough to match records:
// a false match needs an 88-bit collision among the records of one partition, and only ever
// affects the counts and examples, never the verdict, which compares the whole sums) and its
// row index in 40 bits (a trillion rows). Its `offset` value is read again with the examples.
constexpr size_t kKeyBytes = 11;
constexpr uint64_t kMaxRows = uint64_t{1} << 40;
struct Entry {
  std::array<uint8_t, kKeyBytes> key;
  std::array<uint8_t, 5> row_le;
  uint64_t row() const {
    uint64_t r = 0;
    std::memcpy(&r, row_le.data(), row_le.size());  // little-endian, as written
    return r;
  }
};
static_assert(sizeof(Entry) == 16);
static_assert(std::endian::native == std::endian::little, "Entry::row_le is written by memcpy");
constexpr int64_t kNoOffset = INT64_MIN;
// Entries buffered per partition before a write: 64 partitions x 2 files x 64 KiB = 8 MiB.
constexpr size_t kSpillBatch = 4096;

// The partitions of one side (spill.h), an entry per record, by its digest's first byte.
struct Spill : detail::PartitionedSpill<Entry, kUnorderedPartitions, kSpillBatch> {
  // Spills the records row0, row0 + 1, ... of these digests.
  Status write(const std::vector<Digest256>& digests, uint64_t row0) {
    if (row0 + digests.size() > kMaxRows) {
      return Status::unsupported("more than 2^40 records in one file");
    }
    for (size_t i = 0; i < digests.size(); ++i) {
      const Digest256& d = digests[i];
      Entry e;
      std::memcpy(e.key.data(), d.data(), kKeyBytes);
      const uint64_t row = row0 + i;
      std::memcpy(e.row_le.data(), &row, e.row_le.size());
      ODF_HASH_RETURN_IF_ERROR(add(d[0] % kUnorderedPartitions, e));
    }
    return Status::ok();
  }
};

int find_top(const ArrowSchema& s, std::string_view name) {
  for (int64_t i = 0; i < s.n_children; ++i) {
    if (s.children[i]->name != nullptr && name == s.children[i]->name) return static_cast<int>(i);
  }
  return -1;
}

int64_t offset_at(const ArrowSchema& schema, const ArrowArray& batch, int child, int64_t row) {
  if (child < 0) return kNoOffset;
  const ArrowArray* c = batch.children[child];
  const std::string_view f = schema.children[child]->format;
  const int64_t i = batch.offset + c->offset + row;
  if (c->null_count != 0 && c->buffers[0] != nullptr &&
      !((static_cast<const uint8_t*>(c->buffers[0])[i >> 3] >> (i & 7)) & 1)) {
    return kNoOffset;
  }
  if (c->buffers[1] == nullptr) return kNoOffset;
  if (f == "l" || f == "L") return static_cast<const int64_t*>(c->buffers[1])[i];
  if (f == "i") return static_cast<const int32_t*>(c->buffers[1])[i];
  if (f == "I") return static_cast<const uint32_t*>(c->buffers[1])[i];
  return kNoOffset;
}

// The record digests in row order, hashed as chunks of kChunk digests (eight chunks at a time
// through the multi-lane Keccak: one serial SHA3 over 32 bytes a record would cost as much as
// a tenth of the whole read), then the chunks' digests by one SHA3. Chunks are cut by row
// index, so the result does not depend on the batches.
class OrderedDigest {
 public:
  void add(const std::vector<Digest256>& digests) {
    pending_.insert(pending_.end(), digests.begin(), digests.end());
    if (pending_.size() >= kLanes * kChunk) flush(false);
  }
  Digest256 finalize() {
    flush(true);
    return sha_.finalize();
  }

 private:
  static constexpr size_t kChunk = 4096;
  static constexpr size_t kLanes = 8;

  // Hashes the whole chunks pending (and the last, partial one when `all`).
  void flush(bool all) {
    const size_t chunks = all ? (pending_.size() + kChunk - 1) / kChunk : pending_.size() / kChunk;
    if (chunks == 0) return;
    const size_t taken = std::min(pending_.size(), chunks * kChunk);
    std::vector<uint64_t> ends(chunks);
    for (size_t i = 0; i < chunks; ++i) {
      ends[i] = std::min(taken, (i + 1) * kChunk) * sizeof(Digest256);
    }
    std::vector<Digest256> out(chunks);
    sha3_256_each(reinterpret_cast<const uint8_t*>(pending_.data()), ends.data(), chunks,
                  out.data());
    sha_.update(out.data(), out.size() * sizeof(Digest256));
    pending_.erase(pending_.begin(), pending_.begin() + std::ptrdiff_t(taken));
  }

  std::vector<Digest256> pending_;
  Sha3_256 sha_;
};

struct SideResult {
  UnorderedDigest sum;
  std::vector<uint8_t> schema_bytes;
  Owned<ArrowSchema> schema;
  UnorderedFileDigest digest;
  // Set by the caller for records_digest_objects: the record digests in row order.
  std::optional<OrderedDigest> ordered;
};

// Reads every record of `objects`: sums their digests, and spills them when `spill` is set.
// Several objects (a table of several files: unordered_digest) are read as one table.
// `pipelined`: each batch is digested on a second thread while the next one is read and
// decoded (for one side alone; two sides compared already keep two threads busy).
// The top-level fields of `schema` but those in `ignore`, in schema order; empty when nothing
// is ignored (RecordDigester: every field).
Result<std::vector<std::string>> kept_fields(const ArrowSchema& schema,
                                             const std::vector<std::string>& ignore,
                                             const std::string& name) {
  std::vector<std::string> kept;
  if (ignore.empty()) return kept;
  for (int64_t i = 0; i < schema.n_children; ++i) {
    const char* f = schema.children[i]->name;
    const std::string field = f != nullptr ? f : "";
    if (std::find(ignore.begin(), ignore.end(), field) == ignore.end()) kept.push_back(field);
  }
  if (kept.empty()) return Status::invalid_argument(name + ": every column is ignored");
  return kept;
}

Status read_side(std::vector<std::shared_ptr<ObjectReader>> objects, Spill* spill, SideResult& out,
                 bool pipelined = false, RowWindow window = {},
                 const std::vector<std::string>& ignore = {}, const CancelFlag* cancel = nullptr) {
  ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
  const std::string name = objects.at(0)->name();
  Owned<ArrowArrayStream> stream;
  ODF_HASH_RETURN_IF_ERROR(io_internal::concatenate_streams(
      std::move(objects), api->open_record_stream, &stream.value, {}, window));
  if (stream.value.get_schema(&stream.value, &out.schema.value) != 0) {
    return Status::io_error(name + ": reading the stream's schema failed");
  }
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<std::string> fields,
                            kept_fields(out.schema.value, ignore, name));
  ODF_HASH_ASSIGN_OR_RETURN(RecordDigester digester,
                            RecordDigester::create(out.schema.value, fields));
  out.schema_bytes = digester.schema_bytes();
  std::vector<Digest256> digests;
  auto digest = [&](const ArrowArray& batch, uint64_t row0) -> Status {
    digests.clear();
    Status st = digester.digest_rows(batch, 0, batch.length, digests);
    if (!st.is_ok()) return Status(st.code(), name + ": " + st.message());
    for (const Digest256& d : digests) out.sum.add(d);
    if (out.ordered) out.ordered->add(digests);
    return spill != nullptr ? spill->write(digests, row0) : Status::ok();
  };
  // The batch being digested on the second thread; joined before anything else is touched
  // (also on every early return).
  struct InFlight {
    Owned<ArrowArray> batch;
    std::optional<HelperTask> task;
    Status status = Status::ok();
    Status wait() {
      if (task) task->wait();
      task.reset();
      batch.reset();
      return status;
    }
    ~InFlight() { static_cast<void>(wait()); }
  } in_flight;
  uint64_t row0 = 0;
  while (true) {
    if (cancel_requested(cancel)) {
      static_cast<void>(in_flight.wait());
      return Status::cancelled(name + ": cancelled");
    }
    Owned<ArrowArray> batch;
    const bool failed = stream.value.get_next(&stream.value, &batch.value) != 0;
    ODF_HASH_RETURN_IF_ERROR(in_flight.wait());
    if (failed) {
      const char* err = stream.value.get_last_error(&stream.value);
      return Status::io_error(name + ": " + (err != nullptr ? err : "reading a batch failed"));
    }
    if (batch.value.release == nullptr) break;
    const uint64_t first = row0;
    row0 += uint64_t(batch.value.length);
    if (pipelined) {
      in_flight.batch.value = batch.value;  // ownership moves
      batch.value = ArrowArray{};
      in_flight.task.emplace([&in_flight, &digest, first] {
        in_flight.status = digest(in_flight.batch.value, first);
      });
      if (!in_flight.task->threaded()) {  // no thread to be had: digest it here, and on
        pipelined = false;
        ODF_HASH_RETURN_IF_ERROR(in_flight.wait());
      }
      continue;
    }
    ODF_HASH_RETURN_IF_ERROR(digest(batch.value, first));
  }
  out.digest.rows = row0;
  out.digest.digest = out.sum.finalize(out.schema_bytes);
  return Status::ok();
}

// Keeps the `max` smallest rows seen.
void keep_example(std::vector<UnorderedRecordRef>& examples, size_t max, const Entry& e) {
  if (max == 0) return;
  UnorderedRecordRef ref{e.row(), std::nullopt, {}};
  auto pos = std::lower_bound(
      examples.begin(), examples.end(), ref,
      [](const UnorderedRecordRef& x, const UnorderedRecordRef& y) { return x.row < y.row; });
  if (examples.size() >= max && pos == examples.end()) return;
  examples.insert(pos, ref);
  if (examples.size() > max) examples.pop_back();
}

// By digest, then by row (the entries of one record: the first rows are the ones matched).
bool by_key(const Entry& x, const Entry& y) {
  return x.key != y.key ? x.key < y.key : x.row() < y.row();
}

}  // namespace

namespace {

Status check_objects(const std::vector<std::shared_ptr<ObjectReader>>& objects, const char* what) {
  for (const auto& o : objects) {
    if (o == nullptr) return Status::invalid_argument(std::string(what) + ": null object");
  }
  if (objects.empty()) return Status::invalid_argument(std::string(what) + ": no object");
  return Status::ok();
}

}  // namespace

Result<UnorderedFileDigest> unordered_digest(const Table& table) {
  ODF_HASH_RETURN_IF_ERROR(check_table(table, "unordered_digest"));
  SideResult side;
  ODF_HASH_RETURN_IF_ERROR(
      read_side(table.objects, nullptr, side, /*pipelined=*/true, table.window, {}, table.cancel));
  return side.digest;
}

Result<RecordsDigest> records_digest_objects(std::vector<std::shared_ptr<ObjectReader>> objects,
                                             RowWindow window,
                                             const std::vector<std::string>& ignore) {
  ODF_HASH_RETURN_IF_ERROR(check_objects(objects, "records_digest_objects"));
  SideResult side;
  side.ordered.emplace();
  ODF_HASH_RETURN_IF_ERROR(
      read_side(std::move(objects), nullptr, side, /*pipelined=*/true, window, ignore));
  RecordsDigest out;
  out.unordered = side.digest;
  const Digest256 sequence = side.ordered->finalize();
  Sha3_256 sha;
  sha.update(side.schema_bytes.data(), side.schema_bytes.size());
  const uint64_t rows = side.digest.rows;  // little-endian (static_assert above)
  sha.update(&rows, sizeof rows);
  sha.update(sequence.data(), sequence.size());
  out.ordered = sha.finalize();
  return out;
}

Result<UnorderedComparison> compare_unordered(const Table& original, const Table& reproduced,
                                              const UnorderedOptions& options) {
  ODF_HASH_RETURN_IF_ERROR(check_table(original, "compare_unordered"));
  ODF_HASH_RETURN_IF_ERROR(check_table(reproduced, "compare_unordered"));
  UnorderedComparison out;
  out.original.path = original.name();
  out.reproduced.path = reproduced.name();
  Spill spill_a, spill_b;
  ODF_HASH_RETURN_IF_ERROR(spill_a.open());
  ODF_HASH_RETURN_IF_ERROR(spill_b.open());
  SideResult a, b;
  Status sa = Status::internal("not run"), sb = Status::internal("not run");
  side_by_side(
      [&] {
        sa = read_side(original.objects, &spill_a, a, false, original.window, {}, original.cancel);
      },
      [&] {
        sb = read_side(reproduced.objects, &spill_b, b, false, reproduced.window, {},
                       reproduced.cancel);
      });
  ODF_HASH_RETURN_IF_ERROR(sa);
  ODF_HASH_RETURN_IF_ERROR(sb);
  out.original.digest = a.digest;
  out.reproduced.digest = b.digest;
  // Top-level columns are taken by name (their order does not count), struct members in
  // schema order (it does: the record bytes follow it).
  for (const auto& d : diff_schemas(a.schema.value, b.schema.value)) {
    if (d.kind != SchemaDifference::Kind::kPosition || find_top(a.schema.value, d.field) < 0) {
      out.schema_differences.push_back(d);
    }
  }
  out.same_records = a.digest.digest == b.digest.digest;
  out.same_values = a.digest.rows == b.digest.rows && a.sum.sum() == b.sum.sum();
  if (out.same_records || out.same_values) return out;

  // Which records: partition by partition, the multiset difference of two sorted runs.
  ODF_HASH_RETURN_IF_ERROR(spill_a.finish());
  ODF_HASH_RETURN_IF_ERROR(spill_b.finish());
  for (unsigned p = 0; p < kUnorderedPartitions; ++p) {
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<Entry> ea, spill_a.read(p));
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<Entry> eb, spill_b.read(p));
    std::sort(ea.begin(), ea.end(), by_key);
    std::sort(eb.begin(), eb.end(), by_key);
    size_t i = 0, j = 0;
    while (i < ea.size() || j < eb.size()) {
      if (j == eb.size() || (i < ea.size() && ea[i].key < eb[j].key)) {
        ++out.original.only_here;
        keep_example(out.original.examples, options.max_examples, ea[i++]);
      } else if (i == ea.size() || eb[j].key < ea[i].key) {
        ++out.reproduced.only_here;
        keep_example(out.reproduced.examples, options.max_examples, eb[j++]);
      } else {
        ++i;
        ++j;
      }
    }
  }
  ODF_HASH_RETURN_IF_ERROR(
      detail::render_records(original, out.original.examples, options.max_value_chars));
  ODF_HASH_RETURN_IF_ERROR(
      detail::render_records(reproduced, out.reproduced.examples, options.max_value_chars));
  return out;
}

namespace detail {

Status render_records(const Table& table, std::vector<UnorderedRecordRef>& examples,
                      size_t max_chars) {
  if (examples.empty()) return Status::ok();
  ODF_HASH_RETURN_IF_ERROR(check_table(table, "render_records"));
  ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
  const std::string name = table.objects[0]->name();
  Owned<ArrowArrayStream> stream;
  Owned<ArrowSchema> schema;
  ODF_HASH_RETURN_IF_ERROR(io_internal::concatenate_streams(table.objects, api->open_record_stream,
                                                            &stream.value, {}, table.window));
  if (stream.value.get_schema(&stream.value, &schema.value) != 0) {
    return Status::io_error(name + ": reading the stream's schema failed");
  }
  const int offset_child = find_top(schema.value, "offset");
  uint64_t row0 = 0;
  size_t next = 0;
  while (next < examples.size()) {
    Owned<ArrowArray> batch;
    if (stream.value.get_next(&stream.value, &batch.value) != 0) {
      const char* err = stream.value.get_last_error(&stream.value);
      return Status::io_error(name + ": " + (err != nullptr ? err : "reading a batch failed"));
    }
    if (batch.value.release == nullptr) break;
    const uint64_t end = row0 + uint64_t(batch.value.length);
    // Imported once for every value shown of it (a wide table: one import, not one per
    // column of each example).
    io_internal::RenderBatchHandle render;
    for (; next < examples.size() && examples[next].row < end; ++next) {
      const int64_t r = int64_t(examples[next].row - row0);
      const int64_t offset = offset_at(schema.value, batch.value, offset_child, r);
      if (offset != kNoOffset) examples[next].offset = offset;
      if (!render) {
        ODF_HASH_ASSIGN_OR_RETURN(render,
                                  io_internal::open_render_batch(*api, schema.value, batch.value));
      }
      std::string text;
      for (int64_t c = 0; c < schema.value.n_children; ++c) {
        ODF_HASH_ASSIGN_OR_RETURN(std::vector<std::string> v,
                                  api->render_batch_values(render.get(), {int(c)}, {r}, max_chars));
        const char* field = schema.value.children[c]->name;
        text += (c ? ", " : "") + std::string(field != nullptr ? field : "") + "=" + v.at(0);
      }
      examples[next].values = std::move(text);
    }
    row0 = end;
  }
  return Status::ok();
}

}  // namespace detail

}  // namespace odf_hash::compare
