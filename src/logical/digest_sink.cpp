#include "digest_sink.h"

#include <algorithm>
#include <limits>

namespace odf_hash::logical {

// The lanes' pending spans are walked together: each update_all call takes the same number
// of bytes from every lane that still has some (the shortest current span), so the lanes
// stay level and Sha3_256x4 can absorb their blocks 4-wide. A lane that runs out early
// leaves the others to finish with fewer lanes; Sha3_256x4 handles that (masked or alone).
void drain_lanes(Sha3_256x4& group, DigestSink* const sinks[Sha3_256x4::kLanes]) {
  constexpr size_t kLanes = Sha3_256x4::kLanes;
  const std::vector<std::span<const uint8_t>>* spans[kLanes] = {};
  size_t index[kLanes] = {}, offset[kLanes] = {};
  for (size_t l = 0; l < kLanes; ++l) {
    if (sinks[l] != nullptr) spans[l] = &sinks[l]->pending();
  }
  for (;;) {
    size_t step = std::numeric_limits<size_t>::max();
    for (size_t l = 0; l < kLanes; ++l) {
      if (spans[l] == nullptr) continue;
      while (index[l] < spans[l]->size() && offset[l] == (*spans[l])[index[l]].size()) {
        ++index[l];
        offset[l] = 0;
      }
      if (index[l] < spans[l]->size()) {
        step = std::min(step, (*spans[l])[index[l]].size() - offset[l]);
      }
    }
    if (step == std::numeric_limits<size_t>::max()) break;
    const uint8_t* data[kLanes] = {};
    size_t size[kLanes] = {};
    for (size_t l = 0; l < kLanes; ++l) {
      if (spans[l] == nullptr || index[l] >= spans[l]->size()) continue;
      data[l] = (*spans[l])[index[l]].data() + offset[l];
      size[l] = step;
      offset[l] += step;
    }
    group.update_all(data, size);
  }
  for (size_t l = 0; l < kLanes; ++l) {
    if (sinks[l] != nullptr) sinks[l]->clear_pending();
  }
}

}  // namespace odf_hash::logical
