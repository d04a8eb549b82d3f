// Sha3_256Pool and PooledSha3_256 (sha3_pool.h): runs of blocks from many threads' messages
// absorbed together in the lanes of the multi-lane Keccak kernels.
#include "odf_hash/internal/core/sha3_pool.h"

#include <algorithm>
#include <cstring>
#include <thread>

#include "keccak.h"
#include "keccak_dispatch.h"
#include "sha3_sponge.h"

namespace odf_hash {

namespace {

using keccak::kRate;
using keccak::kStateWords;

// Runs shorter than this are absorbed by the caller at once: waiting for a hasher costs more
// than absorbing them alone (a thread switch is worth tens of blocks).
constexpr size_t kShortRun = 64;
// While a lane is free, a hasher absorbs at most this many blocks before it looks for a
// waiting run to put there.
constexpr size_t kSlice = 128;
// What a free lane absorbs meanwhile (its state is scratch).
alignas(64) const uint8_t kIdle[kSlice * kRate] = {};

size_t lanes_of(KeccakLevel level) noexcept {
  const keccak::Kernels k = keccak::kernels_for(level);
  return k.eight != nullptr ? 8 : k.four != nullptr ? 4 : 1;
}

// The block absorber a PooledSha3_256 gives its sponge: the pool.
auto into(Sha3_256Pool* pool) {
  return [pool](uint64_t* state, const uint8_t* in, size_t blocks) {
    pool->absorb(state, in, blocks);
  };
}

unsigned default_hashers() noexcept {
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

Sha3_256Pool::Sha3_256Pool(KeccakLevel level, unsigned max_hashers)
    : level_(keccak_level_supported(level) ? level : KeccakLevel::kPortable),
      lanes_(lanes_of(level_)),
      max_hashers_(max_hashers != 0 ? max_hashers : default_hashers()) {}

Result<std::unique_ptr<Sha3_256Pool>> Sha3_256Pool::create(KeccakLevel level,
                                                           unsigned max_hashers) {
  if (!keccak_level_supported(level)) return keccak::unsupported_level(level);
  return std::make_unique<Sha3_256Pool>(level, max_hashers);
}

Sha3_256Pool& Sha3_256Pool::shared() {
  static Sha3_256Pool pool;
  return pool;
}

void Sha3_256Pool::absorb_alone(uint64_t state[25], const uint8_t* in, size_t blocks) noexcept {
  keccak::lane_kernels_for(level_).one(state, in, blocks);
  alone_blocks_.fetch_add(blocks, std::memory_order_relaxed);
}

void Sha3_256Pool::begin(Run& run, uint64_t state[25], const uint8_t* in, size_t blocks) noexcept {
  if (blocks == 0) return;
  if (lanes_ == 1 || blocks < kShortRun) {
    absorb_alone(state, in, blocks);
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  run.state = state;
  run.in = in;
  run.blocks = blocks;
  run.done = false;
  waiting_.push_back(&run);
}

void Sha3_256Pool::absorb(uint64_t state[25], const uint8_t* in, size_t blocks) noexcept {
  Run run;
  begin(run, state, in, blocks);
  finish(run);
}

// A waiting thread becomes a hasher when nobody absorbs the waiting runs, or, while others
// do, when a whole permutation's worth of runs waits for it (fewer would only take lanes from
// the running hasher's next turn: the same blocks in more permutations).
bool Sha3_256Pool::hasher_wanted() const noexcept {
  if (waiting_.empty() || hashers_ >= max_hashers_) return false;
  return hashers_ == 0 || waiting_.size() >= lanes_;
}

void Sha3_256Pool::finish(Run& run) noexcept {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!run.done) {
    if (hasher_wanted()) {
      ++hashers_;
      hash_runs(lock, run);
      --hashers_;
    } else {
      run.owner_waits = true;
      run.absorbed.wait(lock);
      run.owner_waits = false;
    }
  }
  if (hasher_wanted()) {
    // Left with runs waiting: their threads take over (one wakes, becomes a hasher).
    for (Run* r : waiting_) {
      if (r->owner_waits) {
        r->absorbed.notify_one();
        break;
      }
    }
  }
}

// Called and returning with `lock` held; absorbs until `own` (the caller's run) is done, then
// puts the runs still in its lanes back at the front of the queue, their states saved, and
// returns (sha3_pool.h: a hasher goes back to its own stream).
void Sha3_256Pool::hash_runs(std::unique_lock<std::mutex>& lock, const Run& own) noexcept {
  const keccak::Kernels kernels = keccak::lane_kernels_for(level_);
  const size_t width = lanes_;
  // The lanes' states, interleaved: word w of lane l at state[width * w + l].
  alignas(64) uint64_t state[kStateWords * keccak::kMaxLanes];
  Run* lane[keccak::kMaxLanes] = {};
  size_t active = 0;
  for (;;) {
    for (size_t l = 0; l < width && !waiting_.empty(); ++l) {
      if (lane[l] != nullptr) continue;
      Run* r = waiting_.front();
      waiting_.pop_front();
      for (size_t w = 0; w < kStateWords; ++w) state[width * w + l] = r->state[w];
      lane[l] = r;
      ++active;
    }
    if (active == 0) return;  // own is in another hasher's lanes
    size_t slice = active < width ? kSlice : SIZE_MAX;
    for (size_t l = 0; l < width; ++l) {
      if (lane[l] != nullptr) slice = std::min(slice, lane[l]->blocks);
    }
    lock.unlock();
    if (active == 1) {
      for (size_t l = 0; l < width; ++l) {
        if (lane[l] == nullptr) continue;
        keccak::absorb_one_lane(state, width, l, lane[l]->in, slice, kernels.one);
      }
      alone_blocks_.fetch_add(slice, std::memory_order_relaxed);
    } else {
      const uint8_t* in[keccak::kMaxLanes];
      for (size_t l = 0; l < width; ++l) in[l] = lane[l] != nullptr ? lane[l]->in : kIdle;
      if (width == 8) {
        kernels.eight(state, in, slice);
      } else {
        kernels.four(state, width, in, slice);
      }
      shared_blocks_.fetch_add(slice * active, std::memory_order_relaxed);
    }
    for (size_t l = 0; l < width; ++l) {
      if (lane[l] == nullptr) continue;
      lane[l]->in += slice * kRate;
      lane[l]->blocks -= slice;
    }
    lock.lock();
    for (size_t l = 0; l < width; ++l) {
      Run* r = lane[l];
      if (r == nullptr || r->blocks > 0) continue;
      for (size_t w = 0; w < kStateWords; ++w) r->state[w] = state[width * w + l];
      r->done = true;
      r->absorbed.notify_one();  // under the lock: the caller cannot return (and free r) yet
      lane[l] = nullptr;
      --active;
    }
    if (own.done) {
      for (size_t l = width; l-- > 0;) {
        Run* r = lane[l];
        if (r == nullptr) continue;
        for (size_t w = 0; w < kStateWords; ++w) r->state[w] = state[width * w + l];
        waiting_.push_front(r);
        handed_back_.fetch_add(1, std::memory_order_relaxed);
      }
      return;
    }
  }
}

PooledSha3_256::PooledSha3_256(Sha3_256Pool& pool) noexcept : pool_(&pool) {
  std::memset(state_, 0, sizeof state_);
}

void PooledSha3_256::update(const void* data, size_t size) noexcept {
  finish_update();
  keccak::sponge_update(state_, buf_, buf_len_, static_cast<const uint8_t*>(data), size,
                        into(pool_));
}

void PooledSha3_256::begin_update(std::span<const uint8_t> bytes) noexcept {
  finish_update();
  // The sponge absorbs at most one block of its own buffer (short: at once) and then one run
  // of the caller's bytes: that run is the one left queued.
  keccak::sponge_update(state_, buf_, buf_len_, bytes.data(), bytes.size(),
                        [this](uint64_t* state, const uint8_t* in, size_t blocks) {
                          pool_->begin(run_, state, in, blocks);
                        });
}

Digest256 PooledSha3_256::finalize() noexcept {
  finish_update();
  return keccak::sponge_finalize(state_, buf_, buf_len_, into(pool_));
}

}  // namespace odf_hash
