// IPFS blocks (src/remote/ipfs/cid.h, dag_pb.h, block.h): CIDs parsed and printed, blocks
// checked against their CIDs, dag-pb and UnixFS decoded. Expected values come from outside
// odf-hash: blocks Kubo wrote (tests/data/ipfs/README.md says how, and what `ipfs dag get`
// shows of each), published CIDs (the empty raw block, the empty UnixFS directory) and
// SHA-256 of "abc" (FIPS 180-2).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../../../src/remote/ipfs/block.h"
#include "../../../src/remote/ipfs/cid.h"
#include "../../../src/remote/ipfs/dag_pb.h"

namespace {

using namespace odf_hash::remote::ipfs;
using odf_hash::Result;
using odf_hash::Status;
using odf_hash::StatusCode;

std::vector<uint8_t> kubo_block(const std::string& cid) {
  std::ifstream in(std::string(ODF_HASH_SOURCE_DIR) + "/tests/data/ipfs/" + cid + ".bin",
                   std::ios::binary);
  EXPECT_TRUE(in) << cid;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::vector<uint8_t> bytes_of(const std::string& s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

// A Kubo block, checked against its CID and decoded.
Block decoded(const std::string& text) {
  auto cid = parse_cid(text);
  EXPECT_TRUE(cid.is_ok()) << cid.status().message();
  auto bytes = kubo_block(text);
  EXPECT_TRUE(check_block(*cid, bytes).is_ok()) << text;
  auto block = decode_block(*cid, bytes);
  EXPECT_TRUE(block.is_ok()) << block.status().message();
  return std::move(block).value();
}

TEST(IpfsCid, PrintsWhatItParses) {
  for (const char* text : {"bafybeigqea73oaz3g7s5aivtk52kjatz56g3jryawyfrxyqikxewytkz2u",
                           "bafkreice7a2ujfffxib3uf4svdj6trjuyr5jdamyb7phup2ewbxpflt4p4",
                           "QmaFDZRb5q7ZTc7pmSjn2zx2coWftaQ2nRPh962Nqq59Go"}) {
    auto cid = parse_cid(text);
    ASSERT_TRUE(cid.is_ok()) << cid.status().message();
    EXPECT_EQ(cid->to_string(), text);
    auto again = cid_from_bytes(cid->bytes);
    ASSERT_TRUE(again.is_ok());
    EXPECT_EQ(*again, *cid);
  }
  auto v0 = parse_cid("QmaFDZRb5q7ZTc7pmSjn2zx2coWftaQ2nRPh962Nqq59Go");
  EXPECT_EQ(v0->version, 0u);
  EXPECT_EQ(v0->codec, kCodecDagPb);
  EXPECT_EQ(v0->digest.size(), 32u);
  auto raw = parse_cid("bafkreice7a2ujfffxib3uf4svdj6trjuyr5jdamyb7phup2ewbxpflt4p4");
  EXPECT_EQ(raw->version, 1u);
  EXPECT_EQ(raw->codec, kCodecRaw);
  EXPECT_EQ(raw->hash_code, kHashSha2_256);
  // Another multibase of the same CID (base16 'f') parses to it, and prints as base32.
  std::string hex = "f";
  for (uint8_t b : raw->bytes) {
    static const char* digits = "0123456789abcdef";
    hex += digits[b >> 4];
    hex += digits[b & 15];
  }
  auto from_hex = parse_cid(hex);
  ASSERT_TRUE(from_hex.is_ok()) << from_hex.status().message();
  EXPECT_EQ(from_hex->to_string(), raw->to_string());
}

TEST(IpfsCid, RefusesWhatIsNoCid) {
  for (const char* text : {"bafyok", "", "Qm", "QmaFDZRb5q7ZTc7pmSjn2zx2coWftaQ2nRPh962Nqq59G0",
                           "hello", "bafybeigqea73oaz3g7s5aivtk52kjatz56g3jryawyfrxyqikxewytkz2",
                           "zQmaFDZRb5q7ZTc7pmSjn2zx2coWftaQ2nRPh962Nqq59Go"}) {
    auto cid = parse_cid(text);
    ASSERT_FALSE(cid.is_ok()) << text;
    EXPECT_EQ(cid.status().code(), StatusCode::kInvalidArgument) << text;
    EXPECT_NE(cid.status().message().find("is not a CID"), std::string::npos)
        << cid.status().message();
  }
  // A CIDv2 and a multihash whose length is not what follows.
  EXPECT_FALSE(cid_from_bytes(std::vector<uint8_t>{2, 0x55, 0x12, 1, 0}).is_ok());
  EXPECT_FALSE(cid_from_bytes(std::vector<uint8_t>{1, 0x55, 0x12, 2, 0}).is_ok());
  EXPECT_FALSE(cid_from_bytes(std::vector<uint8_t>{}).is_ok());
}

TEST(IpfsCid, ChecksBlocksAgainstTheirDigest) {
  // SHA-256("abc") (FIPS 180-2, appendix B.1) as a CIDv1 of a raw block.
  const uint8_t abc[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
                           0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
                           0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
  std::vector<uint8_t> bytes = {1, 0x55, 0x12, 32};
  bytes.insert(bytes.end(), abc, abc + 32);
  auto cid = cid_from_bytes(bytes);
  ASSERT_TRUE(cid.is_ok());
  EXPECT_TRUE(check_block(*cid, bytes_of("abc")).is_ok());
  Status other = check_block(*cid, bytes_of("abd"));
  EXPECT_EQ(other.code(), StatusCode::kIoError);
  EXPECT_NE(other.message().find("does not hash to"), std::string::npos) << other.message();
  EXPECT_FALSE(check_block(*cid, bytes_of("")).is_ok());

  // The empty raw block and the empty UnixFS directory (Data: Type Directory), whose CIDs
  // every IPFS implementation knows.
  auto empty = parse_cid("bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku");
  ASSERT_TRUE(empty.is_ok());
  EXPECT_TRUE(check_block(*empty, {}).is_ok());
  const std::vector<uint8_t> empty_dir = {0x0a, 0x02, 0x08, 0x01};
  for (const char* text : {"QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn",
                           "bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354"}) {
    auto dir = parse_cid(text);
    ASSERT_TRUE(dir.is_ok()) << text;
    EXPECT_TRUE(check_block(*dir, empty_dir).is_ok()) << text;
    auto block = decode_block(*dir, empty_dir);
    ASSERT_TRUE(block.is_ok());
    EXPECT_EQ(block->unixfs.type, UnixFsType::kDirectory);
    EXPECT_TRUE(block->node.links.empty());
  }
}

TEST(IpfsCid, IdentityAndUnsupportedHashes) {
  // An identity CID inlines its block: "hi" as a raw block.
  auto inline_cid = cid_from_bytes(std::vector<uint8_t>{1, 0x55, 0x00, 2, 'h', 'i'});
  ASSERT_TRUE(inline_cid.is_ok());
  EXPECT_TRUE(check_block(*inline_cid, bytes_of("hi")).is_ok());
  EXPECT_EQ(check_block(*inline_cid, bytes_of("ho")).code(), StatusCode::kIoError);
  // blake2b-256 (0xb220), and a sha2-256 digest cut to 20 bytes: named, not checked.
  std::vector<uint8_t> blake = {1, 0x55, 0xa0, 0xe4, 0x02, 32};
  blake.resize(blake.size() + 32, 7);
  auto b = cid_from_bytes(blake);
  ASSERT_TRUE(b.is_ok()) << b.status().message();
  Status s = check_block(*b, bytes_of("x"));
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_NE(s.message().find("blake2b-256"), std::string::npos) << s.message();
  std::vector<uint8_t> cut = {1, 0x55, 0x12, 20};
  cut.resize(cut.size() + 20, 7);
  EXPECT_EQ(check_block(*cid_from_bytes(cut), bytes_of("x")).code(), StatusCode::kUnsupported);
  // A dag-cbor CID parses (a folder may link to one) but is no block odf-hash decodes.
  std::vector<uint8_t> cbor = {1, 0x71, 0x00, 1, 0xa0};
  auto c = cid_from_bytes(cbor);
  ASSERT_TRUE(c.is_ok());
  EXPECT_EQ(decode_block(*c, {0xa0}).status().code(), StatusCode::kUnsupported);
}

TEST(IpfsDagPb, KubosDirectory) {
  Block d = decoded("bafybeigqea73oaz3g7s5aivtk52kjatz56g3jryawyfrxyqikxewytkz2u");
  EXPECT_EQ(d.unixfs.type, UnixFsType::kDirectory);
  ASSERT_EQ(d.node.links.size(), 2u);
  EXPECT_EQ(d.node.links[0].name, "a.txt");
  EXPECT_EQ(d.node.links[0].hash.to_string(),
            "bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am");
  EXPECT_EQ(d.node.links[0].tsize, 6u);
  EXPECT_EQ(d.node.links[1].name, "sub");
  EXPECT_EQ(d.node.links[1].hash.to_string(),
            "bafybeida6t4r55a34l36lod6jwbpc74ksvp5lvk3gm3p36a7w7nil46iei");
  EXPECT_EQ(d.node.links[1].tsize, 3207u);
  EXPECT_FALSE(file_block_size(d).is_ok());  // a directory is no file

  Block d0 = decoded("QmaFDZRb5q7ZTc7pmSjn2zx2coWftaQ2nRPh962Nqq59Go");
  EXPECT_EQ(d0.unixfs.type, UnixFsType::kDirectory);
  ASSERT_EQ(d0.node.links.size(), 2u);
  EXPECT_EQ(d0.node.links[0].hash.to_string(), "QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN");
  EXPECT_EQ(d0.node.links[0].hash.version, 0u);
}

TEST(IpfsDagPb, KubosFiles) {
  Block f = decoded("bafybeicqboi3fdsmqrd3dgvruh7vu6rknudtxnmt47r3yrdflq6io6zl3a");
  EXPECT_EQ(f.unixfs.type, UnixFsType::kFile);
  EXPECT_EQ(f.unixfs.filesize, 3000u);
  EXPECT_EQ(f.unixfs.blocksizes, (std::vector<uint64_t>{1000, 1000, 1000}));
  ASSERT_EQ(f.node.links.size(), 3u);
  for (const PbLink& l : f.node.links) {
    EXPECT_EQ(l.hash.to_string(), "bafkreice7a2ujfffxib3uf4svdj6trjuyr5jdamyb7phup2ewbxpflt4p4");
    EXPECT_EQ(l.name, "");  // Kubo writes an empty name for a file's chunks
  }
  EXPECT_EQ(file_block_size(f).value(), 3000u);

  Block leaf = decoded("bafkreice7a2ujfffxib3uf4svdj6trjuyr5jdamyb7phup2ewbxpflt4p4");
  EXPECT_TRUE(leaf.is_raw());
  EXPECT_EQ(file_block_size(leaf).value(), 1000u);
  EXPECT_EQ(std::string(leaf.content().begin(), leaf.content().end()), std::string(1000, 'x'));

  Block a0 = decoded("QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN");  // CIDv0 leaf
  EXPECT_EQ(a0.unixfs.type, UnixFsType::kFile);
  EXPECT_EQ(std::string(a0.content().begin(), a0.content().end()), "hello\n");
  EXPECT_EQ(file_block_size(a0).value(), 6u);
}

// A dag-pb File node written by hand: PBNode { Links: [Hash: cid], Data: UnixFS }.
std::vector<uint8_t> file_node(const std::vector<uint8_t>& unixfs, size_t links) {
  std::vector<uint8_t> out;
  auto leaf = parse_cid("bafkreice7a2ujfffxib3uf4svdj6trjuyr5jdamyb7phup2ewbxpflt4p4");
  for (size_t i = 0; i < links; ++i) {
    out.push_back(0x12);  // field 2, length-delimited
    out.push_back(static_cast<uint8_t>(2 + leaf->bytes.size()));
    out.push_back(0x0a);  // Hash
    out.push_back(static_cast<uint8_t>(leaf->bytes.size()));
    out.insert(out.end(), leaf->bytes.begin(), leaf->bytes.end());
  }
  out.push_back(0x0a);
  out.push_back(static_cast<uint8_t>(unixfs.size()));
  out.insert(out.end(), unixfs.begin(), unixfs.end());
  return out;
}

Result<Block> decode_pb(std::vector<uint8_t> bytes) {
  auto cid = cid_from_bytes(std::vector<uint8_t>{1, 0x70, 0x00, 0});  // the CID is not checked
  return decode_block(*cid, std::move(bytes));
}

TEST(IpfsDagPb, InconsistentFilesAreRefused) {
  // Type File, filesize 2000, blocksizes [1000]: the sizes disagree.
  auto bad_total = decode_pb(file_node({0x08, 0x02, 0x18, 0xd0, 0x0f, 0x20, 0xe8, 0x07}, 1));
  ASSERT_TRUE(bad_total.is_ok()) << bad_total.status().message();
  EXPECT_NE(file_block_size(*bad_total).status().message().find("filesize"), std::string::npos);
  // Two links, one blocksize.
  auto bad_count = decode_pb(file_node({0x08, 0x02, 0x20, 0xe8, 0x07}, 2));
  ASSERT_TRUE(bad_count.is_ok());
  EXPECT_NE(file_block_size(*bad_count).status().message().find("2 links and 1 blocksizes"),
            std::string::npos);
  // Packed blocksizes (proto3 style) read as unpacked ones.
  auto packed = decode_pb(file_node({0x08, 0x02, 0x22, 0x02, 0xe8, 0x07}, 1));
  ASSERT_TRUE(packed.is_ok()) << packed.status().message();
  EXPECT_EQ(file_block_size(*packed).value(), 1000u);
}

TEST(IpfsDagPb, MalformedNodesAreErrors) {
  const std::vector<std::vector<uint8_t>> cases = {
      {0x0a, 0x05, 0x08},                    // Data's length past the end
      {0x0a, 0x02, 0x08, 0x01, 0x0a, 0x00},  // Data twice
      {0x1a, 0x00},                          // field 3
      {0x12, 0x00},                          // a link without Hash
      {0x12, 0x02, 0x0a, 0x00},              // a link whose Hash is no CID
      {0x0b},                                // a group
      {0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01},  // 11-byte varint
      {},                        // no Data: no UnixFS node
      {0x0a, 0x00},              // UnixFS without Type
      {0x0a, 0x02, 0x08, 0x09},  // UnixFS Type 9
      {0x0a, 0x02, 0x10, 0x01},  // UnixFS Data as a varint
  };
  for (const auto& bytes : cases) {
    auto block = decode_pb(bytes);
    ASSERT_FALSE(block.is_ok()) << ::testing::PrintToString(bytes);
    EXPECT_EQ(block.status().code(), StatusCode::kParseError);
  }
  // Data before the links (a "data-first" writer) and unknown UnixFS fields (mode, mtime)
  // are read.
  auto data_first = decode_dag_pb(std::vector<uint8_t>{
      0x0a, 0x02, 0x08, 0x01, 0x12, 0x24, 0x0a, 0x22, 0x12, 0x20, 1,  2,  3,  4,
      5,    6,    7,    8,    9,    10,   11,   12,   13,   14,   15, 16, 17, 18,
      19,   20,   21,   22,   23,   24,   25,   26,   27,   28,   29, 30, 31, 32});
  ASSERT_TRUE(data_first.is_ok()) << data_first.status().message();
  EXPECT_EQ(data_first->links.size(), 1u);
  auto with_mode =
      decode_unixfs(std::vector<uint8_t>{0x08, 0x02, 0x38, 0xa4, 0x03, 0x42, 0x02, 0x08, 0x01});
  ASSERT_TRUE(with_mode.is_ok()) << with_mode.status().message();
  EXPECT_EQ(with_mode->type, UnixFsType::kFile);
}

}  // namespace
