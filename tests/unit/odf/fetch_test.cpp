// fetch_dataset (fetch.h): the example datasets copied to a temporary source, spoiled in one
// way, fetched into a temporary destination. The rule checked after every fetch: each file
// under a final name in DEST holds bytes that hash (OpenSSL) to its name, and refs/head names
// either the old head or the source's.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "broken_dataset.h"
#include "odf_hash/odf/fetch.h"

namespace {

class Fetch : public BrokenDataset {
 protected:
  void SetUp() override {
    dest_ = fs::path(::testing::TempDir()) /
            ("odf_fetch_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dest_);
  }
  void TearDown() override {
    fs::remove_all(dest_);
    BrokenDataset::TearDown();
  }

  FetchReport fetch(FetchOptions o = {}) {
    if (o.jobs == 1) o.jobs = 2;
    auto r = fetch_dataset(dir_.string(), dest_.string(), o);
    EXPECT_TRUE(r.is_ok()) << r.status().to_string();
    return r.is_ok() ? *r : FetchReport{};
  }

  // Every file under a final name hashes to its name; returns how many there are.
  size_t check_final_names() {
    size_t n = 0;
    for (const char* folder : {"blocks", "data", "checkpoints"}) {
      if (!fs::exists(dest_ / folder)) continue;
      for (const auto& e : fs::directory_iterator(dest_ / folder)) {
        EXPECT_EQ(sha3_file(e.path()), e.path().filename().string()) << e.path();
        ++n;
      }
    }
    return n;
  }
  std::string dest_head() {
    if (!fs::exists(dest_ / "refs/head")) return "";
    auto b = read_bytes(dest_ / "refs/head");
    return {b.begin(), b.end()};
  }
  // The example's files of blocks from..to (data then checkpoint), with their sizes.
  std::vector<std::pair<std::string, uint64_t>> files_of(size_t from, size_t to) {
    std::vector<std::pair<std::string, uint64_t>> out;
    for (size_t s = from; s <= to; ++s) {
      if (!blocks_[s].data.empty())
        out.emplace_back("data/" + blocks_[s].data, blocks_[s].data_size);
      if (!blocks_[s].checkpoint.empty()) {
        out.emplace_back("checkpoints/" + blocks_[s].checkpoint, blocks_[s].checkpoint_size);
      }
    }
    return out;
  }
  void set_source_head(size_t seq) {
    const std::string h = blocks_[seq].hash;
    write_bytes(dir_ / "refs/head", std::vector<uint8_t>(h.begin(), h.end()));
  }

  fs::path dest_;
};

TEST_F(Fetch, CopiesTheWholeDatasetByteForByte) {
  copy_example("root");
  FetchReport r = fetch();
  EXPECT_TRUE(r.fetched()) << (r.problems.empty() ? "" : describe(r.problems[0]));
  EXPECT_EQ(r.blocks_fetched, blocks_.size());
  EXPECT_FALSE(r.old_head.has_value());
  ASSERT_TRUE(r.head.has_value());
  EXPECT_EQ(r.head->to_string(), blocks_.back().hash);
  EXPECT_EQ(dest_head(), blocks_.back().hash);
  uint64_t bytes = 0;
  for (const auto& [file, size] : files_of(0, blocks_.size() - 1)) {
    EXPECT_EQ(read_bytes(dest_ / file), read_bytes(dir_ / file)) << file;
    bytes += size;
  }
  EXPECT_EQ(r.bytes_transferred(), bytes);
  EXPECT_EQ(r.files.size(), files_of(0, blocks_.size() - 1).size());
  for (const auto& f : r.files) EXPECT_EQ(f.how, FetchedHow::kTransferred) << f.file;
  for (const auto& b : blocks_) {
    EXPECT_EQ(read_bytes(dest_ / "blocks" / b.hash), read_bytes(dir_ / "blocks" / b.hash));
  }
  EXPECT_EQ(check_final_names(), blocks_.size() + r.files.size());
  EXPECT_FALSE(fs::exists(dest_ / ".odf-hash-fetch"));  // nothing left to resume
  VerifyOptions vo;
  auto v = verify_dataset(dest_.string(), vo);
  ASSERT_TRUE(v.is_ok());
  EXPECT_TRUE(v->valid()) << describe_all(*v)[0];

  FetchReport again = fetch();
  EXPECT_TRUE(again.up_to_date);
  EXPECT_EQ(again.verdict(), "UP TO DATE");
  EXPECT_TRUE(again.files.empty());
}

TEST_F(Fetch, DerivativeDataIsCheckedPhysicallyWithoutFallback) {
  copy_example("derivative");
  FetchReport r = fetch();
  EXPECT_TRUE(r.fetched());
  EXPECT_EQ(check_final_names(), blocks_.size() + r.files.size());
  // A re-encoded data file (same records, other bytes) passes verify's logical fallback, but
  // fetch obtains bytes: they must be the recorded ones.
  fs::remove_all(dest_);
  size_t seq = 0;
  while (blocks_[seq].data.empty()) ++seq;
  const fs::path data = dir_ / "data" / blocks_[seq].data;
  const auto reencoded = read_bytes(kFixtures / "derivative-slice0-reencoded.parquet");
  write_bytes(data, reencoded);
  FetchReport bad = fetch();
  ASSERT_FALSE(bad.fetched());
  ASSERT_EQ(bad.problems.size(), 1u);
  EXPECT_EQ(bad.problems[0].kind, ProblemKind::kSizeMismatch) << describe(bad.problems[0]);
}

TEST_F(Fetch, AFileThatDoesNotVerifyIsRejectedAndTheHeadDoesNotMove) {
  copy_example("root");
  size_t seq = blocks_.size() - 1;
  while (blocks_[seq].data.empty()) --seq;
  flip_middle_byte(dir_ / "data" / blocks_[seq].data);
  FetchReport r = fetch();
  ASSERT_FALSE(r.fetched());
  ASSERT_EQ(r.problems.size(), 1u);
  const Problem& p = r.problems[0];
  EXPECT_EQ(p.kind, ProblemKind::kPhysicalHashMismatch) << describe(p);
  EXPECT_EQ(p.expected, blocks_[seq].data);
  EXPECT_EQ(p.actual, sha3_file(dir_ / "data" / blocks_[seq].data));
  EXPECT_EQ(r.verdict(), "REJECTED (1 problem)");
  EXPECT_FALSE(fs::exists(dest_ / "data" / blocks_[seq].data));
  EXPECT_FALSE(fs::exists(dest_ / "blocks"));  // no block before every file verified
  EXPECT_EQ(dest_head(), "");
  EXPECT_FALSE(r.head.has_value());
  check_final_names();
  // Nothing of the bad bytes is kept for resuming either.
  EXPECT_FALSE(fs::exists(dest_ / ".odf-hash-fetch" / (blocks_[seq].data + ".partial")));
}

TEST_F(Fetch, ABrokenChainRejectsBeforeAnyByteIsWritten) {
  copy_example("root");
  flip_middle_byte(dir_ / "blocks" / blocks_[2].hash);
  FetchReport r = fetch();
  ASSERT_FALSE(r.fetched());
  EXPECT_EQ(r.problems[0].kind, ProblemKind::kBlockHashMismatch) << describe(r.problems[0]);
  EXPECT_EQ(r.bytes_transferred(), 0u);
  EXPECT_FALSE(fs::exists(dest_ / "data"));
  EXPECT_FALSE(fs::exists(dest_ / "blocks"));
}

TEST_F(Fetch, ATruncatedFileIsNotTransferred) {
  copy_example("root");
  size_t seq = 0;
  while (blocks_[seq].data.empty()) ++seq;
  truncate_to(dir_ / "data" / blocks_[seq].data, 100);
  FetchReport r = fetch();
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].kind, ProblemKind::kSizeMismatch);
  // Sizes are numbers (JSON numbers), in bytes.
  EXPECT_EQ(r.problems[0].expected.as_number(), std::optional<uint64_t>(blocks_[seq].data_size));
  EXPECT_EQ(r.problems[0].actual.as_number(), std::optional<uint64_t>(100));
  EXPECT_EQ(r.problems[0].unit, ProblemUnit::kBytes);
  EXPECT_EQ(r.problems[0].actual.to_string(r.problems[0].unit), "100 bytes");
  for (const auto& f : r.files) {
    if (f.how == FetchedHow::kRejected) {
      EXPECT_EQ(f.bytes_transferred, 0u);
    }
  }
}

