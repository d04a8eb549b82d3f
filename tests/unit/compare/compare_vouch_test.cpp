// compare_datasets never vouches for data that was not checked against its own metadata
// (compare_datasets.h: SideCheck, DatasetVerdict). Copies of the example datasets are broken
// the ways an attacker or an accident would (a head block swapped for another valid block, the
// same block missing on both sides, a data file tampered identically on both sides, a
// derivative's file re-encoded); the expected problems of each side are verify_dataset's on
// the same folder, the expected verdict and entries come from the construction.
#include <algorithm>
#include <limits>

#include "../../../src/compare/compare_vouch.h"
#include "broken_dataset.h"
#include "odf_hash/compare/compare_datasets.h"
#include "odf_hash/compare/compare_json.h"

using namespace odf_hash::compare;

namespace {

class CompareVouch : public ::testing::Test {
 protected:
  // Two copies of the example, a_ and b_, and its pristine chain (by sequence number).
  void copy_example(const std::string& name) {
    const fs::path src = kSource / "examples/datasets" / name;
    base_ = fs::path(::testing::TempDir()) /
            ("odf_vouch_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(base_);
    fs::create_directories(base_);
    a_ = base_ / "a";
    b_ = base_ / "b";
    fs::copy(src, a_, fs::copy_options::recursive);
    fs::copy(src, b_, fs::copy_options::recursive);
    auto dir = DatasetDir::open(src.string());
    ASSERT_TRUE(dir.is_ok());
    auto chain = read_chain(*dir);
    ASSERT_TRUE(chain.is_ok()) << chain.status().to_string();
    blocks_.assign(chain->rbegin(), chain->rend());  // a complete chain: seed first
    for (size_t i = 0; i < blocks_.size(); ++i) ASSERT_EQ(blocks_[i].block.sequence_number, i);
  }
  void TearDown() override { fs::remove_all(base_); }

  fs::path block_file(const fs::path& ds, uint64_t seq) const {
    return ds / "blocks" / blocks_.at(seq).hash.to_string();
  }
  fs::path data_file(const fs::path& ds, uint64_t seq) const {
    return ds / "data" / blocks_.at(seq).block.new_data->physical_hash.to_string();
  }
  // The newest block adding data, and the number of data files of the chain.
  uint64_t newest_data_block() const {
    for (size_t i = blocks_.size(); i-- > 0;) {
      if (blocks_[i].block.new_data) return i;
    }
    return 0;
  }
  size_t data_files() const {
    return std::count_if(blocks_.begin(), blocks_.end(),
                         [](const ChainBlock& cb) { return cb.block.new_data.has_value(); });
  }

  DatasetComparison compare() {
    auto r = compare_datasets(a_.string(), b_.string());
    EXPECT_TRUE(r.is_ok()) << r.status().to_string();
    return r.is_ok() ? std::move(r).value() : DatasetComparison{};
  }
  // verify's problems of a side, the expected ones.
  static std::vector<std::string> verify_problems(const fs::path& ds) {
    auto r = verify_dataset(ds.string());
    EXPECT_TRUE(r.is_ok()) << r.status().to_string();
    return r.is_ok() ? describe_all(*r) : std::vector<std::string>{"(verify failed)"};
  }
  static std::vector<std::string> problems(const SideCheck& side) {
    std::vector<std::string> out;
    for (const auto& p : side.problems) out.push_back(describe(p));
    return out;
  }
  static void expect_nothing_vouched(const DatasetComparison& c) {
    EXPECT_EQ(c.verdict, DatasetVerdict::kUnverified);
    EXPECT_FALSE(c.same_records);
    for (const auto& s : c.slices) {
      EXPECT_FALSE(s.vouched);
      EXPECT_NE(std::string(slice_verdict_name(s)), "identical");
      EXPECT_NE(std::string(slice_verdict_name(s)), "equivalent");
    }
  }

  fs::path base_, a_, b_;
  std::vector<ChainBlock> blocks_;  // the pristine chain, by sequence number
};

TEST_F(CompareVouch, PristineCopiesAreVouchedFor) {
  copy_example("root");
  DatasetComparison c = compare();
  EXPECT_EQ(c.verdict, DatasetVerdict::kSameRecords);
  EXPECT_TRUE(c.same_records);
  for (const SideCheck* side : {&c.original_check, &c.reproduced_check}) {
    EXPECT_TRUE(side->vouched());
    EXPECT_TRUE(side->chain_complete);
    EXPECT_EQ(side->head->to_string(), blocks_.back().hash.to_string());
    // Every data file is read and checked once; the checkpoints are not read.
    ASSERT_EQ(side->files.size(), data_files());
    for (const auto& f : side->files) EXPECT_EQ(f.outcome, FileOutcome::kPhysicalMatch);
    EXPECT_FALSE(side->unreached);
  }
  for (const auto& s : c.slices) {
    EXPECT_TRUE(s.vouched);
    EXPECT_EQ(std::string(slice_verdict_name(s)), "identical");
  }
  EXPECT_EQ(verify_problems(a_), std::vector<std::string>{});
}

// The head block's file holds the bytes of the block below it (a valid block): the chain
// walked from it lacks the real head, so each side is what it claims only if its blocks hash
// to their names. Swapped on one side, then on both (the same records on both walks).
TEST_F(CompareVouch, SwappedHeadBlockIsUnverified) {
  copy_example("root");
  const uint64_t head = blocks_.size() - 1;
  const auto below = read_bytes(block_file(a_, head - 1));
  write_bytes(block_file(b_, head), below);
  const std::vector<std::string> expected = verify_problems(b_);
  ASSERT_FALSE(expected.empty());
  DatasetComparison c = compare();
  expect_nothing_vouched(c);
  EXPECT_TRUE(c.original_check.vouched());
  EXPECT_FALSE(c.reproduced_check.vouched());
  EXPECT_EQ(problems(c.reproduced_check), expected);
  // Both sides swapped alike: their walks agree, and still nothing is vouched for.
  write_bytes(block_file(a_, head), below);
  c = compare();
  expect_nothing_vouched(c);
  EXPECT_EQ(problems(c.original_check), verify_problems(a_));
  EXPECT_EQ(problems(c.reproduced_check), expected);
  for (const auto& s : c.slices) {
    if (detail::compared_run(s)) {
      EXPECT_EQ(std::string(slice_verdict_name(s)), "unverified");
    }
  }
  const std::string json = side_check_json(c.original_check);
  EXPECT_NE(json.find("\"vouched\":false"), std::string::npos) << json;
}

// The same block deleted from both chains: the walks stop there, the offsets its and the
// older blocks hold are unreached on both sides, listed as such (never left out).
TEST_F(CompareVouch, SameMissingBlockOnBothSidesLeavesOffsetsUnreached) {
  copy_example("root");
  const uint64_t newest = newest_data_block();
  // The first offset of the newest slice: the blocks below it hold the offsets before.
  const uint64_t first = blocks_[newest].block.new_data->offset_interval.start;
  ASSERT_GT(first, 0u);
  fs::remove(block_file(a_, newest - 1));
  fs::remove(block_file(b_, newest - 1));
  DatasetComparison c = compare();
  expect_nothing_vouched(c);
  EXPECT_EQ(problems(c.original_check), verify_problems(a_));
  EXPECT_EQ(problems(c.reproduced_check), verify_problems(b_));
  for (const SideCheck* side : {&c.original_check, &c.reproduced_check}) {
    EXPECT_FALSE(side->chain_complete);
    ASSERT_TRUE(side->unreached);
    EXPECT_EQ(side->unreached->start, 0u);
    EXPECT_EQ(side->unreached->end, first - 1);
  }
  ASSERT_FALSE(c.slices.empty());
  const SliceComparison& below = c.slices.front();
  EXPECT_EQ(below.interval.start, 0u);
  EXPECT_EQ(below.interval.end, first - 1);
  EXPECT_TRUE(below.original_unreached && below.reproduced_unreached);
  EXPECT_TRUE(below.original_files.empty() && below.reproduced_files.empty());
  EXPECT_EQ(std::string(slice_verdict_name(below)), "unreached");
}

// One side broken: the other side's slices below the break are unreached, not "only in" it.
TEST_F(CompareVouch, OneBrokenChainMakesTheOtherSidesSlicesUnreached) {
  copy_example("root");
  const uint64_t newest = newest_data_block();
  fs::remove(block_file(b_, newest - 1));
  DatasetComparison c = compare();
  expect_nothing_vouched(c);
  size_t unreached = 0;
  for (const auto& s : c.slices) {
    EXPECT_NE(std::string(slice_verdict_name(s)), "only-in-original");
    if (s.reproduced_unreached) {
      ++unreached;
      EXPECT_FALSE(s.original_files.empty());
      EXPECT_LT(s.interval.end, blocks_[newest].block.new_data->offset_interval.start);
    }
  }
  EXPECT_EQ(unreached, data_files() - 1);
}

// The same data file flipped on both sides: the bytes compare identical, but each side's chain
// records another hash.
TEST_F(CompareVouch, DataFileTamperedIdenticallyOnBothSides) {
  copy_example("root");
  const uint64_t newest = newest_data_block();
  flip_middle_byte(data_file(a_, newest));
  flip_middle_byte(data_file(b_, newest));
  ASSERT_EQ(read_bytes(data_file(a_, newest)), read_bytes(data_file(b_, newest)));
  DatasetComparison c = compare();
  expect_nothing_vouched(c);
  EXPECT_EQ(problems(c.original_check), verify_problems(a_));
  EXPECT_EQ(problems(c.reproduced_check), verify_problems(b_));
  ASSERT_EQ(c.original_check.problems.size(), 1u);
  EXPECT_EQ(c.original_check.problems[0].kind, ProblemKind::kPhysicalHashMismatch);
  // The comparison itself found the bytes identical: what was read, not vouched for.
  bool compared_identical = false;
  for (const auto& s : c.slices) {
    if (s.comparison && s.comparison->verdict == CompareVerdict::kIdentical &&
        s.original_files.front().file == "data/" + data_file(a_, newest).filename().string()) {
      compared_identical = true;
      EXPECT_EQ(std::string(slice_verdict_name(s)), "unverified");
    }
  }
  EXPECT_TRUE(compared_identical);
}

// A derivative's data file re-encoded (other bytes, the recorded records): verify accepts it
// through the logical fallback, and so is it vouched for.
TEST_F(CompareVouch, ReencodedDerivativeFileIsVouchedForLogically) {
  const auto fixtures = nlohmann::json::parse(read_bytes(kFixtures / "fixtures.json"));
  if (fixtures.value("placeholder_logical_hashes", true)) {
    GTEST_SKIP() << "example datasets carry placeholder logical hashes";
  }
  copy_example("derivative");
  fs::copy_file(kFixtures / "derivative-slice0-reencoded.parquet", data_file(b_, 2),
                fs::copy_options::overwrite_existing);
  ASSERT_EQ(verify_problems(b_), std::vector<std::string>{});
  DatasetComparison c = compare();
  EXPECT_EQ(c.verdict, DatasetVerdict::kSameRecords);
  EXPECT_TRUE(c.reproduced_check.vouched());
  const auto logical =
      std::count_if(c.reproduced_check.files.begin(), c.reproduced_check.files.end(),
                    [](const FileCheck& f) { return f.outcome == FileOutcome::kLogicalMatch; });
  EXPECT_EQ(logical, 1);
}

// pair_dataset_slices checks the chains and leaves the files' tasks to run: never vouched
// for until they ran.
TEST_F(CompareVouch, PairingLeavesTheFileChecksToRun) {
  copy_example("root");
  auto paired = pair_dataset_slices(a_.string(), b_.string());
  ASSERT_TRUE(paired.is_ok()) << paired.status().to_string();
  EXPECT_EQ(paired->verdict, DatasetVerdict::kUnverified);
  ASSERT_EQ(paired->original_check.tasks.size(), data_files());
  for (size_t i = 0; i < paired->original_check.tasks.size(); ++i) {
    const FileTask& t = paired->original_check.tasks[i];
    EXPECT_EQ(t.id, i);
    EXPECT_EQ(t.role, FileRole::kData);
    EXPECT_EQ(sha3_file(a_ / t.file), t.physical.to_string());
  }
  // The checkpoints: referenced, never read by the comparison.
  EXPECT_EQ(paired->original_check.files_unchecked,
            size_t(std::count_if(blocks_.begin(), blocks_.end(), [](const ChainBlock& cb) {
              return cb.block.new_checkpoint.has_value();
            })));
}

// The offsets below a broken chain, from the oldest block read.
TEST(UnreachedOffsets, FromTheOldestBlockRead) {
  auto block = [](std::optional<uint64_t> prev_offset, std::optional<OffsetInterval> data) {
    ChainBlock cb{Multihash(HashCode::kSha3_256, Digest256{}), "", {}};
    cb.block.prev_offset = prev_offset;
    if (data) cb.block.new_data = DataSlice{cb.hash, cb.hash, *data, 1};
    return cb;
  };
  using detail::unreached_offsets;
  EXPECT_FALSE(unreached_offsets({block(std::nullopt, OffsetInterval{5, 9})}, true));
  auto u = unreached_offsets({block(4, OffsetInterval{5, 9})}, false);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->end, 4u);
  u = unreached_offsets({block(7, std::nullopt), block(7, OffsetInterval{8, 9})}, false);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->end, 7u);
  EXPECT_FALSE(unreached_offsets({block(std::nullopt, OffsetInterval{0, 9})}, false));
  u = unreached_offsets({block(std::nullopt, std::nullopt)}, false);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->end, std::numeric_limits<uint64_t>::max());
}

}  // namespace
