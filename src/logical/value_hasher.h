// Encoding the values of one column into its digest: the hot loops of arrow0-sha3-256.
// Internal to src/logical/. Arrays must have passed check_array for the slots hashed.
#pragma once

#include <cstdint>

#include "bitmap.h"
#include "digest_sink.h"
#include "odf_hash/arrow_c_data.h"
#include "odf_hash/core/status.h"
#include "type_node.h"

namespace odf_hash::logical {

// The validity of slots [pos, pos + len) of `array` as the values it encodes: its bitmap for
// plain arrays; for dictionary and run-end-encoded arrays the bitmap of the decoded values,
// materialised. null_count is filled in when `with_count` (the record walk needs it to apply
// the reference's combination rule) and otherwise may be -1.
OwnedValidity own_validity(const TypeNode& node, const ArrowArray& array, int64_t pos, int64_t len,
                           bool with_count);

// Absorbs slots [pos, pos + len) of `array` into `sink`: slot pos + i is hashed as a value
// when `validity.valid(i)`, as the null marker (one 0 byte) otherwise. List items are hashed
// with the item array's own validity only, as the reference does.
Status hash_slots(DigestSink& sink, const TypeNode& node, const ArrowArray& array, int64_t pos,
                  int64_t len, const Validity& validity);

}  // namespace odf_hash::logical
