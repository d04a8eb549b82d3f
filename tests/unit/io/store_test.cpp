// The local folder store (local_store.h): kinds of names, the link policy, bounded reads,
// and that nothing but a regular file is ever opened (a FIFO never blocks a test here: each
// one would hang the test if it were opened for reading). Expected digests come from
// OpenSSL directly.
#include "odf_hash/io/local_store.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "odf_hash/core/text.h"
#include "odf_hash/io/logical_file.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/read_counter.h"
#include "odf_hash/io/store.h"
#include "run_as_user.h"

namespace fs = std::filesystem;
using namespace odf_hash;

namespace {

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "odf-hash-store-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    base_ = tmpl;
    fs::permissions(base_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                               fs::perms::others_read | fs::perms::others_exec);
    root_ = base_ / "root";
    fs::create_directories(root_ / "data");
    write(root_ / "data" / "a", "alpha");
    write(base_ / "outside", "secret outside the root");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(base_, ec);
  }

  static void write(const fs::path& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << bytes;
  }

  std::shared_ptr<ObjectStore> store(bool follow = false) {
    LocalFolderOptions o;
    o.follow_symlinks = follow;
    auto s = open_local_folder(root_.string(), o);
    EXPECT_TRUE(s.is_ok()) << s.status().to_string();
    return s.is_ok() ? *s : nullptr;
  }

  fs::path base_, root_;
};

std::string sha3_hex(const std::string& data) {
  unsigned char md[32];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), md, &len, EVP_sha3_256(), nullptr);
  return to_hex(std::span<const uint8_t>(md, 32));
}

std::string read_whole(ObjectReader& r) {
  auto bytes = read_all(r);
  EXPECT_TRUE(bytes.is_ok()) << bytes.status().to_string();
  return bytes.is_ok() ? std::string(bytes->begin(), bytes->end()) : "";
}

}  // namespace

TEST_F(StoreTest, RegularFileIsOpenedAndReadWithItsSize) {
  auto s = store();
  auto o = s->open("data/a");
  ASSERT_TRUE(o.is_ok()) << o.status().to_string();
  EXPECT_EQ(o->info.kind, ObjectKind::kFile);
  EXPECT_EQ(o->info.size, 5u);
  ASSERT_NE(o->reader, nullptr);
  EXPECT_EQ(o->reader->name(), root_.string() + "/data/a");
  EXPECT_EQ(read_whole(*o->reader), "alpha");
  uint8_t buf[3];
  auto got = o->reader->read_at(2, buf, 3);
  ASSERT_TRUE(got.is_ok());
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), *got), "pha");
  got = o->reader->read_at(9, buf, 3);
  ASSERT_TRUE(got.is_ok());
  EXPECT_EQ(*got, 0u);
}

