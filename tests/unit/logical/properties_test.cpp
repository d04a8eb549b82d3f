// The spec's properties of the logical hash, as tests: batch splits, validity bitmaps,
// slicing, encoding variants (string/binary/list variants, dictionary, run-end encoding), and
// order dependence.
#include <arrow/array/concatenate.h>
#include <arrow/record_batch.h>
#include <gtest/gtest.h>

#include "logical_test_support.h"

namespace odf_hash::test {
namespace {

using arrow::field;

std::shared_ptr<arrow::Array> with_all_valid_bitmap(const std::shared_ptr<arrow::Array>& a,
                                                    int64_t null_count) {
  auto data = a->data()->Copy();
  auto bits = arrow::AllocateBitmap(a->offset() + a->length()).ValueOrDie();
  std::memset(bits->mutable_data(), 0xff, static_cast<size_t>(bits->size()));
  data->buffers[0] = bits;
  data->null_count = null_count;
  return arrow::MakeArray(data);
}

// A table on which the reference itself is split-invariant: nulls at every level, but never
// in a struct and one of its descendants at once (see docs/divergences.md).
std::shared_ptr<arrow::RecordBatch> split_invariant_table() {
  const int n = 37;
  auto ints = from_json(
      arrow::int64(), "[" + [&] {
        std::string s;
        for (int i = 0; i < n; ++i)
          s += (i ? "," : "") + (i % 5 == 2 ? std::string("null") : std::to_string(i * 7919));
        return s;
      }() + "]");
  auto strs =
      arrow::Concatenate(
          {from_json(
               arrow::utf8(),
               R"(["a", null, "", "long string value here", "b", "c", null, "d", "e", "f", "g", "h", "i"])"),
           from_json(arrow::utf8(),
                     R"(["j", "k", null, "l", "m", "n", "o", "p", "q", "r", "s", "t"])"),
           from_json(arrow::utf8(),
                     R"(["u", "v", "w", "x", "y", "z", "0", "1", "2", "3", null, "5"])")})
          .ValueOrDie();
  auto bools = arrow::Concatenate(
                   {from_json(arrow::boolean(),
                              "[true, false, null, true, true, false, false, true, null, true, "
                              "false, true, true, false, true, false, true, true, false]"),
                    from_json(arrow::boolean(),
                              "[null, true, false, true, false, true, false, true, false, true, "
                              "false, true, false, true, false, true, false, true]")})
                   .ValueOrDie();
  std::string lists = "[";
  for (int i = 0; i < n; ++i) {
    lists += i ? "," : "";
    lists += i % 6 == 1   ? "null"
             : i % 4 == 0 ? "[]"
                          : "[[" + std::to_string(i) + ", null], [], null]";
  }
  auto list = from_json(arrow::list(arrow::list(arrow::int32())), lists + "]");
  // Struct with nulls over children without nulls; struct without nulls over children with.
  auto child = from_json(
      arrow::int16(), "[" + [&] {
        std::string s;
        for (int i = 0; i < n; ++i) s += (i ? "," : "") + std::to_string(i);
        return s;
      }() + "]");
  std::vector<bool> valid(n);
  auto bits = arrow::AllocateBitmap(n).ValueOrDie();
  int64_t nulls = 0;
  for (int i = 0; i < n; ++i) {
    arrow::bit_util::SetBitTo(bits->mutable_data(), i, i % 3 != 0);
    nulls += i % 3 == 0;
  }
  auto s1 =
      arrow::StructArray::Make({child}, std::vector<std::string>{"x"}, bits, nulls).ValueOrDie();
  auto s2 = arrow::StructArray::Make({ints, strs}, std::vector<std::string>{"i", "s"}).ValueOrDie();
  auto schema = arrow::schema({field("ints", ints->type()), field("strs", strs->type()),
                               field("bools", bools->type()), field("list", list->type()),
                               field("s1", s1->type()), field("s2", s2->type())});
  return arrow::RecordBatch::Make(schema, n, {ints, strs, bools, list, s1, s2});
}

TEST(LogicalProperties, SameHashForAnySplitIntoBatches) {
  auto table = split_invariant_table();
  const std::string whole = batches_hex({table});
  ASSERT_EQ(whole.size(), 64u) << whole;
  const int64_t n = table->num_rows();
  for (int64_t parts = 2; parts <= n; ++parts) {
    std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
    for (int64_t p = 0; p < parts; ++p) {
      const int64_t begin = n * p / parts, end = n * (p + 1) / parts;
      batches.push_back(table->Slice(begin, end - begin));  // some are empty
    }
    EXPECT_EQ(batches_hex(batches), whole) << parts << " batches";
  }
  // Every two-way split, and empty batches in between.
  for (int64_t k = 0; k <= n; ++k) {
    EXPECT_EQ(batches_hex({table->Slice(0, k), table->Slice(k, 0), table->Slice(k)}), whole) << k;
  }
}

TEST(LogicalProperties, AbsentBitmapEqualsAllValidBitmap) {
  const std::vector<std::pair<std::shared_ptr<arrow::DataType>, std::string>> arrays = {
      {arrow::int32(), "[1, 2, 3]"},
      {arrow::boolean(), "[true, false]"},
      {arrow::utf8(), R"(["a", "", "bcd"])"},
      {arrow::utf8_view(), R"(["a", "a long string that is not inline"])"},
      {arrow::fixed_size_binary(2), R"(["ab", "cd"])"},
      {arrow::list(arrow::int8()), "[[1], [], [2, 3]]"},
      {arrow::decimal128(7, 2), R"(["1.23"])"},
  };
  for (const auto& [type, json] : arrays) {
    auto plain = from_json(type, json);
    ASSERT_EQ(plain->data()->buffers[0], nullptr);
    for (int64_t null_count : {int64_t{0}, int64_t{-1}}) {
      EXPECT_EQ(array_hex(with_all_valid_bitmap(plain, null_count)), array_hex(plain))
          << type->ToString();
    }
  }
  // A struct parent with an all-valid bitmap flattens like one without.
  auto child = from_json(arrow::int32(), "[1, null, 3]");
  auto plain = arrow::StructArray::Make({child}, std::vector<std::string>{"c"}).ValueOrDie();
  auto with_bits = with_all_valid_bitmap(plain, 0);
  auto schema = arrow::schema({field("s", plain->type())});
  EXPECT_EQ(batches_hex({arrow::RecordBatch::Make(schema, 3, {plain})}),
            batches_hex({arrow::RecordBatch::Make(schema, 3, {with_bits})}));
}

TEST(LogicalProperties, SlicedAtAnyOffsetEqualsUnslicedCopy) {
  const std::vector<std::pair<std::shared_ptr<arrow::DataType>, std::string>> arrays = {
      {arrow::int16(), "[1, null, 3, 4, null, 6, 7, 8, 9, 10, null, 12]"},
      {arrow::boolean(), "[true, null, false, true, true, null, false, false, true, true]"},
      {arrow::large_utf8(), R"(["a", null, "", "bcd", "e", "fgh", null, "ij"])"},
      {arrow::binary_view(), R"(["a", null, "a long value, not inline", "", "b", "c"])"},
      {arrow::list(arrow::utf8()), R"([["a"], null, [], ["b", null], ["c", "d", "e"], []])"},
      {arrow::fixed_size_list(arrow::int64(), 2), "[[1, 2], null, [3, null], [5, 6], [7, 8]]"},
      {arrow::list_view(arrow::int32()), "[[1], null, [], [2, 3], [4]]"},
  };
  for (const auto& [type, json] : arrays) {
    auto a = from_json(type, json);
    for (int64_t off = 0; off <= a->length(); ++off) {
      for (int64_t len = 0; off + len <= a->length(); ++len) {
        auto slice = a->Slice(off, len);
        auto copy = arrow::Concatenate({slice}).ValueOrDie();
        ASSERT_EQ(array_hex(slice), array_hex(copy))
            << type->ToString() << " " << off << "+" << len;
      }
    }
  }
}

TEST(LogicalProperties, EncodingVariantsHashAlike) {
  const std::string strs = R"(["a", null, "", "a string of more than twelve bytes", "z"])";
  const std::string s = array_hex(from_json(arrow::utf8(), strs));
  EXPECT_EQ(array_hex(from_json(arrow::large_utf8(), strs)), s);
  EXPECT_EQ(array_hex(from_json(arrow::utf8_view(), strs)), s);
  const std::string b = array_hex(from_json(arrow::binary(), strs));
  EXPECT_NE(b, s);  // binary and string types differ by type id
  EXPECT_EQ(array_hex(from_json(arrow::large_binary(), strs)), b);
  EXPECT_EQ(array_hex(from_json(arrow::binary_view(), strs)), b);
  const std::string lists = "[[1, null], null, [], [2, 3, 4]]";
  const std::string l = array_hex(from_json(arrow::list(arrow::int32()), lists));
  EXPECT_EQ(array_hex(from_json(arrow::large_list(arrow::int32()), lists)), l);
  EXPECT_EQ(array_hex(from_json(arrow::list_view(arrow::int32()), lists)), l);
  EXPECT_EQ(array_hex(from_json(arrow::large_list_view(arrow::int32()), lists)), l);
  // Item variants inside lists too.
  EXPECT_EQ(array_hex(from_json(arrow::list(arrow::utf8_view()), R"([["x", null], []])")),
            array_hex(from_json(arrow::large_list(arrow::utf8()), R"([["x", null], []])")));
}

TEST(LogicalProperties, ListViewOutOfOrderEqualsList) {
  // A list view whose slots share and reorder child ranges.
  auto values = from_json(arrow::int32(), "[1, 2, 3, 4]");
  auto offsets = arrow::Buffer::FromVector(std::vector<int32_t>{2, 0, 1, 0});
  auto sizes = arrow::Buffer::FromVector(std::vector<int32_t>{2, 2, 3, 0});
  auto view = std::make_shared<arrow::ListViewArray>(arrow::list_view(arrow::int32()), 4, offsets,
                                                     sizes, values);
  ASSERT_TRUE(view->ValidateFull().ok());
  EXPECT_EQ(array_hex(view),
            array_hex(from_json(arrow::list(arrow::int32()), "[[3, 4], [1, 2], [2, 3, 4], []]")));
}

TEST(LogicalProperties, DictionaryHashesAsItsValues) {
  auto dict_type = arrow::dictionary(arrow::int32(), arrow::utf8());
  auto dict =
      arrow::json::DictArrayFromJSONString(dict_type, "[0, 1, null, 2, 0, 3]",
                                           R"(["foo", "bar", "a longer dictionary value", null])")
          .ValueOrDie();
  auto plain =
      from_json(arrow::utf8(), R"(["foo", "bar", null, "a longer dictionary value", "foo", null])");
  EXPECT_EQ(array_hex(dict), array_hex(plain));
  EXPECT_EQ(array_hex(dict->Slice(2, 3)), array_hex(plain->Slice(2, 3)));
  for (auto index : {arrow::int8(), arrow::uint16(), arrow::int64(), arrow::uint64()}) {
    auto d = arrow::json::DictArrayFromJSONString(arrow::dictionary(index, arrow::int64()),
                                                  "[1, 0, null, 1]", "[10, 20]")
                 .ValueOrDie();
    EXPECT_EQ(array_hex(d), array_hex(from_json(arrow::int64(), "[20, 10, null, 20]")));
  }
  // In a record batch, under a list, and inside a struct.
  auto schema = arrow::schema({field("d", dict_type)});
  auto plain_schema = arrow::schema({field("d", arrow::utf8())});
  EXPECT_EQ(batches_hex({arrow::RecordBatch::Make(schema, 6, {dict})}),
            batches_hex({arrow::RecordBatch::Make(plain_schema, 6, {plain})}));
}

TEST(LogicalProperties, RunEndEncodedHashesAsItsValues) {
  auto run_ends = from_json(arrow::int32(), "[2, 3, 6, 7]");
  auto values = from_json(arrow::utf8(), R"(["a", null, "ccc", ""])");
  auto ree = arrow::RunEndEncodedArray::Make(7, run_ends, values).ValueOrDie();
  auto plain = from_json(arrow::utf8(), R"(["a", "a", null, "ccc", "ccc", "ccc", ""])");
  EXPECT_EQ(array_hex(ree), array_hex(plain));
  for (int64_t off = 0; off <= 7; ++off) {
    for (int64_t len = 0; off + len <= 7; ++len) {
      EXPECT_EQ(array_hex(ree->Slice(off, len)), array_hex(plain->Slice(off, len)))
          << off << "+" << len;
    }
  }
  auto ends16 = from_json(arrow::int16(), "[1, 4]");
  auto ree16 =
      arrow::RunEndEncodedArray::Make(4, ends16, from_json(arrow::int64(), "[5, 6]")).ValueOrDie();
  EXPECT_EQ(array_hex(ree16), array_hex(from_json(arrow::int64(), "[5, 6, 6, 6]")));
}

TEST(LogicalProperties, ReorderingRecordsChangesTheHash) {
  auto schema = arrow::schema({field("a", arrow::int32()), field("b", arrow::utf8())});
  auto b1 = arrow::RecordBatch::Make(
      schema, 3,
      {from_json(arrow::int32(), "[1, 2, 3]"), from_json(arrow::utf8(), R"(["x", "y", "z"])")});
  auto b2 = arrow::RecordBatch::Make(
      schema, 3,
      {from_json(arrow::int32(), "[2, 1, 3]"), from_json(arrow::utf8(), R"(["y", "x", "z"])")});
  EXPECT_NE(batches_hex({b1}), batches_hex({b2}));
  EXPECT_NE(batches_hex({b1->Slice(0, 1), b1->Slice(1)}),
            batches_hex({b1->Slice(1), b1->Slice(0, 1)}));
  // Column order and names are part of the hash too.
  auto swapped = arrow::RecordBatch::Make(
      arrow::schema({field("b", arrow::utf8()), field("a", arrow::int32())}), 3,
      {b1->column(1), b1->column(0)});
  EXPECT_NE(batches_hex({b1}), batches_hex({swapped}));
}

TEST(LogicalProperties, BatchOffsetAppliesToItsColumns) {
  // The C Data Interface lets a producer slice a record batch by setting the top-level
  // struct's offset and leaving the columns alone; that must hash like the sliced batch.
  auto table = split_invariant_table();
  for (int64_t off : {int64_t{1}, int64_t{5}, int64_t{36}}) {
    auto e = export_batch(*table);
    ASSERT_TRUE(e);
    auto h = LogicalHasher::create(e->schema);
    ASSERT_TRUE(h.is_ok());
    ArrowArray shifted = e->array;
    shifted.offset = off;
    shifted.length = table->num_rows() - off;
    ASSERT_TRUE(h->update(shifted).is_ok());
    auto r = std::move(*h).finalize();
    ASSERT_TRUE(r.is_ok());
    EXPECT_EQ(hex(r->digest), batches_hex({table->Slice(off)})) << off;
  }
}

TEST(LogicalProperties, StreamOneShotEqualsBatchByBatch) {
  auto table = split_invariant_table();
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches = {table->Slice(0, 10),
                                                              table->Slice(10)};
  auto reader = arrow::RecordBatchReader::Make(batches, table->schema()).ValueOrDie();
  ArrowArrayStream stream{};
  ASSERT_TRUE(arrow::ExportRecordBatchReader(reader, &stream).ok());
  auto r = logical_hash_stream(&stream);
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  EXPECT_EQ(stream.release, nullptr);  // consumed
  EXPECT_EQ(hex(r->digest), batches_hex({table}));
  EXPECT_EQ(r->num_rows, static_cast<uint64_t>(table->num_rows()));
  EXPECT_EQ(r->columns.size(), 7u);  // ints, strs, bools, list, s1.x, s2.i, s2.s
  EXPECT_EQ(r->columns[4].path, "s1.x");
}

}  // namespace
}  // namespace odf_hash::test
