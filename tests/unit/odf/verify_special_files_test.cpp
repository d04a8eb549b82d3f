// Datasets whose author chose the kind of a name, not only its bytes: FIFOs, directories and
// sockets where files should be, symbolic links inside and outside the dataset, unreadable
// files, and a store that cannot list. Each gives exactly one precise problem per path, and
// nothing hangs (an alarm kills the test binary if a FIFO were ever opened for reading).
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "broken_dataset.h"
#include "odf_hash/io/local_store.h"
#include "run_as_user.h"

namespace {

const std::string kNotOpened = ", not a regular file: it was not opened";
const std::string kLeaves =
    ", which leaves the dataset folder: not followed (--follow-symlinks follows it)";

// Kills the test binary (SIGALRM) if a test blocks for 60 s: a FIFO opened for reading.
class NoHang {
 public:
  NoHang() { ::alarm(60); }
  ~NoHang() { ::alarm(0); }
};

class SpecialFiles : public BrokenDataset {
 protected:
  void SetUp() override { copy_example("root"); }

  fs::path data_path(int seq) const { return dir_ / "data" / blocks_[seq].data; }
  std::string data_rel(int seq) const { return "data/" + blocks_[seq].data; }
  std::string block_of(int seq) const {
    return "seq " + std::to_string(seq) + " | " + blocks_[seq].hash;
  }
  // The outside world: a file next to the dataset copy.
  fs::path outside_file(const std::string& content) {
    fs::path p = dir_.string() + "-outside";
    write_bytes(p, std::vector<uint8_t>(content.begin(), content.end()));
    outside_.push_back(p);
    return p;
  }
  void TearDown() override {
    for (const auto& p : outside_) fs::remove_all(p);
    BrokenDataset::TearDown();
  }
  std::vector<fs::path> outside_;
};

TEST_F(SpecialFiles, HeadIsAFifo) {
  NoHang guard;
  fs::remove(dir_ / "refs/head");
  ASSERT_EQ(::mkfifo((dir_ / "refs/head").c_str(), 0644), 0);
  DatasetReport r = verify();
  EXPECT_EQ(describe_all(r),
            std::vector<std::string>{"not-a-regular-file | seq - | - | refs/head |  |  | "
                                     "refs/head is a FIFO (named pipe)" +
                                     kNotOpened});
}

TEST_F(SpecialFiles, HeadIsADirectory) {
  fs::remove(dir_ / "refs/head");
  fs::create_directory(dir_ / "refs/head");
  DatasetReport r = verify();
  EXPECT_EQ(describe_all(r),
            std::vector<std::string>{"not-a-regular-file | seq - | - | refs/head |  |  | "
                                     "refs/head is a directory" +
                                     kNotOpened});
}

TEST_F(SpecialFiles, HeadLinkedOutsideIsNotFollowedNorQuoted) {
  fs::path secret = outside_file("root:x:0:0:root:/root:/bin/bash\n");
  fs::remove(dir_ / "refs/head");
  fs::create_symlink(secret, dir_ / "refs/head");
  DatasetReport r = verify();
  EXPECT_EQ(describe_all(r),
            std::vector<std::string>{"link-outside-dataset | seq - | - | refs/head |  |  | "
                                     "refs/head is a symbolic link to \"" +
                                     secret.string() + "\"" + kLeaves});
  EXPECT_EQ(r.problems[0].message.find("root:x"), std::string::npos);
}

TEST_F(SpecialFiles, HeadLinkedInsideIsFollowed) {
  fs::create_directories(dir_ / "info");
  fs::rename(dir_ / "refs/head", dir_ / "info/head-copy");
  fs::create_symlink("../info/head-copy", dir_ / "refs/head");
  DatasetReport r = verify();
  EXPECT_TRUE(r.valid()) << ::testing::PrintToString(describe_all(r));
}

TEST_F(SpecialFiles, HeadWithBinaryContentIsQuotedShortAndEscaped) {
  std::vector<uint8_t> junk(300, 'A');
  junk[0] = 0x01;
  write_bytes(dir_ / "refs/head", junk);
  DatasetReport r = verify();
  EXPECT_EQ(describe_all(r),
            std::vector<std::string>{
                "head-invalid | seq - | - | refs/head |  |  | refs/head does not hold a "
                "multihash: \"\\x01" +
                std::string(39, 'A') + "\xE2\x80\xA6\": multibase: unknown prefix byte 0x01"});
}

TEST_F(SpecialFiles, HugeHeadIsNotRead) {
  write_bytes(dir_ / "refs/head", std::vector<uint8_t>(5000, 'f'));
  DatasetReport r = verify();
  EXPECT_EQ(describe_all(r),
            std::vector<std::string>{"head-invalid | seq - | - | refs/head |  |  | refs/head is "
                                     "5000 bytes long: far too long for a hash, not read"});
}

// One problem per path: a referenced data file that is a directory, a FIFO or a socket is
// reported once, as what it is (never also as missing, nor as unexpected).
TEST_F(SpecialFiles, DataFileOfEveryKind) {
  NoHang guard;
  fs::remove(data_path(3));
  fs::create_directory(data_path(3));
  fs::remove(data_path(2));
  ASSERT_EQ(::mkfifo(data_path(2).c_str(), 0644), 0);
  fs::path ckpt = dir_ / "checkpoints" / blocks_[4].checkpoint;
  fs::remove(ckpt);
  // A socket is bound at a short path (sun_path holds 108 bytes), then moved into place.
  std::string short_path = "/tmp/odf-sock-" + std::to_string(::getpid());
  int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, short_path.c_str(), short_path.size() + 1);
  ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  fs::rename(short_path, ckpt);
  DatasetReport r = verify();
  ::close(sock);
  EXPECT_EQ(describe_all(r),
            (std::vector<std::string>{
                "not-a-regular-file | " + block_of(4) + " | checkpoints/" + blocks_[4].checkpoint +
                    " |  |  | the checkpoint file is a socket" + kNotOpened,
                "not-a-regular-file | " + block_of(3) + " | " + data_rel(3) +
                    " |  |  | the data file is a directory" + kNotOpened,
                "not-a-regular-file | " + block_of(2) + " | " + data_rel(2) +
                    " |  |  | the data file is a FIFO (named pipe)" + kNotOpened}));
}

