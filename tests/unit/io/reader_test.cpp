// Format detection, bad input (garbage, empty, truncated, corrupt) and streaming behaviour of
// the readers.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "odf_hash/io/logical_file.h"
#include "odf_hash/io/record_stream.h"
#include "odf_hash/logical/logical.h"
#include "reader_fixtures.h"

namespace odf_hash::test {
namespace {

std::shared_ptr<arrow::Table> sample_table(int64_t rows) {
  arrow::Int64Builder ib;
  arrow::StringBuilder sb;
  for (int64_t i = 0; i < rows; ++i) {
    EXPECT_TRUE(ib.Append(i * 7).ok());
    if (i % 5 == 0) {
      EXPECT_TRUE(sb.AppendNull().ok());
    } else {
      EXPECT_TRUE(sb.Append("v" + std::to_string(i)).ok());
    }
  }
  auto a = ok_or_die(ib.Finish());
  auto s = ok_or_die(sb.Finish());
  return arrow::Table::Make(
      arrow::schema({arrow::field("id", arrow::int64()), arrow::field("s", arrow::utf8())}),
      {a, s});
}

struct Drained {
  Status open;
  std::string error;  // get_schema / get_next error, empty if none
  std::vector<int64_t> batch_rows;
};

Drained drain(const std::string& path) {
  Drained d;
  ArrowArrayStream stream{};
  d.open = open_record_stream(path, &stream);
  if (!d.open.is_ok()) return d;
  ArrowSchema schema{};
  if (stream.get_schema(&stream, &schema) != 0) {
    d.error = stream.get_last_error(&stream);
  } else {
    schema.release(&schema);
    for (;;) {
      ArrowArray batch{};
      if (stream.get_next(&stream, &batch) != 0) {
        const char* e = stream.get_last_error(&stream);
        d.error = e ? e : "(no message)";
        break;
      }
      if (batch.release == nullptr) break;
      d.batch_rows.push_back(batch.length);
      batch.release(&batch);
    }
  }
  stream.release(&stream);
  return d;
}

TEST(FileFormat, Names) {
  EXPECT_STREQ(file_format_name(FileFormat::kParquet), "parquet");
  EXPECT_STREQ(file_format_name(FileFormat::kArrowIpcFile), "arrow-ipc-file");
  EXPECT_STREQ(file_format_name(FileFormat::kArrowIpcStream), "arrow-ipc-stream");
}

TEST(FileFormat, DetectsEachFormatByContent) {
  auto t = sample_table(10);
  // Names deliberately lie about the content.
  auto parquet = write_parquet("parquet.arrow", t);
  auto ipc_file = write_ipc("ipcfile.parquet", t, /*stream=*/false);
  auto ipc_stream = write_ipc("ipcstream.bin", t, /*stream=*/true);
  auto legacy_stream = write_ipc("legacy.bin", t, /*stream=*/true, /*legacy=*/true);
  EXPECT_EQ(detect_file_format(parquet).value(), FileFormat::kParquet);
  EXPECT_EQ(detect_file_format(ipc_file).value(), FileFormat::kArrowIpcFile);
  EXPECT_EQ(detect_file_format(ipc_stream).value(), FileFormat::kArrowIpcStream);
  EXPECT_EQ(detect_file_format(legacy_stream).value(), FileFormat::kArrowIpcStream);
  for (const auto& p : {parquet, ipc_file, ipc_stream, legacy_stream}) {
    Drained d = drain(p);
    ASSERT_TRUE(d.open.is_ok()) << p << ": " << d.open.to_string();
    EXPECT_EQ(d.error, "") << p;
    int64_t rows = 0;
    for (auto r : d.batch_rows) rows += r;
    EXPECT_EQ(rows, 10) << p;
  }
}

TEST(FileFormat, RejectsGarbageAndEmptyFiles) {
  auto garbage = write_bytes("garbage.parquet", "this is not a data file at all, just words\n");
  auto empty = write_bytes("empty.parquet", "");
  auto tiny = write_bytes("tiny.bin", "PA");
  for (const auto& p : {garbage, empty, tiny}) {
    auto r = detect_file_format(p);
    ASSERT_FALSE(r.is_ok()) << p;
    EXPECT_EQ(r.status().code(), StatusCode::kParseError);
    EXPECT_NE(r.status().message().find("not a Parquet or Arrow IPC file"), std::string::npos)
        << r.status().message();
    EXPECT_EQ(r.status().message().rfind(p + ": ", 0), 0u) << r.status().message();
    ArrowArrayStream stream{};
    EXPECT_FALSE(open_record_stream(p, &stream).is_ok());
  }
}

TEST(FileFormat, MissingFileAndDirectory) {
  auto r = detect_file_format(fixture_path("does-not-exist.parquet"));
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  auto d = detect_file_format(fixture_dir().string());
  ASSERT_FALSE(d.is_ok());
  EXPECT_EQ(d.status().code(), StatusCode::kIoError);
}

TEST(FileFormat, TruncatedParquetIsAnErrorAtEveryLength) {
  std::string bytes = read_bytes(write_parquet("full.parquet", sample_table(100)));
  for (size_t len = 1; len < bytes.size(); len += (len < 64 ? 1 : 37)) {
    auto p = write_bytes("trunc.parquet", bytes.substr(0, len));
    Drained d = drain(p);
    EXPECT_TRUE(!d.open.is_ok() || !d.error.empty()) << "length " << len;
  }
}

TEST(FileFormat, TruncatedIpcFileAndStreamAreErrors) {
  auto t = sample_table(100);
  std::string file_bytes = read_bytes(write_ipc("full.arrow", t, false, false, 30));
  std::string stream_bytes = read_bytes(write_ipc("full.arrows", t, true, false, 30));
  for (size_t len = 1; len < file_bytes.size(); len += 13) {
    Drained d = drain(write_bytes("trunc.arrow", file_bytes.substr(0, len)));
    EXPECT_TRUE(!d.open.is_ok() || !d.error.empty()) << "file length " << len;
  }
  // A stream cut exactly between two messages is a valid shorter stream; cut elsewhere it
  // must fail. Either way: no crash, and never more rows than written.
  int failures = 0;
  for (size_t len = 1; len < stream_bytes.size(); len += 13) {
    Drained d = drain(write_bytes("trunc.arrows", stream_bytes.substr(0, len)));
    if (!d.open.is_ok() || !d.error.empty()) ++failures;
    int64_t rows = 0;
    for (auto r : d.batch_rows) rows += r;
    EXPECT_LE(rows, 100);
  }
  EXPECT_GT(failures, 0);
}

TEST(FileFormat, CorruptBytesNeverCrash) {
  for (const auto& full : {read_bytes(write_parquet("c.parquet", sample_table(300))),
                           read_bytes(write_ipc("c.arrow", sample_table(300), false)),
                           read_bytes(write_ipc("c.arrows", sample_table(300), true))}) {
    for (size_t pos = 0; pos < full.size(); pos += 11) {
      std::string bytes = full;
      bytes[pos] = static_cast<char>(bytes[pos] ^ 0x5a);
      Drained d = drain(write_bytes("corrupt.bin", bytes));
      (void)d;  // any outcome but a crash, a hang or a sanitizer report is acceptable
    }
  }
}

// An IPC stream whose string offsets point outside the data buffer must be rejected by
// validation before the batch is exported.
TEST(Reader, IpcBatchWithBadOffsetsFailsValidation) {
  auto t = arrow::Table::Make(arrow::schema({arrow::field("s", arrow::utf8())}),
                              {array_from_json(arrow::utf8(), R"(["abc", "defgh", "ij"])")});
  std::string bytes = read_bytes(write_ipc("offsets.arrows", t, true));
  const int32_t good[4] = {0, 3, 8, 10};
  std::string needle(reinterpret_cast<const char*>(good), sizeof good);
  size_t at = bytes.find(needle);
  ASSERT_NE(at, std::string::npos);
  const int32_t bad = 1 << 20;
  bytes.replace(at + 12, 4, std::string(reinterpret_cast<const char*>(&bad), 4));
  Drained d = drain(write_bytes("bad_offsets.arrows", bytes));
  ASSERT_TRUE(d.open.is_ok()) << d.open.to_string();
  EXPECT_NE(d.error.find("invalid record batch"), std::string::npos) << d.error;
  EXPECT_NE(d.error.find("bad_offsets.arrows"), std::string::npos) << d.error;
}

TEST(Reader, InvalidUtf8InParquetStringColumnIsAnError) {
  // Written as binary with an embedded schema saying nothing; read back as a string column
  // through a schema whose Parquet annotation says UTF8: arrow-rs rejects invalid UTF-8.
  auto t = arrow::Table::Make(arrow::schema({arrow::field("s", arrow::utf8())}),
                              {array_from_json(arrow::utf8(), R"(["ok", "fine"])")});
  std::string bytes =
      read_bytes(write_parquet("utf8.parquet", t, {.store_schema = false, .dictionary = false}));
  size_t at = bytes.find("fine");
  ASSERT_NE(at, std::string::npos);
  bytes[at] = static_cast<char>(0xff);
  Drained d = drain(write_bytes("bad_utf8.parquet", bytes));
  EXPECT_TRUE(!d.open.is_ok() || !d.error.empty());
}

TEST(Reader, ParquetSmallRowGroupsJoinIntoArrowRsBatches) {
  // Decoded one row group at a time, handed out as arrow-rs does: 10,000 rows per batch
  // whatever the row groups (see also reader_arrow_rs_test.cpp).
  auto path = write_parquet("rowgroups.parquet", sample_table(25000), {.row_group_size = 1000});
  Drained d = drain(path);
  ASSERT_TRUE(d.open.is_ok()) << d.open.to_string();
  EXPECT_EQ(d.error, "");
  EXPECT_EQ(d.batch_rows, (std::vector<int64_t>{10000, 10000, 5000}));
}

TEST(Reader, ParquetRowGroupLargerThanBatchIsSplitInBatchesOf10000) {
  auto path = write_parquet("bigrowgroup.parquet", sample_table(25000), {.row_group_size = 25000});
  Drained d = drain(path);
  ASSERT_TRUE(d.open.is_ok()) << d.open.to_string();
  EXPECT_EQ(d.batch_rows, (std::vector<int64_t>{10000, 10000, 5000}));
}

TEST(Reader, ZeroRowFilesGiveASchemaAndNoBatches) {
  auto t = sample_table(0);
  for (const auto& p : {write_parquet("zero.parquet", t), write_ipc("zero.arrow", t, false),
                        write_ipc("zero.arrows", t, true)}) {
    Drained d = drain(p);
    ASSERT_TRUE(d.open.is_ok()) << p << ": " << d.open.to_string();
    EXPECT_EQ(d.error, "") << p;
    int64_t rows = 0;
    for (auto r : d.batch_rows) rows += r;
    EXPECT_EQ(rows, 0) << p;
  }
}

TEST(Reader, IpcStreamsKeepBatchBoundaries) {
  Drained d = drain(write_ipc("batches.arrows", sample_table(100), true, false, 30));
  ASSERT_TRUE(d.open.is_ok());
  EXPECT_EQ(d.batch_rows, (std::vector<int64_t>{30, 30, 30, 10}));
  Drained f = drain(write_ipc("batches.arrow", sample_table(100), false, false, 30));
  ASSERT_TRUE(f.open.is_ok());
  EXPECT_EQ(f.batch_rows, (std::vector<int64_t>{30, 30, 30, 10}));
}

// arrow-rs refuses a big-endian IPC file and a big-endian stream with a top-level decimal
// column, and reads other big-endian streams as their bytes lie, without swapping (Arrow C++
// would swap them; docs/divergences.md, "Validation of what is read"). The files here are
// little-endian data under a schema that says big-endian, as a big-endian writer's header.
// (odf-hash-conformance hash gives the same three outcomes on these files: the file and the
// decimal stream refused, the stream hashed like the little-endian one.)
TEST(Reader, BigEndianIpcIsReadAsArrowRsReadsIt) {
  const auto with_endianness = [](const std::shared_ptr<arrow::Table>& t, arrow::Endianness e) {
    return arrow::Table::Make(t->schema()->WithEndianness(e), t->columns());
  };
  auto t = sample_table(20);
  auto big = with_endianness(t, arrow::Endianness::Big);
  Drained file = drain(write_ipc("big.arrow", big, /*stream=*/false));
  ASSERT_FALSE(file.open.is_ok() && file.error.empty()) << "a big-endian file must be refused";
  EXPECT_NE((file.open.message() + file.error).find("big-endian"), std::string::npos)
      << file.open.message() << file.error;

  auto big_stream = logical_hash_file(write_ipc("big.arrows", big, /*stream=*/true));
  auto little_stream = logical_hash_file(write_ipc("little.arrows", t, /*stream=*/true));
  ASSERT_TRUE(big_stream.is_ok()) << big_stream.status().message();
  ASSERT_TRUE(little_stream.is_ok()) << little_stream.status().message();
  EXPECT_EQ(big_stream->multihash().to_string(), little_stream->multihash().to_string())
      << "the same bytes, read without swapping, hash alike";

  auto dec = arrow::Table::Make(arrow::schema({arrow::field("d", arrow::decimal128(5, 2))}),
                                {array_from_json(arrow::decimal128(5, 2), R"(["1.25", null])")});
  Drained d = drain(write_ipc("big_decimal.arrows", with_endianness(dec, arrow::Endianness::Big),
                              /*stream=*/true));
  EXPECT_FALSE(d.open.is_ok() && d.error.empty()) << "a big-endian stream with a decimal";
}

TEST(Reader, NullOutputIsInvalidArgument) {
  EXPECT_EQ(open_record_stream("x", nullptr).code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace odf_hash::test
