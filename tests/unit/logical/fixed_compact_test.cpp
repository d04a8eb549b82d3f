// The AVX512-VBMI2 compaction of nullable fixed-width values (src/logical/fixed_compact.h)
// against the slow per-value reference (slow_reference.h): 2-, 4- and 8-byte types, validity
// words from almost all null to almost all valid (runs of 64 slots that mix both are the ones
// compacted), lengths around 64, and slices at odd offsets. Hashed at the avx512 level, where
// the compaction runs when the CPU has VBMI2, and at avx2, where it never does; a CPU without
// VBMI2 says so and skips.
#include <arrow/api.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

#include "logical_test_support.h"
#include "odf_hash/internal/core/sha3_multi.h"
#include "slow_reference.h"

namespace odf_hash::test {
namespace {

bool cpu_has_vbmi2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("bmi2") &&
         keccak_level_supported(KeccakLevel::kAvx512);
}

// `len` random values of `type` (its physical width: `width` bytes), each valid with
// probability `density`.
std::shared_ptr<arrow::Array> random_fixed(const std::shared_ptr<arrow::DataType>& type, int width,
                                           int64_t len, double density, std::mt19937_64& rng) {
  std::vector<uint8_t> values(static_cast<size_t>(len * width));
  for (auto& b : values) b = static_cast<uint8_t>(rng());
  std::vector<uint8_t> bits(static_cast<size_t>((len + 7) / 8), 0);
  std::bernoulli_distribution valid(density);
  for (int64_t i = 0; i < len; ++i) {
    if (valid(rng)) bits[i / 8] |= static_cast<uint8_t>(1 << (i % 8));
  }
  auto data = arrow::ArrayData::Make(
      type, len, {arrow::Buffer::FromVector(bits), arrow::Buffer::FromVector(values)},
      arrow::kUnknownNullCount);
  return arrow::MakeArray(data);
}

TEST(FixedCompact, MatchesTheReferenceWithAndWithoutVbmi2) {
  const bool vbmi2 = cpu_has_vbmi2();
  std::printf("VBMI2 compaction of nullable fixed-width values: %s\n",
              vbmi2 ? "tested (avx512 level)" : "skipped (this CPU has no AVX512-VBMI2)");
  const struct {
    std::shared_ptr<arrow::DataType> type;
    int width;
  } types[] = {{arrow::int16(), 2},
               {arrow::int32(), 4},
               {arrow::float32(), 4},
               {arrow::date32(), 4},
               {arrow::int64(), 8},
               {arrow::float64(), 8},
               {arrow::timestamp(arrow::TimeUnit::MICRO), 8}};
  std::mt19937_64 rng(20261204);
  std::vector<KeccakLevel> levels;
  if (vbmi2) levels.push_back(KeccakLevel::kAvx512);
  if (keccak_level_supported(KeccakLevel::kAvx2)) levels.push_back(KeccakLevel::kAvx2);
  levels.push_back(KeccakLevel::kPortable);
  for (const auto& t : types) {
    for (int64_t len : {1, 5, 63, 64, 65, 127, 1000, 4099}) {
      for (double density : {0.02, 0.5, 0.98}) {
        const auto whole = random_fixed(t.type, t.width, len + 11, density, rng);
        for (const auto& a : {whole->Slice(0, len), whole->Slice(3, len), whole->Slice(11, len)}) {
          const std::string expected = slow::array_digest(*a);
          for (KeccakLevel level : levels) {
            ASSERT_TRUE(set_multi_lane_level(level).is_ok());
            EXPECT_EQ(array_hex(a), expected)
                << t.type->ToString() << " len " << len << " density " << density << " offset "
                << a->offset() << " level " << keccak_level_name(level);
          }
        }
      }
    }
  }
  reset_multi_lane_level();
  if (!vbmi2) GTEST_SKIP() << "no AVX512-VBMI2: only the portable compaction was tested";
}

}  // namespace
}  // namespace odf_hash::test
