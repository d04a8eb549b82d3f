// Conformance of odf-hash with the reference implementation on the committed vectors
// (tests/conformance/vectors.json, made by conformance/ from arrow-rs + arrow-digest and,
// for the physical hashes, the Rust sha3 crate).
//
// For every vector:
//   - logical_hash_file (our readers + our hasher) must give the reference logical hash and
//     row count;
//   - IPC fixtures are also read here with Arrow C++'s own IPC readers, exported through
//     the C stream interface and hashed with logical_hash_stream, which checks the hasher
//     independently of src/io;
//   - physical_hash_file must give the reference SHA3-256.
// Vectors the reference cannot hash (reference_error) are of two kinds. arrow-rs refusing the
// file ("expect": "error": invalid UTF-8 in null slots, nulls in non-nullable fields, ...):
// odf-hash must refuse it too. arrow-digest panicking on a type it cannot hash: a documented
// divergence; when the vector names an 'equivalent' file holding the same records decoded,
// our hash must equal that file's reference hash.
#include <gtest/gtest.h>

#include <arrow/c/bridge.h>
#include <arrow/io/file.h>
#include <arrow/ipc/reader.h>
#include <arrow/record_batch.h>

#include <cctype>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "odf_hash/io/logical_file.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/record_stream.h"
#include "odf_hash/logical/logical.h"

