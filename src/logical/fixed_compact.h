// Compaction of runs of nullable fixed-width values with AVX512-VBMI2 (vpcompressb), for the
// runs whose validity word mixes valid and null slots. Internal to src/logical/.
//
// What a run hashes (value_hasher.cpp): every valid value's W bytes, and the marker byte 0 for
// every null slot, in slot order. The portable code writes each value ANDed with its validity
// mask and advances by W or by 1; here 64 bytes of values at a time are loaded with the null
// slots zeroed, and the bytes to keep (all W of a valid slot, the first of a null one) are
// packed together by one vpcompressb.
#pragma once

#include <cstddef>
#include <cstdint>

namespace odf_hash::logical {

// Whether compact_fixed_vbmi2 may run: the CPU has AVX-512F/BW/VBMI2 and BMI2, and the Keccak
// level in force (multi_lane_level, which ODF_HASH_KECCAK_LEVEL can lower) is avx512, so that
// forcing a lower level also turns this path off.
bool fixed_compact_vbmi2_enabled() noexcept;

// Writes the k (1..64) slots of W-byte values at `data` (W = 2, 4 or 8) with validity word
// `valid` to `out` and returns the bytes written. Reads only the valid slots' bytes; writes up
// to k * W + 64 bytes at `out`.
#if defined(ODF_HASH_HAVE_X86_KERNELS)
size_t compact_fixed_vbmi2(uint8_t* out, const uint8_t* data, uint64_t valid, int64_t k,
                           int width) noexcept;
#endif

}  // namespace odf_hash::logical
