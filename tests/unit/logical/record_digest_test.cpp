// RecordDigester, UnorderedDigest, ColumnValueEncoder (record_digest.h) and diff_schemas
// (schema_diff.h). Expected record digests are computed here with OpenSSL's SHA3-256 over
// the bytes docs/unordered-digest.md specifies, written out by hand.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstring>

#include "logical_test_support.h"
#include "odf_hash/logical/record_digest.h"
#include "odf_hash/logical/schema_diff.h"
#include "random_arrays.h"

namespace odf_hash::test {
namespace {

Digest256 openssl_sha3(const std::vector<uint8_t>& bytes) {
  Digest256 out{};
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), out.data(), &len, EVP_sha3_256(), nullptr);
  return out;
}

void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

std::vector<Digest256> digests_of(const arrow::RecordBatch& batch, int64_t begin, int64_t count) {
  auto e = export_batch(batch);
  auto d = RecordDigester::create(e->schema);
  EXPECT_TRUE(d.is_ok()) << d.status().message();
  std::vector<Digest256> out;
  Status st = d->digest_rows(e->array, begin, count, out);
  EXPECT_TRUE(st.is_ok()) << st.message();
  return out;
}

TEST(RecordDigest, BytesAreTheDocumentedOnes) {
  // Fields sorted by name: "a" (int32) before "b" (utf8), whatever the schema order.
  auto batch = arrow::RecordBatch::Make(
      arrow::schema({arrow::field("b", arrow::utf8()), arrow::field("a", arrow::int32())}), 2,
      {from_json(arrow::utf8(), R"(["xy", null])"), from_json(arrow::int32(), "[7, -1]")});
  auto got = digests_of(*batch, 0, 2);
  ASSERT_EQ(got.size(), 2u);
  std::vector<uint8_t> row0 = {1, 7, 0, 0, 0, 1};
  put_u64(row0, 2);
  row0.push_back('x');
  row0.push_back('y');
  std::vector<uint8_t> row1 = {1, 0xff, 0xff, 0xff, 0xff, 0};
  EXPECT_EQ(got[0], openssl_sha3(row0));
  EXPECT_EQ(got[1], openssl_sha3(row1));
}

TEST(RecordDigest, EncodedRowsAreTheDocumentedBytes) {
  // encode_rows gives the bytes digest_rows hashes (the same documented bytes as above), a
  // range of the batch only.
  auto batch = arrow::RecordBatch::Make(
      arrow::schema({arrow::field("b", arrow::utf8()), arrow::field("a", arrow::int32())}), 3,
      {from_json(arrow::utf8(), R"(["q", "xy", null])"), from_json(arrow::int32(), "[3, 7, -1]")});
  auto e = export_batch(*batch);
  auto d = RecordDigester::create(e->schema);
  ASSERT_TRUE(d.is_ok()) << d.status().message();
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> ends;
  ASSERT_TRUE(d->encode_rows(e->array, 1, 2, bytes, ends).is_ok());
  std::vector<uint8_t> want = {1, 7, 0, 0, 0, 1};
  put_u64(want, 2);
  want.push_back('x');
  want.push_back('y');
  const uint64_t first_end = want.size();
  for (uint8_t b : {1, 0xff, 0xff, 0xff, 0xff, 0}) want.push_back(b);
  EXPECT_EQ(bytes, want);
  EXPECT_EQ(ends, (std::vector<uint64_t>{first_end, want.size()}));
  // An empty range: nothing, and what the vectors held is gone.
  ASSERT_TRUE(d->encode_rows(e->array, 3, 0, bytes, ends).is_ok());
  EXPECT_TRUE(bytes.empty());
  EXPECT_TRUE(ends.empty());
}