namespace {

const std::string kDir = std::string(ODF_HASH_SOURCE_DIR) + "/tests/conformance/";

struct Vector {
  std::string file;
  nlohmann::json json;
};

const nlohmann::json& vectors_document() {
  static const nlohmann::json doc = [] {
    std::ifstream in(kDir + "vectors.json");
    return nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  }();
  return doc;
}

// Prints a vector by its file name in test output (instead of its bytes).
void PrintTo(const Vector& v, std::ostream* os) {
  *os << v.file;
}

// known_failures.json: vectors with an open bug (file -> bug id, bug id -> text).
const nlohmann::json& known_failures() {
  static const nlohmann::json doc = [] {
    std::ifstream in(kDir + "known_failures.json");
    auto j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    return j.is_object() ? j : nlohmann::json::object();
  }();
  return doc;
}

// The bug text when `file` is a listed expected failure, else empty.
std::string known_bug(const std::string& file) {
  const auto& k = known_failures();
  if (!k.contains("vectors") || !k["vectors"].contains(file)) return {};
  const std::string id = k["vectors"][file].get<std::string>();
  return id + ": " + k["bugs"].value(id, std::string("(no description)"));
}

std::vector<Vector> load_vectors() {
  std::vector<Vector> out;
  const auto& doc = vectors_document();
  if (!doc.is_object() || !doc.contains("vectors")) return out;
  for (const auto& v : doc["vectors"]) out.push_back({v.value("file", ""), v});
  return out;
}

const nlohmann::json* find_vector(const std::string& file) {
  for (const auto& v : vectors_document()["vectors"]) {
    if (v.value("file", "") == file) return &v;
  }
  return nullptr;
}

std::string test_name(const testing::TestParamInfo<Vector>& info) {
  std::string name;
  for (char c : info.param.file) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

bool is_ipc(const nlohmann::json& v) {
  const std::string f = v.value("format", "");
  return f == "arrow-ipc-file" || f == "arrow-ipc-stream";
}

// Reads an IPC file or stream with Arrow C++ and exports it as an ArrowArrayStream.
arrow::Status export_ipc(const std::string& path, bool is_file, ArrowArrayStream* out) {
  ARROW_ASSIGN_OR_RAISE(auto input, arrow::io::ReadableFile::Open(path));
  std::shared_ptr<arrow::RecordBatchReader> reader;
  if (is_file) {
    ARROW_ASSIGN_OR_RAISE(auto file_reader, arrow::ipc::RecordBatchFileReader::Open(input));
    std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
    for (int i = 0; i < file_reader->num_record_batches(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto b, file_reader->ReadRecordBatch(i));
      batches.push_back(std::move(b));
    }
    ARROW_ASSIGN_OR_RAISE(reader, arrow::RecordBatchReader::Make(batches, file_reader->schema()));
  } else {
    ARROW_ASSIGN_OR_RAISE(reader, arrow::ipc::RecordBatchStreamReader::Open(input));
  }
  // The C ABI struct declared by odf_hash/arrow_c_data.h and by arrow/c/abi.h is the same.
  return arrow::ExportRecordBatchReader(reader, reinterpret_cast<struct ArrowArrayStream*>(out));
}

std::vector<Vector> load_ipc_vectors() {
  std::vector<Vector> out;
  for (auto& v : load_vectors()) {
    if (is_ipc(v.json)) out.push_back(std::move(v));
  }
  return out;
}

class ConformanceVector : public testing::TestWithParam<Vector> {};
class ConformanceIpcVector : public testing::TestWithParam<Vector> {};

TEST(ConformanceVectors, LoadedAndNonTrivial) {
  const auto vectors = load_vectors();
  ASSERT_GE(vectors.size(), 40u) << "tests/conformance/vectors.json missing or too small";
  size_t generated = 0, pyarrow = 0, ipc = 0, parquet = 0;
  for (const auto& v : vectors) {
    generated += v.json.value("source", "") == "generated";
    pyarrow += v.json.value("source", "") == "pyarrow";
    ipc += is_ipc(v.json);
    parquet += v.json.value("format", "") == "parquet";
  }
  EXPECT_GE(generated, 30u);
  EXPECT_GE(pyarrow, 10u);
  EXPECT_GE(ipc, 20u);
  EXPECT_GE(parquet, 20u);
}

// Whether our logical hash of the file agrees with the vector (or with its equivalent).
testing::AssertionResult logical_file_agrees(const std::string& file, const nlohmann::json& v) {
  auto ours = odf_hash::logical_hash_file(kDir + file);
  if (!ours.is_ok()) return testing::AssertionFailure() << ours.status().message();
  std::string expected;
  if (v.contains("reference_error")) {
    const auto* eq =
        v.contains("equivalent") ? find_vector(v["equivalent"].get<std::string>()) : nullptr;
    if (eq == nullptr || !eq->contains("logical")) {
      return testing::AssertionFailure() << "no equivalent vector with a reference hash";
    }
    expected = (*eq)["logical"].get<std::string>();
  } else {
    expected = v["logical"].get<std::string>();
    if (ours->num_rows != v["rows"].get<uint64_t>()) {
      return testing::AssertionFailure()
             << "rows " << ours->num_rows << ", reference " << v["rows"];
    }
  }
  if (ours->multihash().to_string() != expected) {
    return testing::AssertionFailure()
           << "odf-hash " << ours->multihash().to_string() << ", reference " << expected;
  }
  return testing::AssertionSuccess();
}

TEST_P(ConformanceVector, LogicalHashOfFileMatchesReference) {
  const auto& v = GetParam().json;
  const std::string path = kDir + GetParam().file;
  if (const std::string bug = known_bug(GetParam().file); !bug.empty()) {
    // An expected failure: it must still fail, or the entry must leave known_failures.json.
    ASSERT_FALSE(logical_file_agrees(GetParam().file, v))
        << "this vector now passes: remove it from tests/conformance/known_failures.json";
    GTEST_SKIP() << "KNOWN BUG " << bug;
  }
  auto ours = odf_hash::logical_hash_file(path);
  if (v.value("expect", "") == "error") {
    EXPECT_FALSE(ours.is_ok()) << "arrow-rs refuses this file ("
                               << v["reference_error"].get<std::string>()
                               << ") but odf-hash hashed it";
    return;
  }
  if (v.contains("reference_error")) {
    if (!v.contains("equivalent")) {
      GTEST_SKIP() << "documented divergence without an equivalent vector: "
                   << v["reference_error"].get<std::string>();
    }
    const auto* eq = find_vector(v["equivalent"].get<std::string>());
    ASSERT_NE(eq, nullptr) << "equivalent vector not found: " << v["equivalent"];
    ASSERT_TRUE(eq->contains("logical"));
    ASSERT_TRUE(ours.is_ok()) << ours.status().message();
    EXPECT_EQ(ours->multihash().to_string(), (*eq)["logical"].get<std::string>())
        << "the reference cannot hash this file (" << v["reference_error"].get<std::string>()
        << "); our hash of its decoded values must equal the reference hash of "
        << v["equivalent"].get<std::string>();
    return;
  }
  ASSERT_TRUE(ours.is_ok()) << ours.status().message();
  EXPECT_EQ(ours->multihash().to_string(), v["logical"].get<std::string>());
  EXPECT_EQ(ours->num_rows, v["rows"].get<uint64_t>());
}

// A Parquet file's columns read and hashed in groups (LogicalFileOptions::column_streams,
// each group its own reader and thread, digests combined) give what one stream gives: the
// reference hash and row count, the same column digests, and the very same error for a
// file the reference refuses.
TEST_P(ConformanceVector, ColumnGroupsGiveTheOneStreamResult) {
  const auto& v = GetParam().json;
  if (!known_bug(GetParam().file).empty()) GTEST_SKIP() << "known bug (see the test above)";
  const std::string path = kDir + GetParam().file;
  odf_hash::LogicalFileOptions one;
  one.column_streams = odf_hash::LogicalFileOptions::ColumnStreams::kOff;
  const auto whole = odf_hash::logical_hash_file(path, one);
  for (unsigned threads : {2u, 3u}) {
    odf_hash::LogicalFileOptions split;
    split.threads = threads;
    split.column_streams = odf_hash::LogicalFileOptions::ColumnStreams::kOn;
    const auto groups = odf_hash::logical_hash_file(path, split);
    ASSERT_EQ(groups.is_ok(), whole.is_ok())
        << threads << " threads: " << (groups.is_ok() ? whole : groups).status().message();
    if (!whole.is_ok()) {
      EXPECT_EQ(groups.status().code(), whole.status().code());
      EXPECT_EQ(groups.status().message(), whole.status().message());
      continue;
    }
    if (v.contains("logical") && !v.contains("reference_error")) {
      EXPECT_EQ(groups->multihash().to_string(), v["logical"].get<std::string>()) << threads;
      EXPECT_EQ(groups->num_rows, v["rows"].get<uint64_t>()) << threads;
    }
    EXPECT_EQ(groups->digest, whole->digest) << threads;
    EXPECT_EQ(groups->num_rows, whole->num_rows) << threads;
    ASSERT_EQ(groups->columns.size(), whole->columns.size()) << threads;
    for (size_t c = 0; c < whole->columns.size(); ++c) {
      EXPECT_EQ(groups->columns[c].path, whole->columns[c].path);
      EXPECT_EQ(groups->columns[c].type, whole->columns[c].type);
      EXPECT_EQ(groups->columns[c].digest, whole->columns[c].digest) << whole->columns[c].path;
    }
  }
}

TEST_P(ConformanceIpcVector, LogicalHashOfArrowCppIpcStreamMatchesReference) {
  const auto& v = GetParam().json;
  if (v.value("expect", "") == "error") {
    GTEST_SKIP() << "arrow-rs refuses this file; the hasher alone (no reader) does not judge it";
  }
  ASSERT_TRUE(v.contains("logical")) << "IPC vectors the reference does not refuse are hashable";
  ArrowArrayStream stream{};
  auto st = export_ipc(kDir + GetParam().file, v["format"] == "arrow-ipc-file", &stream);
  ASSERT_TRUE(st.ok()) << st.ToString();
  auto ours = odf_hash::logical_hash_stream(&stream);
  ASSERT_TRUE(ours.is_ok()) << ours.status().message();
  EXPECT_EQ(ours->multihash().to_string(), v["logical"].get<std::string>());
  EXPECT_EQ(ours->num_rows, v["rows"].get<uint64_t>());
}

TEST_P(ConformanceVector, PhysicalHashMatchesSha3Crate) {
  const auto& v = GetParam().json;
  auto ours = odf_hash::physical_hash_file(kDir + GetParam().file);
  ASSERT_TRUE(ours.is_ok()) << ours.status().message();
  EXPECT_EQ(ours->hash.to_string(), v["physical"].get<std::string>());
}

TEST_P(ConformanceVector, FormatDetectedFromContent) {
  const auto& v = GetParam().json;
  auto format = odf_hash::detect_file_format(kDir + GetParam().file);
  ASSERT_TRUE(format.is_ok()) << format.status().message();
  EXPECT_EQ(std::string(odf_hash::file_format_name(*format)), v["format"].get<std::string>());
}

INSTANTIATE_TEST_SUITE_P(Vectors, ConformanceVector, testing::ValuesIn(load_vectors()), test_name);
INSTANTIATE_TEST_SUITE_P(Vectors, ConformanceIpcVector, testing::ValuesIn(load_ipc_vectors()),
                         test_name);

}  // namespace