TEST_F(SpecialFiles, BlockIsADirectory) {
  fs::path block = dir_ / "blocks" / blocks_[2].hash;
  fs::remove(block);
  fs::create_directory(block);
  DatasetReport r = verify();
  EXPECT_FALSE(r.chain_complete);
  EXPECT_EQ(r.blocks, 2u);
  EXPECT_EQ(describe_all(r),
            std::vector<std::string>{"not-a-regular-file | " + block_of(2) + " | blocks/" +
                                     blocks_[2].hash + " |  |  | the block file is a directory" +
                                     kNotOpened});
}

TEST_F(SpecialFiles, DataLinkedOutside) {
  fs::path moved = dir_.string() + "-outside";
  fs::rename(data_path(3), moved);
  outside_.push_back(moved);
  fs::create_symlink(moved, data_path(3));
  DatasetReport r = verify();
  EXPECT_EQ(describe_all(r),
            std::vector<std::string>{"link-outside-dataset | " + block_of(3) + " | " + data_rel(3) +
                                     " |  |  | the data file is a symbolic link to \"" +
                                     moved.string() + "\"" + kLeaves});
  VerifyOptions follow;
  follow.store.follow_symlinks = true;
  r = verify_with(follow);
  EXPECT_TRUE(r.valid()) << ::testing::PrintToString(describe_all(r));
}

TEST_F(SpecialFiles, DataLinkedInsideIsFollowed) {
  fs::create_directories(dir_ / "info/parts");
  fs::rename(data_path(3), dir_ / "info/parts/p3");
  fs::create_symlink("../info/parts/p3", data_path(3));
  DatasetReport r = verify();
  EXPECT_TRUE(r.valid()) << ::testing::PrintToString(describe_all(r));
}

TEST_F(SpecialFiles, DataFolderLinkedOutside) {
  fs::path moved = dir_.string() + "-data";
  fs::rename(dir_ / "data", moved);
  outside_.push_back(moved);
  fs::create_symlink(moved, dir_ / "data");
  DatasetReport r = verify();
  const std::string through =
      " |  |  | the data file is reached through the symbolic link data -> \"" + moved.string() +
      "\"" + kLeaves;
  EXPECT_EQ(describe_all(r),
            (std::vector<std::string>{
                "link-outside-dataset | " + block_of(4) + " | " + data_rel(4) + through,
                "link-outside-dataset | " + block_of(3) + " | " + data_rel(3) + through,
                "link-outside-dataset | " + block_of(2) + " | " + data_rel(2) + through,
                "link-outside-dataset | seq - | - | data |  |  | the data folder is a symbolic "
                "link to \"" +
                    moved.string() + "\"" + kLeaves}));
  VerifyOptions follow;
  follow.store.follow_symlinks = true;
  r = verify_with(follow);
  EXPECT_TRUE(r.valid()) << ::testing::PrintToString(describe_all(r));
}

