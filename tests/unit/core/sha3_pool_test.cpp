// Sha3_256Pool and PooledSha3_256 against OpenSSL's SHA3-256 (Sha3_256OpenSsl): messages fed
// by many threads at once, in runs of every size, at every dispatch level this CPU has (the
// others skipped with a message naming them), with one hasher and with several.
#include "odf_hash/internal/core/sha3_pool.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "odf_hash/core/sha3.h"

namespace odf_hash {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes random_bytes(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  Bytes b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

std::string level_name(const ::testing::TestParamInfo<KeccakLevel>& p) {
  return keccak_level_name(p.param);
}

class Sha3PoolTest : public ::testing::TestWithParam<KeccakLevel> {
 protected:
  void SetUp() override {
    if (!keccak_level_supported(GetParam())) {
      GTEST_SKIP() << keccak_level_name(GetParam()) << " not supported on this CPU";
    }
  }
  std::unique_ptr<Sha3_256Pool> make(unsigned hashers) {
    auto r = Sha3_256Pool::create(GetParam(), hashers);
    EXPECT_TRUE(r.is_ok()) << r.status().to_string();
    return std::move(r).value();
  }
};

// `threads` messages of up to `max_size` bytes, each fed by a thread of its own in runs of
// random sizes (a partial block, a few blocks, long runs), each one's digest compared with
// OpenSSL's. Returns the blocks the messages make (with their padding).
// With `split`, every other update is begin_update (finished by the next call, or by
// finish_update after some other work) instead of update.
uint64_t many_threads_match_openssl(Sha3_256Pool& pool, size_t threads, size_t max_size,
                                    bool split = false) {
  std::vector<Bytes> messages;
  uint64_t blocks = 0;
  for (size_t t = 0; t < threads; ++t) {
    const size_t size = t == 0 ? 0 : max_size - (t * 7919) % (max_size / 2);
    messages.push_back(random_bytes(t + 1, size));
    blocks += size / kSha3_256Rate + 1;
  }
  std::vector<Digest256> got(threads);
  std::vector<std::thread> workers;
  for (size_t t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      std::mt19937_64 rng(1000 + t);
      const size_t run_sizes[] = {1, 135, 136, 137, 64 * 136, 64 * 136 + 1, 300 * 136 + 17};
      PooledSha3_256 h(pool);
      const Bytes& m = messages[t];
      size_t at = 0;
      while (at < m.size()) {
        const size_t n = std::min(m.size() - at, run_sizes[rng() % std::size(run_sizes)]);
        const std::span<const uint8_t> bytes(m.data() + at, n);
        if (!split || rng() % 2 == 0) {
          h.update(bytes);
        } else {
          h.begin_update(bytes);
          if (rng() % 2 == 0) {
            std::this_thread::yield();  // the caller's other work
            h.finish_update();
          }
        }
        at += n;
      }
      got[t] = h.finalize();
    });
  }
  for (auto& w : workers) w.join();
  for (size_t t = 0; t < threads; ++t) {
    EXPECT_EQ(to_hex(got[t]), to_hex(Sha3_256OpenSsl::digest(messages[t])))
        << "message " << t << " of " << messages[t].size() << " bytes";
  }
  return blocks;
}

TEST_P(Sha3PoolTest, SixteenThreadsOneHasher) {
  auto pool = make(1);
  many_threads_match_openssl(*pool, 16, 400 * 1000);
}

TEST_P(Sha3PoolTest, SixteenThreadsTwoHashers) {
  auto pool = make(2);
  many_threads_match_openssl(*pool, 16, 400 * 1000);
}

// begin_update / finish_update: runs absorbed while their threads go on (and the threads'
// next calls finishing them), beside plain updates.
TEST_P(Sha3PoolTest, UpdatesFinishedLater) {
  auto pool = make(1);
  const uint64_t blocks = many_threads_match_openssl(*pool, 16, 400 * 1000, /*split=*/true);
  const Sha3_256Pool::Counts c = pool->counts();
  EXPECT_EQ(c.shared_blocks + c.alone_blocks, blocks);
}

TEST_P(Sha3PoolTest, MoreThreadsThanLanes) {
  auto pool = make(3);
  many_threads_match_openssl(*pool, 40, 100 * 1000);
}

