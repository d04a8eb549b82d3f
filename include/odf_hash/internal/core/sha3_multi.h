// Our own Keccak: a single-stream SHA3-256 and multi-lane SHA3-256 that absorbs four or eight
// independent messages at once with SIMD.
//
// Why: SHA3-256 is a serial sponge, so one message can never go faster than one core's
// Keccak-f[1600] rate. The logical hash keeps one independent SHA3 state per leaf column, so
// several column digests can absorb at the same time: with AVX2 one core runs four
// Keccak-f[1600] permutations in the four 64-bit lanes of 256-bit registers, with AVX-512
// eight in 512-bit registers.
//
// Every class here computes plain FIPS 202 SHA3-256: the digest of a lane is exactly
// SHA3-256(<the bytes given to that lane, in order>). Lanes never mix: a lane's digest does
// not depend on what the other lanes absorbed, on how the bytes were split across update
// calls, or on the implementation level. OpenSSL (Sha3_256OpenSsl in sha3.h) is the oracle
// the tests compare against.
//
// Implementation levels ("dispatch levels"), each needing the CPU features of the ones before:
//   kPortable  plain C++ (the readable baseline); runs everywhere.
//   kBmi2      the same scalar code compiled for BMI1+BMI2 (ANDN, RORX: chi and the rotations
//              in fewer instructions).
//   kAvx2      4 states interleaved in __m256i registers (Sha3_256x4); a lane absorbing alone
//              uses the best scalar kernel. Sha3_256x8 runs its lanes as two groups of four.
//   kAvx512    AVX-512F + VL: 8 states interleaved in __m512i registers (Sha3_256x8;
//              Sha3_256x4 keeps the AVX2 kernel), rotations by vprolq and theta's XORs and chi
//              by vpternlogq; one state alone runs a single-state permutation with one plane
//              of the state per 512-bit register (the single-stream kernel of Sha3_256Scalar
//              at this level, and of Sha3_256 where it beats OpenSSL: see sha3.h).
// Levels are checked at run time with __builtin_cpu_supports, which also checks that the OS
// saves the vector registers.
//
// The process-wide default level is the detected one, unless the environment variable
// ODF_HASH_KECCAK_LEVEL (kKeccakLevelEnv) names another ("portable", "bmi2", "avx2",
// "avx512"), read once at first use: a level this CPU lacks, or an unknown name, is reported
// once on stderr and the detected level is used. set_multi_lane_level overrides both.
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

#include "odf_hash/core/sha3.h"
#include "odf_hash/core/status.h"

namespace odf_hash {

namespace keccak {
struct Kernels;  // internal (src/core/keccak_dispatch.h)
}

// Implementation level; see the top of this file.
enum class KeccakLevel : int {
  kPortable = 0,
  kBmi2 = 1,
  kAvx2 = 2,
  kAvx512 = 3,
};
inline constexpr KeccakLevel kKeccakLevels[] = {KeccakLevel::kPortable, KeccakLevel::kBmi2,
                                                KeccakLevel::kAvx2, KeccakLevel::kAvx512};

// "portable", "bmi2", "avx2" or "avx512".
const char* keccak_level_name(KeccakLevel level) noexcept;

// The level named `name` (as keccak_level_name spells it); `invalid_argument` otherwise.
Result<KeccakLevel> parse_keccak_level(std::string_view name);

// The environment variable that chooses the default level (see the top of this file).
inline constexpr const char* kKeccakLevelEnv = "ODF_HASH_KECCAK_LEVEL";

// The default level a value of ODF_HASH_KECCAK_LEVEL selects on this CPU: the detected level
// when `value` is null or empty, else the named level; `invalid_argument` for an unknown name,
// `unsupported` for a level this CPU cannot run. (The library reads the variable itself; this
// is the rule it applies, for tests and for callers that want to report a bad value.)
Result<KeccakLevel> keccak_level_from_env_value(const char* value);

// True when this CPU (and OS) can run `level`. kPortable is always supported.
bool keccak_level_supported(KeccakLevel level) noexcept;

// The best level this CPU supports (detected once).
KeccakLevel detected_multi_lane_level() noexcept;

// The level that default-constructed objects use: the detected level, or the one
// ODF_HASH_KECCAK_LEVEL names, unless set_multi_lane_level chose another.
KeccakLevel multi_lane_level() noexcept;

// Forces the process-wide default level (for tests and benchmarks, or a user who wants the
// portable path). Returns an `unsupported` error, changing nothing, when the CPU cannot run it.
Status set_multi_lane_level(KeccakLevel level);

// Goes back to the default level (detected, or from ODF_HASH_KECCAK_LEVEL).
void reset_multi_lane_level() noexcept;

// SHA3-256 of one message over our own single-state Keccak-f[1600]: same semantics as
// Sha3_256 (sha3.h), no OpenSSL, no allocation; movable and copyable. Its level is the
// single-stream kernel it runs: kPortable, kBmi2 (also at kAvx2, which has no single-state
// kernel of its own) or kAvx512.
class Sha3_256Scalar {
 public:
  // Uses the single-stream kernel of multi_lane_level().
  Sha3_256Scalar() noexcept;

