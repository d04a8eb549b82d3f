// Block reader tests over blocks written by the example generator (Python flatbuffers
// builder, scripts/generate_example_datasets.py). Expected values come from the generator's
// inputs (file names are Python hashlib SHA3-256, sizes are file lengths, timestamps and
// sequence numbers are the generator's constants), never from odf-hash itself.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "odf_hash/odf/dataset.h"
#include "odf_hash/odf/odf_block.h"
#include "odf_hash/odf/verify.h"

namespace fs = std::filesystem;
using namespace odf_hash;
using namespace odf_hash::odf;

namespace {

const fs::path kSource = ODF_HASH_SOURCE_DIR;
const fs::path kRoot = kSource / "examples/datasets/root";
const fs::path kDerivative = kSource / "examples/datasets/derivative";
const fs::path kFixtures = kSource / "tests/data/odf";

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<ChainBlock> chain_of(const fs::path& dir) {
  auto d = DatasetDir::open(dir.string());
  EXPECT_TRUE(d.is_ok()) << d.status().to_string();
  auto chain = read_chain(*d);
  EXPECT_TRUE(chain.is_ok()) << chain.status().to_string();
  return chain.is_ok() ? *chain : std::vector<ChainBlock>{};
}

}  // namespace

TEST(OdfBlock, EveryExampleBlockParsesAsVersion3) {
  size_t count = 0;
  for (const auto& ds : {kRoot, kDerivative}) {
    for (const auto& e : fs::directory_iterator(ds / "blocks")) {
      auto b = parse_block(read_bytes(e.path()));
      ASSERT_TRUE(b.is_ok()) << e.path() << ": " << b.status().to_string();
      EXPECT_EQ(b->version, 3);
      ++count;
    }
  }
  EXPECT_EQ(count, 9u);  // 5 root blocks + 4 derivative blocks
}

TEST(OdfBlock, RootChainHeadToSeed) {
  auto chain = chain_of(kRoot);
  ASSERT_EQ(chain.size(), 5u);
  const EventKind events[] = {EventKind::kAddData, EventKind::kAddData, EventKind::kAddData,
                              EventKind::kSetInfo, EventKind::kSeed};
  for (size_t i = 0; i < chain.size(); ++i) {
    EXPECT_EQ(chain[i].block.sequence_number, 4 - i);
    EXPECT_EQ(chain[i].block.event, events[i]);
    EXPECT_EQ(chain[i].block.prev_block_hash.has_value(), i + 1 < chain.size());
    if (i + 1 < chain.size()) {
      EXPECT_EQ(*chain[i].block.prev_block_hash, chain[i + 1].hash);
    }
  }
  EXPECT_EQ(chain.back().block.dataset_kind, DatasetKind::kRoot);
  // Generator: T0 = 2024-03-01T12:00:00Z; the seed is committed at T0, block n at T0 + 24n h.
  EXPECT_EQ(chain.back().block.system_time.to_string(), "2024-03-01T12:00:00Z");
  EXPECT_EQ(chain[0].block.system_time.to_string(), "2024-03-04T12:00:00Z");
  // Slices of 4, 4 and 3 cities; checkpoints on the second and third AddData.
  const uint64_t starts[] = {8, 4, 0}, ends[] = {10, 7, 3};
  for (size_t i = 0; i < 3; ++i) {
    const auto& b = chain[i].block;
    ASSERT_TRUE(b.new_data.has_value());
    EXPECT_EQ(b.new_data->offset_interval.start, starts[i]);
    EXPECT_EQ(b.new_data->offset_interval.end, ends[i]);
    fs::path data = kRoot / "data" / b.new_data->physical_hash.to_string();
    ASSERT_TRUE(fs::exists(data)) << data;
    EXPECT_EQ(b.new_data->size, fs::file_size(data));
    EXPECT_EQ(b.new_checkpoint.has_value(), i < 2);
    if (b.new_checkpoint) {
      fs::path cp = kRoot / "checkpoints" / b.new_checkpoint->physical_hash.to_string();
      ASSERT_TRUE(fs::exists(cp)) << cp;
      EXPECT_EQ(b.new_checkpoint->size, fs::file_size(cp));
    }
    EXPECT_EQ(b.prev_offset.has_value(), i < 2);
    if (b.prev_offset) {
      EXPECT_EQ(*b.prev_offset, starts[i] - 1);
    }
  }
  EXPECT_FALSE(chain[2].block.prev_checkpoint.has_value());
  EXPECT_EQ(*chain[0].block.prev_checkpoint, chain[1].block.new_checkpoint->physical_hash);
}

TEST(OdfBlock, DerivativeChain) {
  auto chain = chain_of(kDerivative);
  ASSERT_EQ(chain.size(), 4u);
  EXPECT_EQ(chain[0].block.event, EventKind::kExecuteTransform);
  EXPECT_EQ(chain[1].block.event, EventKind::kExecuteTransform);
  EXPECT_EQ(chain[2].block.event, EventKind::kSetTransform);
  EXPECT_EQ(chain[3].block.dataset_kind, DatasetKind::kDerivative);
  // Three cities above a million in the first run, two in the second.
  EXPECT_EQ(chain[1].block.new_data->offset_interval.start, 0u);
  EXPECT_EQ(chain[1].block.new_data->offset_interval.end, 2u);
  EXPECT_EQ(chain[0].block.new_data->offset_interval.start, 3u);
  EXPECT_EQ(chain[0].block.new_data->offset_interval.end, 4u);
  EXPECT_EQ(chain[0].block.new_data->logical_hash.code(), HashCode::kArrow0Sha3_256);
}

