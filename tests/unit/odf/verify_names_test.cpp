// Only the canonical name of a hash counts ("f1620" + 64 lower-case hex digits, the name kamu
// writes and opens): a block, data file or checkpoint present only under another spelling is
// missing, the message naming the file that holds it, and that file is unreferenced.
// refs/head is a value: any multibase spelling of the head's multihash is read, as kamu 0.265
// reads it (checked by hand: a base58btc refs/head verifies with `kamu verify --integrity`).
//
// Expected names are the generator's file names (hashlib) and their spellings made here.
#include <cctype>
#include <string>
#include <vector>

#include "broken_dataset.h"
#include "odf_hash/core/multibase.h"

namespace {

std::string upper_spelling(const std::string& canonical) {  // "f1620ab…" -> "F1620AB…"
  std::string s = canonical;
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string base58_spelling(const std::string& canonical) {
  auto raw = multibase::decode(canonical);
  EXPECT_TRUE(raw.is_ok());
  return raw.is_ok() ? multibase::encode(multibase::Base::kBase58Btc, *raw) : "";
}

const std::string kElsewhere =
    " holds the same hash under another spelling, which kamu does not open (only the canonical "
    "name counts)";

using CanonicalNames = BrokenDataset;

TEST_F(CanonicalNames, UpperCaseDataFileIsMissing) {
  copy_example("root");
  const std::string upper = upper_spelling(blocks_[3].data);
  fs::rename(dir_ / "data" / blocks_[3].data, dir_ / "data" / upper);
  DatasetReport r = verify();
  EXPECT_EQ(describe_all(r),
            std::vector<std::string>{"file-missing | seq 3 | " + blocks_[3].hash + " | data/" +
                                     blocks_[3].data +
                                     " |  |  | the data file does not exist under its canonical "
                                     "name; data/" +
                                     upper + kElsewhere});
  EXPECT_EQ(describe_unreferenced(r),
            std::vector<std::string>{"data/" + upper + " | file | " +
                                     std::to_string(blocks_[3].data_size) + " bytes | canonical " +
                                     blocks_[3].data});
  DatasetReport s = verify_strict();
  ASSERT_EQ(s.problems.size(), 2u);
  EXPECT_EQ(describe(s.problems[1]),
            "unexpected-file | seq - | - | data/" + upper +
                " |  |  | no block of the chain references this file (its name is a "
                "non-canonical spelling of " +
                blocks_[3].data + ")");
}

TEST_F(CanonicalNames, Base58CheckpointIsMissing) {
  copy_example("root");
  const std::string z = base58_spelling(blocks_[4].checkpoint);
  ASSERT_EQ(z[0], 'z');
  fs::rename(dir_ / "checkpoints" / blocks_[4].checkpoint, dir_ / "checkpoints" / z);
  DatasetReport r = verify();
  EXPECT_EQ(describe_all(r),
            std::vector<std::string>{"file-missing | seq 4 | " + blocks_[4].hash +
                                     " | checkpoints/" + blocks_[4].checkpoint +
                                     " |  |  | the checkpoint file does not exist under its "
                                     "canonical name; checkpoints/" +
                                     z + kElsewhere});
  ASSERT_EQ(r.unreferenced.size(), 1u);
  EXPECT_EQ(r.unreferenced[0].canonical_name, blocks_[4].checkpoint);
}

TEST_F(CanonicalNames, UpperCaseBlockBreaksTheChain) {
  copy_example("root");
  const std::string upper = upper_spelling(blocks_[2].hash);
  fs::rename(dir_ / "blocks" / blocks_[2].hash, dir_ / "blocks" / upper);
  DatasetReport r = verify();
  EXPECT_FALSE(r.chain_complete);
  EXPECT_EQ(r.blocks, 2u);
  EXPECT_EQ(describe_all(r),
            std::vector<std::string>{"block-missing | seq 2 | " + blocks_[2].hash + " | blocks/" +
                                     blocks_[2].hash + " |  |  | block " + blocks_[2].hash +
                                     " referenced by block " + blocks_[3].hash +
                                     " (sequence number 3) does not exist under its canonical "
                                     "name; blocks/" +
                                     upper + kElsewhere});
  // The chain is incomplete: hash-named files are not listed as unreferenced.
  EXPECT_TRUE(r.unreferenced.empty());
}

// A dataset written with base58btc names everywhere: kamu finds none of its files, and
// neither does verification (it used to accept them).
TEST_F(CanonicalNames, AllBase58NamesFindNothing) {
  copy_example("root");
  for (const char* folder : {"blocks", "data", "checkpoints"}) {
    for (const auto& e : std::vector<fs::directory_entry>(fs::directory_iterator(dir_ / folder),
                                                          fs::directory_iterator())) {
      fs::rename(e.path(), dir_ / folder / base58_spelling(e.path().filename().string()));
    }
  }
  std::ofstream(dir_ / "refs/head", std::ios::trunc) << base58_spelling(blocks_[4].hash) << "\n";
  DatasetReport r = verify();
  EXPECT_EQ(r.head->to_string(), blocks_[4].hash);
  EXPECT_EQ(r.blocks, 0u);
  EXPECT_EQ(describe_all(r),
            std::vector<std::string>{"block-missing | seq - | " + blocks_[4].hash + " | blocks/" +
                                     blocks_[4].hash + " |  |  | block " + blocks_[4].hash +
                                     " referenced by refs/head does not exist under its "
                                     "canonical name; blocks/" +
                                     base58_spelling(blocks_[4].hash) + kElsewhere});
}

TEST_F(CanonicalNames, Base58HeadIsReadAsKamuReadsIt) {
  copy_example("root");
  std::ofstream(dir_ / "refs/head", std::ios::trunc) << base58_spelling(blocks_[4].hash);
  DatasetReport r = verify();
  EXPECT_TRUE(r.valid()) << ::testing::PrintToString(describe_all(r));
  EXPECT_EQ(r.head->to_string(), blocks_[4].hash);
}

// The canonical file and a second spelling of it: the canonical one is checked, the other is
// unreferenced (never read: it may hold anything).
TEST_F(CanonicalNames, SecondSpellingIsUnreferenced) {
  copy_example("root");
  const std::string upper = upper_spelling(blocks_[2].data);
  write_bytes(dir_ / "data" / upper, {'x', 'y'});
  DatasetReport r = verify();
  EXPECT_TRUE(r.valid()) << ::testing::PrintToString(describe_all(r));
  EXPECT_EQ(describe_unreferenced(r),
            std::vector<std::string>{"data/" + upper + " | file | 2 bytes | canonical " +
                                     blocks_[2].data});
  EXPECT_EQ(r.files.size(), 5u);
  for (const auto& f : r.files) EXPECT_EQ(f.outcome, FileOutcome::kPhysicalMatch) << f.file;
}

}  // namespace