  // Uses the single-stream kernel of `level` (kAvx2: the best scalar kernel of such a CPU);
  // fails with `unsupported` when the CPU cannot run `level`.
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

// N independent SHA3-256 messages ("lanes" 0..N-1) absorbed together: Sha3_256x4 (N = 4)
// and Sha3_256x8 (N = 8), defined for these two N only.
//
// Bytes for a lane may arrive through update(lane, ...) or update_all(...) in any mix and any
// split; each lane's digest is SHA3-256 of that lane's bytes in order. Speed, not the result,
// depends on how the lanes advance together:
//   - update_all absorbs the run of full 136-byte blocks that every lane has available N-wide
//     (straight from the caller's buffers, no copy), then keeps what is left of each lane in a
//     per-lane buffer of kBufferBlocks blocks so it can still be absorbed N-wide when the other
//     lanes catch up;
//   - a lane that runs more than kBufferBlocks blocks ahead of the slowest lane has its excess
//     absorbed at once: together with the other lanes that have an excess (the widest kernel
//     of the level with the idle lanes masked), or alone with a one-lane permutation (one
//     lane's speed).
// At a level without an N-lane kernel the lanes go through the widest kernel it has: Sha3_256x8
// at kAvx2 runs lanes 0..3 and 4..7 as two 4-lane groups, and below kAvx2 every lane alone.
// So feed the lanes at similar rates (e.g. column staging buffers of similar size) and prefer
// update_all with large spans. Lanes that are not used may be left empty: their digest is the
// empty-message digest, and they cost one permutation per lane at finalize.
// Every level gives the same digests; only the speed differs.
//
// The object (about 6 KiB for N = 4, 12 KiB for N = 8) holds no heap memory; it is movable and
// copyable (a copy continues every lane independently).
template <size_t N>
class Sha3_256Lanes {
  static_assert(N == 4 || N == 8, "Sha3_256Lanes is defined for 4 and 8 lanes");

 public:
  static constexpr size_t kLanes = N;
  static constexpr size_t kBufferBlocks = 8;

  // Uses multi_lane_level().
  Sha3_256Lanes() noexcept;

  // Uses `level`; fails with `unsupported` when the CPU cannot run it.
  static Result<Sha3_256Lanes> create(KeccakLevel level);

  KeccakLevel level() const noexcept { return level_; }

  // Absorbs `size` bytes into lane `lane` (0..N-1; precondition, checked by assert).
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

  // Absorbs size[i] bytes from data[i] into lane i, for every lane. data[i] may be null
  // when size[i] is 0. Equivalent to N update(i, data[i], size[i]) calls, but absorbs the
  // common run of full blocks N-wide without copying.
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

  // The N digests, lane i at index i, of everything absorbed since construction (or the
  // last finalize); resets every lane to the empty message, ready for reuse.
  std::array<Digest256, kLanes> finalize() noexcept;

  // The digest of lane `lane` alone (0..N-1; precondition, checked by assert); resets that
  // lane to the empty message and leaves the other lanes as they are. For streams that end at
  // different times (e.g. files of different sizes sharing the lanes): the lane's last
  // buffered blocks (at most kBufferBlocks + 1) are absorbed with a one-lane permutation.
  Digest256 finalize_lane(size_t lane) noexcept;

 private:
  explicit Sha3_256Lanes(KeccakLevel level) noexcept;
  void reset() noexcept;
  void update_slow(size_t lane, const void* data, size_t size) noexcept;
  void pad_lane(size_t lane) noexcept;
  Digest256 squeeze_lane(size_t lane) const noexcept;
  void absorb_budgets(const keccak::Kernels& kernels, size_t budget[kLanes],
                      const uint8_t* p[kLanes], size_t n[kLanes]) noexcept;
  void absorb_masked(const keccak::Kernels& kernels, size_t first, size_t width,
                     const uint8_t* block[kLanes], const size_t run[kLanes],
                     size_t blocks) noexcept;

  KeccakLevel level_;
  // Keccak state of the N lanes, interleaved: word w of lane l at state_[N * w + l]
  // (the __m256i layout of the AVX2 kernel for N = 4, the __m512i one for N = 8).
  alignas(64) uint64_t state_[25 * kLanes];
  // Per lane: buffered bytes buf_[lane][head_..len_), blocks aligned at multiples of 136;
  // len_ <= kBufferBlocks * 136 between calls, plus one block of room for padding.
  uint8_t buf_[kLanes][(kBufferBlocks + 1) * kSha3_256Rate];
  size_t head_[kLanes];
  size_t len_[kLanes];
};

// SHA3-256 of each of `count` independent messages laid end to end in `data`: message i is
// bytes [ends[i - 1], ends[i]) (ends[-1] being 0), its digest written to out[i]. For many
// short messages (the records of record_digest.h, most of them under one 136-byte block):
// eight messages at a time through the widest kernel of `level`, each one-block message padded
// into a block of its own and absorbed with one permutation; a group of eight with a longer
// message goes through Sha3_256Lanes. The digests are those of Sha3_256 at every level.
// Precondition: ends is non-decreasing; `level` supported (multi_lane_level() is).
void sha3_256_each(const uint8_t* data, const uint64_t* ends, size_t count, Digest256* out,
                   KeccakLevel level = multi_lane_level()) noexcept;

extern template class Sha3_256Lanes<4>;
extern template class Sha3_256Lanes<8>;
using Sha3_256x4 = Sha3_256Lanes<4>;
using Sha3_256x8 = Sha3_256Lanes<8>;

}  // namespace odf_hash
