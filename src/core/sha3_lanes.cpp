// Sha3_256x4 and Sha3_256x8: four or eight SHA3-256 sponges advanced together.
#include <algorithm>
#include <cassert>
#include <cstring>

#include "keccak.h"
#include "keccak_dispatch.h"
#include "odf_hash/internal/core/sha3_multi.h"

namespace odf_hash {
namespace {

constexpr size_t kRate = kSha3_256Rate;

}  // namespace

template <size_t N>
Sha3_256Lanes<N>::Sha3_256Lanes() noexcept : Sha3_256Lanes(multi_lane_level()) {}

template <size_t N>
Sha3_256Lanes<N>::Sha3_256Lanes(KeccakLevel level) noexcept : level_(level) {
  reset();
}

template <size_t N>
Result<Sha3_256Lanes<N>> Sha3_256Lanes<N>::create(KeccakLevel level) {
  if (!keccak_level_supported(level)) return keccak::unsupported_level(level);
  return Sha3_256Lanes(level);
}

template <size_t N>
void Sha3_256Lanes<N>::reset() noexcept {
  std::memset(state_, 0, sizeof state_);
  for (size_t l = 0; l < kLanes; ++l) head_[l] = len_[l] = 0;
}

// The buffer of a lane holds bytes [head_, len_) of its pending input; head_ is a multiple of
// the rate, so buffered blocks start at head_, head_ + 136, ... and at most the last one is
// partial. Invariant between public calls: len_ <= kCapacity, and not every lane has a full
// block buffered (those would have been absorbed N-wide). The storage has one block more than
// kCapacity so that finalize can always pad in place.

template <size_t N>
void Sha3_256Lanes<N>::update_slow(size_t lane, const void* data, size_t size) noexcept {
  constexpr size_t kCapacity = kBufferBlocks * kRate;
  if (size == 0) return;
  const size_t old_len = len_[lane];
  if (size <= kCapacity - old_len) {
    // Fits in the buffer: copy, and try an N-wide step only when this lane just completed a
    // block (only then can every lane have one).
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

template <size_t N>
void Sha3_256Lanes<N>::update_all(const uint8_t* const data[kLanes],
                                  const size_t size[kLanes]) noexcept {
  constexpr size_t kCapacity = kBufferBlocks * kRate;
  const keccak::Kernels kernels = keccak::lane_kernels_for(level_);
  const uint8_t* p[kLanes];
  size_t n[kLanes];
  size_t pending[kLanes];  // bytes of each lane not absorbed yet: buffered, then input
  for (size_t l = 0; l < kLanes; ++l) {
    p[l] = data[l];
    n[l] = size[l];
    pending[l] = len_[l] - head_[l] + n[l];
  }
  // The blocks every lane has, N-wide: buffered blocks first, then (once a partial block is
  // topped up from the input) blocks straight from the caller's memory.
  size_t budget[kLanes];
  const size_t common = *std::min_element(pending, pending + kLanes) / kRate;
  for (size_t l = 0; l < kLanes; ++l) budget[l] = common;
  absorb_budgets(kernels, budget, p, n);
  // Keep the rest for later N-wide steps. What does not fit in a lane's buffer is absorbed
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

// Absorbs `blocks` blocks into lanes first..first+width-1 (width 4 or 8) with the kernel of
// that width: lanes with run[l] == 0 are idle, their state saved and restored around the call
// and their input pointer repeating an active lane's (`active` must name one).
template <size_t N>
void Sha3_256Lanes<N>::absorb_masked(const keccak::Kernels& kernels, size_t first, size_t width,
                                     const uint8_t* block[kLanes], const size_t run[kLanes],
                                     size_t blocks) noexcept {
  size_t active = first;
  while (run[active] == 0) ++active;
  const uint8_t* in[keccak::kMaxLanes];
  uint64_t saved[keccak::kMaxLanes][keccak::kStateWords];
  for (size_t i = 0; i < width; ++i) {
    const size_t l = first + i;
    in[i] = run[l] != 0 ? block[l] : block[active];
    if (run[l] != 0) continue;
    for (size_t w = 0; w < keccak::kStateWords; ++w) saved[i][w] = state_[kLanes * w + l];
  }
  if (width == 8) {
    kernels.eight(state_ + first, in, blocks);
  } else {
    kernels.four(state_ + first, kLanes, in, blocks);
  }
  for (size_t i = 0; i < width; ++i) {
    const size_t l = first + i;
    if (run[l] != 0) continue;
    for (size_t w = 0; w < keccak::kStateWords; ++w) state_[kLanes * w + l] = saved[i][w];
  }
}

// Absorbs budget[l] blocks of each lane from its pending bytes in order: its buffered full
// blocks, its partial block topped up from the input (p[l], n[l]), then the input itself.
// Lanes with a budget go together through the widest kernel of the level, each group of
// lanes that kernel covers taking it when two or more of its lanes have a budget (idle lanes
// masked: absorb_masked); a lane alone in its group, or a level without a multi-lane kernel,
// goes one lane at a time. Precondition: budget[l] * 136 <= buffered bytes + n[l].
template <size_t N>
void Sha3_256Lanes<N>::absorb_budgets(const keccak::Kernels& kernels, size_t budget[kLanes],
                                      const uint8_t* p[kLanes], size_t n[kLanes]) noexcept {
  // The width of the widest kernel this level has for N lanes (1: none).
  const size_t width = (N == 8 && kernels.eight != nullptr) ? 8 : kernels.four != nullptr ? 4 : 1;
  for (;;) {
    const uint8_t* block[kLanes] = {};
    bool from_buffer[kLanes] = {};
    size_t run[kLanes] = {};
    size_t active = 0, shortest = SIZE_MAX;
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
      ++active;
      shortest = std::min(shortest, run[l]);
    }
    if (active == 0) return;
    if (width > 1 && active >= 2) {
      // Every active lane advances `shortest` blocks: groups of `width` lanes with two or more
      // active lanes through the wide kernel, a lone lane of a group alone.
      for (size_t l = 0; l < kLanes; ++l) run[l] = budget[l] == 0 ? 0 : shortest;
      for (size_t first = 0; first < kLanes; first += width) {
        size_t in_group = 0, last = first;
        for (size_t l = first; l < first + width; ++l) {
          if (run[l] != 0) ++in_group, last = l;
        }
        if (in_group >= 2) {
          absorb_masked(kernels, first, width, block, run, shortest);
        } else if (in_group == 1) {
          keccak::absorb_one_lane(state_, kLanes, last, block[last], shortest, kernels.one);
        }
      }
    } else {
      for (size_t l = 0; l < kLanes; ++l) {
        keccak::absorb_one_lane(state_, kLanes, l, block[l], run[l], kernels.one);
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
template <size_t N>
void Sha3_256Lanes<N>::pad_lane(size_t lane) noexcept {
  const size_t pad = kRate - (len_[lane] - head_[lane]) % kRate;
  std::memset(buf_[lane] + len_[lane], 0, pad);
  buf_[lane][len_[lane]] = 0x06;
  buf_[lane][len_[lane] + pad - 1] |= 0x80;
  len_[lane] += pad;
}

// The digest is the first 32 bytes of the state, words little-endian.
template <size_t N>
Digest256 Sha3_256Lanes<N>::squeeze_lane(size_t lane) const noexcept {
  Digest256 out;
  for (size_t i = 0; i < 4; ++i) {
    const uint64_t w = state_[kLanes * i + lane];
    for (size_t j = 0; j < 8; ++j) out[8 * i + j] = static_cast<uint8_t>(w >> (8 * j));
  }
  return out;
}

template <size_t N>
Digest256 Sha3_256Lanes<N>::finalize_lane(size_t lane) noexcept {
  assert(lane < kLanes);
  pad_lane(lane);
  size_t budget[kLanes] = {};
  budget[lane] = (len_[lane] - head_[lane]) / kRate;
  const uint8_t* p[kLanes] = {};
  size_t n[kLanes] = {};
  absorb_budgets(keccak::lane_kernels_for(level_), budget, p, n);
  const Digest256 out = squeeze_lane(lane);
  for (size_t w = 0; w < keccak::kStateWords; ++w) state_[kLanes * w + lane] = 0;
  head_[lane] = len_[lane] = 0;
  return out;
}

template <size_t N>
std::array<Digest256, Sha3_256Lanes<N>::kLanes> Sha3_256Lanes<N>::finalize() noexcept {
  size_t budget[kLanes];
  for (size_t l = 0; l < kLanes; ++l) {
    pad_lane(l);
    budget[l] = (len_[l] - head_[l]) / kRate;
  }
  const uint8_t* p[kLanes] = {};
  size_t n[kLanes] = {};
  absorb_budgets(keccak::lane_kernels_for(level_), budget, p, n);
  std::array<Digest256, kLanes> out;
  for (size_t l = 0; l < kLanes; ++l) out[l] = squeeze_lane(l);
  reset();
  return out;
}

template class Sha3_256Lanes<4>;
template class Sha3_256Lanes<8>;

}  // namespace odf_hash