TEST(OdfBlock, Version2UnalignedTimestampIsRead) {
  auto expected = nlohmann::json::parse(read_bytes(kFixtures / "block-v2-unaligned.json"));
  ASSERT_NE(expected["system_time_offset_in_content"].get<int>() % 4, 0);
  auto b = parse_block(read_bytes(kFixtures / "block-v2-unaligned.bin"));
  ASSERT_TRUE(b.is_ok()) << b.status().to_string();
  EXPECT_EQ(b->version, 2);
  EXPECT_EQ(b->sequence_number, expected["sequence_number"].get<uint64_t>());
  EXPECT_EQ(b->event, EventKind::kAddData);
  EXPECT_EQ(b->system_time.to_string(), expected["system_time"].get<std::string>());
  EXPECT_EQ(b->prev_block_hash->to_string(), expected["prev_block_hash"].get<std::string>());
  EXPECT_EQ(b->prev_offset, expected["prev_offset"].get<uint64_t>());
  EXPECT_EQ(b->new_checkpoint->physical_hash.to_string(),
            expected["new_checkpoint"].get<std::string>());
  EXPECT_EQ(b->new_checkpoint->size, 10u);
  EXPECT_FALSE(b->new_data.has_value());
}

TEST(OdfBlock, Version3MustBeAligned) {
  auto b = parse_block(read_bytes(kFixtures / "block-v3-misaligned.bin"));
  ASSERT_FALSE(b.is_ok());
  EXPECT_EQ(b.status().code(), StatusCode::kParseError);
  EXPECT_EQ(b.status().message(),
            "Manifest.content is not a valid FlatBuffers MetadataBlock (version 3: aligned "
            "layout required)");
}

// A SetVocab block kamu 0.265 wrote (`kind: SetVocab, offsetColumn: rownum,
// systemTimeColumn: sys_t, eventTimeColumn: ev_t` in its snapshot; `kamu log` shows it as
// sequence number 1): verify --deep reads the offset column's name from it.
TEST(OdfBlock, KamuSetVocabNamesTheOffsetColumn) {
  auto b = parse_block(read_bytes(kFixtures / "kamu-set-vocab.bin"));
  ASSERT_TRUE(b.is_ok()) << b.status().message();
  EXPECT_EQ(b->event, EventKind::kSetVocab);
  EXPECT_EQ(b->sequence_number, 1u);
  ASSERT_TRUE(b->vocab_offset_column.has_value());
  EXPECT_EQ(*b->vocab_offset_column, "rownum");
}

TEST(OdfBlock, UnknownVersionIsAnError) {
  auto b = parse_block(read_bytes(kFixtures / "block-version-9.bin"));
  ASSERT_FALSE(b.is_ok());
  EXPECT_EQ(b.status().message(), "unsupported block version 9 (odf-hash reads versions 2 and 3)");
}

TEST(OdfBlock, WrongManifestKindIsAnError) {
  auto bytes = read_bytes(kFixtures / "block-v2-unaligned.bin");
  const uint8_t kind[8] = {0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00};
  auto it = std::search(bytes.begin(), bytes.end(), std::begin(kind), std::end(kind));
  ASSERT_NE(it, bytes.end());
  it[2] = 0x41;
  auto b = parse_block(bytes);
  ASSERT_FALSE(b.is_ok());
  EXPECT_EQ(b.status().message(), "Manifest.kind is 0x410000, not 0x400000 (odf-metadata-block)");
}

TEST(OdfBlock, GarbageAndEveryTruncationGiveErrors) {
  EXPECT_FALSE(parse_block({}).is_ok());
  const std::vector<uint8_t> junk = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  EXPECT_EQ(parse_block(junk).status().message(),
            "not a valid FlatBuffers Manifest (verifier rejected it)");
  auto head =
      read_bytes(kRoot / "blocks" / fs::directory_iterator(kRoot / "blocks")->path().filename());
  ASSERT_TRUE(parse_block(head).is_ok());
  for (size_t n = 0; n < head.size(); ++n) {
    std::vector<uint8_t> prefix(head.begin(), head.begin() + static_cast<long>(n));
    EXPECT_FALSE(parse_block(prefix).is_ok()) << "prefix of " << n << " bytes";
  }
}

TEST(OdfBlock, TimestampFormatting) {
  EXPECT_EQ((Timestamp{2024, 60, 0, 0}).to_string(), "2024-02-29T00:00:00Z");
  EXPECT_EQ((Timestamp{2023, 365, 86399, 500000000}).to_string(), "2023-12-31T23:59:59.5Z");
  EXPECT_EQ((Timestamp{2023, 366, 0, 0}).to_string(), "(year 2023, day 366, second 0, ns 0)");
}