TEST(RecordDigest, NullSlotsAndEncodingsDoNotCount) {
  auto st_type = arrow::struct_({arrow::field("x", arrow::int64())});
  // The same records: one struct's null slot holds 5, the other's 9; one string column is
  // dictionary-encoded large strings, the other plain utf8.
  auto x1 = from_json(arrow::int64(), "[1, 5]");
  auto x2 = from_json(arrow::int64(), "[1, 9]");
  std::shared_ptr<arrow::Buffer> validity;
  {
    auto mask = from_json(arrow::boolean(), "[true, false]");
    validity = std::static_pointer_cast<arrow::BooleanArray>(mask)->values();
  }
  auto s1 = std::make_shared<arrow::StructArray>(st_type, 2, arrow::ArrayVector{x1}, validity, 1);
  auto s2 = std::make_shared<arrow::StructArray>(st_type, 2, arrow::ArrayVector{x2}, validity, 1);
  auto plain = from_json(arrow::utf8(), R"(["p", "q"])");
  auto dict =
      arrow::DictionaryArray::FromArrays(arrow::dictionary(arrow::int8(), arrow::large_utf8()),
                                         from_json(arrow::int8(), "[1, 0]"),
                                         from_json(arrow::large_utf8(), R"(["q", "p"])"))
          .ValueOrDie();
  auto b1 = arrow::RecordBatch::Make(
      arrow::schema({arrow::field("st", st_type), arrow::field("s", arrow::utf8())}), 2,
      {s1, plain});
  auto b2 = arrow::RecordBatch::Make(
      arrow::schema({arrow::field("s", dict->type()), arrow::field("st", st_type)}), 2, {dict, s2});
  EXPECT_EQ(digests_of(*b1, 0, 2), digests_of(*b2, 0, 2));
  // And the table digests (schema bytes included) are equal.
  auto e1 = export_batch(*b1);
  auto e2 = export_batch(*b2);
  EXPECT_EQ(RecordDigester::create(e1->schema)->schema_bytes(),
            RecordDigester::create(e2->schema)->schema_bytes());
}

TEST(RecordDigest, EveryRangeGivesTheSameDigests) {
  auto batch = arrow::RecordBatch::Make(
      arrow::schema({arrow::field("v", arrow::list(arrow::int16()))}), 5,
      {from_json(arrow::list(arrow::int16()), "[[1], null, [], [2, null, 3], [4]]")});
  auto all = digests_of(*batch, 0, 5);
  for (int64_t b = 0; b <= 5; ++b) {
    for (int64_t n = 0; b + n <= 5; ++n) {
      auto part = digests_of(*batch, b, n);
      EXPECT_TRUE(std::equal(part.begin(), part.end(), all.begin() + b)) << b << "+" << n;
    }
    // A sliced batch (non-zero offset) gives the same digests.
    auto sliced = digests_of(*batch->Slice(b), 0, 5 - b);
    EXPECT_TRUE(std::equal(sliced.begin(), sliced.end(), all.begin() + b)) << b;
  }
}

