// Digests printed by the Rust reference (arrow-digest 60.0.0), read from
// tests/conformance/logical_unit_vectors.json, against the same arrays and batches rebuilt
// here with Arrow C++ and hashed through the C Data Interface.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "logical_test_support.h"

namespace odf_hash::test {
namespace {

using arrow::field;
using Opt = std::optional<std::string>;

std::shared_ptr<arrow::Buffer> bitmap(const std::vector<bool>& valid) {
  auto buf = arrow::AllocateBitmap(static_cast<int64_t>(valid.size())).ValueOrDie();
  for (size_t i = 0; i < valid.size(); ++i) {
    arrow::bit_util::SetBitTo(buf->mutable_data(), static_cast<int64_t>(i), valid[i]);
  }
  return buf;
}

int64_t nulls_in(const std::vector<bool>& valid) {
  return static_cast<int64_t>(std::count(valid.begin(), valid.end(), false));
}

template <typename T>
std::shared_ptr<arrow::Array> primitive(const std::shared_ptr<arrow::DataType>& type,
                                        std::vector<typename T::TypeClass::c_type> values,
                                        const std::vector<bool>& valid) {
  const auto n = static_cast<int64_t>(values.size());
  return std::make_shared<T>(type, n, arrow::Buffer::FromVector(std::move(values)), bitmap(valid),
                             nulls_in(valid));
}

template <typename Builder>
std::shared_ptr<arrow::Array> byte_strings(const std::vector<Opt>& values) {
  Builder b;
  for (const auto& v : values) {
    if (v) {
      EXPECT_TRUE(b.Append(*v).ok());
    } else {
      EXPECT_TRUE(b.AppendNull().ok());
    }
  }
  return b.Finish().ValueOrDie();
}

template <typename Builder, typename Value>
std::shared_ptr<arrow::Array> decimals(const std::shared_ptr<arrow::DataType>& type,
                                       const std::vector<std::optional<Value>>& values) {
  Builder b(type);
  for (const auto& v : values) {
    if (v) {
      EXPECT_TRUE(b.Append(*v).ok());
    } else {
      EXPECT_TRUE(b.AppendNull().ok());
    }
  }
  return b.Finish().ValueOrDie();
}

std::shared_ptr<arrow::Array> struct_of(const std::vector<std::shared_ptr<arrow::Array>>& children,
                                        const std::vector<std::string>& names,
                                        const std::vector<bool>& valid) {
  return arrow::StructArray::Make(children, names, bitmap(valid), nulls_in(valid)).ValueOrDie();
}

using Batches = std::vector<std::shared_ptr<arrow::RecordBatch>>;
using Case = std::function<std::string()>;

std::string A(const std::shared_ptr<arrow::Array>& a) {
  return array_hex(a);
}

std::map<std::string, Case> cases() {
  using namespace arrow;
  std::map<std::string, Case> c;
  c["int8"] = [] { return A(test::from_json(int8(), "[1, -2, 127, -128]")); };
  c["int16"] = [] { return A(test::from_json(int16(), "[1, -2, 300]")); };
  c["int32"] = [] { return A(test::from_json(int32(), "[1, 2, 3]")); };
  c["int64"] = [] { return A(test::from_json(int64(), "[1, -1, 1099511627776]")); };
  c["uint8"] = [] { return A(test::from_json(uint8(), "[0, 255]")); };
  c["uint16"] = [] { return A(test::from_json(uint16(), "[0, 65535, 7]")); };
  c["uint32"] = [] { return A(test::from_json(uint32(), "[0, 4000000000]")); };
  c["uint64"] = [] { return A(test::from_json(uint64(), "[0, 18446744073709551615]")); };
  c["int32_nulls"] = [] { return A(test::from_json(int32(), "[1, null, 3, null]")); };
  c["int64_nulls_values_under"] = [] {
    return A(primitive<Int64Array>(int64(), {10, 20, 30}, {true, false, true}));
  };
  c["float16"] = [] {
    return A(primitive<HalfFloatArray>(float16(), {0x3c00, 0xc000, 0x7bff}, {true, true, true}));
  };
  c["float32"] = [] {
    return A(primitive<FloatArray>(float32(), {1.5f, -0.0f, 3.25e10f}, {true, true, true}));
  };
  c["float64_nulls"] = [] { return A(test::from_json(float64(), "[1.5, -2.25, null]")); };
  c["bool"] = [] { return A(test::from_json(boolean(), "[true, false, true]")); };
  c["bool_nulls"] = [] { return A(test::from_json(boolean(), "[true, null, false, true, null]")); };
  c["bool_100_sliced"] = [] {
    BooleanBuilder b;
    for (int i = 0; i < 100; ++i) {
      EXPECT_TRUE((i % 7 == 3 ? b.AppendNull() : b.Append(i % 3 == 0)).ok());
    }
    return A(b.Finish().ValueOrDie()->Slice(5, 90));
  };
  const std::vector<Opt> strs = {"foo", std::nullopt, "", "a string longer than twelve",
                                 std::string(1000, 'x')};
  c["utf8"] = [=] { return A(byte_strings<StringBuilder>(strs)); };
  c["large_utf8"] = [=] { return A(byte_strings<LargeStringBuilder>(strs)); };
  c["utf8_view"] = [=] { return A(byte_strings<StringViewBuilder>(strs)); };
  c["utf8_sliced"] = [=] { return A(byte_strings<StringBuilder>(strs)->Slice(1, 3)); };
  const std::vector<Opt> bins = {"one", "", std::nullopt, std::string("\x00\xff\x10", 3),
                                 "binary value over 12 bytes"};
  c["binary"] = [=] { return A(byte_strings<BinaryBuilder>(bins)); };
  c["large_binary"] = [=] { return A(byte_strings<LargeBinaryBuilder>(bins)); };
  c["binary_view"] = [=] { return A(byte_strings<BinaryViewBuilder>(bins)); };
  c["fixed_size_binary"] = [] {
    return A(test::from_json(fixed_size_binary(3), R"(["abc", null, "xyz"])"));
  };
  c["decimal128"] = [] {
    return A(decimals<Decimal128Builder, Decimal128>(
        decimal128(10, 2), {Decimal128(12345), Decimal128(-1), std::nullopt}));
  };
  c["decimal128_neg_scale"] = [] {
    return A(decimals<Decimal128Builder, Decimal128>(decimal128(5, -3),
                                                     {Decimal128(7), Decimal128(-70)}));
  };
  c["decimal256"] = [] {
    return A(decimals<Decimal256Builder, Decimal256>(decimal256(40, 5),
                                                     {Decimal256(1), Decimal256(-1)}));
  };
  c["decimal32"] = [] {
    return A(
        decimals<Decimal32Builder, Decimal32>(decimal32(9, 2), {Decimal32(123), Decimal32(-5)}));
  };
  c["decimal64"] = [] {
    return A(
        decimals<Decimal64Builder, Decimal64>(decimal64(18, -2), {Decimal64(42), std::nullopt}));
  };
  c["date32"] = [] { return A(test::from_json(date32(), "[0, 19000, -1]")); };
  c["date64"] = [] { return A(test::from_json(date64(), "[0, 1600000000000, null]")); };
  c["time32_s"] = [] { return A(test::from_json(time32(TimeUnit::SECOND), "[1, 86399]")); };
  c["time32_ms"] = [] { return A(test::from_json(time32(TimeUnit::MILLI), "[1, 86399999]")); };
  c["time64_us"] = [] { return A(test::from_json(time64(TimeUnit::MICRO), "[1, null]")); };
  c["time64_ns"] = [] { return A(test::from_json(time64(TimeUnit::NANO), "[5, 86399999999999]")); };
  const char* ts = "[0, 1, -1, null]";
  c["timestamp_s"] = [=] { return A(test::from_json(timestamp(TimeUnit::SECOND), ts)); };
  c["timestamp_ms_utc"] = [=] { return A(test::from_json(timestamp(TimeUnit::MILLI, "UTC"), ts)); };
  c["timestamp_us_offset"] = [=] {
    return A(test::from_json(timestamp(TimeUnit::MICRO, "+02:00"), ts));
  };
  c["timestamp_ns_ny"] = [=] {
    return A(test::from_json(timestamp(TimeUnit::NANO, "America/New_York"), ts));
  };
  const char* l = "[[1, 2, 3], null, [], [4, null, 5]]";
  c["list_int32"] = [=] { return A(test::from_json(list(int32()), l)); };
  c["list_int32_sliced"] = [=] { return A(test::from_json(list(int32()), l)->Slice(1, 3)); };
  c["list_list_int32"] = [] {
    return A(test::from_json(list(list(int32())), "[[[1], [2, 3]], null, [[], null, [4]], []]"));
  };
  c["large_list_utf8"] = [] {
    return A(test::from_json(large_list(utf8()), R"([["a", null], null, []])"));
  };
  c["fixed_size_list_int16"] = [] {
    return A(test::from_json(fixed_size_list(int16(), 2), "[[1, 2], null, [3, null]]"));
  };
  c["list_bool"] = [] { return A(test::from_json(list(boolean()), "[[true, null, false], []]")); };

  auto mixed_schema = schema({field("a", int32()), field("b", utf8())});
  auto b1 = RecordBatch::Make(
      mixed_schema, 3,
      {test::from_json(int32(), "[1, 2, 3]"), test::from_json(utf8(), R"(["x", "y", "z"])")});
  auto b2 = RecordBatch::Make(
      mixed_schema, 2,
      {test::from_json(int32(), "[4, null]"), test::from_json(utf8(), R"([null, "w"])")});
  c["rec_mixed"] = [=] { return batches_hex({b1}); };
  c["rec_two_batches"] = [=] { return batches_hex({b1, b2}); };
  c["rec_empty"] = [=] { return batches_hex({b1->Slice(0, 0)}); };

  auto t = struct_of({test::from_json(int64(), "[1, null, 3, 4]"),
                      test::from_json(boolean(), "[true, false, null, true]")},
                     {"d", "e"}, {false, true, true, false});
  auto s = struct_of({test::from_json(utf8(), R"(["p", "q", null, null])"), t}, {"c", "t"},
                     {true, false, true, false});
  auto nested = RecordBatch::Make(schema({field("a", int32()), field("s", s->type())}), 4,
                                  {test::from_json(int32(), "[1, 2, 3, 4]"), s});
  c["rec_nested_structs"] = [=] { return batches_hex({nested}); };
  c["rec_nested_structs_sliced"] = [=] { return batches_hex({nested->Slice(1, 3)}); };
  c["rec_nested_structs_split"] = [=] {
    return batches_hex({nested->Slice(0, 1), nested->Slice(1, 2), nested->Slice(3, 1)});
  };
  c["rec_or_quirk"] = [] {
    auto t2 = struct_of({primitive<Int32Array>(int32(), {7, 8, 9}, {true, true, false})}, {"d"},
                        {true, false, true});
    auto x2 = primitive<Int32Array>(int32(), {11, 55, 33}, {true, false, true});
    auto s2 = struct_of({t2, x2}, {"t", "x"}, {false, true, true});
    return batches_hex({RecordBatch::Make(schema({field("s", s2->type())}), 3, {s2})});
  };
  c["rec_list_in_struct"] = [] {
    auto ls = struct_of({test::from_json(list(int32()), "[[1], [2, 3], null, []]")}, {"l"},
                        {true, false, true, true});
    return batches_hex({RecordBatch::Make(schema({field("s", ls->type())}), 4, {ls})});
  };
  // Large arrays: cross the 64 KiB staging buffer and the direct-absorb threshold.
  auto big_int64 = [](bool with_nulls) {
    Int64Builder b;
    for (int64_t i = 0; i < 200000; ++i) {
      const auto v = static_cast<int64_t>(static_cast<uint64_t>(i) * 2654435761u);
      EXPECT_TRUE((with_nulls && i % 7 == 0 ? b.AppendNull() : b.Append(v)).ok());
    }
    return b.Finish().ValueOrDie();
  };
  c["big_int64_nulls"] = [=] { return A(big_int64(true)); };
  c["big_int64_nonnull"] = [=] { return A(big_int64(false)); };
  std::vector<Opt> big_strs;
  for (int i = 0; i < 50000; ++i) {
    big_strs.push_back(i % 11 == 0 ? Opt()
                                   : Opt(std::string(i % 300, static_cast<char>('a' + i % 26))));
  }
  c["big_utf8"] = [=] { return A(byte_strings<StringBuilder>(big_strs)); };
  c["big_utf8_view"] = [=] { return A(byte_strings<StringViewBuilder>(big_strs)); };
  c["big_bool"] = [] {
    BooleanBuilder b;
    for (int i = 0; i < 100003; ++i)
      EXPECT_TRUE((i % 5 == 0 ? b.AppendNull() : b.Append(i % 3 == 0)).ok());
    return A(b.Finish().ValueOrDie());
  };
  c["big_list_int32"] = [] {
    ListBuilder b(default_memory_pool(), std::make_shared<Int32Builder>());
    auto& items = static_cast<Int32Builder&>(*b.value_builder());
    for (int32_t i = 0; i < 30000; ++i) {
      if (i % 13 == 0) {
        EXPECT_TRUE(b.AppendNull().ok());
        continue;
      }
      EXPECT_TRUE(b.Append().ok());
      for (int32_t j = 0; j < i % 5; ++j) {
        const auto v =
            static_cast<int32_t>(static_cast<uint32_t>(i) * static_cast<uint32_t>(j + 1));
        EXPECT_TRUE(((i + j) % 17 == 0 ? items.AppendNull() : items.Append(v)).ok());
      }
    }
    return A(b.Finish().ValueOrDie());
  };
  return c;
}

TEST(LogicalReferenceVectors, MatchArrowDigest60) {
  std::ifstream in(std::string(ODF_HASH_SOURCE_DIR) +
                   "/tests/conformance/logical_unit_vectors.json");
  ASSERT_TRUE(in) << "missing tests/conformance/logical_unit_vectors.json";
  const auto vectors = nlohmann::json::parse(in);
  const auto all = cases();
  size_t checked = 0;
  for (const auto& [name, expected] : vectors.items()) {
    if (name.starts_with("_")) continue;
    auto it = all.find(name);
    ASSERT_NE(it, all.end()) << "no C++ construction for vector " << name;
    EXPECT_EQ(it->second(), expected.get<std::string>()) << name;
    ++checked;
  }
  EXPECT_EQ(checked, all.size()) << "every C++ case has a reference vector";
  EXPECT_GE(checked, 59u);
}

}  // namespace
}  // namespace odf_hash::test
