// What the Parquet reader hands out beyond types: batches cut as arrow-rs cuts them, the
// values arrow-rs leaves under undefined slots of struct members, and fixed-size lists with
// null slots (which Arrow C++ alone refuses). Expected values are worked out by hand from
// arrow-rs 60's algorithm (parquet/src/arrow/record_reader/buffer.rs pad_nulls: the k-th
// undefined slot of a decoding run keeps the run's k-th defined value, or zero); the
// conformance vectors data/pyarrow/structs_row_groups_*.parquet check the same against the
// reference itself.
#include <string>
#include <vector>

#include <arrow/c/bridge.h>
#include <arrow/record_batch.h>
#include <gtest/gtest.h>

#include "odf_hash/io/record_stream.h"
#include "reader_fixtures.h"

namespace odf_hash::test {
namespace {

// Every batch of the file as Arrow C++ record batches (imported from the C stream).
std::vector<std::shared_ptr<arrow::RecordBatch>> read_all(const std::string& path) {
  ArrowArrayStream stream{};
  Status st = open_record_stream(path, &stream);
  EXPECT_TRUE(st.is_ok()) << st.message();
  if (!st.is_ok()) return {};
  auto reader = arrow::ImportRecordBatchReader(&stream);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return {};
  std::vector<std::shared_ptr<arrow::RecordBatch>> out;
  for (;;) {
    std::shared_ptr<arrow::RecordBatch> b;
    auto s = (*reader)->ReadNext(&b);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok() || !b) break;
    out.push_back(b);
  }
  return out;
}

std::shared_ptr<arrow::Table> struct_table(const std::shared_ptr<arrow::DataType>& type,
                                           const std::string& json) {
  auto a = array_from_json(type, json);
  return arrow::Table::Make(arrow::schema({arrow::field("s", type)}), {a});
}

// The values stored in every slot of member `f` of struct column 0 (null slots included).
template <typename ArrayT, typename Value>
std::vector<Value> member_values(const std::shared_ptr<arrow::RecordBatch>& batch, int f) {
  const auto& s = static_cast<const arrow::StructArray&>(*batch->column(0));
  const auto& m = static_cast<const ArrayT&>(*s.field(f));
  std::vector<Value> out;
  for (int64_t i = 0; i < m.length(); ++i) out.push_back(Value(m.Value(i)));
  return out;
}

const char* kSixRows = R"([
  {"v": 10, "b": true},
  {"v": null, "b": null},
  null,
  {"v": 20, "b": false},
  {"v": null, "b": null},
  {"v": 30, "b": true}
])";

TEST(ReaderArrowRs, UndefinedStructMemberSlotsHoldWhatArrowRsLeaves) {
  auto type =
      arrow::struct_({arrow::field("v", arrow::int32()), arrow::field("b", arrow::boolean())});
  auto path = write_parquet("stale_one_group.parquet", struct_table(type, kSixRows));
  auto batches = read_all(path);
  ASSERT_EQ(batches.size(), 1u);
  // One run of six slots, defined values 10, 20, 30: undefined slots 1, 2, 4 take the
  // run's defined values 1 and 2 (20, 30), then zero.
  EXPECT_EQ((member_values<arrow::Int32Array, int32_t>(batches[0], 0)),
            (std::vector<int32_t>{10, 20, 30, 20, 0, 30}));
  // Booleans: defined true, false, true: slots 1, 2 get false, true; slot 4 false.
  EXPECT_EQ((member_values<arrow::BooleanArray, bool>(batches[0], 1)),
            (std::vector<bool>{true, false, true, false, false, true}));
}

TEST(ReaderArrowRs, EachRowGroupIsItsOwnRunInsideABatch) {
  auto type =
      arrow::struct_({arrow::field("v", arrow::int32()), arrow::field("b", arrow::boolean())});
  auto path = write_parquet("stale_two_groups.parquet", struct_table(type, kSixRows),
                            {.row_group_size = 3});
  auto batches = read_all(path);
  ASSERT_EQ(batches.size(), 1u);  // arrow-rs batches span row groups
  // Runs [0,3) with defined {10} and [3,6) with defined {20, 30}: slots 1 and 2 are past
  // the first run's one value (zero); slot 4 is the second run's slot 1 (30).
  EXPECT_EQ((member_values<arrow::Int32Array, int32_t>(batches[0], 0)),
            (std::vector<int32_t>{10, 0, 0, 20, 30, 30}));
}

