// Our Keccak (single stream and 4-lane, every dispatch level) against OpenSSL's SHA3-256 (Sha3_256)
// and the NIST example values.
#include "odf_hash/sha3_multi.h"

#include <gtest/gtest.h>

#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "odf_hash/sha3.h"

namespace odf_hash {

// So that gtest names the level in failure messages.
void PrintTo(KeccakLevel level, std::ostream* os) {
  *os << keccak_level_name(level);
}

namespace {

using Bytes = std::vector<uint8_t>;

Bytes random_bytes(std::mt19937_64& rng, size_t n) {
  Bytes b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

std::string hex(const Digest256& d) {
  return to_hex(d);
}
std::string openssl_hex(const Bytes& b) {
  return hex(Sha3_256::digest(b));
}

// NIST FIPS 202 examples (csrc.nist.gov, "SHA3-256" example values).
constexpr const char* kEmpty = "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a";
constexpr const char* kAbc = "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532";
// 200 bytes of 0xa3 (the 1600-bit example message).
constexpr const char* kA3x200 = "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787";

const size_t kLengths[] = {0,   1,   7,   8,    135,     136,         137,
                           271, 272, 273, 1000, 8 * 136, 9 * 136 + 5, 5000};

// Each test runs once per level; levels this CPU lacks are skipped (and say so).
class LevelTest : public ::testing::TestWithParam<KeccakLevel> {
 protected:
  void SetUp() override {
    if (!keccak_level_supported(GetParam())) {
      GTEST_SKIP() << keccak_level_name(GetParam()) << " not supported on this CPU";
    }
  }
  template <typename T>
  T make() {
    auto r = T::create(GetParam());
    EXPECT_TRUE(r.is_ok()) << r.status().to_string();
    return std::move(r).value();
  }
};

using Sha3ScalarTest = LevelTest;

std::string scalar_hex(Sha3_256Scalar& h, const Bytes& b) {
  h.update(b.data(), b.size());
  return hex(h.finalize());
}

TEST_P(Sha3ScalarTest, RunsTheLevelAskedFor) {
  EXPECT_EQ(make<Sha3_256Scalar>().level(), GetParam());
}

TEST_P(Sha3ScalarTest, NistExamples) {
  Sha3_256Scalar h = make<Sha3_256Scalar>();
  EXPECT_EQ(scalar_hex(h, {}), kEmpty);
  EXPECT_EQ(scalar_hex(h, {'a', 'b', 'c'}), kAbc);
  EXPECT_EQ(scalar_hex(h, Bytes(200, 0xa3)), kA3x200);
  // The oracle agrees with the published values too.
  EXPECT_EQ(openssl_hex(Bytes(200, 0xa3)), kA3x200);
}

TEST_P(Sha3ScalarTest, MatchesOpenSslForEveryLengthUpTo600) {
  std::mt19937_64 rng(1);
  Sha3_256Scalar h = make<Sha3_256Scalar>();
  for (size_t n = 0; n <= 600; ++n) {
    const Bytes b = random_bytes(rng, n);
    ASSERT_EQ(scalar_hex(h, b), openssl_hex(b)) << "length " << n;
  }
  const Bytes big = random_bytes(rng, 1 << 20);
  EXPECT_EQ(scalar_hex(h, big), openssl_hex(big)) << "1 MiB";
}

TEST_P(Sha3ScalarTest, EveryTwoWaySplitMatches) {
  std::mt19937_64 rng(2);
  Sha3_256Scalar h = make<Sha3_256Scalar>();
  for (size_t n : {0, 1, 135, 136, 137, 272, 300}) {
    const Bytes b = random_bytes(rng, n);
    const std::string want = openssl_hex(b);
    for (size_t split = 0; split <= n; ++split) {
      h.update(b.data(), split);
      h.update(b.data() + split, n - split);
      ASSERT_EQ(hex(h.finalize()), want) << "length " << n << " split " << split;
    }
  }
}

TEST_P(Sha3ScalarTest, FinalizeResets) {
  Sha3_256Scalar h = make<Sha3_256Scalar>();
  h.update(std::string_view("garbage"));
  (void)h.finalize();
  h.update(std::string_view("abc"));
  EXPECT_EQ(hex(h.finalize()), kAbc);
  EXPECT_EQ(hex(h.finalize()), kEmpty);
}

INSTANTIATE_TEST_SUITE_P(Levels, Sha3ScalarTest,
                         ::testing::Values(KeccakLevel::kPortable, KeccakLevel::kBmi2),
                         [](const auto& p) { return std::string(keccak_level_name(p.param)); });

TEST(Sha3Scalar, OneShotAndDefaultLevel) {
  EXPECT_EQ(hex(Sha3_256Scalar::digest({})), kEmpty);
  const KeccakLevel want =
      keccak_level_supported(KeccakLevel::kBmi2) ? KeccakLevel::kBmi2 : KeccakLevel::kPortable;
  EXPECT_EQ(Sha3_256Scalar().level(), want);
  // kAvx2 asks for the best scalar level.
  if (keccak_level_supported(KeccakLevel::kAvx2)) {
    EXPECT_EQ(Sha3_256Scalar::create(KeccakLevel::kAvx2).value().level(), want);
  }
}

TEST(KeccakDispatch, LevelNamesAndDetection) {
  EXPECT_STREQ(keccak_level_name(KeccakLevel::kPortable), "portable");
  EXPECT_STREQ(keccak_level_name(KeccakLevel::kBmi2), "bmi2");
  EXPECT_STREQ(keccak_level_name(KeccakLevel::kAvx2), "avx2");
  EXPECT_TRUE(keccak_level_supported(KeccakLevel::kPortable));
#if defined(__x86_64__)
  EXPECT_EQ(keccak_level_supported(KeccakLevel::kAvx2), __builtin_cpu_supports("avx2") != 0);
  EXPECT_EQ(keccak_level_supported(KeccakLevel::kBmi2),
            __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2"));
#endif
  EXPECT_EQ(multi_lane_level(), detected_multi_lane_level());
}

TEST(KeccakDispatch, ForcingALevel) {
  ASSERT_TRUE(set_multi_lane_level(KeccakLevel::kPortable).is_ok());
  EXPECT_EQ(multi_lane_level(), KeccakLevel::kPortable);
  EXPECT_EQ(Sha3_256x4().level(), KeccakLevel::kPortable);
  EXPECT_EQ(Sha3_256Scalar().level(), KeccakLevel::kPortable);
  const Status st = set_multi_lane_level(KeccakLevel::kAvx2);
  if (keccak_level_supported(KeccakLevel::kAvx2)) {
    EXPECT_TRUE(st.is_ok());
    EXPECT_EQ(Sha3_256x4().level(), KeccakLevel::kAvx2);
    EXPECT_EQ(Sha3_256Scalar().level(), KeccakLevel::kBmi2);
  } else {
    EXPECT_EQ(st.code(), StatusCode::kUnsupported);
    EXPECT_NE(st.message().find("avx2"), std::string::npos);
    EXPECT_FALSE(Sha3_256x4::create(KeccakLevel::kAvx2).is_ok());
  }
  reset_multi_lane_level();
  EXPECT_EQ(multi_lane_level(), detected_multi_lane_level());
}

class Sha3x4Test : public LevelTest {
 protected:
  Sha3_256x4 make() { return LevelTest::make<Sha3_256x4>(); }
};

void expect_lanes(const std::array<Digest256, 4>& got, const std::array<Bytes, 4>& lanes,
                  const std::string& what) {
  for (size_t l = 0; l < 4; ++l) {
    EXPECT_EQ(hex(got[l]), openssl_hex(lanes[l]))
        << what << ", lane " << l << " (" << lanes[l].size() << " bytes)";
  }
}

TEST_P(Sha3x4Test, NistExamplesInEveryLane) {
  Sha3_256x4 h = make();
  h.update(1, "abc", 3);
  const Bytes a3(200, 0xa3);
  h.update(2, a3.data(), a3.size());
  h.update(3, "ab", 2);
  h.update(3, "c", 1);
  const auto d = h.finalize();
  EXPECT_EQ(hex(d[0]), kEmpty);
  EXPECT_EQ(hex(d[1]), kAbc);
  EXPECT_EQ(hex(d[2]), kA3x200);
  EXPECT_EQ(hex(d[3]), kAbc);
}

TEST_P(Sha3x4Test, UnequalLengthsInOneUpdateAll) {
  std::mt19937_64 rng(3);
  for (size_t a : kLengths) {
    for (size_t b : kLengths) {
      std::array<Bytes, 4> lanes = {random_bytes(rng, a), random_bytes(rng, b),
                                    random_bytes(rng, (a + b) / 2), random_bytes(rng, a ^ b)};
      const uint8_t* data[4];
      size_t size[4];
      for (size_t l = 0; l < 4; ++l) {
        data[l] = lanes[l].data();
        size[l] = lanes[l].size();
      }
      Sha3_256x4 h = make();
      h.update_all(data, size);
      expect_lanes(h.finalize(), lanes, "lengths " + std::to_string(a) + "/" + std::to_string(b));
    }
  }
}

TEST_P(Sha3x4Test, OneToFourActiveLanes) {
  std::mt19937_64 rng(4);
  for (size_t active = 1; active <= 4; ++active) {
    for (size_t n : kLengths) {
      std::array<Bytes, 4> lanes;
      for (size_t l = 0; l < active; ++l) lanes[l] = random_bytes(rng, n + l);
      Sha3_256x4 h = make();
      for (size_t l = 0; l < active; ++l) h.update(l, lanes[l].data(), lanes[l].size());
      expect_lanes(h.finalize(), lanes, std::to_string(active) + " active lanes");
    }
  }
}

// Every two-way split of each lane (the split point differs per lane), through update_all,
// then through per-lane update calls.
TEST_P(Sha3x4Test, EveryTwoWaySplit) {
  std::mt19937_64 rng(5);
  for (size_t n : {0, 1, 135, 136, 137, 272, 273, 600}) {
    std::array<Bytes, 4> lanes;
    for (size_t l = 0; l < 4; ++l) lanes[l] = random_bytes(rng, n);
    for (size_t split = 0; split <= n; ++split) {
      size_t cut[4];
      for (size_t l = 0; l < 4; ++l) cut[l] = (split + 37 * l) % (n + 1);
      const uint8_t* first[4];
      const uint8_t* second[4];
      size_t first_size[4], second_size[4];
      for (size_t l = 0; l < 4; ++l) {
        first[l] = lanes[l].data();
        first_size[l] = cut[l];
        second[l] = lanes[l].data() + cut[l];
        second_size[l] = n - cut[l];
      }
      Sha3_256x4 h = make();
      h.update_all(first, first_size);
      h.update_all(second, second_size);
      expect_lanes(h.finalize(), lanes, "update_all split " + std::to_string(split));
      for (size_t l = 0; l < 4; ++l) h.update(l, first[l], first_size[l]);
      for (size_t l = 0; l < 4; ++l) h.update(l, second[l], second_size[l]);
      expect_lanes(h.finalize(), lanes, "update split " + std::to_string(split));
      if (HasFailure()) return;
    }
  }
}

// Random mixes of per-lane and all-lane updates with random sizes, including lanes running
// far ahead of the others (beyond the per-lane buffer) and long streams.
TEST_P(Sha3x4Test, RandomStreamsMatchOpenSsl) {
  std::mt19937_64 rng(6);
  for (int trial = 0; trial < 300; ++trial) {
    std::array<Bytes, 4> lanes;
    Sha3_256x4 h = make();
    const int steps = static_cast<int>(rng() % 40);
    const size_t max_chunk = (trial % 3 == 0) ? 20 : (trial % 3 == 1) ? 400 : 5000;
    for (int s = 0; s < steps; ++s) {
      if (rng() % 2 == 0) {
        const size_t l = rng() % 4;
        const Bytes chunk = random_bytes(rng, rng() % (max_chunk + 1));
        h.update(l, chunk.data(), chunk.size());
        lanes[l].insert(lanes[l].end(), chunk.begin(), chunk.end());
      } else {
        std::array<Bytes, 4> chunks;
        const uint8_t* data[4];
        size_t size[4];
        for (size_t l = 0; l < 4; ++l) {
          chunks[l] = random_bytes(rng, rng() % (max_chunk + 1));
          data[l] = chunks[l].empty() ? nullptr : chunks[l].data();
          size[l] = chunks[l].size();
          lanes[l].insert(lanes[l].end(), chunks[l].begin(), chunks[l].end());
        }
        h.update_all(data, size);
      }
    }
    expect_lanes(h.finalize(), lanes, "trial " + std::to_string(trial));
    if (HasFailure()) return;
  }
}

// Lanes finalized one at a time at random points (streams of different lengths sharing the
// lanes), the others carrying on.
TEST_P(Sha3x4Test, FinalizeOneLaneLeavesTheOthers) {
  std::mt19937_64 rng(9);
  Sha3_256x4 h = make();
  std::array<Bytes, 4> lanes;
  int finalized = 0;
  for (int step = 0; step < 3000; ++step) {
    const size_t what = rng() % 8;
    if (what == 0) {
      const size_t l = rng() % 4;
      ASSERT_EQ(hex(h.finalize_lane(l)), openssl_hex(lanes[l])) << "step " << step;
      lanes[l].clear();
      ++finalized;
    } else if (what < 4) {
      const size_t l = rng() % 4;
      const Bytes chunk = random_bytes(rng, rng() % 700);
      h.update(l, chunk.data(), chunk.size());
      lanes[l].insert(lanes[l].end(), chunk.begin(), chunk.end());
    } else {
      std::array<Bytes, 4> chunks;
      for (size_t l = 0; l < 4; ++l) {
        chunks[l] = random_bytes(rng, rng() % 2000);
        lanes[l].insert(lanes[l].end(), chunks[l].begin(), chunks[l].end());
      }
      h.update_all({std::span<const uint8_t>(chunks[0]), std::span<const uint8_t>(chunks[1]),
                    std::span<const uint8_t>(chunks[2]), std::span<const uint8_t>(chunks[3])});
    }
  }
  EXPECT_GT(finalized, 100);
  expect_lanes(h.finalize(), lanes, "after per-lane finalizes");
}

TEST_P(Sha3x4Test, ManyBlocksInEveryLane) {
  std::mt19937_64 rng(7);
  std::array<Bytes, 4> lanes;
  for (size_t l = 0; l < 4; ++l) lanes[l] = random_bytes(rng, (1 << 20) + 17 * l);
  const uint8_t* data[4];
  size_t size[4];
  for (size_t l = 0; l < 4; ++l) {
    data[l] = lanes[l].data();
    size[l] = lanes[l].size();
  }
  Sha3_256x4 h = make();
  h.update_all(data, size);
  expect_lanes(h.finalize(), lanes, "1 MiB lanes");
}

TEST_P(Sha3x4Test, CopyContinuesIndependently) {
  std::mt19937_64 rng(8);
  std::array<Bytes, 4> lanes;
  Sha3_256x4 h = make();
  for (size_t l = 0; l < 4; ++l) {
    lanes[l] = random_bytes(rng, 300 + l);
    h.update(l, lanes[l].data(), lanes[l].size());
  }
  Sha3_256x4 copy = h;
  std::array<Bytes, 4> more = lanes;
  more[2].push_back(42);
  copy.update(2, &more[2].back(), 1);
  expect_lanes(h.finalize(), lanes, "original");
  expect_lanes(copy.finalize(), more, "copy");
}

TEST_P(Sha3x4Test, FinalizeResetsEveryLane) {
  Sha3_256x4 h = make();
  for (size_t l = 0; l < 4; ++l) h.update(l, "garbage", 7);
  (void)h.finalize();
  const auto d = h.finalize();
  for (size_t l = 0; l < 4; ++l) EXPECT_EQ(hex(d[l]), kEmpty);
}

INSTANTIATE_TEST_SUITE_P(Levels, Sha3x4Test,
                         ::testing::Values(KeccakLevel::kPortable, KeccakLevel::kBmi2,
                                           KeccakLevel::kAvx2),
                         [](const auto& p) { return std::string(keccak_level_name(p.param)); });

}  // namespace
}  // namespace odf_hash
