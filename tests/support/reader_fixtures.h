// Test fixtures for the reader tests: small Parquet and Arrow IPC files written with
// Arrow C++ / Parquet C++ (the library pyarrow wraps), in a per-process temp directory.
// Set ODF_HASH_KEEP_FIXTURES=<dir> to write them there and keep them (this is how the
// expected arrow-rs types in reader_types_test.cpp were obtained: the scratch Rust program
// described there was run on the kept files).
#pragma once

#include <unistd.h>
#include <cstdint>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <arrow/ipc/writer.h>
#include <arrow/json/from_string.h>
#include <gtest/gtest.h>
#include <parquet/arrow/writer.h>
#include <parquet/file_writer.h>

#include "odf_hash/arrow_c_data.h"

namespace odf_hash::test {

// Removes the per-process fixture folder when the test program exits (ctest runs every test
// case as its own process, so a folder left behind per case would pile up in /tmp).
struct FixtureDirCleanup {
  std::filesystem::path dir;
  ~FixtureDirCleanup() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

inline std::filesystem::path fixture_dir() {
  static const std::filesystem::path dir = [] {
    if (const char* keep = std::getenv("ODF_HASH_KEEP_FIXTURES")) {
      std::filesystem::create_directories(keep);
      return std::filesystem::path(keep);
    }
    auto d = std::filesystem::temp_directory_path() /
             ("odf_hash_reader_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    static FixtureDirCleanup cleanup{d};
    return d;
  }();
  return dir;
}

inline std::string fixture_path(const std::string& name) {
  return (fixture_dir() / name).string();
}

template <typename T>
std::shared_ptr<T> ok_or_die(arrow::Result<std::shared_ptr<T>> r) {
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : nullptr;
}

inline std::shared_ptr<arrow::Array> array_from_json(const std::shared_ptr<arrow::DataType>& type,
                                                     const std::string& json) {
  return ok_or_die(arrow::json::ArrayFromJSONString(type, json));
}

struct ParquetOptions {
  bool store_schema = true;
  bool int96 = false;
  bool decimal_as_integer = false;
  int64_t row_group_size = 1 << 20;
  bool dictionary = true;
};

inline std::string write_parquet(const std::string& name,
                                 const std::shared_ptr<arrow::Table>& table,
                                 const ParquetOptions& opt = {}) {
  std::string path = fixture_path(name);
  auto out = ok_or_die(arrow::io::FileOutputStream::Open(path));
  parquet::WriterProperties::Builder wb;
  if (opt.decimal_as_integer) wb.enable_store_decimal_as_integer();
  if (!opt.dictionary) wb.disable_dictionary();
  parquet::ArrowWriterProperties::Builder ab;
  if (opt.store_schema) ab.store_schema();
  if (opt.int96) ab.enable_deprecated_int96_timestamps();
  auto st = parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), out,
                                       opt.row_group_size, wb.build(), ab.build());
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(out->Close().ok());
  return path;
}

inline std::string write_ipc(const std::string& name, const std::shared_ptr<arrow::Table>& table,
                             bool stream, bool legacy = false, int64_t chunk = 1 << 20) {
  std::string path = fixture_path(name);
  auto out = ok_or_die(arrow::io::FileOutputStream::Open(path));
  auto options = arrow::ipc::IpcWriteOptions::Defaults();
  options.write_legacy_ipc_format = legacy;
  auto writer = stream ? arrow::ipc::MakeStreamWriter(out, table->schema(), options)
                       : arrow::ipc::MakeFileWriter(out, table->schema(), options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  EXPECT_TRUE((*writer)->WriteTable(*table, chunk).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  EXPECT_TRUE(out->Close().ok());
  return path;
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline std::string write_bytes(const std::string& name, const std::string& bytes) {
  std::string path = fixture_path(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// The type of an exported ArrowSchema as one string: its format, then its children's in
// <...>, then a dictionary's value type in {...} (e.g. "+l<i>", "i{u}").
inline std::string type_signature(const ArrowSchema& s) {
  std::string out = s.format;
  if (s.n_children > 0) {
    out += "<";
    for (int64_t i = 0; i < s.n_children; ++i) {
      if (i) out += ",";
      out += type_signature(*s.children[i]);
    }
    out += ">";
  }
  if (s.dictionary) out += "{" + type_signature(*s.dictionary) + "}";
  return out;
}

}  // namespace odf_hash::test
