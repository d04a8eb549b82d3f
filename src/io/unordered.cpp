// compare_unordered and unordered_digest_object (unordered.h): record digests summed and
// spilled to partitions on disk, partitions compared pairwise only when the sums differ.
#include "odf_hash/unordered.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <optional>
#include <system_error>
#include <thread>

#include "arrow_module.h"
#include "concat_stream.h"
#include "odf_hash/record_digest.h"
#include "owned_c_data.h"

namespace odf_hash {

namespace {

using io_internal::Owned;

// One record as spilled: its digest and where it is.
// The digest's first 16 bytes are enough to match records (a false match needs a 128-bit
// collision) and make an entry 32 bytes instead of 48.
using DigestPrefix = std::array<uint8_t, 16>;
struct Entry {
  DigestPrefix digest;
  uint64_t row;
  int64_t offset;  // kNoOffset when the file has none (or it is null there)
};
constexpr int64_t kNoOffset = INT64_MIN;
// stdio buffer per partition: 64 partitions x 2 files x 128 KiB = 16 MiB.
constexpr size_t kSpillBuffer = 128 << 10;

struct FileCloser {
  void operator()(FILE* f) const {
    if (f != nullptr) std::fclose(f);
  }
};
using File = std::unique_ptr<FILE, FileCloser>;

// The partitions of one side: unnamed temporary files (tmpfile: removed when closed).
struct Spill {
  std::array<File, kUnorderedPartitions> files;
  Status open() {
    for (auto& f : files) {
      f.reset(std::tmpfile());
      if (f == nullptr) {
        return Status::io_error(std::string("cannot create a temporary file for the records: ") +
                                std::strerror(errno));
      }
      std::setvbuf(f.get(), nullptr, _IOFBF, kSpillBuffer);
    }
    return Status::ok();
  }
  Status write(const Entry& e) {
    FILE* f = files[e.digest[0] % kUnorderedPartitions].get();
    if (std::fwrite(&e, sizeof e, 1, f) != 1) {
      return Status::io_error(std::string("cannot write the records' temporary file: ") +
                              std::strerror(errno));
    }
    return Status::ok();
  }
  Result<std::vector<Entry>> read(unsigned p) {
    FILE* f = files[p].get();
    if (std::fflush(f) != 0 || std::fseek(f, 0, SEEK_END) != 0) {
      return Status::io_error("cannot read back the records' temporary file");
    }
    const long size = std::ftell(f);
    std::rewind(f);
    std::vector<Entry> out(size_t(size) / sizeof(Entry));
    if (!out.empty() && std::fread(out.data(), sizeof(Entry), out.size(), f) != out.size()) {
      return Status::io_error("cannot read back the records' temporary file");
    }
    return out;
  }
};

DigestPrefix prefix_of(const Digest256& d) {
  DigestPrefix p;
  std::memcpy(p.data(), d.data(), p.size());
  return p;
}

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

struct SideResult {
  UnorderedDigest sum;
  std::vector<uint8_t> schema_bytes;
  Owned<ArrowSchema> schema;
  UnorderedFileDigest digest;
};

// Reads every record of `object`: sums their digests, and spills them when `spill` is set.
// Several objects (a group of files, unordered_digest_objects) are read as one table.
Status read_side(std::vector<std::shared_ptr<ObjectReader>> objects, Spill* spill,
                 SideResult& out) {
  ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
  const std::string name = objects.at(0)->name();
  Owned<ArrowArrayStream> stream;
  ODF_HASH_RETURN_IF_ERROR(
      io_internal::concatenate_streams(std::move(objects), api->open_record_stream, &stream.value));
  if (stream.value.get_schema(&stream.value, &out.schema.value) != 0) {
    return Status::io_error(name + ": reading the stream's schema failed");
  }
  ODF_HASH_ASSIGN_OR_RETURN(RecordDigester digester, RecordDigester::create(out.schema.value));
  out.schema_bytes = digester.schema_bytes();
  const int offset_child = find_top(out.schema.value, "offset");
  std::vector<Digest256> digests;
  uint64_t row0 = 0;
  while (true) {
    Owned<ArrowArray> batch;
    if (stream.value.get_next(&stream.value, &batch.value) != 0) {
      const char* err = stream.value.get_last_error(&stream.value);
      return Status::io_error(name + ": " + (err != nullptr ? err : "reading a batch failed"));
    }
    if (batch.value.release == nullptr) break;
    digests.clear();
    Status st = digester.digest_rows(batch.value, 0, batch.value.length, digests);
    if (!st.is_ok()) return Status(st.code(), name + ": " + st.message());
    for (size_t i = 0; i < digests.size(); ++i) {
      out.sum.add(digests[i]);
      if (spill != nullptr) {
        ODF_HASH_RETURN_IF_ERROR(
            spill->write({prefix_of(digests[i]), row0 + i,
                          offset_at(out.schema.value, batch.value, offset_child, int64_t(i))}));
      }
    }
    row0 += uint64_t(batch.value.length);
  }
  out.digest.rows = row0;
  out.digest.digest = out.sum.finalize(out.schema_bytes);
  return Status::ok();
}

// Keeps the `max` smallest rows seen.
void keep_example(std::vector<UnorderedRecordRef>& examples, size_t max, const Entry& e) {
  if (max == 0) return;
  UnorderedRecordRef ref{e.row,
                         e.offset == kNoOffset ? std::nullopt : std::optional<int64_t>(e.offset)};
  auto pos = std::lower_bound(
      examples.begin(), examples.end(), ref,
      [](const UnorderedRecordRef& x, const UnorderedRecordRef& y) { return x.row < y.row; });
  if (examples.size() >= max && pos == examples.end()) return;
  examples.insert(pos, ref);
  if (examples.size() > max) examples.pop_back();
}

// Renders the examples (ascending rows) of one side: its records read again up to the last.
Status render_examples(std::shared_ptr<ObjectReader> object,
                       std::vector<UnorderedRecordRef>& examples, size_t max_chars) {
  if (examples.empty()) return Status::ok();
  ODF_HASH_ASSIGN_OR_RETURN(const io_internal::ArrowModuleApi* api, io_internal::arrow_module());
  const std::string name = object->name();
  Owned<ArrowArrayStream> stream;
  Owned<ArrowSchema> schema;
  ODF_HASH_RETURN_IF_ERROR(api->open_record_stream(object, &stream.value));
  if (stream.value.get_schema(&stream.value, &schema.value) != 0) {
    return Status::io_error(name + ": reading the stream's schema failed");
  }
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
    for (; next < examples.size() && examples[next].row < end; ++next) {
      const int64_t r = int64_t(examples[next].row - row0);
      std::string text;
      for (int64_t c = 0; c < schema.value.n_children; ++c) {
        ODF_HASH_ASSIGN_OR_RETURN(
            std::vector<std::string> v,
            api->render_values(schema.value, batch.value, {int(c)}, {r}, max_chars));
        const char* field = schema.value.children[c]->name;
        text += (c ? ", " : "") + std::string(field != nullptr ? field : "") + "=" + v.at(0);
      }
      examples[next].values = std::move(text);
    }
    row0 = end;
  }
  return Status::ok();
}

bool by_digest(const Entry& x, const Entry& y) {
  return x.digest != y.digest ? x.digest < y.digest : x.row < y.row;
}

}  // namespace

