// A cheap estimate of how many bytes slots [pos, pos + len) of an array feed into its
// column digest, to balance columns across threads and size multi-lane chunks. Internal to
// src/logical/. Constant time per type level (reads at most two offsets per level); only for
// arrays that passed check_array. It only affects speed, never a digest.
#pragma once

#include <cstdint>

#include "odf_hash/arrow_c_data.h"
#include "type_node.h"

namespace odf_hash::logical {

double estimate_bytes(const TypeNode& node, const ArrowArray& array, int64_t pos, int64_t len);

}  // namespace odf_hash::logical