TEST_F(Fetch, IncrementalFetchTransfersOnlyTheNewBlocksAndTheirFiles) {
  copy_example("root");
  const size_t last = blocks_.size() - 1;
  set_source_head(2);
  FetchReport first = fetch();
  ASSERT_TRUE(first.fetched());
  EXPECT_EQ(first.blocks_fetched, 3u);
  EXPECT_EQ(dest_head(), blocks_[2].hash);
  EXPECT_FALSE(fs::exists(dest_ / "blocks" / blocks_[3].hash));

  set_source_head(last);
  FetchReport second = fetch();
  ASSERT_TRUE(second.fetched()) << describe(second.problems[0]);
  EXPECT_EQ(second.old_head->to_string(), blocks_[2].hash);
  EXPECT_EQ(second.old_sequence, 2u);
  EXPECT_EQ(second.blocks_fetched, last - 2);
  const auto expected = files_of(3, last);
  uint64_t bytes = 0;
  for (const auto& [file, size] : expected) bytes += size;
  EXPECT_EQ(second.files.size(), expected.size());
  EXPECT_EQ(second.bytes_transferred(), bytes);
  EXPECT_EQ(dest_head(), blocks_[last].hash);
  check_final_names();
  auto v = verify_dataset(dest_.string(), VerifyOptions{});
  ASSERT_TRUE(v.is_ok());
  EXPECT_TRUE(v->valid());

  // The source behind DEST: nothing to fetch, nothing written.
  set_source_head(1);
  FetchReport behind = fetch();
  EXPECT_TRUE(behind.fetched());
  EXPECT_TRUE(behind.dest_ahead);
  EXPECT_EQ(dest_head(), blocks_[last].hash);
}

