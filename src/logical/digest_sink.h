// A SHA3-256 stream fed through a staging buffer, so that hashing millions of small values
// costs a few large absorb calls instead of one digest call per value. Internal to
// src/logical/.
//
// Every byte a column contributes to its digest goes through one DigestSink; flush() is the
// single place where staged bytes reach Keccak. A multi-lane Keccak can later absorb the
// flushed chunks of several columns at once by replacing what flush() and absorb() call,
// without touching the encoders.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>

#include "odf_hash/sha3.h"

namespace odf_hash::logical {

class DigestSink {
 public:
  static constexpr size_t kStagingSize = 64 * 1024;
  // Runs of at least this many bytes bypass the staging buffer.
  static constexpr size_t kDirectThreshold = 8 * 1024;

  DigestSink() : staging_(new uint8_t[kStagingSize]) {}

  // Room for n <= kStagingSize bytes; write them, then commit(n).
  uint8_t* reserve(size_t n) {
    if (kStagingSize - used_ < n) flush();
    return staging_.get() + used_;
  }
  void commit(size_t n) { used_ += n; }

  void put_byte(uint8_t b) {
    *reserve(1) = b;
    commit(1);
  }
  void put_u64(uint64_t v) {
    uint8_t* p = reserve(8);
    for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
    commit(8);
  }
  void put_zeros(size_t n) {
    while (n > 0) {
      const size_t k = n < kStagingSize ? n : kStagingSize;
      std::memset(reserve(k), 0, k);
      commit(k);
      n -= k;
    }
  }
  // Bytes in order; large runs are absorbed straight from `data`.
  void put(const void* data, size_t n) {
    if (n >= kDirectThreshold) {
      flush();
      sha_.update(data, n);
      return;
    }
    if (n == 0) return;
    std::memcpy(reserve(n), data, n);
    commit(n);
  }

  void flush() {
    sha_.update(staging_.get(), used_);
    used_ = 0;
  }
  Digest256 finalize() {
    flush();
    return sha_.finalize();
  }

 private:
  Sha3_256 sha_;
  std::unique_ptr<uint8_t[]> staging_;
  size_t used_ = 0;
};

}  // namespace odf_hash::logical
