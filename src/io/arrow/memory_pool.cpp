// The readers' memory pool (memory_pool.h).
#include "memory_pool.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <optional>
#include <string>

#include "odf_hash/core/text.h"

namespace odf_hash::io_internal {
namespace {

std::atomic<uint64_t> g_open_input_bytes{0};

constexpr const char* kMaxBufferVariable = "ODF_HASH_MAX_READER_BUFFER";

class BoundedPool final : public arrow::MemoryPool {
 public:
  explicit BoundedPool(arrow::MemoryPool* inner) : inner_(inner) {}

  using arrow::MemoryPool::Allocate;
  using arrow::MemoryPool::Free;
  using arrow::MemoryPool::Reallocate;

  arrow::Status Allocate(int64_t size, int64_t alignment, uint8_t** out) override {
    ARROW_RETURN_NOT_OK(check(size));
    return inner_->Allocate(size, alignment, out);
  }
  arrow::Status Reallocate(int64_t old_size, int64_t new_size, int64_t alignment,
                           uint8_t** ptr) override {
    ARROW_RETURN_NOT_OK(check(new_size));
    return inner_->Reallocate(old_size, new_size, alignment, ptr);
  }
  void Free(uint8_t* buffer, int64_t size, int64_t alignment) override {
    inner_->Free(buffer, size, alignment);
  }
  void ReleaseUnused() override { inner_->ReleaseUnused(); }
  int64_t bytes_allocated() const override { return inner_->bytes_allocated(); }
  int64_t max_memory() const override { return inner_->max_memory(); }
  int64_t total_bytes_allocated() const override { return inner_->total_bytes_allocated(); }
  int64_t num_allocations() const override { return inner_->num_allocations(); }
  std::string backend_name() const override { return inner_->backend_name(); }

 private:
  static arrow::Status check(int64_t size) {
    // ODF_HASH_MAX_READER_BUFFER, read once: the bound a user who trusts the file sets.
    static const std::optional<Result<uint64_t>> configured =
        []() -> std::optional<Result<uint64_t>> {
      const char* text = std::getenv(kMaxBufferVariable);
      if (text == nullptr || *text == '\0') return std::nullopt;
      return byte_size_from_env(kMaxBufferVariable, 0);
    }();
    if (configured && !configured->is_ok()) {
      return arrow::Status::Invalid(configured->status().message());
    }
    if (configured) {
      if (static_cast<uint64_t>(size) <= **configured) return arrow::Status::OK();
      return arrow::Status::OutOfMemory("a buffer of ", size, " bytes was asked for, more than ",
                                        kMaxBufferVariable, "=", **configured, " allows");
    }
    const uint64_t open = g_open_input_bytes.load(std::memory_order_relaxed);
    const uint64_t justified = static_cast<uint64_t>(kBufferSlack) +
                               std::min<uint64_t>(open, uint64_t{1} << 40) * kBufferPerInputByte;
    const int64_t limit = static_cast<int64_t>(
        std::min<uint64_t>(justified, static_cast<uint64_t>(kMaxReaderBuffer)));
    if (size <= limit) return arrow::Status::OK();
    std::string advice;
    if (size <= kMaxReaderBuffer) {  // beyond 4 GiB, corrupt sizes are all but certain
      const uint64_t mib = (static_cast<uint64_t>(size) + (1u << 20) - 1) >> 20;
      advice = std::string(
                   "; if the file is trusted (e.g. a long value that compressed "
                   "well), ") +
               kMaxBufferVariable + "=" + std::to_string(mib) +
               "M allows it (the bound is 64 MiB plus 64 bytes per byte of the files being "
               "read, at most 4 GiB)";
    }
    return arrow::Status::OutOfMemory(
        "a buffer of ", size, " bytes was asked for, more than the ", limit,
        " bytes the input can justify (corrupt sizes in the file?)", advice);
  }
  arrow::MemoryPool* inner_;
};

}  // namespace

OpenInput::OpenInput(uint64_t bytes) : bytes_(bytes) {
  g_open_input_bytes.fetch_add(bytes_, std::memory_order_relaxed);
}
OpenInput::~OpenInput() {
  g_open_input_bytes.fetch_sub(bytes_, std::memory_order_relaxed);
}

namespace {

// The allocator under the bound: Arrow's bundled jemalloc where the build has it, which
// keeps the peak RSS of hashing a large Parquet file ~9 MiB lower than glibc's malloc (whose
// per-thread arenas each keep what the reader and hasher threads free; bench/endtoend.sh,
// same CPU time); glibc's malloc under AddressSanitizer, which then sees every buffer.
arrow::MemoryPool* allocator() {
#if defined(__SANITIZE_ADDRESS__)
  return arrow::system_memory_pool();
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return arrow::system_memory_pool();
#endif
#endif
  arrow::MemoryPool* jemalloc = nullptr;
  if (arrow::jemalloc_memory_pool(&jemalloc).ok() && jemalloc != nullptr) {
    // Freed pages back to the system after 100 ms instead of Arrow's 1 s (for the arenas
    // made from now on: one per reader thread). Each thread allocates from its own arena and
    // the column groups' reader threads come and go, so an arena's freed pages were mostly
    // not reused before they decayed: ~1-2 MiB off the peak RSS of bench/endtoend.sh at the
    // same CPU time (0 ms, purging at every free, took ~6 MiB off but cost ~5 s of system
    // time on the 1 GiB file). Process-wide: it applies to any user of Arrow's jemalloc pool.
    (void)arrow::jemalloc_set_decay_ms(100);
    return jemalloc;
  }
  return arrow::system_memory_pool();
}

}  // namespace

// Never destroyed: Arrow's I/O threads may free a buffer of a read-ahead nobody waited for
// while the process exits, after function-local statics are gone (found by ASan).
arrow::MemoryPool* reader_memory_pool() {
  static BoundedPool* const pool = new BoundedPool(allocator());
  return pool;
}

}  // namespace odf_hash::io_internal
