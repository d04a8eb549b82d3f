// The AVX-512BW bytes of boolean runs (src/logical/bool_bytes.h) against the slow per-value
// reference (slow_reference.h): densities of nulls and of true values from almost none to
// almost all, lengths around 64 and slices at odd bit offsets, hashed at the avx512 level
// (where the AVX-512 code runs) and at avx2 and portable (where it never does); a CPU without
// AVX-512BW says so and skips.
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

// Built from its two bitmaps, so that null slots carry random value bits too (a builder
// would clear them): they must not reach the hash.
std::shared_ptr<arrow::Array> random_bools(int64_t len, double valid_density, double true_density,
                                           std::mt19937_64& rng) {
  const auto bytes = static_cast<size_t>((len + 7) / 8);
  std::vector<uint8_t> valid_bits(bytes, 0), value_bits(bytes, 0);
  std::bernoulli_distribution valid(valid_density), value(true_density);
  for (int64_t i = 0; i < len; ++i) {
    const auto bit = static_cast<uint8_t>(1 << (i % 8));
    if (valid(rng)) valid_bits[i / 8] |= bit;
    if (value(rng)) value_bits[i / 8] |= bit;
  }
  return arrow::MakeArray(arrow::ArrayData::Make(
      arrow::boolean(), len,
      {arrow::Buffer::FromVector(valid_bits), arrow::Buffer::FromVector(value_bits)},
      arrow::kUnknownNullCount));
}

TEST(BoolBytes, MatchesTheReferenceWithAndWithoutAvx512) {
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      keccak_level_supported(KeccakLevel::kAvx512);
  std::printf("AVX-512BW boolean bytes: %s\n",
              avx512 ? "tested (avx512 level)" : "skipped (this CPU has no AVX-512BW)");
  std::vector<KeccakLevel> levels;
  if (avx512) levels.push_back(KeccakLevel::kAvx512);
  if (keccak_level_supported(KeccakLevel::kAvx2)) levels.push_back(KeccakLevel::kAvx2);
  levels.push_back(KeccakLevel::kPortable);
  std::mt19937_64 rng(4122026);
  for (int64_t len : {1, 7, 63, 64, 65, 200, 4099}) {
    for (double valid_density : {0.02, 0.5, 1.0}) {
      for (double true_density : {0.02, 0.5, 0.98}) {
        const auto whole = random_bools(len + 13, valid_density, true_density, rng);
        for (const auto& a : {whole->Slice(0, len), whole->Slice(5, len), whole->Slice(13, len)}) {
          const std::string expected = slow::array_digest(*a);
          for (KeccakLevel level : levels) {
            ASSERT_TRUE(set_multi_lane_level(level).is_ok());
            EXPECT_EQ(array_hex(a), expected)
                << "len " << len << " valid " << valid_density << " true " << true_density
                << " offset " << a->offset() << " level " << keccak_level_name(level);
          }
        }
      }
    }
  }
  reset_multi_lane_level();
  if (!avx512) GTEST_SKIP() << "no AVX-512BW: only the portable code was tested";
}

}  // namespace
}  // namespace odf_hash::test
