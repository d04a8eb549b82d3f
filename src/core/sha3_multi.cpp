// Sha3_256x4: four SHA3-256 sponges advanced together, and the run-time choice of kernels.
#include "odf_hash/sha3_multi.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstring>

#include "keccak.h"
#include "keccak_dispatch.h"

namespace odf_hash {
namespace {

constexpr size_t kRate = kSha3_256Rate;
constexpr size_t kCapacity = Sha3_256x4::kBufferBlocks * kRate;

KeccakLevel detect_level() noexcept {
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  // __builtin_cpu_supports("avx2") also checks that the OS saves the YMM registers (XGETBV),
  // not only the CPUID bit. Levels are cumulative: kAvx2 implies the CPU passed kBmi2's check
  // too, except on (rare, virtual) CPUs with AVX2 but without BMI2; there kAvx2 is still
  // offered and its one-lane work falls back to the portable kernel. __builtin_cpu_init makes
  // this safe to run from static constructors too.
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) return KeccakLevel::kAvx2;
  if (__builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")) return KeccakLevel::kBmi2;
#endif
  return KeccakLevel::kPortable;
}

KeccakLevel detected() noexcept {
  static const KeccakLevel level = detect_level();
  return level;
}

bool bmi2_supported() noexcept {
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
  }();
  return yes;
#else
  return false;
#endif
}

constexpr int kNotForced = -1;
std::atomic<int> g_forced_level{kNotForced};

}  // namespace

namespace keccak {

KeccakLevel scalar_level_for(KeccakLevel level) noexcept {
  if (level >= KeccakLevel::kBmi2 && bmi2_supported()) return KeccakLevel::kBmi2;
  return KeccakLevel::kPortable;
}

Kernels kernels_for(KeccakLevel level) noexcept {
  Kernels k{absorb_portable, nullptr};
  if (!keccak_level_supported(level)) return k;
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  if (scalar_level_for(level) == KeccakLevel::kBmi2) k.one = absorb_bmi2;
  if (level == KeccakLevel::kAvx2) k.four = absorb_x4_avx2;
#endif
  return k;
}

Status unsupported_level(KeccakLevel level) {
  return Status::unsupported(std::string("Keccak level '") + keccak_level_name(level) +
                             "' is not supported by this CPU or build");
}

}  // namespace keccak

const char* keccak_level_name(KeccakLevel level) noexcept {
  switch (level) {
    case KeccakLevel::kPortable: return "portable";
    case KeccakLevel::kBmi2: return "bmi2";
    case KeccakLevel::kAvx2: return "avx2";
  }
  return "unknown";
}

bool keccak_level_supported(KeccakLevel level) noexcept {
  switch (level) {
    case KeccakLevel::kPortable: return true;
    case KeccakLevel::kBmi2: return bmi2_supported();
    case KeccakLevel::kAvx2: return detected() == KeccakLevel::kAvx2;
  }
  return false;
}

KeccakLevel detected_multi_lane_level() noexcept {
  return detected();
}

KeccakLevel multi_lane_level() noexcept {
  const int forced = g_forced_level.load(std::memory_order_relaxed);
  return forced == kNotForced ? detected() : static_cast<KeccakLevel>(forced);
}

Status set_multi_lane_level(KeccakLevel level) {
  if (!keccak_level_supported(level)) return keccak::unsupported_level(level);
  g_forced_level.store(static_cast<int>(level), std::memory_order_relaxed);
  return Status::ok();
}

void reset_multi_lane_level() noexcept {
  g_forced_level.store(kNotForced, std::memory_order_relaxed);
}

Sha3_256x4::Sha3_256x4() noexcept : Sha3_256x4(multi_lane_level()) {}

Sha3_256x4::Sha3_256x4(KeccakLevel level) noexcept : level_(level) {
  reset();
}

Result<Sha3_256x4> Sha3_256x4::create(KeccakLevel level) {
  if (!keccak_level_supported(level)) return keccak::unsupported_level(level);
  return Sha3_256x4(level);
}

void Sha3_256x4::reset() noexcept {
  std::memset(state_, 0, sizeof state_);
  for (size_t l = 0; l < kLanes; ++l) head_[l] = len_[l] = 0;
}

