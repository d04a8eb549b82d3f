// Known answers built by hand from the spec's encoding rules (type bytes, then value bytes)
// and hashed with OpenSSL directly, one per type family.
#include <gtest/gtest.h>

#include <cstring>

#include "logical_test_support.h"

namespace odf_hash::test {
namespace {

Bytes int_type(bool is_signed, uint64_t bits) {
  return std::move(Bytes().u16(1).u8(is_signed ? 1 : 0).u64(bits));
}

void expect_array(const std::shared_ptr<arrow::Array>& a, const Bytes& expected) {
  EXPECT_EQ(array_hex(a), openssl_sha3_hex(expected.b)) << a->type()->ToString();
}

TEST(LogicalKnownAnswer, SignedIntegers) {
  expect_array(from_json(arrow::int32(), "[1, 2, 3]"), int_type(true, 32).u32(1).u32(2).u32(3));
  expect_array(from_json(arrow::int8(), "[-1, null]"), int_type(true, 8).u8(0xff).u8(0));
  expect_array(from_json(arrow::int64(), "[null, 5]"), int_type(true, 64).u8(0).u64(5));
  expect_array(from_json(arrow::int16(), "[-2]"), int_type(true, 16).u16(0xfffe));
}

TEST(LogicalKnownAnswer, UnsignedIntegers) {
  expect_array(from_json(arrow::uint8(), "[0, null, 255]"), int_type(false, 8).u8(0).u8(0).u8(255));
  expect_array(from_json(arrow::uint64(), "[7]"), int_type(false, 64).u64(7));
  expect_array(from_json(arrow::uint16(), "[7]"), int_type(false, 16).u16(7));
  expect_array(from_json(arrow::uint32(), "[7]"), int_type(false, 32).u32(7));
}

TEST(LogicalKnownAnswer, Floats) {
  double d = 1.5;
  float f = -2.25f;
  expect_array(from_json(arrow::float64(), "[1.5, null]"), Bytes().u16(2).u64(64).raw(&d, 8).u8(0));
  expect_array(from_json(arrow::float32(), "[-2.25]"), Bytes().u16(2).u64(32).raw(&f, 4));
  auto f16 = std::make_shared<arrow::HalfFloatArray>(
      2, arrow::Buffer::FromVector(std::vector<uint16_t>{0x3c00, 0xc000}));
  expect_array(f16, Bytes().u16(2).u64(16).u16(0x3c00).u16(0xc000));
}

TEST(LogicalKnownAnswer, Booleans) {
  expect_array(from_json(arrow::boolean(), "[true, false, null, true]"),
               Bytes().u16(5).u8(2).u8(1).u8(0).u8(2));
}

TEST(LogicalKnownAnswer, StringsAndBinaries) {
  const auto utf8 = Bytes().u16(4).lstr("ab").u8(0).lstr("").lstr("a string over twelve");
  const char* json = R"(["ab", null, "", "a string over twelve"])";
  expect_array(from_json(arrow::utf8(), json), utf8);
  expect_array(from_json(arrow::large_utf8(), json), utf8);
  expect_array(from_json(arrow::utf8_view(), json), utf8);
  const auto bin = Bytes().u16(3).lstr("ab").u8(0).lstr("").lstr("a string over twelve");
  expect_array(from_json(arrow::binary(), json), bin);
  expect_array(from_json(arrow::large_binary(), json), bin);
  expect_array(from_json(arrow::binary_view(), json), bin);
  expect_array(from_json(arrow::fixed_size_binary(2), R"(["ab", null, "cd"])"),
               Bytes().u16(3).lstr("ab").u8(0).lstr("cd"));
}

TEST(LogicalKnownAnswer, Decimals) {
  // Scale is an i8 widened to 64 bits with sign extension: -3 -> 0xffff...fffd.
  arrow::Decimal128Builder neg_scale(arrow::decimal128(5, -3));
  ASSERT_TRUE(neg_scale.Append(arrow::Decimal128(7)).ok());
  expect_array(neg_scale.Finish().ValueOrDie(),
               Bytes().u16(6).u64(128).u64(5).u64(~uint64_t{2}).u64(7).u64(0));
  expect_array(from_json(arrow::decimal128(10, 2), R"(["-0.01", null])"),
               Bytes().u16(6).u64(128).u64(10).u64(2).u64(~uint64_t{0}).u64(~uint64_t{0}).u8(0));
  expect_array(from_json(arrow::decimal256(40, 5), R"(["0.00001"])"),
               Bytes().u16(6).u64(256).u64(40).u64(5).u64(1).u64(0).u64(0).u64(0));
  expect_array(from_json(arrow::decimal32(9, 2), R"(["1.23"])"),
               Bytes().u16(6).u64(32).u64(9).u64(2).u32(123));
  expect_array(from_json(arrow::decimal64(18, 0), R"(["42"])"),
               Bytes().u16(6).u64(64).u64(18).u64(0).u64(42));
}

TEST(LogicalKnownAnswer, DatesAndTimes) {
  expect_array(from_json(arrow::date32(), "[1, null]"), Bytes().u16(7).u64(32).u16(0).u32(1).u8(0));
  expect_array(from_json(arrow::date64(), "[86400000]"),
               Bytes().u16(7).u64(64).u16(1).u64(86400000));
  expect_array(from_json(arrow::time32(arrow::TimeUnit::SECOND), "[5]"),
               Bytes().u16(8).u64(32).u16(0).u32(5));
  expect_array(from_json(arrow::time32(arrow::TimeUnit::MILLI), "[5]"),
               Bytes().u16(8).u64(32).u16(1).u32(5));
  expect_array(from_json(arrow::time64(arrow::TimeUnit::MICRO), "[5]"),
               Bytes().u16(8).u64(64).u16(2).u64(5));
  expect_array(from_json(arrow::time64(arrow::TimeUnit::NANO), "[5]"),
               Bytes().u16(8).u64(64).u16(3).u64(5));
}

TEST(LogicalKnownAnswer, Timestamps) {
  expect_array(from_json(arrow::timestamp(arrow::TimeUnit::MICRO), "[1, null]"),
               Bytes().u16(9).u16(2).u8(0).u64(1).u8(0));
  expect_array(from_json(arrow::timestamp(arrow::TimeUnit::MILLI, "UTC"), "[1]"),
               Bytes().u16(9).u16(1).lstr("UTC").u64(1));
  expect_array(from_json(arrow::timestamp(arrow::TimeUnit::SECOND, "+02:00"), "[2]"),
               Bytes().u16(9).u16(0).lstr("+02:00").u64(2));
  expect_array(from_json(arrow::timestamp(arrow::TimeUnit::NANO, "Europe/Kyiv"), "[3]"),
               Bytes().u16(9).u16(3).lstr("Europe/Kyiv").u64(3));
}

TEST(LogicalKnownAnswer, Lists) {
  const auto item = int_type(true, 16);
  const auto list_i16 = Bytes().u16(11).append(item);
  const char* json = "[[1, 2], null, [], [null, 3]]";
  const auto values = Bytes().u64(2).u16(1).u16(2).u8(0).u64(0).u64(2).u8(0).u16(3);
  for (const auto& type :
       {arrow::list(arrow::int16()), arrow::large_list(arrow::int16()),
        arrow::list_view(arrow::int16()), arrow::large_list_view(arrow::int16())}) {
    expect_array(from_json(type, json), Bytes().append(list_i16).append(values));
  }
  expect_array(from_json(arrow::fixed_size_list(arrow::int16(), 2), "[[1, 2], null, [null, 3]]"),
               Bytes().append(list_i16).u64(2).u16(1).u16(2).u8(0).u64(2).u8(0).u16(3));
  // Nested: the type is List(List(Utf8)); items of items use their own validity.
  expect_array(from_json(arrow::list(arrow::list(arrow::utf8())), R"([[["a"], null, []], null])"),
               Bytes().u16(11).u16(11).u16(4).u64(3).u64(1).lstr("a").u8(0).u64(0).u8(0));
}

TEST(LogicalKnownAnswer, NullType) {
  expect_array(std::make_shared<arrow::NullArray>(3), Bytes().u16(0).u8(0).u8(0).u8(0));
}

TEST(LogicalKnownAnswer, RecordWithNestedStruct) {
  // Schema part: every field depth-first: u64 name length, name, u64 level. Then the leaf
  // column digests in the same order.
  auto s_type = arrow::struct_({arrow::field("bb", arrow::utf8())});
  auto schema = arrow::schema({arrow::field("a", arrow::int32()), arrow::field("s", s_type)});
  auto a = from_json(arrow::int32(), "[1, 2]");
  auto s = from_json(s_type, R"([{"bb": "x"}, {"bb": null}])");
  auto batch = arrow::RecordBatch::Make(schema, 2, {a, s});

  const auto col_a = Bytes().append(int_type(true, 32)).u32(1).u32(2);
  const auto col_b = Bytes().u16(4).lstr("x").u8(0);
  auto digest_bytes = [](const Bytes& col) {
    Bytes out;
    const std::string h = openssl_sha3_hex(col.b);
    for (size_t i = 0; i < h.size(); i += 2) {
      out.u8(static_cast<uint8_t>(std::stoi(h.substr(i, 2), nullptr, 16)));
    }
    return out;
  };
  Bytes combined;
  combined.lstr("a").u64(0).lstr("s").u64(0).lstr("bb").u64(1);
  combined.append(digest_bytes(col_a)).append(digest_bytes(col_b));
  auto r = hash_batches(schema, {batch});
  ASSERT_TRUE(r.is_ok()) << r.status().to_string();
  EXPECT_EQ(hex(r->digest), openssl_sha3_hex(combined.b));
  ASSERT_EQ(r->columns.size(), 2u);
  EXPECT_EQ(r->columns[0].path, "a");
  EXPECT_EQ(r->columns[1].path, "s.bb");
  EXPECT_EQ(r->columns[1].type, "u");
  EXPECT_EQ(hex(r->columns[1].digest), openssl_sha3_hex(col_b.b));
  EXPECT_EQ(r->num_rows, 2u);
}

}  // namespace
}  // namespace odf_hash::test