Result<UnorderedFileDigest> unordered_digest_object(std::shared_ptr<ObjectReader> object) {
  if (object == nullptr) return Status::invalid_argument("unordered_digest_object: null object");
  return unordered_digest_objects({std::move(object)});
}

Result<UnorderedFileDigest> unordered_digest_objects(
    std::vector<std::shared_ptr<ObjectReader>> objects) {
  for (const auto& o : objects) {
    if (o == nullptr) return Status::invalid_argument("unordered_digest_objects: null object");
  }
  if (objects.empty()) return Status::invalid_argument("unordered_digest_objects: no object");
  SideResult side;
  ODF_HASH_RETURN_IF_ERROR(read_side(std::move(objects), nullptr, side));
  return side.digest;
}

Result<UnorderedComparison> compare_unordered(std::shared_ptr<ObjectReader> original,
                                              std::shared_ptr<ObjectReader> reproduced,
                                              const UnorderedOptions& options) {
  if (original == nullptr || reproduced == nullptr) {
    return Status::invalid_argument("compare_unordered: null object");
  }
  UnorderedComparison out;
  out.original.path = original->name();
  out.reproduced.path = reproduced->name();
  Spill spill_a, spill_b;
  ODF_HASH_RETURN_IF_ERROR(spill_a.open());
  ODF_HASH_RETURN_IF_ERROR(spill_b.open());
  SideResult a, b;
  Status sb = Status::internal("not run");
  std::optional<std::thread> other;
  try {
    other.emplace([&] { sb = read_side({reproduced}, &spill_b, b); });
  } catch (const std::system_error&) {  // no thread to be had: one file after the other
    sb = read_side({reproduced}, &spill_b, b);
  }
  Status sa = read_side({original}, &spill_a, a);
  if (other) other->join();
  ODF_HASH_RETURN_IF_ERROR(sa);
  ODF_HASH_RETURN_IF_ERROR(sb);
  out.original.digest = a.digest;
  out.reproduced.digest = b.digest;
  for (const auto& d : diff_schemas(a.schema.value, b.schema.value)) {
    if (d.kind != SchemaDifference::Kind::kPosition) out.schema_differences.push_back(d);
  }
  out.same_records = a.digest.digest == b.digest.digest;
  if (out.same_records) return out;

  // Which records: partition by partition, the multiset difference of two sorted runs.
  for (unsigned p = 0; p < kUnorderedPartitions; ++p) {
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<Entry> ea, spill_a.read(p));
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<Entry> eb, spill_b.read(p));
    std::sort(ea.begin(), ea.end(), by_digest);
    std::sort(eb.begin(), eb.end(), by_digest);
    size_t i = 0, j = 0;
    while (i < ea.size() || j < eb.size()) {
      if (j == eb.size() || (i < ea.size() && ea[i].digest < eb[j].digest)) {
        ++out.original.only_here;
        keep_example(out.original.examples, options.max_examples, ea[i++]);
      } else if (i == ea.size() || eb[j].digest < ea[i].digest) {
        ++out.reproduced.only_here;
        keep_example(out.reproduced.examples, options.max_examples, eb[j++]);
      } else {
        ++i;
        ++j;
      }
    }
  }
  ODF_HASH_RETURN_IF_ERROR(
      render_examples(original, out.original.examples, options.max_value_chars));
  ODF_HASH_RETURN_IF_ERROR(
      render_examples(reproduced, out.reproduced.examples, options.max_value_chars));
  return out;
}

}  // namespace odf_hash
