// Validation of an ArrowArray against a compiled TypeNode before any of its buffers is read
// for hashing. Internal to src/logical/.
//
// The C Data Interface carries no buffer sizes (except the variadic sizes of view arrays),
// so what can be checked is the structure (buffer and child counts, null pointers), the
// lengths and offsets of the array and its children, offsets buffers (non-negative,
// non-decreasing, within the child), dictionary indices (within the dictionary), run ends,
// and null counts against validity bitmaps. Views are checked against the variadic sizes
// while they are read (value_hasher.cpp).
#pragma once

#include <cstdint>

#include "odf_hash/arrow_c_data.h"
#include "odf_hash/core/status.h"
#include "type_node.h"

namespace odf_hash::logical {

// Checks that the logical slots [pos, pos + len) of `array` can be read as `node`, including
// every child range those slots reach.
Status check_array(const TypeNode& node, const ArrowArray& array, int64_t pos, int64_t len);

// Reads offset k of an int32 or int64 offsets buffer.
inline int64_t read_offset(const void* buffer, bool large, int64_t k) {
  return large ? static_cast<const int64_t*>(buffer)[k] : static_cast<const int32_t*>(buffer)[k];
}

// Reads a signed integer of `width` bytes (1, 2, 4, 8) at index k; unsigned when !is_signed.
int64_t read_int(const void* buffer, int64_t width, bool is_signed, int64_t k);

}  // namespace odf_hash::logical
