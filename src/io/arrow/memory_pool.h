// The memory pool every allocation of the readers comes from (internal to io).
//
// Arrow's default pool in the pyarrow wheel is mimalloc, which keeps freed pages mapped: a
// streaming read that frees every batch after hashing peaked 45% higher with it (90 MB
// against 62 MB of RSS on a 150 MB Parquet file) at the same speed. The readers free and
// reallocate the same sizes batch after batch. Arrow's bundled jemalloc serves them with the
// lowest peak: on the 1 GiB file of bench/endtoend.sh (column groups, four threads, as the
// readers were when this was chosen) 67 MiB of RSS against 75 MiB with glibc's malloc, whose
// per-thread arenas each keep what their thread freed, at the same CPU time; so jemalloc where
// the libarrow has it, glibc's malloc otherwise and under AddressSanitizer (which then sees
// every reader buffer). Today's peak, after later work, is in bench/RESULTS.md.
//
// Files are untrusted: Arrow and Parquet C++ size some buffers from their metadata before
// reading (a Parquet page's declared size, an IPC buffer's uncompressed length), so a few
// bytes can ask for gigabytes (and Arrow zero-fills what it does not use: a 4 KB Parquet file
// with a forged page size took 1.4 GB of RSS, found by the data_file fuzzer). The pool
// therefore refuses, with OutOfMemory (the read then fails with an error naming the file),
// any single buffer larger than what the inputs being read can justify:
//   kBufferSlack + kBufferPerInputByte x (bytes of the objects open for reading),
// and never more than kMaxReaderBuffer. 64 bytes of buffer per byte of input leaves room for
// any real compression ratio of a page or an IPC buffer; the slack covers small files. A real
// file can go beyond it (one 200 MiB string of one repeated byte is 6.8 KB of zstd Parquet):
// the error says so, and $ODF_HASH_MAX_READER_BUFFER (a size as text.h's
// parse_byte_size takes it, "1G") replaces the bound for whoever trusts the file; a value that
// does not parse makes every read fail, naming the variable.
#pragma once

#include <cstdint>

#include <arrow/memory_pool.h>

namespace odf_hash::io_internal {

inline constexpr int64_t kMaxReaderBuffer = int64_t{4} << 30;
inline constexpr int64_t kBufferSlack = int64_t{64} << 20;
inline constexpr int64_t kBufferPerInputByte = 64;

// The pool, bounded as said above. Thread-safe, never destroyed.
arrow::MemoryPool* reader_memory_pool();

// Counts `bytes` as open for reading while it lives (one per object a reader reads).
class OpenInput {
 public:
  explicit OpenInput(uint64_t bytes);
  ~OpenInput();
  OpenInput(const OpenInput&) = delete;
  OpenInput& operator=(const OpenInput&) = delete;

 private:
  uint64_t bytes_;
};

}  // namespace odf_hash::io_internal
