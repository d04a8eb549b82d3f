// Unsigned LEB128 varints as used by multiformats (multihash, multicodec).
//
// Multiformats restrict varints to at most 9 bytes (63 bits of value) and require the
// minimal encoding; decode() rejects over-long, overflowing and non-minimal varints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "odf_hash/core/status.h"

namespace odf_hash::varint {

inline constexpr size_t kMaxBytes = 9;

// Appends the minimal encoding of `value` (value < 2^63) to `out`.
void append(std::vector<uint8_t>& out, uint64_t value);

struct Decoded {
  uint64_t value;
  size_t length;  // bytes consumed
};

// Decodes one varint from the start of `bytes`.
Result<Decoded> decode(std::span<const uint8_t> bytes);

}  // namespace odf_hash::varint
