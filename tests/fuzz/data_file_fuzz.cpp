// Fuzzes the data file readers: any bytes, read as a Parquet or Arrow IPC file through the
// object interface (store.h) by open_record_stream, then logically hashed, as verify's logical
// fallback and `odf-hash logical` do. A clear error or a digest; never a crash, a hang or an
// allocation beyond what the bytes can justify (reads are bounded by the object's size,
// buffers by the readers' pool: src/io/arrow/memory_pool.h).
// Invariants: the format detected is the one the magic bytes say; hashing the same bytes
// twice gives the same digest.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "odf_hash/io/logical_file.h"
#include "odf_hash/io/record_stream.h"
#include "odf_hash/io/store.h"

namespace {

using namespace odf_hash;

// The fuzzer's bytes as an object of a store.
class MemoryObject final : public ObjectReader {
 public:
  MemoryObject(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  const std::string& name() const noexcept override { return name_; }
  uint64_t size() const noexcept override { return size_; }
  Result<size_t> read(uint8_t* out, size_t n) override {
    ODF_HASH_ASSIGN_OR_RETURN(size_t got, read_at(pos_, out, n));
    pos_ += got;
    return got;
  }
  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override {
    if (offset >= size_) return size_t{0};
    n = static_cast<size_t>(std::min<uint64_t>(n, size_ - offset));
    if (n != 0) std::memcpy(out, data_ + offset, n);
    return n;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  uint64_t pos_ = 0;
  std::string name_ = "fuzz-input";
};

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "data_file_fuzz: invariant violated: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  MemoryObject probe(data, size);
  auto format = detect_file_format(probe);
  if (format.is_ok()) {
    const bool parquet = size >= 4 && std::memcmp(data, "PAR1", 4) == 0;
    if (parquet != (*format == FileFormat::kParquet)) fail("format differs from the magic");
  }
  auto first = logical_hash_object(std::make_shared<MemoryObject>(data, size));
  if (!first.is_ok()) {
    if (first.status().message().rfind("fuzz-input", 0) != 0) fail("error does not name the file");
    return 0;
  }
  auto second = logical_hash_object(std::make_shared<MemoryObject>(data, size));
  if (!second.is_ok() || second->digest != first->digest || second->num_rows != first->num_rows) {
    fail("hashing the same bytes twice differs");
  }
  return 0;
}