// The runs of many threads at once share the lanes: a level with a multi-lane kernel absorbs
// most blocks together (lanes() > 1), the others alone.
TEST_P(Sha3PoolTest, RunsShareTheLanesOfTheLevel) {
  auto pool = make(1);
  const uint64_t blocks = many_threads_match_openssl(*pool, 16, 2 * 1000 * 1000);
  const Sha3_256Pool::Counts c = pool->counts();
  EXPECT_EQ(c.shared_blocks + c.alone_blocks, blocks);  // each absorbed once
  if (pool->lanes() == 1) {
    EXPECT_EQ(c.shared_blocks, 0u);
  } else {
    EXPECT_GT(c.shared_blocks, 0u) << "no block absorbed beside another message's";
  }
}

// A hasher returns once its own run is absorbed, handing the runs still in its lanes back
// unfinished (their states saved) to a waiting thread: every digest stays OpenSSL's. Rounds
// until a hand-back happened (the first, unless the threads happened to run one by one).
TEST_P(Sha3PoolTest, AHasherHandsBackOtherRunsOnceItsOwnIsDone) {
  auto pool = make(1);
  if (pool->lanes() == 1) GTEST_SKIP() << "one lane: every run is absorbed by its own thread";
  uint64_t blocks = 0;
  for (int round = 0; round < 20 && pool->counts().handed_back == 0; ++round) {
    blocks += many_threads_match_openssl(*pool, 16, 400 * 1000);
  }
  const Sha3_256Pool::Counts c = pool->counts();
  EXPECT_GT(c.handed_back, 0u) << "no hasher handed back an unfinished run in 20 rounds";
  EXPECT_EQ(c.shared_blocks + c.alone_blocks, blocks);  // each block once, hand-backs or not
}

TEST_P(Sha3PoolTest, OneThreadAndEmptyMessages) {
  auto pool = make(0);
  PooledSha3_256 h(*pool);
  EXPECT_EQ(to_hex(h.finalize()), to_hex(Sha3_256OpenSsl::digest(std::span<const uint8_t>())));
  const Bytes m = random_bytes(7, 1 << 20);
  h.update(m.data(), m.size());
  EXPECT_EQ(to_hex(h.finalize()), to_hex(Sha3_256OpenSsl::digest(m)));
  h.update(m.data(), 0);  // finalize reset the message; nothing absorbed since
  EXPECT_EQ(to_hex(h.finalize()), to_hex(Sha3_256OpenSsl::digest(std::span<const uint8_t>())));
  EXPECT_EQ(pool->counts().shared_blocks, 0u);  // alone: nobody to share the lanes with
}

INSTANTIATE_TEST_SUITE_P(Levels, Sha3PoolTest, ::testing::ValuesIn(kKeccakLevels), level_name);

TEST(Sha3Pool, LanesOfEachLevel) {
  EXPECT_EQ(Sha3_256Pool(KeccakLevel::kPortable).lanes(), 1u);
  EXPECT_EQ(Sha3_256Pool(KeccakLevel::kBmi2).lanes(), 1u);
  if (keccak_level_supported(KeccakLevel::kAvx2)) {
    EXPECT_EQ(Sha3_256Pool(KeccakLevel::kAvx2).lanes(), 4u);
  }
  if (keccak_level_supported(KeccakLevel::kAvx512)) {
    EXPECT_EQ(Sha3_256Pool(KeccakLevel::kAvx512).lanes(), 8u);
  }
  const auto unsupported = [] {
    for (KeccakLevel l : kKeccakLevels) {
      if (!keccak_level_supported(l)) return Sha3_256Pool::create(l).status();
    }
    return Status::ok();
  }();
  if (!unsupported.is_ok()) {
    EXPECT_EQ(unsupported.code(), StatusCode::kUnsupported);
  }
}

TEST(Sha3Pool, SharedPool) {
  EXPECT_TRUE(keccak_level_supported(Sha3_256Pool::shared().level()));
  PooledSha3_256 h;
  const Bytes m = random_bytes(3, 100000);
  h.update(m.data(), m.size());
  EXPECT_EQ(to_hex(h.finalize()), to_hex(Sha3_256OpenSsl::digest(m)));
}

}  // namespace
}  // namespace odf_hash
