// Our Keccak (single stream, 4-lane and 8-lane, at every dispatch level this CPU has) against
// OpenSSL's SHA3-256 (Sha3_256OpenSsl) and the NIST example values. Levels the CPU lacks are
// skipped with a message naming them ([  SKIPPED ] in gtest, "Skipped" in ctest), and
// KeccakDispatch.LevelsOfThisCpu prints which levels ran.
#include "odf_hash/internal/core/sha3_multi.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "odf_hash/core/sha3.h"

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
  return hex(Sha3_256OpenSsl::digest(b));
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

// The single-stream kernel of each level: kAvx2 has none of its own (the best scalar one).
KeccakLevel single_stream_level(KeccakLevel level) {
  if (level == KeccakLevel::kAvx2) {
    return keccak_level_supported(KeccakLevel::kBmi2) ? KeccakLevel::kBmi2 : KeccakLevel::kPortable;
  }
  return level;
}

TEST_P(Sha3ScalarTest, RunsTheKernelOfTheLevelAskedFor) {
  EXPECT_EQ(make<Sha3_256Scalar>().level(), single_stream_level(GetParam()));
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

std::string level_name(const ::testing::TestParamInfo<KeccakLevel>& p) {
  return keccak_level_name(p.param);
}

INSTANTIATE_TEST_SUITE_P(Levels, Sha3ScalarTest, ::testing::ValuesIn(kKeccakLevels), level_name);

TEST(Sha3Scalar, OneShotAndDefaultLevel) {
  EXPECT_EQ(hex(Sha3_256Scalar::digest({})), kEmpty);
  EXPECT_EQ(Sha3_256Scalar().level(), single_stream_level(multi_lane_level()));
  for (KeccakLevel level : kKeccakLevels) {
    if (!keccak_level_supported(level)) continue;
    EXPECT_EQ(Sha3_256Scalar::create(level).value().level(), single_stream_level(level))
        << keccak_level_name(level);
  }
}

// Which levels this CPU runs, printed so that a test log says which kernels were tested here
// (the tests of the others are skipped).
TEST(KeccakDispatch, LevelsOfThisCpu) {
  std::string ran, skipped;
  for (KeccakLevel level : kKeccakLevels) {
    (keccak_level_supported(level) ? ran : skipped) += std::string(" ") + keccak_level_name(level);
  }
  std::cout << "Keccak levels tested on this CPU:" << ran
            << "; skipped (not supported):" << (skipped.empty() ? " none" : skipped)
            << "; detected " << keccak_level_name(detected_multi_lane_level()) << ", default "
            << keccak_level_name(multi_lane_level()) << ", Sha3_256 runs "
            << Sha3_256::default_implementation() << "\n";
  RecordProperty("keccak_levels_ran", ran);
  RecordProperty("keccak_levels_skipped", skipped);
  EXPECT_TRUE(keccak_level_supported(KeccakLevel::kPortable));
}

TEST(KeccakDispatch, LevelNamesAndDetection) {
  EXPECT_STREQ(keccak_level_name(KeccakLevel::kPortable), "portable");
  EXPECT_STREQ(keccak_level_name(KeccakLevel::kBmi2), "bmi2");
  EXPECT_STREQ(keccak_level_name(KeccakLevel::kAvx2), "avx2");
  EXPECT_STREQ(keccak_level_name(KeccakLevel::kAvx512), "avx512");
  for (KeccakLevel level : kKeccakLevels) {
    EXPECT_EQ(parse_keccak_level(keccak_level_name(level)).value(), level);
  }
  EXPECT_EQ(parse_keccak_level("AVX2").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(parse_keccak_level("").status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(keccak_level_supported(KeccakLevel::kPortable));
#if defined(__x86_64__)
  EXPECT_EQ(keccak_level_supported(KeccakLevel::kAvx2), __builtin_cpu_supports("avx2") != 0);
  EXPECT_EQ(keccak_level_supported(KeccakLevel::kBmi2),
            __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2"));
  EXPECT_EQ(keccak_level_supported(KeccakLevel::kAvx512),
            __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl"));
#endif
  // The best supported level is the detected one.
  KeccakLevel best = KeccakLevel::kPortable;
  for (KeccakLevel level : kKeccakLevels) {
    if (keccak_level_supported(level)) best = level;
  }
  EXPECT_EQ(detected_multi_lane_level(), best);
}

// The default level of this process: what ODF_HASH_KECCAK_LEVEL names, or the detected level
// when it is unset or bad.
KeccakLevel default_level_from_env() {
  const Result<KeccakLevel> r = keccak_level_from_env_value(std::getenv(kKeccakLevelEnv));
  return r.is_ok() ? r.value() : detected_multi_lane_level();
}

// The rule applied to ODF_HASH_KECCAK_LEVEL (the variable itself is read once per process, so
// its effect on a whole run is tested through the CLI: tests/cli/test_keccak_level.py).
TEST(KeccakDispatch, EnvironmentValues) {
  EXPECT_EQ(keccak_level_from_env_value(nullptr).value(), detected_multi_lane_level());
  EXPECT_EQ(keccak_level_from_env_value("").value(), detected_multi_lane_level());
  for (KeccakLevel level : kKeccakLevels) {
    const Result<KeccakLevel> r = keccak_level_from_env_value(keccak_level_name(level));
    if (keccak_level_supported(level)) {
      EXPECT_EQ(r.value(), level);
    } else {
      EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
      EXPECT_NE(r.status().message().find(keccak_level_name(level)), std::string::npos);
    }
  }
  const Result<KeccakLevel> bad = keccak_level_from_env_value("avx1024");
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("avx1024"), std::string::npos);
  // This process's default follows the variable (unset under ctest: the detected level).
  EXPECT_EQ(multi_lane_level(), default_level_from_env());
}

TEST(KeccakDispatch, ForcingALevel) {
  ASSERT_TRUE(set_multi_lane_level(KeccakLevel::kPortable).is_ok());
  EXPECT_EQ(multi_lane_level(), KeccakLevel::kPortable);
  EXPECT_EQ(Sha3_256x4().level(), KeccakLevel::kPortable);
  EXPECT_EQ(Sha3_256x8().level(), KeccakLevel::kPortable);
  EXPECT_EQ(Sha3_256Scalar().level(), KeccakLevel::kPortable);
  EXPECT_STREQ(Sha3_256().implementation(), "openssl");
  for (KeccakLevel level : {KeccakLevel::kAvx2, KeccakLevel::kAvx512}) {
    const Status st = set_multi_lane_level(level);
    if (keccak_level_supported(level)) {
      EXPECT_TRUE(st.is_ok());
      EXPECT_EQ(Sha3_256x4().level(), level);
      EXPECT_EQ(Sha3_256x8().level(), level);
      EXPECT_EQ(Sha3_256Scalar().level(), single_stream_level(level));
    } else {
      EXPECT_EQ(st.code(), StatusCode::kUnsupported);
      EXPECT_NE(st.message().find(keccak_level_name(level)), std::string::npos);
      EXPECT_FALSE(Sha3_256x4::create(level).is_ok());
      EXPECT_FALSE(Sha3_256x8::create(level).is_ok());
    }
  }
  reset_multi_lane_level();
  EXPECT_EQ(multi_lane_level(), default_level_from_env());
}

// Sha3_256 runs OpenSSL, or our BMI2 or AVX-512 single state where that is faster (sha3.h),
// never above the level in force; whichever it runs matches OpenSSL.
TEST(Sha3Dispatch, Sha3_256RunsOpenSslOrAFasterSingleState) {
  const std::string runs = Sha3_256::default_implementation();
  EXPECT_TRUE(runs == "openssl" || runs == "bmi2" || runs == "avx512") << runs;
  if (runs != "openssl") {
    EXPECT_TRUE(keccak_level_supported(parse_keccak_level(runs).value())) << runs;
  }
  for (KeccakLevel level : kKeccakLevels) {
    if (!keccak_level_supported(level)) continue;
    ASSERT_TRUE(set_multi_lane_level(level).is_ok());
    Sha3_256 h;
    const std::string impl = h.implementation();
    if (level == KeccakLevel::kPortable) {
      EXPECT_EQ(impl, "openssl");
    } else if (impl != "openssl") {
      EXPECT_LE(parse_keccak_level(impl).value(), level) << impl;
      EXPECT_NE(impl, "avx2") << "no single-state AVX2 kernel exists";
    }
    std::mt19937_64 rng(11);
    const Bytes b = random_bytes(rng, 5000);
    h.update(b.data(), 1234);
    h.update(b.data() + 1234, b.size() - 1234);
    EXPECT_EQ(hex(h.finalize()), openssl_hex(b)) << keccak_level_name(level) << " runs " << impl;
  }
  reset_multi_lane_level();
}

// The multi-lane tests, written once for N lanes (Sha3_256x4 and Sha3_256x8) and run for each
// N at every level.
template <size_t N>
using Lanes = std::array<Bytes, N>;

template <size_t N>
Sha3_256Lanes<N> make_lanes(KeccakLevel level) {
  auto r = Sha3_256Lanes<N>::create(level);
  EXPECT_TRUE(r.is_ok()) << r.status().to_string();
  return std::move(r).value();
}

template <size_t N>
void expect_lanes(const std::array<Digest256, N>& got, const Lanes<N>& lanes,
                  const std::string& what) {
  for (size_t l = 0; l < N; ++l) {
    EXPECT_EQ(hex(got[l]), openssl_hex(lanes[l]))
        << what << ", lane " << l << " (" << lanes[l].size() << " bytes)";
  }
}

template <size_t N>
void nist_examples_in_every_lane(KeccakLevel level) {
  Sha3_256Lanes<N> h = make_lanes<N>(level);
  h.update(1, "abc", 3);
  const Bytes a3(200, 0xa3);
  h.update(2, a3.data(), a3.size());
  h.update(N - 1, "ab", 2);
  h.update(N - 1, "c", 1);
  const auto d = h.finalize();
  EXPECT_EQ(hex(d[0]), kEmpty);
  EXPECT_EQ(hex(d[1]), kAbc);
  EXPECT_EQ(hex(d[2]), kA3x200);
  EXPECT_EQ(hex(d[N - 1]), kAbc);
}

template <size_t N>
void unequal_lengths_in_one_update_all(KeccakLevel level) {
  std::mt19937_64 rng(3);
  for (size_t a : kLengths) {
    for (size_t b : kLengths) {
      Lanes<N> lanes;
      const size_t sizes[4] = {a, b, (a + b) / 2, a ^ b};
      for (size_t l = 0; l < N; ++l) lanes[l] = random_bytes(rng, sizes[l % 4] + l / 4);
      const uint8_t* data[N];
      size_t size[N];
      for (size_t l = 0; l < N; ++l) {
        data[l] = lanes[l].data();
        size[l] = lanes[l].size();
      }
      Sha3_256Lanes<N> h = make_lanes<N>(level);
      h.update_all(data, size);
      expect_lanes<N>(h.finalize(), lanes,
                      "lengths " + std::to_string(a) + "/" + std::to_string(b));
    }
  }
}

// 1..N active lanes, also non-adjacent ones (every other lane, the last lanes only), so that
// masked lanes sit in either half of an 8-lane state.
template <size_t N>
void one_to_n_active_lanes(KeccakLevel level) {
  std::mt19937_64 rng(4);
  for (size_t active = 1; active <= N; ++active) {
    for (size_t pattern = 0; pattern < 3; ++pattern) {
      for (size_t n : kLengths) {
        Lanes<N> lanes;
        std::vector<size_t> used;
        for (size_t i = 0; i < active; ++i) {
          used.push_back(pattern == 0 ? i : pattern == 1 ? (2 * i) % N + (2 * i) / N : N - 1 - i);
        }
        for (size_t l : used) lanes[l] = random_bytes(rng, n + l);
        Sha3_256Lanes<N> h = make_lanes<N>(level);
        for (size_t l : used) h.update(l, lanes[l].data(), lanes[l].size());
        expect_lanes<N>(
            h.finalize(), lanes,
            std::to_string(active) + " active lanes, pattern " + std::to_string(pattern));
      }
    }
  }
}

// Every two-way split of each lane (the split point differs per lane), through update_all,
// then through per-lane update calls.
template <size_t N>
void every_two_way_split(KeccakLevel level) {
  std::mt19937_64 rng(5);
  for (size_t n : {0, 1, 135, 136, 137, 272, 273, 600}) {
    Lanes<N> lanes;
    for (size_t l = 0; l < N; ++l) lanes[l] = random_bytes(rng, n);
    for (size_t split = 0; split <= n; ++split) {
      size_t cut[N];
      for (size_t l = 0; l < N; ++l) cut[l] = (split + 37 * l) % (n + 1);
      const uint8_t* first[N];
      const uint8_t* second[N];
      size_t first_size[N], second_size[N];
      for (size_t l = 0; l < N; ++l) {
        first[l] = lanes[l].data();
        first_size[l] = cut[l];
        second[l] = lanes[l].data() + cut[l];
        second_size[l] = n - cut[l];
      }
      Sha3_256Lanes<N> h = make_lanes<N>(level);
      h.update_all(first, first_size);
      h.update_all(second, second_size);
      expect_lanes<N>(h.finalize(), lanes, "update_all split " + std::to_string(split));
      for (size_t l = 0; l < N; ++l) h.update(l, first[l], first_size[l]);
      for (size_t l = 0; l < N; ++l) h.update(l, second[l], second_size[l]);
      expect_lanes<N>(h.finalize(), lanes, "update split " + std::to_string(split));
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// Random mixes of per-lane and all-lane updates with random sizes, including lanes running
// far ahead of the others (beyond the per-lane buffer) and long streams.
template <size_t N>
void random_streams_match_openssl(KeccakLevel level) {
  std::mt19937_64 rng(6);
  for (int trial = 0; trial < 300; ++trial) {
    Lanes<N> lanes;
    Sha3_256Lanes<N> h = make_lanes<N>(level);
    const int steps = static_cast<int>(rng() % 40);
    const size_t max_chunk = (trial % 3 == 0) ? 20 : (trial % 3 == 1) ? 400 : 5000;
    for (int s = 0; s < steps; ++s) {
      if (rng() % 2 == 0) {
        const size_t l = rng() % N;
        const Bytes chunk = random_bytes(rng, rng() % (max_chunk + 1));
        h.update(l, chunk.data(), chunk.size());
        lanes[l].insert(lanes[l].end(), chunk.begin(), chunk.end());
      } else {
        Lanes<N> chunks;
        const uint8_t* data[N];
        size_t size[N];
        for (size_t l = 0; l < N; ++l) {
          chunks[l] = random_bytes(rng, rng() % (max_chunk + 1));
          data[l] = chunks[l].empty() ? nullptr : chunks[l].data();
          size[l] = chunks[l].size();
          lanes[l].insert(lanes[l].end(), chunks[l].begin(), chunks[l].end());
        }
        h.update_all(data, size);
      }
    }
    expect_lanes<N>(h.finalize(), lanes, "trial " + std::to_string(trial));
    if (::testing::Test::HasFailure()) return;
  }
}

// Lanes finalized one at a time at random points (streams of different lengths sharing the
// lanes), the others carrying on.
template <size_t N>
void finalize_one_lane_leaves_the_others(KeccakLevel level) {
  std::mt19937_64 rng(9);
  Sha3_256Lanes<N> h = make_lanes<N>(level);
  Lanes<N> lanes;
  int finalized = 0;
  for (int step = 0; step < 3000; ++step) {
    const size_t what = rng() % 8;
    if (what == 0) {
      const size_t l = rng() % N;
      ASSERT_EQ(hex(h.finalize_lane(l)), openssl_hex(lanes[l])) << "step " << step;
      lanes[l].clear();
      ++finalized;
    } else if (what < 4) {
      const size_t l = rng() % N;
      const Bytes chunk = random_bytes(rng, rng() % 700);
      h.update(l, chunk.data(), chunk.size());
      lanes[l].insert(lanes[l].end(), chunk.begin(), chunk.end());
    } else {
      Lanes<N> chunks;
      std::array<std::span<const uint8_t>, N> spans;
      for (size_t l = 0; l < N; ++l) {
        chunks[l] = random_bytes(rng, rng() % 2000);
        lanes[l].insert(lanes[l].end(), chunks[l].begin(), chunks[l].end());
        spans[l] = chunks[l];
      }
      h.update_all(spans);
    }
  }
  EXPECT_GT(finalized, 100);
  expect_lanes<N>(h.finalize(), lanes, "after per-lane finalizes");
}

template <size_t N>
void many_blocks_in_every_lane(KeccakLevel level) {
  std::mt19937_64 rng(7);
  Lanes<N> lanes;
  for (size_t l = 0; l < N; ++l) lanes[l] = random_bytes(rng, (1 << 20) + 17 * l);
  const uint8_t* data[N];
  size_t size[N];
  for (size_t l = 0; l < N; ++l) {
    data[l] = lanes[l].data();
    size[l] = lanes[l].size();
  }
  Sha3_256Lanes<N> h = make_lanes<N>(level);
  h.update_all(data, size);
  expect_lanes<N>(h.finalize(), lanes, "1 MiB lanes");
}

template <size_t N>
void copy_continues_independently(KeccakLevel level) {
  std::mt19937_64 rng(8);
  Lanes<N> lanes;
  Sha3_256Lanes<N> h = make_lanes<N>(level);
  for (size_t l = 0; l < N; ++l) {
    lanes[l] = random_bytes(rng, 300 + l);
    h.update(l, lanes[l].data(), lanes[l].size());
  }
  Sha3_256Lanes<N> copy = h;
  Lanes<N> more = lanes;
  more[2].push_back(42);
  copy.update(2, &more[2].back(), 1);
  expect_lanes<N>(h.finalize(), lanes, "original");
  expect_lanes<N>(copy.finalize(), more, "copy");
}

template <size_t N>
void finalize_resets_every_lane(KeccakLevel level) {
  Sha3_256Lanes<N> h = make_lanes<N>(level);
  for (size_t l = 0; l < N; ++l) h.update(l, "garbage", 7);
  (void)h.finalize();
  const auto d = h.finalize();
  for (size_t l = 0; l < N; ++l) EXPECT_EQ(hex(d[l]), kEmpty);
}

class Sha3x4Test : public LevelTest {};
class Sha3x8Test : public LevelTest {};

// sha3_256_each at every level against OpenSSL: one-block messages (0..135 bytes), messages
// of one block and more (136 and up: their group goes through Sha3_256Lanes), groups of eight
// mixing both, and counts that leave a partial group.
using Sha3EachTest = LevelTest;

TEST_P(Sha3EachTest, EveryMessageMatchesOpenSsl) {
  std::mt19937_64 rng(7);
  for (size_t count : {0u, 1u, 7u, 8u, 9u, 64u, 203u}) {
    for (int mode = 0; mode < 3; ++mode) {
      Bytes data;
      std::vector<uint64_t> ends;
      std::vector<Bytes> messages;
      for (size_t i = 0; i < count; ++i) {
        size_t len = mode == 0   ? rng() % 136
                     : mode == 1 ? kLengths[i % std::size(kLengths)]
                                 : (i % 8 == 5 ? 136 + rng() % 300 : rng() % 136);
        messages.push_back(random_bytes(rng, len));
        data.insert(data.end(), messages.back().begin(), messages.back().end());
        ends.push_back(data.size());
      }
      std::vector<Digest256> out(count);
      sha3_256_each(data.data(), ends.data(), count, out.data(), GetParam());
      for (size_t i = 0; i < count; ++i) {
        ASSERT_EQ(hex(out[i]), openssl_hex(messages[i]))
            << "count " << count << " mode " << mode << " message " << i << " ("
            << messages[i].size() << " bytes)";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Levels, Sha3EachTest, ::testing::ValuesIn(kKeccakLevels), level_name);

#define ODF_HASH_LANES_TEST(Name, fn) \
  TEST_P(Sha3x4Test, Name) {          \
    fn<4>(GetParam());                \
  }                                   \
  TEST_P(Sha3x8Test, Name) {          \
    fn<8>(GetParam());                \
  }
ODF_HASH_LANES_TEST(NistExamplesInEveryLane, nist_examples_in_every_lane)
ODF_HASH_LANES_TEST(UnequalLengthsInOneUpdateAll, unequal_lengths_in_one_update_all)
ODF_HASH_LANES_TEST(OneToAllActiveLanes, one_to_n_active_lanes)
ODF_HASH_LANES_TEST(EveryTwoWaySplit, every_two_way_split)
ODF_HASH_LANES_TEST(RandomStreamsMatchOpenSsl, random_streams_match_openssl)
ODF_HASH_LANES_TEST(FinalizeOneLaneLeavesTheOthers, finalize_one_lane_leaves_the_others)
ODF_HASH_LANES_TEST(ManyBlocksInEveryLane, many_blocks_in_every_lane)
ODF_HASH_LANES_TEST(CopyContinuesIndependently, copy_continues_independently)
ODF_HASH_LANES_TEST(FinalizeResetsEveryLane, finalize_resets_every_lane)
#undef ODF_HASH_LANES_TEST

INSTANTIATE_TEST_SUITE_P(Levels, Sha3x4Test, ::testing::ValuesIn(kKeccakLevels), level_name);
INSTANTIATE_TEST_SUITE_P(Levels, Sha3x8Test, ::testing::ValuesIn(kKeccakLevels), level_name);

}  // namespace
}  // namespace odf_hash