// The buffer of a lane holds bytes [head_, len_) of its pending input; head_ is a multiple of
// the rate, so buffered blocks start at head_, head_ + 136, ... and at most the last one is
// partial. Invariant between public calls: len_ <= kCapacity, and not every lane has a full
// block buffered (those would have been absorbed 4-wide). The storage has one block more than
// kCapacity so that finalize can always pad in place.

void Sha3_256x4::update_slow(size_t lane, const void* data, size_t size) noexcept {
  if (size == 0) return;
  const size_t old_len = len_[lane];
  if (size <= kCapacity - old_len) {
    // Fits in the buffer: copy, and try a 4-wide step only when this lane just
    // completed a block (only then can every lane have one).
    std::memcpy(buf_[lane] + old_len, data, size);
    len_[lane] = old_len + size;
    if (old_len / kRate == len_[lane] / kRate) return;
    const uint8_t* none[kLanes] = {};
    const size_t zero[kLanes] = {};
    update_all(none, zero);
    return;
  }
  const uint8_t* d[kLanes] = {};
  size_t s[kLanes] = {};
  d[lane] = static_cast<const uint8_t*>(data);
  s[lane] = size;
  update_all(d, s);
}

void Sha3_256x4::update_all(const uint8_t* const data[kLanes], const size_t size[kLanes]) noexcept {
  const keccak::Kernels kernels = keccak::kernels_for(level_);
  const uint8_t* p[kLanes];
  size_t n[kLanes];
  size_t pending[kLanes];  // bytes of each lane not absorbed yet: buffered, then input
  for (size_t l = 0; l < kLanes; ++l) {
    p[l] = data[l];
    n[l] = size[l];
    pending[l] = len_[l] - head_[l] + n[l];
  }
  // The blocks every lane has, 4-wide: buffered blocks first, then (once a partial block is
  // topped up from the input) blocks straight from the caller's memory.
  size_t budget[kLanes];
  const size_t common = *std::min_element(pending, pending + kLanes) / kRate;
  for (size_t l = 0; l < kLanes; ++l) budget[l] = common;
  absorb_budgets(kernels, budget, p, n);
  // Keep the rest for later 4-wide steps. What does not fit in a lane's buffer is absorbed
  // now: lanes together while two or more have such an excess, else one lane alone.
  for (size_t l = 0; l < kLanes; ++l) {
    const size_t rest = len_[l] - head_[l] + n[l];
    budget[l] = rest > kCapacity ? (rest - kCapacity + kRate - 1) / kRate : 0;
  }
  absorb_budgets(kernels, budget, p, n);
  for (size_t l = 0; l < kLanes; ++l) {
    if (n[l] == 0) continue;
    if (head_[l] > 0) {
      std::memmove(buf_[l], buf_[l] + head_[l], len_[l] - head_[l]);
      len_[l] -= head_[l];
      head_[l] = 0;
    }
    std::memcpy(buf_[l] + len_[l], p[l], n[l]);
    len_[l] += n[l];
  }
}

