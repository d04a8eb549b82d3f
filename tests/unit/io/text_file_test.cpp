// Small text files (text_file.h): bounded reads, and replacements under a lock that follow a
// link to its file, never write through a name planted beside it, and keep every writer's
// change when several run at once. Real files, folders, links and FIFOs made here.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "odf_hash/internal/io/exclusive_temp.h"
#include "odf_hash/internal/io/text_file.h"

namespace {

namespace fs = std::filesystem;
using odf_hash::read_text_file;
using odf_hash::Result;
using odf_hash::Status;
using odf_hash::StatusCode;
using odf_hash::update_text_file;

class TextFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::weakly_canonical(fs::path(::testing::TempDir())) /
            ("odf_text_file_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  static std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
  // Appends `line` to what the file holds.
  static odf_hash::TextFileUpdate append(const std::string& line) {
    return [line](const std::optional<std::string>& current) -> Result<std::string> {
      return current.value_or("") + line + "\n";
    };
  }
  fs::path root_;
};

TEST_F(TextFiles, ReadsRegularFilesAndPipesUnderTheBound) {
  write(root_ / "f", "abc\n");
  EXPECT_EQ(read_text_file((root_ / "f").string(), "pin file", 4).value(), "abc\n");
  auto big = read_text_file((root_ / "f").string(), "pin file", 3);
  ASSERT_FALSE(big.is_ok());
  EXPECT_EQ(big.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(big.status().message().find("larger than 3 bytes"), std::string::npos);
  auto missing = read_text_file((root_ / "nothing").string(), "pin file", 10);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  // A device and a folder are refused before a byte is read.
  auto zero = read_text_file("/dev/zero", "pin file", 1 << 20);
  ASSERT_FALSE(zero.is_ok());
  EXPECT_EQ(zero.status().message(),
            "/dev/zero: a character device, not a pin file (a regular file or a pipe)");
  EXPECT_FALSE(read_text_file(root_.string(), "pin file", 10).is_ok());
  // A FIFO whose writer sends more than the bound: refused after max_bytes (+ one read).
  // The writer then writes to a pipe nobody reads: EPIPE, not the signal.
  std::signal(SIGPIPE, SIG_IGN);
  const fs::path fifo = root_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    std::string chunk(1 << 16, 'x');
    for (int i = 0; i < 64; ++i) {
      if (::write(fd, chunk.data(), chunk.size()) < 0) break;  // the reader is gone
    }
    ::close(fd);
  });
  auto endless = read_text_file(fifo.string(), "pin file", 1 << 20);
  writer.join();
  ASSERT_FALSE(endless.is_ok());
  EXPECT_NE(endless.status().message().find("larger than 1 MiB"), std::string::npos);
}

TEST_F(TextFiles, UpdateCreatesReplacesAndKeepsThePermissions) {
  const fs::path f = root_ / "pins";
  ASSERT_TRUE(update_text_file(f.string(), "pin file", 100, append("one")).is_ok());
  EXPECT_EQ(slurp(f), "one\n");
  ::chmod(f.c_str(), 0640);
  ASSERT_TRUE(update_text_file(f.string(), "pin file", 100, append("two")).is_ok());
  EXPECT_EQ(slurp(f), "one\ntwo\n");
  struct stat st {};
  ASSERT_EQ(::stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  // An update that fails leaves the file, and no temporary file.
  Status failed = update_text_file(
      f.string(), "pin file", 100,
      [](const auto&) -> Result<std::string> { return Status::invalid_argument("no"); });
  EXPECT_FALSE(failed.is_ok());
  EXPECT_EQ(slurp(f), "one\ntwo\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(root_), fs::directory_iterator()), 1);
  // Larger than the bound now: refused, left as it is.
  EXPECT_FALSE(update_text_file(f.string(), "pin file", 5, append("three")).is_ok());
  EXPECT_EQ(slurp(f), "one\ntwo\n");
}

TEST_F(TextFiles, ALinkIsFollowedToItsFileWhichIsReplaced) {
  fs::create_directories(root_ / "real");
  write(root_ / "real" / "pins", "old\n");
  fs::create_symlink("real/pins", root_ / "link");
  ASSERT_TRUE(update_text_file((root_ / "link").string(), "pin file", 100, append("new")).is_ok());
  EXPECT_TRUE(fs::is_symlink(root_ / "link"));
  EXPECT_EQ(slurp(root_ / "real" / "pins"), "old\nnew\n");
  // A link leading nowhere, to a folder or to a device: refused, nothing written.
  fs::create_symlink("nowhere", root_ / "dangling");
  fs::create_symlink("real", root_ / "to-folder");
  fs::create_symlink("/dev/full", root_ / "to-device");
  for (const char* name : {"dangling", "to-folder", "to-device"}) {
    Status st = update_text_file((root_ / name).string(), "pin file", 100, append("x"));
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << name << ": " << st.message();
  }
  EXPECT_FALSE(fs::exists(root_ / "nowhere"));
  EXPECT_EQ(update_text_file("/dev/full", "pin file", 100, append("x")).code(),
            StatusCode::kInvalidArgument);
  EXPECT_FALSE(
      update_text_file((root_ / "no-folder" / "pins").string(), "pin file", 100, append("x"))
          .is_ok());
}

// A link planted at the name the temporary file would take is never written through: the
// name is taken by someone else, so the next one is drawn.
TEST_F(TextFiles, APlantedLinkIsNeverOpened) {
  const fs::path victim = root_ / "victim";
  write(victim, "precious\n");
  fs::create_symlink(victim, root_ / "planted");
  fs::create_symlink(root_ / "nowhere", root_ / "planted-dangling");
  const int dir = ::open(root_.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(dir, 0);
  std::vector<std::string> names = {"planted", "planted-dangling", "victim", "fresh"};
  size_t next = 0;
  auto tmp = odf_hash::io_internal::create_exclusive_temp(dir, root_.string(),
                                                          [&] { return names.at(next++); });
  ASSERT_TRUE(tmp.is_ok()) << tmp.status().message();
  EXPECT_EQ(tmp->name, "fresh");
  ASSERT_EQ(::write(tmp->fd, "tmp", 3), 3);
  ::close(tmp->fd);
  ::close(dir);
  EXPECT_EQ(slurp(victim), "precious\n");
  EXPECT_FALSE(fs::exists(root_ / "nowhere"));
  EXPECT_TRUE(fs::is_symlink(root_ / "planted"));
}

// Writers in several threads (the lock is a flock on the folder, taken per open file
// description, so threads take turns as processes do): no line is lost.
TEST_F(TextFiles, ConcurrentUpdatesLoseNothing) {
  const fs::path f = root_ / "pins";
  std::vector<std::thread> threads;
  for (int i = 0; i < 16; ++i) {
    threads.emplace_back([&, i] {
      EXPECT_TRUE(
          update_text_file(f.string(), "pin file", 1 << 20, append(std::to_string(i))).is_ok());
    });
  }
  for (auto& t : threads) t.join();
  std::istringstream lines(slurp(f));
  std::vector<bool> seen(16);
  for (std::string line; std::getline(lines, line);) seen.at(std::stoul(line)) = true;
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 16);
  EXPECT_EQ(std::distance(fs::directory_iterator(root_), fs::directory_iterator()), 1);
}

}  // namespace