// digest_rows writes the common types column by column for runs of records and hashes them
// eight at a time; the expected digests here are OpenSSL's SHA3-256 of each record's bytes
// taken value by value (ColumnValueEncoder, whose bytes BytesAreTheDocumentedOnes and the
// Python test against the document check), over random types, nulls (bitmaps with and
// without nulls, unknown null counts), sliced columns and batches, records longer than one
// Keccak block, and row ranges across the runs.
TEST(RecordDigest, RunsOfRecordsMatchValueByValue) {
  size_t total_long = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    Gen g(seed);
    const int64_t n = seed % 3 == 0 ? 2500 + g.below(200) : 1 + g.below(40);
    const int64_t ncols = 1 + g.below(6);
    arrow::FieldVector fields;
    arrow::ArrayVector columns;
    for (int64_t c = 0; c < ncols; ++c) {
      auto type = g.column_type(1);
      // Names in another order than the schema's (records take fields by name).
      fields.push_back(
          arrow::field("c" + std::to_string((c * 7 + seed) % 10) + std::to_string(c), type));
      columns.push_back(g.array(type, n + 3));
    }
    auto whole = arrow::RecordBatch::Make(arrow::schema(fields), n + 3, columns);
    auto batch = whole->Slice(seed % 4, n);
    auto e = export_batch(*batch);
    auto d = RecordDigester::create(e->schema);
    ASSERT_TRUE(d.is_ok()) << d.status().message();
    const int64_t begin = n > 10 ? g.below(n / 4) : 0;
    const int64_t count = n - begin - (n > 10 ? g.below(n / 4) : 0);
    std::vector<Digest256> got;
    Status st = d->digest_rows(e->array, begin, count, got);
    ASSERT_TRUE(st.is_ok()) << "seed " << seed << ": " << st.message();
    ASSERT_EQ(got.size(), size_t(count));
    std::vector<int> order(static_cast<size_t>(ncols));
    for (int c = 0; c < int(ncols); ++c) order[size_t(c)] = c;
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
      return fields[size_t(x)]->name() < fields[size_t(y)]->name();
    });
    std::vector<ColumnValueEncoder> encoders;
    for (int c : order) {
      auto enc = ColumnValueEncoder::create(e->schema, {c});
      ASSERT_TRUE(enc.is_ok()) << enc.status().message();
      ASSERT_TRUE(enc->check(e->array, 0, n).is_ok());
      encoders.push_back(std::move(enc).value());
    }
    std::vector<uint8_t> record, value;
    size_t long_records = 0;
    for (int64_t r = 0; r < count; ++r) {
      record.clear();
      for (const auto& enc : encoders) {
        ASSERT_TRUE(enc.encode_row(e->array, begin + r, value));
        record.insert(record.end(), value.begin(), value.end());
      }
      long_records += record.size() >= 136;
      ASSERT_EQ(got[size_t(r)], openssl_sha3(record)) << "seed " << seed << " row " << begin + r;
    }
    total_long += long_records;
  }
  EXPECT_GT(total_long, 0u) << "no record longer than a Keccak block: the test lost its point";
}

TEST(UnorderedDigest, SumIgnoresOrderAndKeepsMultiplicity) {
  Digest256 a{}, b{}, c{};
  a.fill(0xff);  // carries through every limb
  b[0] = 1;
  c[31] = 0x80;
  UnorderedDigest x, y, z;
  for (auto d : {a, b, c}) x.add(d);
  for (auto d : {c, a, b}) y.add(d);
  for (auto d : {a, b, c, c}) z.add(d);
  EXPECT_EQ(x.sum(), y.sum());
  EXPECT_NE(x.sum(), z.sum());
  // a + b = 2^256 - 1 + 1 = 0 (mod 2^256); + c leaves c.
  EXPECT_EQ(x.sum(), c);
  UnorderedDigest m;
  m.add(a);
  UnorderedDigest n;
  n.add(b);
  n.add(c);
  m.merge(n);
  EXPECT_EQ(m.sum(), x.sum());
  EXPECT_EQ(m.count(), 3u);
  EXPECT_EQ(unordered_digest_string(c).substr(0, 19), "unordered-sha3-256:");
}

TEST(ColumnValueEncoder, MemberUnderANullStructIsNull) {
  auto st_type = arrow::struct_({arrow::field("x", arrow::int64())});
  auto st = from_json(st_type, R"([{"x": 1}, null, {"x": null}])");
  auto batch = arrow::RecordBatch::Make(arrow::schema({arrow::field("st", st_type)}), 3, {st});
  auto e = export_batch(*batch);
  auto enc = ColumnValueEncoder::create(e->schema, {0, 0});
  ASSERT_TRUE(enc.is_ok()) << enc.status().message();
  ASSERT_TRUE(enc->check(e->array, 0, 3).is_ok());
  std::vector<uint8_t> v;
  ASSERT_TRUE(enc->encode_row(e->array, 0, v));
  EXPECT_EQ(v, (std::vector<uint8_t>{1, 1, 0, 0, 0, 0, 0, 0, 0}));
  ASSERT_TRUE(enc->encode_row(e->array, 1, v));
  EXPECT_EQ(v, std::vector<uint8_t>{0});
  ASSERT_TRUE(enc->encode_row(e->array, 2, v));
  EXPECT_EQ(v, std::vector<uint8_t>{0});
  EXPECT_FALSE(ColumnValueEncoder::create(e->schema, {0, 3}).is_ok());
}

