// Byte-string values (Binary / Utf8 in every encoding: int32 and int64 offsets, views,
// fixed-size binary, dictionaries of them) staged into a DigestSink 64 slots at a time.
// Internal to src/logical/; value_hasher.cpp calls these for the slots of checked arrays
// (check_array).
//
// Bytes hashed per slot, as everywhere in the value hasher: a valid slot is its length as a
// little-endian u64 then its bytes; a null slot is the marker byte 0.
//
// How: for each run of 64 slots, the validity is one 64-bit word and the lengths are read in
// one pass; when every length of the run is short (below 16, 32 or 64 bytes) and the copies
// stay inside the bytes the offsets vouch for, the slots are written with no branch per slot
// (staging.h): a slot always writes its u64 (0 when null) and a fixed-size copy of its bytes, and
// the output advances by 8 + length, or by 1 for a null (whose 0 u64 then reads as the
// marker), so the next slot overwrites whatever lies past its end. Runs with longer values
// are written value by value (their cost is in Keccak, not in the branches).
#pragma once

#include <cstdint>

#include "bitmap.h"
#include "digest_sink.h"
#include "odf_hash/arrow_c_data.h"
#include "odf_hash/core/status.h"
#include "type_node.h"

namespace odf_hash::logical {

// Slots [0, len) of a Binary / Utf8 (Offset = int32_t) or LargeBinary / LargeUtf8 (int64_t)
// array: `offsets` points at the offset of the first slot (len + 1 offsets, non-decreasing),
// `data` at the data buffer (may be null when every slot is empty). Slot i is hashed as a
// value when v.valid(i).
template <typename Offset>
void stage_binary(DigestSink& sink, const Offset* offsets, const uint8_t* data, int64_t len,
                  const Validity& v);

// Physical slots [first, first + len) of a BinaryView / Utf8View array. Views of valid slots
// are checked while read: a negative length, or data outside the variadic buffers, is an
// `invalid_argument` error naming the column.
Status stage_binary_views(DigestSink& sink, const TypeNode& node, const ArrowArray& array,
                          int64_t first, int64_t len, const Validity& v);

// Slots [0, len) of a FixedSizeBinary(width) array whose first value is at `data`.
void stage_fixed_binary(DigestSink& sink, const uint8_t* data, int64_t width, int64_t len,
                        const Validity& v);

// Whether stage_dictionary handles this dictionary node (its values are Binary / Utf8 or
// LargeBinary / LargeUtf8).
bool stages_dictionary(const TypeNode& node);

// Physical slots [first, first + len) of a dictionary array with stages_dictionary(node):
// a slot valid in `v` is its dictionary value (whatever that value's own validity), or the
// empty string when its index is null (the reference's zero value; see put_zero_value).
void stage_dictionary(DigestSink& sink, const TypeNode& node, const ArrowArray& array,
                      int64_t first, int64_t len, const Validity& v);

}  // namespace odf_hash::logical
