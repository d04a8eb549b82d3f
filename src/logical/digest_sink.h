// A SHA3-256 stream fed through a staging buffer, so that hashing millions of small values
// costs a few large absorb calls instead of one digest call per value. Internal to
// src/logical/.
//
// Every byte a column contributes to its digest goes through one DigestSink; flush() and
// put() are the only places where bytes reach Keccak. A sink works in one of two modes:
//   - single (the default): its own OpenSSL Sha3_256 absorbs the staged bytes when the
//     staging buffer fills, and runs of at least kDirectThreshold bytes straight from the
//     caller's memory;
//   - lane (after attach_lane): the sink is lane `lane` of a Sha3_256x4 shared with up to
//     three other sinks. Bytes are not absorbed as they come: staged bytes and direct runs
//     are kept as a list of pending spans (direct runs point into the caller's memory, which
//     must stay alive until the next drain) and drain_lanes() absorbs the pending spans of
//     the four sinks together, 4-wide. Only when the staging buffer fills before the group
//     drains does a sink absorb its own pending bytes alone (correct, only slower).
// The digest never depends on the mode, on when flushes happen or on how lanes are grouped.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "odf_hash/sha3.h"
#include "odf_hash/sha3_multi.h"

namespace odf_hash::logical {

class DigestSink {
 public:
  static constexpr size_t kStagingSize = 64 * 1024;
  // Runs of at least this many bytes bypass the staging buffer.
  static constexpr size_t kDirectThreshold = 8 * 1024;

  DigestSink() : staging_(new uint8_t[kStagingSize]) {}

  // Switches to lane mode. Only valid before any byte was absorbed (bytes still staged, such
  // as the type bytes, become the lane's first pending bytes). Returns false, changing
  // nothing, when bytes were already absorbed in single mode.
  bool attach_lane(Sha3_256x4* group, size_t lane) {
    if (absorbed_) return false;
    group_ = group;
    lane_ = lane;
    return true;
  }
  bool in_lane() const { return group_ != nullptr; }

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
  // Bytes in order; large runs are absorbed (or, in lane mode, referenced) straight from
  // `data`.
  void put(const void* data, size_t n) {
    if (n >= kDirectThreshold) {
      if (group_ != nullptr) {
        close_segment();
        pending_.emplace_back(static_cast<const uint8_t*>(data), n);
        return;
      }
      flush();
      sha_.update(data, n);
      absorbed_ = true;
      return;
    }
    if (n == 0) return;
    std::memcpy(reserve(n), data, n);
    commit(n);
  }

  // Single mode: absorbs the staged bytes. Lane mode: absorbs this lane's pending bytes alone
  // (the staging buffer is full and the group has not drained yet).
  void flush() {
    if (group_ != nullptr) {
      close_segment();
      for (const auto& s : pending_) group_->update(lane_, s.data(), s.size());
      pending_.clear();
      used_ = 0;
      segment_start_ = 0;
      return;
    }
    if (used_ > 0) {
      sha_.update(staging_.get(), used_);
      absorbed_ = true;
    }
    used_ = 0;
  }

  // Single mode only: the digest; consumes the stream.
  Digest256 finalize() {
    flush();
    return sha_.finalize();
  }

  // Lane mode: the bytes not yet absorbed, in order (closing the current staged segment).
  // After the group absorbed them, clear_pending() makes room again.
  const std::vector<std::span<const uint8_t>>& pending() {
    close_segment();
    return pending_;
  }
  void clear_pending() {
    pending_.clear();
    used_ = 0;
    segment_start_ = 0;
  }

 private:
  void close_segment() {
    if (used_ > segment_start_) {
      pending_.emplace_back(staging_.get() + segment_start_, used_ - segment_start_);
      segment_start_ = used_;
    }
  }

  Sha3_256 sha_;
  std::unique_ptr<uint8_t[]> staging_;
  size_t used_ = 0;
  bool absorbed_ = false;
  // Lane mode.
  Sha3_256x4* group_ = nullptr;
  size_t lane_ = 0;
  size_t segment_start_ = 0;
  std::vector<std::span<const uint8_t>> pending_;
};

// Absorbs the pending bytes of up to four sinks attached to `group` (sinks[i] is lane i, or
// null when lane i is unused), advancing the lanes together, and clears them.
void drain_lanes(Sha3_256x4& group, DigestSink* const sinks[Sha3_256x4::kLanes]);

}  // namespace odf_hash::logical
