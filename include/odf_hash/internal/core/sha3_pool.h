// SHA3-256 of many messages fed by different threads at once, absorbed together in the SIMD
// lanes of the multi-lane Keccak (sha3_multi.h): Sha3_256Pool and its messages, PooledSha3_256.
//
// Why: a fetch (and any reader of many streams at once) has one thread per stream, each
// hashing what it receives. Each thread alone can only run the single-state kernel; with
// AVX-512 one core absorbs eight states in about the time of 1.7 single ones. The pool takes
// the full blocks the threads hand it and absorbs up to eight messages' blocks per
// permutation (four with AVX2), so hashing sixteen downloads costs about a fifth of the CPU.
//
// How: PooledSha3_256::update keeps a partial block itself and hands every run of full blocks
// to the pool, then waits until they are absorbed (the caller's bytes are read in place, never
// copied); begin_update / finish_update split that, so that the caller receives its next
// bytes while the pool absorbs these. A waiting thread becomes a "hasher" when nobody absorbs
// the waiting runs, or, while others do, when a whole permutation's worth of runs waits for
// it (at most `max_hashers` at once): it fills the lanes from the queue of waiting runs,
// absorbs them lane-parallel, gives each run's state back when the run ends and takes the
// next waiting run into the free lane; a run never waits for another to arrive. Once its own
// run is absorbed the hasher returns to its own work: the runs still in its lanes go back to
// the front of the queue (their states saved) and the thread of one of them takes over. (A
// hasher that served until no run waited starved its own stream: in a fetch of 32 equal files
// that one ended 0.1 s after all others, alone.) One run alone goes through the best
// single-state kernel (as fast as Sha3_256), as do short runs.
//
// Every digest is plain FIPS 202 SHA3-256 of the message's bytes in order, whatever the level,
// the lanes and the other messages: OpenSSL is the oracle the tests compare against.
//
// Thread safety: the pool may be used from any number of threads; one PooledSha3_256 must not
// be used from two threads at once. A pool must outlive its messages.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <span>

#include "odf_hash/core/sha3.h"
#include "odf_hash/internal/core/sha3_multi.h"

namespace odf_hash {

class Sha3_256Pool {
 public:
  // Runs the kernels of `level` (the default: multi_lane_level()); up to `max_hashers`
  // threads absorb at once (0: the hardware threads; a second one only with a full
  // permutation's worth of runs waiting).
  explicit Sha3_256Pool(KeccakLevel level = multi_lane_level(), unsigned max_hashers = 0);
  // Fails with `unsupported` when the CPU cannot run `level`.
  static Result<std::unique_ptr<Sha3_256Pool>> create(KeccakLevel level, unsigned max_hashers = 0);

  Sha3_256Pool(const Sha3_256Pool&) = delete;
  Sha3_256Pool& operator=(const Sha3_256Pool&) = delete;

  // The process-wide pool, at the default level of its first use.
  static Sha3_256Pool& shared();

  KeccakLevel level() const noexcept { return level_; }
  // The messages one permutation absorbs: 8 (AVX-512), 4 (AVX2) or 1.
  size_t lanes() const noexcept { return lanes_; }

  // What was absorbed how, since construction: blocks absorbed in a lane of the multi-lane
  // kernel together with other messages' blocks, blocks absorbed alone, and runs a hasher
  // handed back to the queue unfinished when its own run was done.
  struct Counts {
    uint64_t shared_blocks = 0;
    uint64_t alone_blocks = 0;
    uint64_t handed_back = 0;
  };
  Counts counts() const noexcept {
    return {shared_blocks_.load(std::memory_order_relaxed),
            alone_blocks_.load(std::memory_order_relaxed),
            handed_back_.load(std::memory_order_relaxed)};
  }

  // A run of `blocks` consecutive 136-byte blocks at `in` to absorb into the single-layout
  // `state` (word x + 5y is lane (x, y)), permuting after each.
  struct Run {
    uint64_t* state = nullptr;
    const uint8_t* in = nullptr;
    size_t blocks = 0;
    bool done = true;
    bool owner_waits = false;  // its thread waits in finish() (a hasher may wake it to take over)
    std::condition_variable absorbed;
  };
  // Queues `run` (a short one is absorbed at once, here); the run, `state` and the bytes stay
  // untouched by the caller until finish(run) returned. For PooledSha3_256.
  void begin(Run& run, uint64_t state[25], const uint8_t* in, size_t blocks) noexcept;
  // Returns once `run` is absorbed, absorbing it (and others beside it) when no hasher does.
  void finish(Run& run) noexcept;
  // begin() then finish().
  void absorb(uint64_t state[25], const uint8_t* in, size_t blocks) noexcept;

 private:
  void hash_runs(std::unique_lock<std::mutex>& lock, const Run& own) noexcept;
  void absorb_alone(uint64_t state[25], const uint8_t* in, size_t blocks) noexcept;
  bool hasher_wanted() const noexcept;

  KeccakLevel level_;
  size_t lanes_;
  unsigned max_hashers_;
  std::mutex mutex_;
  std::deque<Run*> waiting_;  // runs no hasher has taken yet
  unsigned hashers_ = 0;
  std::atomic<uint64_t> shared_blocks_{0}, alone_blocks_{0}, handed_back_{0};
};

// One SHA3-256 message absorbed through a pool: same semantics as Sha3_256 (sha3.h).
class PooledSha3_256 {
 public:
  explicit PooledSha3_256(Sha3_256Pool& pool = Sha3_256Pool::shared()) noexcept;
  PooledSha3_256(const PooledSha3_256&) = delete;
  PooledSha3_256& operator=(const PooledSha3_256&) = delete;

  // Absorbs `size` bytes; returns once they are absorbed (the bytes may be reused then).
  void update(const void* data, size_t size) noexcept;
  void update(std::span<const uint8_t> bytes) noexcept { update(bytes.data(), bytes.size()); }

  // update() in two halves, so that the caller works on while the pool absorbs: `bytes` must
  // stay untouched until finish_update() returned (or the next update, begin_update or
  // finalize, which finish it first).
  void begin_update(std::span<const uint8_t> bytes) noexcept;
  void finish_update() noexcept { pool_->finish(run_); }

  // The digest of everything absorbed since construction (or the last finalize); resets the
  // message to empty.
  Digest256 finalize() noexcept;

 private:
  Sha3_256Pool* pool_;
  Sha3_256Pool::Run run_;  // the run begin_update left queued
  uint64_t state_[25];
  uint8_t buf_[kSha3_256Rate];
  size_t buf_len_ = 0;
};

}  // namespace odf_hash
