// fixed_compact_vbmi2_enabled (fixed_compact.h): the run-time check.
#include "fixed_compact.h"

#include "odf_hash/internal/core/sha3_multi.h"

namespace odf_hash::logical {

bool fixed_compact_vbmi2_enabled() noexcept {
#if defined(ODF_HASH_HAVE_X86_KERNELS)
  static const bool cpu = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("bmi2");
  }();
  return cpu && multi_lane_level() >= KeccakLevel::kAvx512;
#else
  return false;
#endif
}

}  // namespace odf_hash::logical