// Unreferenced entries of any kind are listed (never opened) saying what they are; with
// strict each is an unexpected-file problem.
TEST_F(SpecialFiles, UnreferencedSpecialEntriesAreListedSayingWhatTheyAre) {
  NoHang guard;
  std::string extra = hex_string(sha3_multihash({'x'}));
  ASSERT_EQ(::mkfifo((dir_ / "data" / extra).c_str(), 0644), 0);
  fs::create_directory(dir_ / "checkpoints" / "folder");
  fs::create_symlink("/etc/passwd", dir_ / "blocks" / "passwd");
  DatasetReport d = verify();
  EXPECT_TRUE(d.valid()) << ::testing::PrintToString(describe_all(d));
  EXPECT_EQ(describe_unreferenced(d),
            (std::vector<std::string>{"blocks/passwd | symlink | 0 bytes | link /etc/passwd",
                                      "checkpoints/folder | directory | 0 bytes",
                                      "data/" + extra + " | fifo | 0 bytes"}));
  DatasetReport r = verify_strict();
  EXPECT_EQ(describe_all(r),
            (std::vector<std::string>{
                "unexpected-file | seq - | - | blocks/passwd |  |  | no block of the chain "
                "references this symbolic link (to \"/etc/passwd\", which leaves the dataset "
                "folder)",
                "unexpected-file | seq - | - | checkpoints/folder |  |  | no block of the chain "
                "references this directory",
                "unexpected-file | seq - | - | data/" + extra +
                    " |  |  | no block of the chain references this FIFO (named pipe)"}));
}

// As root, mode 000 does not deny reads: a forked child drops to an unprivileged user and
// verifies; it sends back the problems it found.
TEST_F(SpecialFiles, UnreadableEntriesAsNobody) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to switch user";
  fs::permissions(data_path(3), fs::perms::none);
  fs::permissions(dir_ / "checkpoints" / blocks_[4].checkpoint, fs::perms::none);
  fs::permissions(dir_ / "blocks" / blocks_[1].hash, fs::perms::none);
  const std::string got = odf_hash::test_support::run_as_nobody([&] {
    auto r = verify_dataset(dir_.string());
    if (!r.is_ok()) return r.status().to_string();
    std::string out;
    for (const auto& p : r->problems) out += describe(p) + "\n";
    return out;
  });
  const std::string denied = ": cannot open: Permission denied";
  EXPECT_EQ(
      got,
      "block-unreadable | " + block_of(1) + " | blocks/" + blocks_[1].hash +
          " |  |  | cannot read the block file: " + (dir_ / "blocks" / blocks_[1].hash).string() +
          denied + "\n" + "file-unreadable | " + block_of(4) + " | checkpoints/" +
          blocks_[4].checkpoint + " |  |  | cannot read the checkpoint file: " +
          (dir_ / "checkpoints" / blocks_[4].checkpoint).string() + denied + "\n" +
          "file-unreadable | " + block_of(3) + " | " + data_rel(3) +
          " |  |  | cannot read the data file: " + data_path(3).string() + denied + "\n");
}

// A store that cannot list (as HTTP cannot): the local folder with listing switched off.
// Files are found by their canonical names, and the unexpected-file check is skipped.
class NoListing final : public ObjectStore {
 public:
  explicit NoListing(std::shared_ptr<ObjectStore> inner) : inner_(std::move(inner)) {}
  std::string location(std::string_view key) const override { return inner_->location(key); }
  bool can_list() const noexcept override { return false; }
  Result<std::vector<ObjectEntry>> list(std::string_view) const override {
    return Status::unsupported("this store cannot list");
  }
  Result<ObjectInfo> stat(std::string_view key) const override { return inner_->stat(key); }
  Result<OpenedObject> open(std::string_view key, const OpenOptions& o) const override {
    return inner_->open(key, o);
  }

 private:
  std::shared_ptr<ObjectStore> inner_;
};

TEST_F(SpecialFiles, StoreThatCannotListSkipsTheUnexpectedCheck) {
  write_bytes(dir_ / "data" / "stray.parquet", {'P', 'A', 'R', '1'});
  fs::remove(data_path(2));
  auto local = open_local_folder(dir_.string());
  ASSERT_TRUE(local.is_ok());
  auto dir = DatasetDir::open(std::make_shared<NoListing>(*local));
  ASSERT_TRUE(dir.is_ok()) << dir.status().to_string();
  EXPECT_FALSE(dir->listed());
  auto r = verify_dataset(*dir);
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  EXPECT_FALSE(r->unexpected_checked);
  EXPECT_TRUE(r->chain_complete);
  EXPECT_EQ(r->files.size(), 5u);
  EXPECT_EQ(describe_all(*r),
            std::vector<std::string>{
                "file-missing | " + block_of(2) + " | " + data_rel(2) +
                " |  |  | the data file does not exist; fetch it again from the dataset's source"});
}

}  // namespace