TEST_F(StoreTest, MissingNameIsNotFound) {
  auto s = store();
  auto o = s->open("data/nope");
  ASSERT_FALSE(o.is_ok());
  EXPECT_EQ(o.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(o.status().message(), root_.string() + "/data/nope: no such file or directory");
  EXPECT_EQ(s->stat("nope/deeper").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(s->stat("data/a/below-a-file").status().code(), StatusCode::kNotFound);
}

TEST_F(StoreTest, InvalidKeysAreRefused) {
  auto s = store();
  for (const char* key :
       {"", "/etc/passwd", "../outside", "data/../../outside", "data//a", "data/./a", "data/a/"}) {
    auto o = s->open(key);
    ASSERT_FALSE(o.is_ok()) << key;
    EXPECT_EQ(o.status().code(), StatusCode::kInvalidArgument) << key;
  }
}

TEST_F(StoreTest, FifoDirectoryAndSocketAreReportedNeverOpened) {
  ASSERT_EQ(::mkfifo((root_ / "data" / "fifo").c_str(), 0644), 0);
  fs::create_directory(root_ / "data" / "dir");
  int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::string sock_path = (root_ / "data" / "sock").string();
  ASSERT_LT(sock_path.size(), sizeof addr.sun_path);
  std::memcpy(addr.sun_path, sock_path.c_str(), sock_path.size() + 1);
  ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);

  auto s = store();
  const std::pair<const char*, ObjectKind> cases[] = {{"data/fifo", ObjectKind::kFifo},
                                                      {"data/dir", ObjectKind::kDirectory},
                                                      {"data/sock", ObjectKind::kSocket}};
  for (const auto& [key, kind] : cases) {
    auto o = s->open(key);
    ASSERT_TRUE(o.is_ok()) << key << ": " << o.status().to_string();
    EXPECT_EQ(o->info.kind, kind) << key;
    EXPECT_EQ(o->reader, nullptr) << key;
    auto st = s->stat(key);
    ASSERT_TRUE(st.is_ok());
    EXPECT_EQ(st->kind, kind) << key;
  }
  ::close(sock);

  auto listed = s->list("data");
  ASSERT_TRUE(listed.is_ok()) << listed.status().to_string();
  std::vector<std::pair<std::string, ObjectKind>> got;
  for (const auto& e : *listed) got.emplace_back(e.name, e.kind);
  EXPECT_EQ(got, (std::vector<std::pair<std::string, ObjectKind>>{{"a", ObjectKind::kFile},
                                                                  {"dir", ObjectKind::kDirectory},
                                                                  {"fifo", ObjectKind::kFifo},
                                                                  {"sock", ObjectKind::kSocket}}));
}

TEST_F(StoreTest, LinksInsideTheRootAreFollowed) {
  fs::create_directories(root_ / "info");
  write(root_ / "info" / "target", "inside");
  fs::create_symlink("../info/target", root_ / "data" / "rel");
  fs::create_symlink("rel", root_ / "data" / "chain");  // a link to a link
  fs::create_symlink("info", root_ / "alias");          // a folder link on the way
  auto s = store();
  for (const char* key : {"data/rel", "data/chain", "alias/target"}) {
    auto o = s->open(key);
    ASSERT_TRUE(o.is_ok()) << key << ": " << o.status().to_string();
    EXPECT_EQ(o->info.kind, ObjectKind::kFile) << key;
    ASSERT_NE(o->reader, nullptr) << key;
    EXPECT_EQ(read_whole(*o->reader), "inside") << key;
  }
  auto listed = s->list("data");
  ASSERT_TRUE(listed.is_ok());
  EXPECT_EQ(listed->at(1).name, "chain");
  EXPECT_EQ(listed->at(1).kind, ObjectKind::kSymlink);  // listing never follows
  auto listed_alias = s->list("alias");
  ASSERT_TRUE(listed_alias.is_ok()) << listed_alias.status().to_string();
  EXPECT_EQ(listed_alias->size(), 1u);
}

TEST_F(StoreTest, LinksLeavingTheRootAreNotFollowed) {
  fs::create_symlink((base_ / "outside").string(), root_ / "data" / "abs");
  fs::create_symlink("../../outside", root_ / "data" / "up");
  fs::create_symlink("../data/../../outside", root_ / "data" / "winding");
  fs::create_symlink(root_ / "data" / "a", root_ / "data" / "abs-inside");  // absolute: refused
  fs::create_symlink(base_.string(), root_ / "base");
  auto s = store();
  const std::pair<const char*, std::string> cases[] = {
      {"data/abs", (base_ / "outside").string()},
      {"data/up", "../../outside"},
      {"data/winding", "../data/../../outside"},
      {"data/abs-inside", (root_ / "data" / "a").string()},
  };
  for (const auto& [key, target] : cases) {
    auto o = s->open(key);
    ASSERT_TRUE(o.is_ok()) << key << ": " << o.status().to_string();
    EXPECT_EQ(o->info.kind, ObjectKind::kSymlink) << key;
    EXPECT_EQ(o->info.link_key, key);
    EXPECT_EQ(o->info.link_target, target);
    EXPECT_EQ(o->reader, nullptr) << key;
  }
  // Through a folder link: the link reported is the folder.
  auto o = s->open("base/outside");
  ASSERT_TRUE(o.is_ok()) << o.status().to_string();
  EXPECT_EQ(o->info.kind, ObjectKind::kSymlink);
  EXPECT_EQ(o->info.link_key, "base");
  EXPECT_EQ(o->info.link_target, base_.string());
  EXPECT_EQ(s->list("base").status().code(), StatusCode::kInvalidArgument);
}

TEST_F(StoreTest, FollowSymlinksFollowsEveryLink) {
  fs::create_symlink((base_ / "outside").string(), root_ / "data" / "abs");
  fs::create_symlink("../../outside", root_ / "data" / "up");
  auto s = store(/*follow=*/true);
  for (const char* key : {"data/abs", "data/up"}) {
    auto o = s->open(key);
    ASSERT_TRUE(o.is_ok()) << key << ": " << o.status().to_string();
    ASSERT_NE(o->reader, nullptr) << key;
    EXPECT_EQ(read_whole(*o->reader), "secret outside the root");
  }
}

TEST_F(StoreTest, LinkLoopsAndDanglingLinksAreErrors) {
  fs::create_symlink("loop2", root_ / "data" / "loop1");
  fs::create_symlink("loop1", root_ / "data" / "loop2");
  fs::create_symlink("nothing-here", root_ / "data" / "dangling");
  for (bool follow : {false, true}) {
    auto s = store(follow);
    auto loop = s->open("data/loop1");
    ASSERT_FALSE(loop.is_ok());
    EXPECT_EQ(loop.status().code(), StatusCode::kIoError);
    EXPECT_NE(loop.status().message().find("symbolic links"), std::string::npos)
        << loop.status().message();
    EXPECT_EQ(s->open("data/dangling").status().code(), StatusCode::kNotFound);
  }
}

TEST_F(StoreTest, ReadsAreBoundedByMaxSizeAndTheSizeWhenOpened) {
  auto s = store();
  OpenOptions small;
  small.max_size = 4;
  auto o = s->open("data/a", small);
  ASSERT_TRUE(o.is_ok());
  EXPECT_EQ(o->info.size, 5u);
  EXPECT_EQ(o->reader, nullptr);  // larger than the caller accepts: not opened

  // Appended to after it was opened: an error, never the extra bytes.
  o = s->open("data/a");
  ASSERT_TRUE(o.is_ok() && o->reader);
  std::ofstream(root_ / "data" / "a", std::ios::app) << "-and-more";
  auto grown = read_all(*o->reader);
  ASSERT_FALSE(grown.is_ok());
  EXPECT_EQ(grown.status().message(),
            root_.string() + "/data/a: grew while being read (it had 5 bytes when opened)");

  // Truncated after it was opened: an error naming the object, never a short hash.
  o = s->open("data/a");
  ASSERT_TRUE(o.is_ok() && o->reader);
  fs::resize_file(root_ / "data" / "a", 3);
  auto shrunk = physical_hash_object(*o->reader);
  ASSERT_FALSE(shrunk.is_ok());
  EXPECT_NE(shrunk.status().message().find("ended after 3 of the 14 bytes"), std::string::npos)
      << shrunk.status().message();
}

TEST_F(StoreTest, PhysicalHashOfAnObjectMatchesOpenSsl) {
  std::string data(1234567, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 131 % 251);
  write(root_ / "data" / "big", data);
  auto s = store();
  auto o = s->open("data/big");
  ASSERT_TRUE(o.is_ok() && o->reader);
  uint64_t last_total = 0;
  auto h = physical_hash_object(*o->reader, [&](uint64_t, uint64_t total) {
    last_total = total;
    return true;
  });
  ASSERT_TRUE(h.is_ok()) << h.status().to_string();
  EXPECT_EQ(h->size, data.size());
  EXPECT_EQ(last_total, data.size());
  EXPECT_EQ(to_hex(h->hash.digest()), sha3_hex(data));
}

TEST_F(StoreTest, OpeningTheRoot) {
  auto missing = open_local_folder((base_ / "nope").string());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  auto file = open_local_folder((base_ / "outside").string());
  EXPECT_EQ(file.status().code(), StatusCode::kInvalidArgument);
  // The root path itself is the caller's: a link to a folder is followed.
  fs::create_symlink(root_, base_ / "root-link");
  auto linked = open_local_folder((base_ / "root-link").string());
  ASSERT_TRUE(linked.is_ok());
  auto o = (*linked)->open("data/a");
  ASSERT_TRUE(o.is_ok() && o->reader);
  EXPECT_EQ((*linked)->location("data/a"), (base_ / "root-link" / "data" / "a").string());
}

TEST_F(StoreTest, LocalFileRefusesAFifoWithoutBlocking) {
  const auto fifo = (base_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  auto r = open_local_file(fifo);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            fifo +
                ": is a FIFO (named pipe), not a regular file (Parquet and Arrow IPC files "
                "are read at random offsets)");
  auto logical = logical_hash_file(fifo);
  ASSERT_FALSE(logical.is_ok());
  EXPECT_EQ(logical.status().code(), StatusCode::kInvalidArgument);
  auto dir = open_local_file(base_.string());
  EXPECT_EQ(dir.status().message(), base_.string() + ": is a directory");
}

// As root, mode 000 does not deny reads; a forked child that drops to an unprivileged user
// sees the real EACCES.
TEST_F(StoreTest, PermissionDeniedNamesTheObject) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to switch user";
  fs::permissions(root_ / "data" / "a", fs::perms::none);
  const std::string report = odf_hash::test_support::run_as_nobody([&] {
    auto s = open_local_folder(root_.string());
    auto o = s.is_ok() ? (*s)->open("data/a") : Result<OpenedObject>(s.status());
    return o.is_ok()
               ? std::string("opened")
               : std::to_string(static_cast<int>(o.status().code())) + " " + o.status().message();
  });
  EXPECT_EQ(report, std::to_string(static_cast<int>(StatusCode::kIoError)) + " " + root_.string() +
                        "/data/a: cannot open: Permission denied");
}