TEST(ReaderArrowRs, UndefinedStringSlotsAreEmpty) {
  auto type = arrow::struct_({arrow::field("t", arrow::utf8())});
  auto path = write_parquet("stale_strings.parquet",
                            struct_table(type, R"([{"t": "ab"}, {"t": null}, null, {"t": "c"}])"));
  auto batches = read_all(path);
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_EQ((member_values<arrow::StringArray, std::string_view>(batches[0], 0)),
            (std::vector<std::string_view>{"ab", "", "", "c"}));
}

TEST(ReaderArrowRs, BatchesOf10000RowsContinueAcrossRowGroups) {
  arrow::Int64Builder b;
  for (int64_t i = 0; i < 25000; ++i) ASSERT_TRUE(b.Append(i).ok());
  auto table = arrow::Table::Make(arrow::schema({arrow::field("i", arrow::int64())}),
                                  {ok_or_die(b.Finish())});
  auto path = write_parquet("groups_7000.parquet", table, {.row_group_size = 7000});
  auto batches = read_all(path);
  std::vector<int64_t> rows;
  for (const auto& batch : batches) rows.push_back(batch->num_rows());
  EXPECT_EQ(rows, (std::vector<int64_t>{10000, 10000, 5000}));
  // The rows stay in order across the joins.
  int64_t expect = 0;
  for (const auto& batch : batches) {
    const auto& col = static_cast<const arrow::Int64Array&>(*batch->column(0));
    for (int64_t i = 0; i < col.length(); ++i) ASSERT_EQ(col.Value(i), expect++);
  }
}

TEST(ReaderArrowRs, FixedSizeListsWithNullSlotsAreRead) {
  // Arrow C++ writes a null fixed-size list slot with no items and cannot read it back;
  // arrow-rs reads it as null with N null items.
  auto fsl = arrow::fixed_size_list(arrow::int16(), 2);
  auto type = arrow::struct_({arrow::field("p", fsl)});
  auto top = array_from_json(fsl, "[[1, 2], null, [3, null]]");
  auto nested = array_from_json(type, R"([{"p": [1, 2]}, {"p": null}, null])");
  auto table = arrow::Table::Make(arrow::schema({arrow::field("s", type), arrow::field("f", fsl)}),
                                  {nested, top});
  auto path = write_parquet("fsl_nulls.parquet", table);
  auto batches = read_all(path);
  ASSERT_EQ(batches.size(), 1u);
  const auto& f = static_cast<const arrow::FixedSizeListArray&>(*batches[0]->column(1));
  ASSERT_EQ(f.type()->id(), arrow::Type::FIXED_SIZE_LIST);
  EXPECT_FALSE(f.IsNull(0));
  EXPECT_TRUE(f.IsNull(1));
  EXPECT_FALSE(f.IsNull(2));
  const auto& items = static_cast<const arrow::Int16Array&>(*f.values());
  ASSERT_EQ(items.length(), 6);
  EXPECT_EQ(items.Value(0), 1);
  EXPECT_EQ(items.Value(1), 2);
  EXPECT_TRUE(items.IsNull(2));
  EXPECT_TRUE(items.IsNull(3));
  EXPECT_EQ(items.Value(4), 3);
  EXPECT_TRUE(items.IsNull(5));
  const auto& s = static_cast<const arrow::StructArray&>(*batches[0]->column(0));
  const auto& p = static_cast<const arrow::FixedSizeListArray&>(*s.field(0));
  EXPECT_TRUE(p.IsNull(1));
  EXPECT_TRUE(p.IsNull(2));
  EXPECT_EQ(p.values()->null_count(), 4);
}

}  // namespace
}  // namespace odf_hash::test
