// Shared by the verify tests: an example dataset copied to a temporary directory to be
// broken in one way, and expected values independent of odf-hash (hashes from OpenSSL, the
// file names the Python generator wrote).
#pragma once

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "odf_hash/odf/verify.h"

namespace fs = std::filesystem;
using namespace odf_hash;
using namespace odf_hash::odf;

namespace {

const fs::path kSource = ODF_HASH_SOURCE_DIR;
const fs::path kFixtures = kSource / "tests/data/odf";

inline std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const fs::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

// The spoilings the broken-dataset tests share: one bit of the middle byte flipped (same
// size, other hash), and the file cut to its first `size` bytes.
inline void flip_middle_byte(const fs::path& p) {
  auto bytes = read_bytes(p);
  bytes[bytes.size() / 2] ^= 0x01;
  write_bytes(p, bytes);
}

inline void truncate_to(const fs::path& p, size_t size) {
  auto bytes = read_bytes(p);
  bytes.resize(size);
  write_bytes(p, bytes);
}

// sha3-256 multihash bytes and canonical string, straight from OpenSSL.
inline std::vector<uint8_t> sha3_multihash(const std::vector<uint8_t>& data) {
  std::vector<uint8_t> out = {0x16, 0x20};
  unsigned char md[32];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), md, &len, EVP_sha3_256(), nullptr);
  out.insert(out.end(), md, md + 32);
  return out;
}

inline std::string hex_string(const std::vector<uint8_t>& mh) {
  static const char* digits = "0123456789abcdef";
  std::string s = "f";
  for (uint8_t b : mh) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

inline std::string sha3_file(const fs::path& p) {
  return hex_string(sha3_multihash(read_bytes(p)));
}

inline std::string describe(const Problem& p) {
  return std::string(problem_kind_name(p.kind)) + " | seq " +
         (p.sequence_number ? std::to_string(*p.sequence_number) : "-") + " | " +
         (p.block ? p.block->to_string() : "-") + " | " + p.file + " | " +
         p.expected.to_string(p.unit) + " | " + p.actual.to_string(p.unit) + " | " + p.message;
}

inline std::vector<std::string> describe_all(const DatasetReport& r) {
  std::vector<std::string> out;
  for (const auto& p : r.problems) out.push_back(describe(p));
  return out;
}

// "data/x | file | 5 bytes" (+ " | link <target>", " | broken", " | canonical f1620…").
inline std::string describe(const UnreferencedEntry& e) {
  std::string s =
      e.file + " | " + entry_kind_name(e.kind) + " | " + std::to_string(e.size) + " bytes";
  if (!e.link_target.empty()) s += " | link " + e.link_target;
  if (e.broken_link) s += " | broken";
  if (!e.canonical_name.empty()) s += " | canonical " + e.canonical_name;
  return s;
}

inline std::vector<std::string> describe_unreferenced(const DatasetReport& r) {
  std::vector<std::string> out;
  for (const auto& e : r.unreferenced) out.push_back(describe(e));
  return out;
}

// One block of the pristine example: its hash (file name) and what it references.
struct BlockInfo {
  std::string hash;
  std::string data;        // data file name, or ""
  std::string checkpoint;  // checkpoint file name, or ""
  uint64_t data_size = 0, checkpoint_size = 0;
};

class BrokenDataset : public ::testing::Test {
 protected:
  void copy_example(const std::string& name) {
    fs::path src = kSource / "examples/datasets" / name;
    dir_ = fs::path(::testing::TempDir()) /
           ("odf_verify_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::copy(src, dir_, fs::copy_options::recursive);
    auto d = DatasetDir::open(dir_.string());
    ASSERT_TRUE(d.is_ok());
    auto chain = read_chain(*d);
    ASSERT_TRUE(chain.is_ok()) << chain.status().to_string();
    blocks_.clear();
    blocks_.resize(chain->size());
    for (const auto& cb : *chain) {
      BlockInfo& b = blocks_[cb.block.sequence_number];
      b.hash = cb.hash.to_string();
      if (cb.block.new_data) {
        b.data = cb.block.new_data->physical_hash.to_string();
        b.data_size = cb.block.new_data->size;
      }
      if (cb.block.new_checkpoint) {
        b.checkpoint = cb.block.new_checkpoint->physical_hash.to_string();
        b.checkpoint_size = cb.block.new_checkpoint->size;
      }
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  DatasetReport verify(bool integrity_only = false, unsigned jobs = 2) {
    VerifyOptions o;
    o.jobs = jobs;
    o.integrity_only = integrity_only;
    return verify_with(o);
  }
  DatasetReport verify_strict() {
    VerifyOptions o;
    o.jobs = 2;
    o.strict = true;
    return verify_with(o);
  }
  DatasetReport verify_with(const VerifyOptions& o) {
    auto r = verify_dataset(dir_.string(), o);
    EXPECT_TRUE(r.is_ok()) << r.status().to_string();
    return r.is_ok() ? *r : DatasetReport{};
  }

  fs::path dir_;
  std::vector<BlockInfo> blocks_;  // by sequence number
};

}  // namespace