// Absorbs budget[l] blocks of each lane from its pending bytes in order: its buffered full
// blocks, its partial block topped up from the input (p[l], n[l]), then the input itself.
// Lanes with a budget go together through the 4-lane kernel while there are at least two of
// them (the state of idle lanes is saved and restored around the call; their input pointers
// repeat an active lane's); a lane alone, or a level without a 4-lane kernel, goes one lane at
// a time. Precondition: budget[l] * 136 <= buffered bytes + n[l].
void Sha3_256x4::absorb_budgets(const keccak::Kernels& kernels, size_t budget[kLanes],
                                const uint8_t* p[kLanes], size_t n[kLanes]) noexcept {
  for (;;) {
    const uint8_t* block[kLanes] = {};
    bool from_buffer[kLanes] = {};
    size_t run[kLanes] = {};
    size_t active = 0, first = 0, shortest = SIZE_MAX;
    for (size_t l = 0; l < kLanes; ++l) {
      if (budget[l] == 0) continue;
      size_t buffered = len_[l] - head_[l];
      if (buffered > 0 && buffered < kRate) {
        // Only a partial block is buffered: complete it from the input.
        const size_t take = kRate - buffered;
        std::memcpy(buf_[l] + len_[l], p[l], take);
        len_[l] += take;
        p[l] += take;
        n[l] -= take;
        buffered = kRate;
      }
      if (buffered >= kRate) {
        block[l] = buf_[l] + head_[l];
        from_buffer[l] = true;
        run[l] = std::min(budget[l], buffered / kRate);
      } else {
        block[l] = p[l];
        run[l] = std::min(budget[l], n[l] / kRate);
      }
      assert(run[l] > 0 && "absorb_budgets: budget beyond the pending bytes");
      if (active++ == 0) first = l;
      shortest = std::min(shortest, run[l]);
    }
    if (active == 0) return;
    if (active >= 2 && kernels.four != nullptr) {
      uint64_t saved[kLanes][keccak::kStateWords];
      for (size_t l = 0; l < kLanes; ++l) {
        run[l] = budget[l] == 0 ? 0 : shortest;
        if (budget[l] != 0 || active == kLanes) continue;
        block[l] = block[first];
        for (size_t w = 0; w < keccak::kStateWords; ++w) saved[l][w] = state_[kLanes * w + l];
      }
      kernels.four(state_, block, shortest);
      for (size_t l = 0; l < kLanes; ++l) {
        if (budget[l] != 0) continue;
        for (size_t w = 0; w < keccak::kStateWords; ++w) state_[kLanes * w + l] = saved[l][w];
      }
    } else {
      for (size_t l = 0; l < kLanes; ++l) {
        keccak::absorb_one_lane(state_, l, block[l], run[l], kernels.one);
      }
    }
    for (size_t l = 0; l < kLanes; ++l) {
      if (run[l] == 0) continue;
      budget[l] -= run[l];
      if (from_buffer[l]) {
        head_[l] += run[l] * kRate;
        if (head_[l] == len_[l]) head_[l] = len_[l] = 0;
      } else {
        p[l] += run[l] * kRate;
        n[l] -= run[l] * kRate;
      }
    }
  }
}

// Pads the buffer of `lane` in place (0x06 ... 0x80: the FIPS 202 SHA3 domain bits and
// pad10*1), so that it ends on a block boundary.
void Sha3_256x4::pad_lane(size_t lane) noexcept {
  const size_t pad = kRate - (len_[lane] - head_[lane]) % kRate;
  std::memset(buf_[lane] + len_[lane], 0, pad);
  buf_[lane][len_[lane]] = 0x06;
  buf_[lane][len_[lane] + pad - 1] |= 0x80;
  len_[lane] += pad;
}

// The digest is the first 32 bytes of the state, words little-endian.
Digest256 Sha3_256x4::squeeze_lane(size_t lane) const noexcept {
  Digest256 out;
  for (size_t i = 0; i < 4; ++i) {
    const uint64_t w = state_[kLanes * i + lane];
    for (size_t j = 0; j < 8; ++j) out[8 * i + j] = static_cast<uint8_t>(w >> (8 * j));
  }
  return out;
}

Digest256 Sha3_256x4::finalize_lane(size_t lane) noexcept {
  assert(lane < kLanes);
  pad_lane(lane);
  size_t budget[kLanes] = {};
  budget[lane] = (len_[lane] - head_[lane]) / kRate;
  const uint8_t* p[kLanes] = {};
  size_t n[kLanes] = {};
  absorb_budgets(keccak::kernels_for(level_), budget, p, n);
  const Digest256 out = squeeze_lane(lane);
  for (size_t w = 0; w < keccak::kStateWords; ++w) state_[kLanes * w + lane] = 0;
  head_[lane] = len_[lane] = 0;
  return out;
}

std::array<Digest256, Sha3_256x4::kLanes> Sha3_256x4::finalize() noexcept {
  size_t budget[kLanes];
  for (size_t l = 0; l < kLanes; ++l) {
    pad_lane(l);
    budget[l] = (len_[l] - head_[l]) / kRate;
  }
  const uint8_t* p[kLanes] = {};
  size_t n[kLanes] = {};
  absorb_budgets(keccak::kernels_for(level_), budget, p, n);
  std::array<Digest256, kLanes> out;
  for (size_t l = 0; l < kLanes; ++l) out[l] = squeeze_lane(l);
  reset();
  return out;
}

}  // namespace odf_hash
