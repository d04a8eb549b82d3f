// bool_bytes_avx512_enabled (bool_bytes.h): the run-time check.
#include "bool_bytes.h"

#include "odf_hash/internal/core/sha3_multi.h"

namespace odf_hash::logical {

bool bool_bytes_avx512_enabled() noexcept {
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  static const bool cpu = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  }();
  return cpu && multi_lane_level() >= KeccakLevel::kAvx512;
#else
  return false;
#endif
}

}  // namespace odf_hash::logical
