// The bytes of a run of 64 boolean slots with AVX-512BW. Internal to src/logical/.
//
// A boolean slot hashes as one byte: 0 (null), 1 (false) or 2 (true), i.e. valid + (valid &
// value) (value_hasher.cpp). The portable code builds 8 bytes at a time from two table
// look-ups; here two masked byte broadcasts and an add make all 64.
#pragma once

#include <cstdint>

namespace odf_hash::logical {

// Whether bool_bytes_avx512 may run: the CPU has AVX-512F/BW and the Keccak level in force
// (multi_lane_level, which ODF_HASH_KECCAK_LEVEL can lower) is avx512.
bool bool_bytes_avx512_enabled() noexcept;

#if defined(ODF_HASH_HAVE_X86_KERNELS)
// Writes 64 bytes at `out`: byte i is bit i of valid plus bit i of (valid & values).
void bool_bytes_avx512(uint8_t* out, uint64_t valid, uint64_t values) noexcept;
#endif

}  // namespace odf_hash::logical
