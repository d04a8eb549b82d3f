// UnixFS HAMT shards (src/remote/ipfs/hamt.h). The name hash against published vectors: the
// h1 values of spaolacci/murmur3's murmur_test.go (the Go package Kubo's HAMT hashes names
// with), the 128-bit digest every MurmurHash3 port publishes for "The quick brown fox jumps
// over the lazy dog", and the UnixFS spec's HAMT example ("470.txt" in buckets 0x00 then 0x6E,
// "742.txt" in 0x00 then 0xFF, fanout 256); then shards Kubo wrote (tests/data/ipfs/README.md).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../../../src/remote/ipfs/block.h"
#include "../../../src/remote/ipfs/hamt.h"

namespace {

using namespace odf_hash::remote::ipfs;
using odf_hash::StatusCode;

uint64_t hash_of(const std::string& s) {
  return murmur3_x64_64(std::span(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
}

Block kubo_block(const std::string& text) {
  std::ifstream in(std::string(ODF_HASH_SOURCE_DIR) + "/tests/data/ipfs/" + text + ".bin",
                   std::ios::binary);
  std::vector<uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
  auto cid = parse_cid(text);
  EXPECT_TRUE(cid.is_ok());
  EXPECT_TRUE(check_block(*cid, bytes).is_ok()) << text;
  auto block = decode_block(*cid, bytes);
  EXPECT_TRUE(block.is_ok()) << block.status().message();
  return std::move(block).value();
}

TEST(IpfsHamt, Murmur3PublishedVectors) {
  EXPECT_EQ(hash_of(""), 0u);
  EXPECT_EQ(hash_of("hello"), 0xcbd8a7b341bd9b02ULL);
  EXPECT_EQ(hash_of("hello, world"), 0x342fac623a5ebc8eULL);
  EXPECT_EQ(hash_of("19 Jan 2038 at 3:14:07 AM"), 0xb89e5988b737affcULL);
  // 6c1b07bc7bbc4be3 47939ac4a93c437a: h1 little-endian, then h2.
  EXPECT_EQ(hash_of("The quick brown fox jumps over the lazy dog"), 0xe34bbc7bbc071b6cULL);
  // Every tail length (1..15 bytes past a block), against the 16-byte-aligned prefix: the
  // lengths of the vectors above cover tails 5, 12, 9 and 11; these must differ pairwise.
  std::vector<uint64_t> seen;
  for (size_t n = 0; n <= 33; ++n) {
    const uint64_t h = hash_of(std::string(n, 'a'));
    for (uint64_t s : seen) EXPECT_NE(h, s) << n;
    seen.push_back(h);
  }
}

TEST(IpfsHamt, SpecExampleBuckets) {
  UnixFsData shard;
  shard.type = UnixFsType::kHamtShard;
  shard.hash_type = kHashMurmur3X64_64;
  shard.fanout = 256;
  auto layout = hamt_layout(shard);
  ASSERT_TRUE(layout.is_ok());
  EXPECT_EQ(layout->bits, 8u);
  EXPECT_EQ(layout->pad, 2u);
  EXPECT_EQ(layout->max_depth, 8u);
  EXPECT_EQ(hamt_bucket(hash_of("470.txt"), *layout, 0), 0x00u);
  EXPECT_EQ(hamt_bucket(hash_of("470.txt"), *layout, 1), 0x6Eu);
  EXPECT_EQ(hamt_bucket(hash_of("742.txt"), *layout, 0), 0x00u);
  EXPECT_EQ(hamt_bucket(hash_of("742.txt"), *layout, 1), 0xFFu);
  auto slot = hamt_slot("6E470.txt", *layout);
  ASSERT_TRUE(slot.is_ok());
  EXPECT_EQ(slot->bucket, 0x6Eu);
  EXPECT_EQ(slot->entry, "470.txt");
  EXPECT_EQ(hamt_slot("FF", *layout)->entry, "");
  EXPECT_FALSE(hamt_slot("6e470.txt", *layout).is_ok());  // lower-case hex
  EXPECT_FALSE(hamt_slot("F", *layout).is_ok());
}

TEST(IpfsHamt, Layouts) {
  UnixFsData shard;
  shard.type = UnixFsType::kHamtShard;
  shard.hash_type = kHashMurmur3X64_64;
  for (uint64_t bad : {0u, 4u, 12u, 2048u}) {
    shard.fanout = bad;
    EXPECT_EQ(hamt_layout(shard).status().code(), StatusCode::kParseError) << bad;
  }
  shard.fanout = 1024;
  EXPECT_EQ(hamt_layout(shard)->pad, 3u);
  EXPECT_EQ(hamt_layout(shard)->max_depth, 6u);
  shard.fanout = 8;
  EXPECT_EQ(hamt_layout(shard)->pad, 1u);
  shard.hash_type = 0x12;
  EXPECT_EQ(hamt_layout(shard).status().code(), StatusCode::kUnsupported);
  shard.hash_type.reset();
  EXPECT_FALSE(hamt_layout(shard).is_ok());
}

TEST(IpfsHamt, KubosShards) {
  Block root = kubo_block("bafybeifmyx7itxxin63uffgpza5glelaxqnhqfrid6axmc5ctxkfbhvpzi");
  auto layout = hamt_layout(root.unixfs);
  ASSERT_TRUE(layout.is_ok()) << layout.status().message();
  EXPECT_EQ(layout->fanout, 16u);
  EXPECT_EQ(layout->pad, 1u);
  EXPECT_TRUE(check_hamt_shard(root.node, root.unixfs, *layout).is_ok());
  // Each entry of the root sits in the bucket its name's hash gives at level 0.
  size_t entries = 0;
  for (const PbLink& link : root.node.links) {
    auto slot = hamt_slot(link.name, *layout);
    ASSERT_TRUE(slot.is_ok());
    if (slot->entry.empty()) continue;
    ++entries;
    EXPECT_EQ(hamt_bucket(hash_of(std::string(slot->entry)), *layout, 0), slot->bucket)
        << link.name;
  }
  EXPECT_GE(entries, 3u);
  // The sub-shard "0": f34.txt, f36.txt, f10.txt, at 7, A, D on level 1.
  Block sub = kubo_block("bafybeia5rormvug3mv3gr7iag5skecea4adyuc4fhqiinaqyuz3vye27zi");
  EXPECT_TRUE(check_hamt_shard(sub.node, sub.unixfs, *layout).is_ok());
  EXPECT_EQ(sub.unixfs.data, (std::vector<uint8_t>{0x24, 0x80}));
  for (const auto& [name, bucket] :
       {std::pair<std::string, unsigned>{"f34.txt", 7}, {"f36.txt", 10}, {"f10.txt", 13}}) {
    EXPECT_EQ(hamt_bucket(hash_of(name), *layout, 0), 0u) << name;
    EXPECT_EQ(hamt_bucket(hash_of(name), *layout, 1), bucket) << name;
  }
  // The same shard with its bitfield changed, or a link's bucket moved, is refused.
  UnixFsData wrong = sub.unixfs;
  wrong.data = {0x24, 0x81};
  EXPECT_EQ(check_hamt_shard(sub.node, wrong, *layout).code(), StatusCode::kParseError);
  wrong.data = {0x00, 0x24, 0x80};
  EXPECT_FALSE(check_hamt_shard(sub.node, wrong, *layout).is_ok());
  PbNode twice = sub.node;
  twice.links[1].name = "7f36.txt";
  EXPECT_NE(check_hamt_shard(twice, sub.unixfs, *layout).message().find("two links in bucket 7"),
            std::string::npos);
}

}  // namespace
