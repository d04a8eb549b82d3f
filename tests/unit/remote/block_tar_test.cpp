// The blocks' tar of a Smart Transfer Protocol answer (src/remote/smtp/block_tar.h): real
// answers of a kamu node (tests/data/smtp/, each entry's SHA3-256 from OpenSSL must be its
// name), and hostile ones made here with zlib: a gzip bomb, a cut gzip, a header whose
// checksum is wrong, a link entry, an entry larger than a block may be, a tar without its end.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../../../src/remote/smtp/block_tar.h"
#include "gzip_bytes.h"

namespace {

using odf_hash::remote::smtp::unpack_blocks;
const std::filesystem::path kData = std::filesystem::path(ODF_HASH_SOURCE_DIR) / "tests/data/smtp";

std::vector<uint8_t> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string sha3_name(const std::vector<uint8_t>& data) {
  unsigned char md[32];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), md, &len, EVP_sha3_256(), nullptr);
  static const char* hex = "0123456789abcdef";
  std::string s = "f1620";
  for (unsigned char b : md) {
    s += hex[b >> 4];
    s += hex[b & 15];
  }
  return s;
}

std::vector<uint8_t> gzip(const std::vector<uint8_t>& raw) {
  return gzip_bytes(raw.data(), raw.size());
}

// One ustar header block for `name` of `size` bytes and `type`, with its checksum.
std::vector<uint8_t> header(const std::string& name, uint64_t size, char type = '0',
                            bool good_checksum = true) {
  std::vector<uint8_t> h(512, 0);
  std::memcpy(h.data(), name.data(), name.size());
  std::snprintf(reinterpret_cast<char*>(h.data() + 124), 12, "%011llo",
                static_cast<unsigned long long>(size));
  h[156] = static_cast<uint8_t>(type);
  std::memcpy(h.data() + 257,
              "ustar\0"
              "00",
              8);
  std::memset(h.data() + 148, ' ', 8);
  unsigned sum = 0;
  for (uint8_t b : h) sum += b;
  if (!good_checksum) ++sum;
  std::snprintf(reinterpret_cast<char*>(h.data() + 148), 8, "%06o", sum);
  return h;
}

std::vector<uint8_t> tar_of(const std::vector<std::pair<std::string, std::vector<uint8_t>>>& files,
                            bool end = true) {
  std::vector<uint8_t> t;
  for (const auto& [name, data] : files) {
    auto h = header(name, data.size());
    t.insert(t.end(), h.begin(), h.end());
    t.insert(t.end(), data.begin(), data.end());
    t.resize((t.size() + 511) / 512 * 512, 0);
  }
  if (end) t.resize(t.size() + 1024, 0);
  return t;
}

TEST(BlockTar, RealKamuAnswersGiveEveryBlockUnderItsHashOldestFirst) {
  for (const char* name : {"kamu-0.265-rootds-blocks.tar.gz", "kamu-0.265-deriv-blocks.tar.gz"}) {
    auto entries = unpack_blocks(read_file(kData / name), name);
    ASSERT_TRUE(entries.is_ok()) << entries.status().to_string();
    ASSERT_GE(entries->size(), 4u) << name;
    for (const auto& e : *entries) EXPECT_EQ(sha3_name(e.bytes), e.name) << name;
  }
  auto rootds = unpack_blocks(read_file(kData / "kamu-0.265-rootds-blocks.tar.gz"), "rootds");
  ASSERT_TRUE(rootds.is_ok());
  ASSERT_EQ(rootds->size(), 5u);
  EXPECT_EQ(rootds->front().bytes.size(), 152u);  // the Seed, first
  EXPECT_EQ(rootds->back().name,
            "f1620282795e3133d169049fd8d50ef4e16c076e772e6fb57ee7c80c56670fce6d637");
}

TEST(BlockTar, EntriesMadeHereRoundTrip) {
  std::vector<uint8_t> a(700, 7), b(0);
  auto entries = unpack_blocks(gzip(tar_of({{"a", a}, {"b", b}})), "x");
  ASSERT_TRUE(entries.is_ok()) << entries.status().to_string();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].bytes, a);
  EXPECT_TRUE((*entries)[1].bytes.empty());
  auto empty = unpack_blocks(gzip(tar_of({})), "x");
  ASSERT_TRUE(empty.is_ok());
  EXPECT_TRUE(empty->empty());
}

TEST(BlockTar, HostileArchivesAreClearErrors) {
  auto expect_error = [](const std::vector<uint8_t>& gz, const std::string& says) {
    auto r = unpack_blocks(gz, "node/ds");
    ASSERT_FALSE(r.is_ok()) << says;
    EXPECT_NE(r.status().message().find(says), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("node/ds"), std::string::npos);
  };
  // 300 MiB of zeros, a few hundred KiB compressed: stopped at the bound.
  expect_error(gzip(std::vector<uint8_t>(size_t{300} << 20, 0)), "inflates to more than");
  auto whole = gzip(tar_of({{"a", std::vector<uint8_t>(5000, 1)}}));
  expect_error(std::vector<uint8_t>(whole.begin(), whole.begin() + whole.size() / 2),
               "gzip ends early");
  expect_error({1, 2, 3, 4}, "gzip is corrupt");
  auto bad_sum = header("a", 1, '0', false);
  bad_sum.resize(512 * 4, 0);
  expect_error(gzip(bad_sum), "checksum is wrong");
  auto link = header("a", 0, '2');
  link.resize(512 * 3, 0);
  expect_error(gzip(link), "not a regular file");
  auto huge = header("a", uint64_t{65} << 20);
  huge.resize(512 * 3, 0);
  expect_error(gzip(huge), "larger than any metadata block");
  expect_error(gzip(tar_of({{"a", {1}}}, /*end=*/false)), "without its end-of-archive");
  auto cut = header("a", 4096);
  cut.resize(512 + 100, 0);
  expect_error(gzip(cut), "cut short");
}

}  // namespace
