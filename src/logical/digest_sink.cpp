#include "digest_sink.h"

#include <algorithm>
#include <limits>

namespace odf_hash::logical {
namespace {

template <size_t N>
class LaneGroupOf final : public LaneGroup {
 public:
  explicit LaneGroupOf(KeccakLevel level) : sha_(Sha3_256Lanes<N>::create(level).value()) {}
  size_t lanes() const override { return N; }
  void update(size_t lane, const void* data, size_t size) override {
    sha_.update(lane, data, size);
  }
  void update_all(const uint8_t* const data[], const size_t size[]) override {
    sha_.update_all(data, size);
  }
  void finalize(Digest256 out[]) override {
    const auto digests = sha_.finalize();
    std::copy(digests.begin(), digests.end(), out);
  }

 private:
  Sha3_256Lanes<N> sha_;
};

}  // namespace

size_t max_lanes(KeccakLevel level) {
  return level >= KeccakLevel::kAvx512 ? 8 : 4;
}

std::unique_ptr<LaneGroup> make_lane_group(size_t lanes, KeccakLevel level) {
  if (level >= KeccakLevel::kAvx512 || lanes > 4) {
    return std::make_unique<LaneGroupOf<8>>(level);
  }
  return std::make_unique<LaneGroupOf<4>>(level);
}

// The lanes' pending spans are walked together: each update_all call takes the same number
// of bytes from every lane that still has some (the shortest current span), so the lanes
// stay level and the group can absorb their blocks N-wide. A lane that runs out early
// leaves the others to finish with fewer lanes; Sha3_256Lanes handles that (masked or alone).
void drain_lanes(LaneGroup& group, DigestSink* const sinks[]) {
  constexpr size_t kMax = 8;
  const size_t lanes = group.lanes();
  const std::vector<std::span<const uint8_t>>* spans[kMax] = {};
  size_t index[kMax] = {}, offset[kMax] = {};
  for (size_t l = 0; l < lanes; ++l) {
    if (sinks[l] != nullptr) spans[l] = &sinks[l]->pending();
  }
  for (;;) {
    size_t step = std::numeric_limits<size_t>::max();
    for (size_t l = 0; l < lanes; ++l) {
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
    const uint8_t* data[kMax] = {};
    size_t size[kMax] = {};
    for (size_t l = 0; l < lanes; ++l) {
      if (spans[l] == nullptr || index[l] >= spans[l]->size()) continue;
      data[l] = (*spans[l])[index[l]].data() + offset[l];
      size[l] = step;
      offset[l] += step;
    }
    group.update_all(data, size);
  }
  for (size_t l = 0; l < lanes; ++l) {
    if (sinks[l] != nullptr) sinks[l]->clear_pending();
  }
}

}  // namespace odf_hash::logical