TEST_F(Fetch, ARewrittenHistoryIsRefusedUnlessForced) {
  copy_example("root");
  FetchReport first = fetch();
  ASSERT_TRUE(first.fetched());
  const std::string old_head = dest_head();
  copy_example("derivative");  // another chain in the source's place
  FetchReport r = fetch();
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].kind, ProblemKind::kHistoryRewritten);
  EXPECT_EQ(r.problems[0].expected, old_head);
  EXPECT_EQ(r.problems[0].actual, blocks_.back().hash);
  EXPECT_EQ(dest_head(), old_head);
  EXPECT_EQ(r.bytes_transferred(), 0u);

  FetchOptions force;
  force.force = true;
  FetchReport forced = fetch(force);
  ASSERT_TRUE(forced.fetched());
  EXPECT_TRUE(forced.forced);
  EXPECT_EQ(dest_head(), blocks_.back().hash);
  check_final_names();
}

TEST_F(Fetch, ATrustedHeadNotOnTheSourceChainRejects) {
  copy_example("root");
  FetchOptions o;
  o.expect_head = *Multihash::parse(sha3_file(kFixtures / "derivative-slice0-reencoded.parquet"));
  FetchReport r = fetch(o);
  ASSERT_FALSE(r.fetched());
  EXPECT_EQ(r.problems[0].kind, ProblemKind::kHistoryRewritten);
  EXPECT_FALSE(fs::exists(dest_ / "refs"));
}

