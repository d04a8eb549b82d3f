// Physical hashing of files, stdin and pipes. Expected digests come from published SHA3
// vectors or from Python's hashlib run on the same file (never from odf-hash itself).
#include "odf_hash/io/physical.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "run_as_user.h"

namespace fs = std::filesystem;
using odf_hash::HashCode;
using odf_hash::physical_hash_fd;
using odf_hash::physical_hash_file;
using odf_hash::StatusCode;
using odf_hash::to_hex;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// FIPS 202 example values (NIST CSRC "SHA3-256" examples).
constexpr const char* kSha3Empty =
    "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a";
constexpr const char* kSha3Abc = "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532";

// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "odf-hash-physical-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
    fs::permissions(path_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                               fs::perms::others_read | fs::perms::others_exec);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

// SHA3-256 hex of a file, computed by Python's hashlib (streamed, constant memory).
std::string hashlib_sha3_hex(const fs::path& path) {
  std::string cmd =
      "python3 -c \"import hashlib,sys\n"
      "h=hashlib.sha3_256()\n"
      "with open(sys.argv[1],'rb') as f:\n"
      "    for b in iter(lambda: f.read(1<<20), b''): h.update(b)\n"
      "print(h.hexdigest())\" '" +
      path.string() + "'";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return "popen failed";
  char buf[128] = {};
  std::string out;
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  int rc = ::pclose(p);
  if (rc != 0) return "python3 failed: " + out;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

}  // namespace

TEST(PhysicalHash, EmptyFileIsTheEmptyMessage) {
  TempDir dir;
  write_file(dir / "empty", "");
  auto r = physical_hash_file((dir / "empty").string());
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  EXPECT_EQ(r->hash.code(), HashCode::kSha3_256);
  EXPECT_EQ(to_hex(r->hash.digest()), kSha3Empty);
  EXPECT_EQ(r->size, 0u);
}

TEST(PhysicalHash, AbcMatchesPublishedVector) {
  TempDir dir;
  write_file(dir / "abc", "abc");
  auto r = physical_hash_file((dir / "abc").string());
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  EXPECT_EQ(to_hex(r->hash.digest()), kSha3Abc);
  EXPECT_EQ(r->size, 3u);
}

// Sizes around the read buffer (512 KiB) and the SHA3 rate (136 bytes) against hashlib.
TEST(PhysicalHash, SizesAroundBufferBoundariesMatchHashlib) {
  TempDir dir;
  const size_t kib = 1024;
  for (size_t size : {size_t{1}, size_t{135}, size_t{136}, size_t{137}, 512 * kib - 1, 512 * kib,
                      512 * kib + 1, 3 * 512 * kib + 17}) {
    auto path = dir / ("f" + std::to_string(size));
    write_file(path, random_bytes(size, static_cast<uint32_t>(size)));
    auto r = physical_hash_file(path.string());
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(to_hex(r->hash.digest()), hashlib_sha3_hex(path)) << "size " << size;
    EXPECT_EQ(r->size, size);
  }
}

// A sparse file over 4 GiB with non-zero bytes at the start, across the 2^32 boundary and
// at the end: catches 32-bit truncation of sizes or offsets. Costs two full passes (ours
// and hashlib's, ~20-40 s), so it runs once, in the optimised build.
TEST(PhysicalHash, SparseFileOver4GiBMatchesHashlib) {
  if (kSanitized) GTEST_SKIP() << "slow under sanitizers; runs in the optimised build";
  TempDir dir;
  auto path = dir / "sparse";
  const uint64_t size = (uint64_t{1} << 32) + 4097;
  {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(size)), 0);
    const std::string mark = "odf-hash";
    for (uint64_t at : {uint64_t{0}, (uint64_t{1} << 32) - 3, size - mark.size()}) {
      ASSERT_EQ(::pwrite(fd, mark.data(), mark.size(), static_cast<off_t>(at)),
                static_cast<ssize_t>(mark.size()));
    }
    ::close(fd);
  }
  uint64_t last_done = 0, last_total = 0, calls = 0;
  auto r = physical_hash_file(path.string(), [&](uint64_t done, uint64_t total) {
    last_done = done;
    last_total = total;
    ++calls;
    return true;
  });
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  EXPECT_EQ(r->size, size);
  EXPECT_EQ(last_done, size);
  EXPECT_EQ(last_total, size);
  EXPECT_GT(calls, 1u);
  EXPECT_EQ(to_hex(r->hash.digest()), hashlib_sha3_hex(path));
}

TEST(PhysicalHash, ProgressIsMonotonicAndCanCancel) {
  TempDir dir;
  auto path = dir / "two-mib";
  write_file(path, random_bytes(2 * 1024 * 1024, 7));
  uint64_t prev = 0;
  bool monotonic = true;
  auto r = physical_hash_file(path.string(), [&](uint64_t done, uint64_t total) {
    monotonic = monotonic && done > prev && total == 2 * 1024 * 1024;
    prev = done;
    return true;
  });
  ASSERT_TRUE(r.is_ok());
  EXPECT_TRUE(monotonic);
  EXPECT_EQ(prev, 2u * 1024 * 1024);

  auto cancelled = physical_hash_file(path.string(), [](uint64_t, uint64_t) { return false; });
  ASSERT_FALSE(cancelled.is_ok());
  EXPECT_NE(cancelled.status().message().find(path.string()), std::string::npos);
  EXPECT_NE(cancelled.status().message().find("cancelled"), std::string::npos);
  EXPECT_EQ(cancelled.status().code(), StatusCode::kCancelled);
}

