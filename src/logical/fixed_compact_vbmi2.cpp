// compact_fixed_vbmi2 (fixed_compact.h). Compiled with -mavx512f -mavx512bw -mavx512vbmi2
// -mbmi2 and called only after fixed_compact_vbmi2_enabled() (fixed_compact.cpp).
#include <immintrin.h>

#include "fixed_compact.h"

namespace odf_hash::logical {

namespace {

// The slots of one 64-byte register: 64 / W. `lanes` is the validity of those slots (bit i:
// slot i), `in_run` the slots that exist. Returns the bytes written.
template <int W>
size_t compact_register(uint8_t* out, const uint8_t* data, uint64_t lanes, uint64_t in_run) {
  // A slot's first byte: bit W*i of the byte mask; all W bytes: W bits.
  constexpr uint64_t kFirst = W == 8   ? 0x0101010101010101ULL
                              : W == 4 ? 0x1111111111111111ULL
                                       : 0x5555555555555555ULL;
  constexpr uint64_t kAll = (uint64_t{1} << W) - 1;
  const uint64_t valid_first = _pdep_u64(lanes & in_run, kFirst);
  const uint64_t keep = valid_first * kAll | _pdep_u64(in_run, kFirst);
  // Null slots (and slots past the run) are not read: their bytes are zero.
  const __m512i v = _mm512_maskz_loadu_epi8(valid_first * kAll, data);
  _mm512_storeu_si512(out, _mm512_maskz_compress_epi8(keep, v));
  return static_cast<size_t>(_mm_popcnt_u64(keep));
}

template <int W>
size_t compact(uint8_t* out, const uint8_t* data, uint64_t valid, int64_t k) {
  constexpr int kPerRegister = 64 / W;
  constexpr uint64_t kRegisterSlots = (uint64_t{1} << kPerRegister) - 1;
  size_t n = 0;
  for (int64_t i = 0; i < k; i += kPerRegister) {
    const int64_t here = k - i < kPerRegister ? k - i : kPerRegister;
    const uint64_t in_run = here == 64 ? ~uint64_t{0} : (uint64_t{1} << here) - 1;
    n += compact_register<W>(out + n, data + i * W, (valid >> i) & kRegisterSlots, in_run);
  }
  return n;
}

}  // namespace

size_t compact_fixed_vbmi2(uint8_t* out, const uint8_t* data, uint64_t valid, int64_t k,
                           int width) noexcept {
  switch (width) {
    case 2: return compact<2>(out, data, valid, k);
    case 4: return compact<4>(out, data, valid, k);
    default: return compact<8>(out, data, valid, k);
  }
}

}  // namespace odf_hash::logical