TEST(EscapeUntrusted, ShortPrintableAndCut) {
  EXPECT_EQ(escape_untrusted("root:x:0:0"), "root:x:0:0");
  EXPECT_EQ(escape_untrusted(std::string("a\nb\x1b[2J\"\\")), "a\\x0ab\\x1b[2J\\\"\\\\");
  EXPECT_EQ(escape_untrusted(std::string(100, 'z'), 5), "zzzzz\xE2\x80\xA6");
  EXPECT_EQ(escape_untrusted("\xff\xfe", 1), "\\xff\xE2\x80\xA6");
}

TEST(ObjectKey, Validity) {
  EXPECT_TRUE(is_valid_object_key("refs/head"));
  EXPECT_TRUE(is_valid_object_key("data/f1620ab"));
  EXPECT_TRUE(is_valid_object_key("a..b/.hidden"));
  EXPECT_FALSE(is_valid_object_key(""));
  EXPECT_FALSE(is_valid_object_key("/abs"));
  EXPECT_FALSE(is_valid_object_key("a/../b"));
  EXPECT_FALSE(is_valid_object_key("a/"));
  EXPECT_FALSE(is_valid_object_key(std::string("a\0b", 3)));
  EXPECT_EQ(join_object_key("", "x"), "x");
  EXPECT_EQ(join_object_key("data", "x"), "data/x");
}