TEST(PhysicalHash, MissingFileIsNotFoundNamingThePath) {
  TempDir dir;
  auto path = (dir / "no-such-file").string();
  auto r = physical_hash_file(path);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(r.status().message(), path + ": No such file or directory");
}

TEST(PhysicalHash, DirectoryIsAClearError) {
  TempDir dir;
  auto path = (dir / "sub").string();
  fs::create_directory(path);
  auto r = physical_hash_file(path);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
  EXPECT_EQ(r.status().message(), path + ": is a directory");
}

TEST(PhysicalHash, PermissionDeniedNamesThePath) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads mode-000 files; see the *AsNobody test";
  TempDir dir;
  auto path = (dir / "secret").string();
  write_file(path, "secret");
  fs::permissions(path, fs::perms::none);
  auto r = physical_hash_file(path);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
  EXPECT_EQ(r.status().message(), path + ": Permission denied");
}

// As root, chmod 000 does not deny reads; a forked child that drops to an unprivileged
// user does see the real EACCES path.
TEST(PhysicalHash, PermissionDeniedAsNobody) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to switch user; see PermissionDenied";
  TempDir dir;
  auto path = (dir / "secret").string();
  write_file(path, "secret");
  fs::permissions(path, fs::perms::none);
  const std::string report = odf_hash::test_support::run_as_nobody([&] {
    auto r = physical_hash_file(path);
    return r.is_ok() ? std::string("read succeeded") : r.status().message();
  });
  EXPECT_EQ(report, path + ": Permission denied");
}

// A descriptor that cannot be read (opened write-only) exercises the read-error path.
// A regular file of 8 MiB or more is read ahead on a second thread into a ring of 4 buffers
// of 512 KiB: sizes around that threshold and around a full turn of the ring, progress,
// cancelling half-way and a read error (a write-only descriptor) on that path.
TEST(PhysicalHash, ReadAheadPathMatchesHashlib) {
  TempDir dir;
  const size_t mib = 1024 * 1024, kib = 1024;
  for (size_t size : {8 * mib - 1, 8 * mib, 8 * mib + 4 * 512 * kib + 1, 11 * mib + 135}) {
    auto path = dir / ("f" + std::to_string(size));
    write_file(path, random_bytes(size, static_cast<uint32_t>(size)));
    uint64_t prev = 0;
    bool monotonic = true;
    auto r = physical_hash_file(path.string(), [&](uint64_t done, uint64_t total) {
      monotonic = monotonic && done > prev && total == size;
      prev = done;
      return true;
    });
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(to_hex(r->hash.digest()), hashlib_sha3_hex(path)) << "size " << size;
    EXPECT_EQ(r->size, size);
    EXPECT_TRUE(monotonic);
    EXPECT_EQ(prev, size);
  }
  auto path = dir / "f" += std::to_string(11 * mib + 135);
  int calls = 0;
  auto cancelled = physical_hash_file(path.string(), [&](uint64_t, uint64_t) {
    return ++calls < 3;  // the reader is then ahead, blocked on a full ring: it must stop
  });
  ASSERT_FALSE(cancelled.is_ok());
  EXPECT_EQ(calls, 3);
  EXPECT_NE(cancelled.status().message().find("cancelled"), std::string::npos);

  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto r = physical_hash_fd(fd, path.string());
  ::close(fd);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
  EXPECT_EQ(r.status().message(), path.string() + ": Bad file descriptor");
}

TEST(PhysicalHash, ReadErrorNamesTheSource) {
  TempDir dir;
  auto path = (dir / "w").string();
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  auto r = physical_hash_fd(fd, path);
  ::close(fd);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
  EXPECT_EQ(r.status().message(), path + ": Bad file descriptor");
}

TEST(PhysicalHash, PipeIsHashedWithUnknownTotal) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string data = random_bytes(300 * 1000, 11);
  std::thread writer([&] {
    size_t off = 0;
    while (off < data.size()) {
      ssize_t n = ::write(fds[1], data.data() + off, data.size() - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    ::close(fds[1]);
  });
  uint64_t seen_total = 1;
  auto r = physical_hash_fd(fds[0], "pipe", [&](uint64_t, uint64_t total) {
    seen_total = total;
    return true;
  });
  writer.join();
  ::close(fds[0]);
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  EXPECT_EQ(r->size, data.size());
  EXPECT_EQ(seen_total, 0u);
  TempDir dir;
  write_file(dir / "same", data);
  EXPECT_EQ(to_hex(r->hash.digest()), hashlib_sha3_hex(dir / "same"));
}

TEST(PhysicalHash, DashReadsStandardInput) {
  TempDir dir;
  auto path = dir / "abc";
  write_file(path, "abc");
  int saved = ::dup(STDIN_FILENO);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::dup2(fd, STDIN_FILENO), STDIN_FILENO);
  ::close(fd);
  auto r = physical_hash_file("-");
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  EXPECT_EQ(to_hex(r->hash.digest()), kSha3Abc);
}
