// A SHA3-256 stream fed through a staging buffer, so that hashing millions of small values
// costs a few large absorb calls instead of one digest call per value. Internal to
// src/logical/.
//
// Every byte a column contributes to its digest goes through one DigestSink; flush() and
// put() are the only places where bytes reach Keccak. A sink works in one of two modes:
//   - single (the default): its own Sha3_256 (OpenSSL, or our single-state Keccak where
//     faster) absorbs the staged bytes when the staging buffer fills, and runs of at least
//     kDirectThreshold bytes straight from the caller's memory;
//   - lane (after attach_lane): the sink is lane `lane` of a LaneGroup (Sha3_256x4 or
//     Sha3_256x8) shared with other sinks. Bytes are not absorbed as they come: staged bytes
//     and direct runs are kept as a list of pending spans (direct runs point into the caller's
//     memory, which must stay alive until the next drain) and drain_lanes() absorbs the
//     pending spans of the group's sinks together, N-wide. Only when the staging buffer fills
//     before the group drains does a sink absorb its own pending bytes alone (correct, only
//     slower).
// The digest never depends on the mode, on when flushes happen or on how lanes are grouped.
// hashed_bytes() counts every byte the sink passed on to Keccak (or will, once drained).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "odf_hash/core/sha3.h"
#include "odf_hash/internal/core/sha3_multi.h"

namespace odf_hash::logical {

// A multi-lane SHA3-256 (Sha3_256x4 or Sha3_256x8) behind one interface, so that sinks and
// column groups do not depend on the lane count. Calls per flush or drain, not per value.
class LaneGroup {
 public:
  virtual ~LaneGroup() = default;
  virtual size_t lanes() const = 0;
  virtual void update(size_t lane, const void* data, size_t size) = 0;
  // data / size have lanes() entries.
  virtual void update_all(const uint8_t* const data[], const size_t size[]) = 0;
  // Fills out[0..lanes()) and resets every lane.
  virtual void finalize(Digest256 out[]) = 0;
};

// The lane group of `lanes` (2..8) columns at `level`: 8-lane Keccak when the level has it
// (one 8-lane permutation costs less than one 4-lane one there, so even two columns take it),
// else 4-lane, two groups' worth of columns at most (precondition: lanes <= max_lanes(level)).
std::unique_ptr<LaneGroup> make_lane_group(size_t lanes, KeccakLevel level);
// The most columns one lane group takes at `level`: 8 at kAvx512, else 4.
size_t max_lanes(KeccakLevel level);

class DigestSink {
 public:
  static constexpr size_t kStagingSize = 64 * 1024;
  // Runs of at least this many bytes bypass the staging buffer.
  static constexpr size_t kDirectThreshold = 8 * 1024;

  DigestSink() : staging_(new uint8_t[kStagingSize]) {}

  // Switches to lane mode. Only valid before any byte was absorbed (bytes still staged, such
  // as the type bytes, become the lane's first pending bytes). Returns false, changing
  // nothing, when bytes were already absorbed in single mode.
  bool attach_lane(LaneGroup* group, size_t lane) {
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
  // Little-endian, one move (GCC -O2 keeps a byte loop as a loop).
  void put_u64(uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    std::memcpy(reserve(8), &v, 8);
    commit(8);
  }
  // Bytes passed to Keccak so far, pending lane bytes included (the column's SHA3 input).
  uint64_t hashed_bytes() const {
    return hashed_ + used_;
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
      hashed_ += n;
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
    hashed_ += used_;
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
    hashed_ += used_;
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
  uint64_t hashed_ = 0;  // bytes passed on, not counting the `used_` staged ones
  bool absorbed_ = false;
  // Lane mode.
  LaneGroup* group_ = nullptr;
  size_t lane_ = 0;
  size_t segment_start_ = 0;
  std::vector<std::span<const uint8_t>> pending_;
};

// Absorbs the pending bytes of the sinks attached to `group` (sinks[i] is lane i, or null when
// lane i is unused; group.lanes() entries), advancing the lanes together, and clears them.
void drain_lanes(LaneGroup& group, DigestSink* const sinks[]);

}  // namespace odf_hash::logical
