#include "odf_hash/core/varint.h"

#include <cassert>
#include <string>

namespace odf_hash::varint {

void append(std::vector<uint8_t>& out, uint64_t value) {
  assert(value < (uint64_t{1} << 63) && "multiformats varints hold at most 63 bits");
  while (value >= 0x80) {
    out.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<uint8_t>(value));
}

Result<Decoded> decode(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return Status::invalid_argument("varint: no bytes (truncated)");
  uint64_t value = 0;
  for (size_t i = 0; i < bytes.size() && i < kMaxBytes; ++i) {
    const uint8_t b = bytes[i];
    value |= static_cast<uint64_t>(b & 0x7f) << (7 * i);
    if ((b & 0x80) != 0) continue;
    // A final byte of zero after at least one other byte adds nothing: not minimal.
    if (b == 0 && i > 0) {
      return Status::invalid_argument("varint: non-minimal encoding (" + std::to_string(i + 1) +
                                      " bytes, last byte is zero)");
    }
    return Decoded{value, i + 1};
  }
  if (bytes.size() < kMaxBytes) {
    return Status::invalid_argument("varint: truncated (" + std::to_string(bytes.size()) +
                                    " bytes, the last has its continuation bit set)");
  }
  return Status::invalid_argument("varint: longer than " + std::to_string(kMaxBytes) +
                                  " bytes (value would overflow 63 bits)");
}

}  // namespace odf_hash::varint
