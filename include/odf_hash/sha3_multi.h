// Our own Keccak: a single-stream SHA3-256 and a 4-lane SHA3-256 that absorbs four independent
// messages at once with SIMD.
//
// Why: SHA3-256 is a serial sponge, so one message can never go faster than one core's
// Keccak-f[1600] rate. The logical hash keeps one independent SHA3 state per leaf column, so
// several column digests can absorb at the same time; with AVX2 one core runs four
// Keccak-f[1600] permutations in the four 64-bit lanes of 256-bit registers.
//
// Every class here computes plain FIPS 202 SHA3-256: the digest of a lane is exactly
// Sha3_256::digest(<the bytes given to that lane, in order>). Lanes never mix: a lane's digest
// does not depend on what the other lanes absorbed, on how the bytes were split across
// update calls, or on the implementation level. The OpenSSL-backed Sha3_256 (sha3.h) is the
// oracle the tests compare against.
//
// Implementation levels ("dispatch levels"), each needing the CPU features of the ones before:
//   kPortable  plain C++ (the readable baseline); runs everywhere.
//   kBmi2      the same scalar code compiled for BMI1+BMI2 (ANDN, RORX: chi and the rotations
//              in fewer instructions); checked at run time.
//   kAvx2      4 states interleaved in __m256i registers; checked at run time with
//              __builtin_cpu_supports, which also checks that the OS saves the YMM registers.
//              Its one-lane work (see Sha3_256x4) uses the best scalar level available.
// There is no AVX-512 (8-lane) level: this machine cannot run it, so it could not be tested.
//
// Thread safety: objects are independent values; one object must not be used from two threads
// at once. The process-wide default level (set_multi_lane_level) is an atomic and may be read
// and set from any thread; it only affects objects constructed afterwards.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "odf_hash/sha3.h"
#include "odf_hash/status.h"

namespace odf_hash {

namespace keccak {
struct Kernels;  // internal (src/core/keccak_dispatch.h)
}

// Implementation level; see the top of this file.
enum class KeccakLevel : int {
  kPortable = 0,
  kBmi2 = 1,
  kAvx2 = 2,
};

// "portable", "bmi2" or "avx2".
const char* keccak_level_name(KeccakLevel level) noexcept;

// True when this CPU (and OS) can run `level`. kPortable is always supported.
bool keccak_level_supported(KeccakLevel level) noexcept;

// The best level this CPU supports (detected once).
KeccakLevel detected_multi_lane_level() noexcept;

// The level that default-constructed objects use: the detected level unless
// set_multi_lane_level chose another (Sha3_256Scalar uses at most kBmi2).
KeccakLevel multi_lane_level() noexcept;

// Forces the process-wide default level (for tests and benchmarks, or a user who wants the
// portable path). Returns an `unsupported` error, changing nothing, when the CPU cannot run it.
Status set_multi_lane_level(KeccakLevel level);

// Goes back to the detected level.
void reset_multi_lane_level() noexcept;

// SHA3-256 of one message over our own Keccak-f[1600] (scalar): same semantics as Sha3_256
// (sha3.h), no OpenSSL, no allocation; movable and copyable.
class Sha3_256Scalar {
 public:
  // Uses min(multi_lane_level(), kBmi2).
  Sha3_256Scalar() noexcept;

  // Uses `level` (kPortable or kBmi2; kAvx2 means the best scalar level of such a CPU); fails
  // with `unsupported` when the CPU cannot run it.
  static Result<Sha3_256Scalar> create(KeccakLevel level);

  KeccakLevel level() const noexcept { return level_; }

  // Absorbs `size` bytes. `data` may be null when size is 0.
  void update(const void* data, size_t size) noexcept;
  void update(std::span<const uint8_t> bytes) noexcept { update(bytes.data(), bytes.size()); }
  void update(std::string_view s) noexcept { update(s.data(), s.size()); }

  // Returns the digest of everything absorbed since construction (or the last finalize) and
  // resets the hasher to the empty state, ready for a new message.
  Digest256 finalize() noexcept;

  // One-shot helper at the default level.
  static Digest256 digest(std::span<const uint8_t> bytes) noexcept;

 private:
  explicit Sha3_256Scalar(KeccakLevel level) noexcept;
  void reset() noexcept;