// Found by the data_file fuzzer: files whose metadata make Arrow ask for a huge buffer before
// reading (an IPC buffer claiming an uncompressed length of about 3e18 bytes; a Parquet page
// header claiming 1.4 GB, which Arrow would allocate and zero-fill: 1.4 GB of RSS for a 4 KB
// file). The readers' pool refuses any buffer beyond 64 MiB + 64 bytes per input byte
// (src/io/arrow/memory_pool.h); the error names the file and the batch.
TEST(ReaderLimits, BuffersBeyondWhatTheInputJustifiesAreRefused) {
  const fs::path corpus = fs::path(ODF_HASH_SOURCE_DIR) / "tests/fuzz/corpus/data_file";
  const std::pair<const char*, const char*> cases[] = {
      {"crash-ipc-uncompressed-length-exabytes", "3345441648861410432"},
      {"oom-parquet-page-size-1.4g", "1469928704"},
  };
  uint64_t all_inputs = 0;
  for (const auto& [name, asked] : cases) all_inputs += fs::file_size(corpus / name);
  for (const auto& [name, asked] : cases) {
    const fs::path file = corpus / name;
    auto r = logical_hash_file(file.string());
    ASSERT_FALSE(r.is_ok()) << name;
    const std::string msg = r.status().message();
    // A Parquet error also names the column being decoded, between the two.
    const std::string start = file.string() + ": reading record batch 1: ";
    const std::string refusal =
        "a buffer of " + std::string(asked) + " bytes was asked for, more than the ";
    const std::string tail = " bytes the input can justify (corrupt sizes in the file?)";
    ASSERT_EQ(msg.rfind(start, 0), 0u) << msg;
    const size_t at = msg.find(refusal, start.size());
    ASSERT_NE(at, std::string::npos) << msg;
    const size_t head_size = at + refusal.size();
    // Then the tail, and for a buffer of at most 4 GiB how to raise the bound.
    const size_t tail_at = msg.find(tail, head_size);
    ASSERT_NE(tail_at, std::string::npos) << msg;
    EXPECT_EQ(msg.size() == tail_at + tail.size(), std::stoull(asked) > (uint64_t{4} << 30)) << msg;
    // The limit counts every input open for reading in the process: this file, and the
    // previous case's file while Arrow's I/O threads still hold it (it is released after the
    // error is returned), so it lies between the bounds of one input and of both.
    const uint64_t limit = std::stoull(msg.substr(head_size, tail_at - head_size));
    EXPECT_GE(limit, (uint64_t{64} << 20) + 64 * fs::file_size(file)) << name;
    EXPECT_LE(limit, (uint64_t{64} << 20) + 64 * all_inputs) << name;
  }
}