TEST(RecordDigest, ViewsOutsideTheirDataAreRefused) {
  // "a long string value" is out of line (> 12 bytes): its view names data buffer 0.
  auto views = from_json(arrow::utf8_view(), R"(["short", "a long string value"])");
  auto batch =
      arrow::RecordBatch::Make(arrow::schema({arrow::field("s", arrow::utf8_view())}), 2, {views});
  auto e = export_batch(*batch);
  auto d = RecordDigester::create(e->schema);
  ASSERT_TRUE(d.is_ok());
  std::vector<Digest256> out;
  ASSERT_TRUE(d->digest_rows(e->array, 0, 2, out).is_ok());
  // The same array with the second view pointing past its data buffer.
  ArrowArray* col = e->array.children[0];
  auto* view = const_cast<uint8_t*>(static_cast<const uint8_t*>(col->buffers[1])) + 16;
  const int32_t offset = 1 << 20;
  std::memcpy(view + 12, &offset, 4);
  out.clear();
  Status st = d->digest_rows(e->array, 0, 2, out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.message();
  EXPECT_TRUE(out.empty());
  auto enc = ColumnValueEncoder::create(e->schema, {0});
  ASSERT_TRUE(enc.is_ok());
  std::vector<uint8_t> v;
  EXPECT_TRUE(enc->encode_row(e->array, 0, v));
  EXPECT_FALSE(enc->encode_row(e->array, 1, v));
}

TEST(SchemaDiff, FieldByField) {
  auto a = arrow::schema({arrow::field("id", arrow::int64(), false),
                          arrow::field("t", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")),
                          arrow::field("st", arrow::struct_({arrow::field("m", arrow::int32())})),
                          arrow::field("gone", arrow::utf8())});
  auto b = arrow::schema({arrow::field("t", arrow::timestamp(arrow::TimeUnit::MICRO)),
                          arrow::field("id", arrow::int64(), true),
                          arrow::field("st", arrow::struct_({arrow::field("m", arrow::int64())})),
                          arrow::field("new", arrow::large_utf8())});
  ArrowSchema ca{}, cb{};
  ASSERT_TRUE(arrow::ExportSchema(*a, &ca).ok());
  ASSERT_TRUE(arrow::ExportSchema(*b, &cb).ok());
  auto diffs = diff_schemas(ca, cb);
  ca.release(&ca);
  cb.release(&cb);
  std::vector<std::string> got;
  for (const auto& d : diffs) {
    got.push_back(d.field + " " + schema_difference_kind_name(d.kind) + " " + d.original + " | " +
                  d.reproduced);
  }
  EXPECT_EQ(got, (std::vector<std::string>{
                     "id position 1 | 2",
                     "id nullability not null | nullable",
                     "t position 2 | 1",
                     "t type timestamp[us, tz=UTC] | timestamp[us, no time zone]",
                     "st.m type int32 | int64",
                     "gone only-in-original utf8 | ",
                     "new only-in-reproduced  | large_utf8",
                 }));
  // int32 vs int64 is another type; utf8 vs large_utf8 two encodings of one.
  EXPECT_FALSE(diffs[4].encoding_only);
  auto c = arrow::schema({arrow::field("s", arrow::utf8())});
  auto d = arrow::schema({arrow::field("s", arrow::large_utf8())});
  ASSERT_TRUE(arrow::ExportSchema(*c, &ca).ok());
  ASSERT_TRUE(arrow::ExportSchema(*d, &cb).ok());
  auto enc = diff_schemas(ca, cb);
  ca.release(&ca);
  cb.release(&cb);
  ASSERT_EQ(enc.size(), 1u);
  EXPECT_TRUE(enc[0].encoding_only);
}

}  // namespace
}  // namespace odf_hash::test