  KeccakLevel level_;
  uint64_t state_[25];
  uint8_t buf_[kSha3_256Rate];
  size_t buf_len_;
};

// Four independent SHA3-256 messages ("lanes" 0..3) absorbed together.
//
// Bytes for a lane may arrive through update(lane, ...) or update_all(...) in any mix and any
// split; each lane's digest is SHA3-256 of that lane's bytes in order. Speed, not the result,
// depends on how the lanes advance together:
//   - update_all absorbs the run of full 136-byte blocks that every lane has available 4-wide
//     (straight from the caller's buffers, no copy), then keeps what is left of each lane in a
//     per-lane buffer of kBufferBlocks blocks so it can still be absorbed 4-wide when the other
//     lanes catch up;
//   - a lane that runs more than kBufferBlocks blocks ahead of the slowest lane has its excess
//     absorbed at once: together with the other lanes that have an excess (the 4-lane kernel
//     with the idle lanes masked: 2 or 3 lanes for about the price of 4), or alone with a
//     one-lane permutation (one lane's speed).
// So feed the lanes at similar rates (e.g. four column staging buffers of similar size) and
// prefer update_all with large spans. Lanes that are not used may be left empty: their digest
// is the empty-message digest, and they cost one permutation per lane at finalize.
// Every level gives the same digests; only the speed differs.
//
// The object is about 6 KiB and holds no heap memory; it is movable and copyable (a copy
// continues every lane independently).
class Sha3_256x4 {
 public:
  static constexpr size_t kLanes = 4;
  static constexpr size_t kBufferBlocks = 8;

  // Uses multi_lane_level().
  Sha3_256x4() noexcept;

  // Uses `level`; fails with `unsupported` when the CPU cannot run it.
  static Result<Sha3_256x4> create(KeccakLevel level);

  KeccakLevel level() const noexcept { return level_; }

  // Absorbs `size` bytes into lane `lane` (0..3; precondition, checked by assert).
  // `data` may be null when size is 0.
  // Small updates that stay inside the lane's current block are a copy, inlined here.
  void update(size_t lane, const void* data, size_t size) noexcept {
    assert(lane < kLanes);
    const size_t len = len_[lane];
    if (len % kSha3_256Rate + size < kSha3_256Rate && len < kBufferBlocks * kSha3_256Rate) {
      if (size > 0) std::memcpy(buf_[lane] + len, data, size);
      len_[lane] = len + size;
      return;
    }
    update_slow(lane, data, size);
  }

  // Absorbs size[i] bytes from data[i] into lane i, for the four lanes. data[i] may be null
  // when size[i] is 0. Equivalent to four update(i, data[i], size[i]) calls, but absorbs the
  // common run of full blocks 4-wide without copying.
  void update_all(const uint8_t* const data[kLanes], const size_t size[kLanes]) noexcept;
  void update_all(const std::array<std::span<const uint8_t>, kLanes>& lanes) noexcept {
    const uint8_t* data[kLanes];
    size_t size[kLanes];
    for (size_t l = 0; l < kLanes; ++l) {
      data[l] = lanes[l].data();
      size[l] = lanes[l].size();
    }
    update_all(data, size);
  }

  // The four digests, lane i at index i, of everything absorbed since construction (or the
  // last finalize); resets every lane to the empty message, ready for reuse.
  std::array<Digest256, kLanes> finalize() noexcept;

  // The digest of lane `lane` alone (0..3; precondition, checked by assert); resets that lane
  // to the empty message and leaves the other lanes as they are. For streams that end at
  // different times (e.g. files of different sizes sharing the four lanes): the lane's
  // last buffered blocks (at most kBufferBlocks + 1) are absorbed with a one-lane permutation.
  Digest256 finalize_lane(size_t lane) noexcept;

 private:
  explicit Sha3_256x4(KeccakLevel level) noexcept;
  void reset() noexcept;
  void update_slow(size_t lane, const void* data, size_t size) noexcept;
  void pad_lane(size_t lane) noexcept;
  Digest256 squeeze_lane(size_t lane) const noexcept;
  void absorb_budgets(const keccak::Kernels& kernels, size_t budget[kLanes],
                      const uint8_t* p[kLanes], size_t n[kLanes]) noexcept;

  KeccakLevel level_;
  // Keccak state of the 4 lanes, interleaved: word w of lane l at state_[4 * w + l]
  // (the __m256i layout of the AVX2 level).
  alignas(32) uint64_t state_[25 * kLanes];
  // Per lane: buffered bytes buf_[lane][head_..len_), blocks aligned at multiples of 136;
  // len_ <= kBufferBlocks * 136 between calls, plus one block of room for padding.
  uint8_t buf_[kLanes][(kBufferBlocks + 1) * kSha3_256Rate];
  size_t head_[kLanes];
  size_t len_[kLanes];
};

}  // namespace odf_hash
