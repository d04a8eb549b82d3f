// The memory pool every allocation of the readers comes from (internal to io).
//
// Arrow's default pool in the pyarrow wheel is mimalloc, which keeps freed pages mapped: a
// streaming read that frees every batch after hashing peaked 45% higher with it (90 MB
// against 62 MB of RSS on a 150 MB Parquet file) at the same speed. The readers free and
// reallocate the same sizes batch after batch, which the system allocator serves well.
//
// Files are untrusted: Arrow sizes some buffers from their metadata (an IPC buffer's
// uncompressed length, for one), so a few bytes can ask for exabytes. The pool refuses any
// single buffer over kMaxReaderBuffer with OutOfMemory (the read then fails with an error
// naming the file) rather than passing such a request to the allocator. Parquet is read in
// batches of 10,000 rows, so no real buffer comes near the limit.
#pragma once

#include <cstdint>

#include <arrow/memory_pool.h>

namespace odf_hash::io_internal {

inline constexpr int64_t kMaxReaderBuffer = int64_t{4} << 30;

// The system pool, bounded as said above. Thread-safe, never destroyed.
arrow::MemoryPool* reader_memory_pool();

}  // namespace odf_hash::io_internal
