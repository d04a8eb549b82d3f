// bool_bytes_avx512 (bool_bytes.h). Compiled with -mavx512f -mavx512bw and called only after
// bool_bytes_avx512_enabled() (bool_bytes.cpp).
#include <immintrin.h>

#include "bool_bytes.h"

namespace odf_hash::logical {

void bool_bytes_avx512(uint8_t* out, uint64_t valid, uint64_t values) noexcept {
  const __m512i one = _mm512_set1_epi8(1);
  const __m512i bytes = _mm512_add_epi8(_mm512_maskz_mov_epi8(valid, one),
                                        _mm512_maskz_mov_epi8(valid & values, one));
  _mm512_storeu_si512(out, bytes);
}

}  // namespace odf_hash::logical