TEST_F(Fetch, APartialObjectIsResumedAndAWrongOneStartedAgain) {
  copy_example("root");
  size_t seq = 0;
  while (blocks_[seq].data.empty()) ++seq;
  const std::string name = blocks_[seq].data;
  const auto bytes = read_bytes(dir_ / "data" / name);
  fs::create_directories(dest_ / ".odf-hash-fetch");
  const size_t half = bytes.size() / 2;
  write_bytes(dest_ / ".odf-hash-fetch" / (name + ".partial"),
              std::vector<uint8_t>(bytes.begin(), bytes.begin() + half));
  FetchReport r = fetch();
  ASSERT_TRUE(r.fetched());
  for (const auto& f : r.files) {
    if (f.file != "data/" + name) continue;
    EXPECT_EQ(f.how, FetchedHow::kResumed);
    EXPECT_EQ(f.bytes_transferred, bytes.size() - half);
  }
  EXPECT_EQ(read_bytes(dest_ / "data" / name), bytes);

  fs::remove_all(dest_);
  fs::create_directories(dest_ / ".odf-hash-fetch");
  write_bytes(dest_ / ".odf-hash-fetch" / (name + ".partial"), std::vector<uint8_t>(half, 0x5a));
  FetchReport again = fetch();
  ASSERT_TRUE(again.fetched());
  for (const auto& f : again.files) {
    if (f.file == "data/" + name) {
      EXPECT_EQ(f.how, FetchedHow::kTransferred);
    }
  }
  EXPECT_EQ(read_bytes(dest_ / "data" / name), bytes);
  check_final_names();
}

TEST_F(Fetch, FilesAlreadyThereAreKeptWhenRightAndReplacedWhenWrong) {
  copy_example("root");
  const auto files = files_of(0, blocks_.size() - 1);
  fs::create_directories(dest_ / "data");
  fs::create_directories(dest_ / "blocks");
  fs::copy_file(dir_ / files[0].first, dest_ / files[0].first);
  std::string wrong;
  for (const auto& [file, size] : files) {
    if (file != files[0].first && file.rfind("data/", 0) == 0) wrong = file;
  }
  ASSERT_FALSE(wrong.empty());
  write_bytes(dest_ / wrong, {1, 2, 3});
  FetchReport r = fetch();
  ASSERT_TRUE(r.fetched());
  for (const auto& f : r.files) {
    EXPECT_EQ(f.how, f.file == files[0].first ? FetchedHow::kPresent : FetchedHow::kTransferred)
        << f.file;
  }
  EXPECT_EQ(check_final_names(), blocks_.size() + files.size());
}

TEST_F(Fetch, ALinkPlantedInTheDestinationIsNeverWrittenThrough) {
  copy_example("root");
  const fs::path elsewhere = dest_.string() + "_elsewhere";
  fs::remove_all(elsewhere);
  fs::create_directories(elsewhere);
  fs::create_directories(dest_ / "blocks");
  fs::create_directory_symlink(elsewhere, dest_ / "data");
  auto r = fetch_dataset(dir_.string(), dest_.string());
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().to_string();
  EXPECT_TRUE(fs::is_empty(elsewhere));
  fs::remove_all(elsewhere);
}

TEST_F(Fetch, ADestinationThatIsNoDatasetOrIsLockedIsRefused) {
  copy_example("root");
  fs::create_directories(dest_);
  write_bytes(dest_ / "notes.txt", {'x'});
  auto r = fetch_dataset(dir_.string(), dest_.string());
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(read_bytes(dest_ / "notes.txt"), std::vector<uint8_t>{'x'});

  fs::remove(dest_ / "notes.txt");
  fs::create_directories(dest_ / ".odf-hash-fetch");
  const int fd = ::open((dest_ / ".odf-hash-fetch/lock").c_str(), O_RDWR | O_CREAT, 0666);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  auto locked = fetch_dataset(dir_.string(), dest_.string());
  ::close(fd);
  ASSERT_FALSE(locked.is_ok());
  EXPECT_NE(locked.status().message().find("another fetch"), std::string::npos);
  EXPECT_FALSE(fs::exists(dest_ / "refs"));
}

}  // namespace
