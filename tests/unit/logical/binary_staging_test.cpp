// Differential test of the bulk staging of byte-string values (src/logical/binary_values.cpp)
// against the slow per-value reference (slow_reference.h): random Utf8 / Binary arrays with
// int32 and int64 offsets, views with inline and out-of-line values, fixed-size binary of
// many widths and dictionaries of strings; with nulls (and arbitrary bytes and lengths under
// them), slices, empty values, values around the 16 / 32 / 64-byte copy sizes and long values
// (some past the sink's 8 KiB direct-run threshold), top-level and inside nullable structs
// (where the reference's OR rule hashes values under a child's own nulls).
//
// Data buffers are allocated at their exact size (std::vector, not Arrow's padded
// allocations), so that a copy reading past the bytes the offsets vouch for is caught by the
// ASan build.
#include <arrow/api.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "logical_test_support.h"
#include "slow_reference.h"

namespace odf_hash::test {
namespace {

using arrow::field;

// Lengths of values (and of the garbage under nulls), by profile.
enum class Lengths { kTiny, kShort, kMid, kEdges, kMixed, kLong };

class StringGen {
 public:
  explicit StringGen(uint64_t seed) : rng_(seed) {}

  int64_t below(int64_t n) { return static_cast<int64_t>(rng_() % static_cast<uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }

  Lengths profile() { return static_cast<Lengths>(below(6)); }

  int64_t length(Lengths p) {
    switch (p) {
      case Lengths::kTiny: return below(4);
      case Lengths::kShort: return below(16);
      case Lengths::kMid: return below(32);
      case Lengths::kEdges: {
        static const int64_t edges[] = {0, 11, 12, 13, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65};
        return edges[below(14)];
      }
      case Lengths::kMixed: return chance(5) ? 40 + below(300) : below(16);
      case Lengths::kLong: return chance(3) ? 8192 + below(4000) : 100 + below(1500);
    }
    return 0;
  }

  // An exactly-sized buffer (see the top of the file).
  std::shared_ptr<arrow::Buffer> bytes(int64_t n) {
    std::vector<uint8_t> v(static_cast<size_t>(n));
    for (auto& b : v) b = static_cast<uint8_t>(rng_());
    return arrow::Buffer::FromVector(std::move(v));
  }
  template <typename T>
  std::shared_ptr<arrow::Buffer> exact(std::vector<T> v) {
    v.shrink_to_fit();
    return arrow::Buffer::FromVector(std::move(v));
  }

  // A validity bitmap with `percent` nulls (none at all when percent < 0), and its count.
  std::shared_ptr<arrow::Buffer> validity(int64_t n, int percent, int64_t& nulls) {
    nulls = 0;
    if (percent < 0) return nullptr;
    std::vector<uint8_t> bits(static_cast<size_t>((n + 7) / 8));
    for (int64_t i = 0; i < n; ++i) {
      const bool valid = !chance(percent);
      if (valid) bits[static_cast<size_t>(i / 8)] |= static_cast<uint8_t>(1 << (i % 8));
      nulls += !valid;
    }
    return exact(std::move(bits));
  }
  int null_percent() {
    static const int p[] = {-1, 0, 3, 30, 90, 100};
    return p[below(6)];
  }
  bool valid_at(const std::shared_ptr<arrow::Buffer>& bits, int64_t i) {
    return bits == nullptr || ((bits->data()[i / 8] >> (i % 8)) & 1) != 0;
  }

  // Utf8 / Binary (Offset int32_t) or LargeUtf8 / LargeBinary (int64_t). The first offset is
  // not always 0, and null slots have lengths (and bytes) too.
  template <typename Offset>
  std::shared_ptr<arrow::Array> offsets_array(const std::shared_ptr<arrow::DataType>& type,
                                              int64_t n) {
    const Lengths p = profile();
    int64_t nulls = 0;
    auto bits = validity(n, null_percent(), nulls);
    std::vector<Offset> off{static_cast<Offset>(chance(30) ? below(20) : 0)};
    for (int64_t i = 0; i < n; ++i) {
      const bool garbage_empty = !valid_at(bits, i) && chance(50);
      off.push_back(off.back() + static_cast<Offset>(garbage_empty ? 0 : length(p)));
    }
    auto data = bytes(static_cast<int64_t>(off.back()));
    return arrow::MakeArray(
        arrow::ArrayData::Make(type, n, {bits, exact(std::move(off)), data}, nulls));
  }

  // Utf8View / BinaryView: inline values (<= 12 bytes) and values in one of up to three
  // variadic buffers. Under nulls the views hold arbitrary bytes (negative lengths and
  // pointers outside the buffers included) unless `tidy_nulls`, which keeps them readable
  // (nulls the reference reads as values, in structs, need that).
  std::shared_ptr<arrow::Array> views(const std::shared_ptr<arrow::DataType>& type, int64_t n,
                                      bool tidy_nulls) {
    const Lengths p = profile();
    int64_t nulls = 0;
    auto bits = validity(n, null_percent(), nulls);
    const int64_t n_data = below(4);
    std::vector<std::shared_ptr<arrow::Buffer>> data;
    for (int64_t d = 0; d < n_data; ++d)
      data.push_back(bytes(below(3) == 0 ? 0 : 64 + below(9000)));
    std::vector<uint8_t> v(static_cast<size_t>(16 * n));
    for (int64_t i = 0; i < n; ++i) {
      uint8_t* view = v.data() + 16 * i;
      for (int k = 0; k < 16; ++k) view[k] = static_cast<uint8_t>(rng_());
      if (!valid_at(bits, i) && !tidy_nulls && chance(70)) continue;  // garbage view
      int32_t len = static_cast<int32_t>(length(p));
      const int64_t d = n_data > 0 ? below(n_data) : -1;
      if (len > 12 && (d < 0 || data[static_cast<size_t>(d)]->size() < len)) len = 12;
      std::memcpy(view, &len, 4);
      if (len <= 12) {
        std::memset(view + 4 + len, 0, static_cast<size_t>(12 - len));  // Arrow wants zeros
        continue;
      }
      const auto& buf = data[static_cast<size_t>(d)];
      const int32_t offset = static_cast<int32_t>(below(buf->size() - len + 1));
      const int32_t index = static_cast<int32_t>(d);
      std::memcpy(view + 4, buf->data() + offset, 4);  // the prefix
      std::memcpy(view + 8, &index, 4);
      std::memcpy(view + 12, &offset, 4);
    }
    std::vector<std::shared_ptr<arrow::Buffer>> buffers = {bits, exact(std::move(v))};
    buffers.insert(buffers.end(), data.begin(), data.end());
    return arrow::MakeArray(arrow::ArrayData::Make(type, n, buffers, nulls));
  }

  std::shared_ptr<arrow::Array> fixed(int32_t width, int64_t n) {
    int64_t nulls = 0;
    auto bits = validity(n, null_percent(), nulls);
    return arrow::MakeArray(arrow::ArrayData::Make(arrow::fixed_size_binary(width), n,
                                                   {bits, bytes(width * n)}, nulls));
  }

  // A dictionary of strings (with nulls of its own, possibly sliced, possibly empty when every
  // index is null); indices under nulls are out of range and must never be read.
  std::shared_ptr<arrow::Array> dictionary(int64_t n) {
    static const std::shared_ptr<arrow::DataType> index_types[] = {
        arrow::int8(), arrow::int16(), arrow::int32(), arrow::uint32(), arrow::int64()};
    const auto index_type = index_types[below(5)];
    const auto value_type = chance(50) ? arrow::utf8() : arrow::large_utf8();
    int64_t nulls = 0;
    auto bits = validity(n, null_percent(), nulls);
    const bool all_null = nulls == n && bits != nullptr;
    const int64_t dict_len = all_null && chance(50) ? 0 : 1 + below(50);
    const int64_t skip = chance(30) ? below(3) : 0;
    auto dict = value_type->id() == arrow::Type::STRING
                    ? offsets_array<int32_t>(value_type, dict_len + skip)
                    : offsets_array<int64_t>(value_type, dict_len + skip);
    dict = dict->Slice(skip, dict_len);
    const int w = index_type->byte_width();
    std::vector<uint8_t> idx(static_cast<size_t>(n * w));
    for (int64_t i = 0; i < n; ++i) {
      const int64_t v = valid_at(bits, i) ? below(dict_len) : 100 + below(1000);
      std::memcpy(idx.data() + i * w, &v, static_cast<size_t>(w));
    }
    auto indices = arrow::MakeArray(
        arrow::ArrayData::Make(index_type, n, {bits, exact(std::move(idx))}, nulls));
    return std::make_shared<arrow::DictionaryArray>(arrow::dictionary(index_type, value_type),
                                                    indices, dict);
  }

  // One random string column of `n` slots, sliced out of a longer one.
  std::shared_ptr<arrow::Array> column(int64_t n, bool in_struct) {
    const int64_t extra = chance(40) ? below(70) : 0;
    const int64_t total = n + extra;
    std::shared_ptr<arrow::Array> a;
    switch (below(9)) {
      case 0: a = offsets_array<int32_t>(arrow::utf8(), total); break;
      case 1: a = offsets_array<int32_t>(arrow::binary(), total); break;
      case 2: a = offsets_array<int64_t>(arrow::large_utf8(), total); break;
      case 3: a = offsets_array<int64_t>(arrow::large_binary(), total); break;
      case 4: a = views(arrow::utf8_view(), total, in_struct); break;
      case 5: a = views(arrow::binary_view(), total, in_struct); break;
      case 6: {
        static const int32_t widths[] = {0, 1, 3, 4, 8, 12, 16, 20, 32, 33, 100};
        a = fixed(widths[below(11)], total);
        break;
      }
      default: a = dictionary(total); break;
    }
    return a->Slice(below(extra + 1), n);
  }

 private:
  std::mt19937_64 rng_;
};

TEST(BinaryStaging, MatchesSlowReference) {
  int tables = 0, columns = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    StringGen g(seed);
    const int64_t n = g.chance(5) ? 0 : g.chance(20) ? 500 + g.below(3000) : g.below(200);
    const int64_t ncols = 1 + g.below(4);
    arrow::FieldVector fields;
    std::vector<std::shared_ptr<arrow::Array>> cols;
    for (int64_t c = 0; c < ncols; ++c) {
      const bool in_struct = g.chance(30);
      std::shared_ptr<arrow::Array> col = g.column(n, in_struct);
      if (in_struct) {
        int64_t nulls = 0;
        auto bits = g.validity(n, 50, nulls);
        col = std::make_shared<arrow::StructArray>(arrow::struct_({field("s", col->type())}), n,
                                                   arrow::ArrayVector{col}, bits, nulls);
      }
      fields.push_back(field("c" + std::to_string(c), col->type()));
      cols.push_back(col);
    }
    auto table = arrow::RecordBatch::Make(arrow::schema(fields), n, cols);
    const auto batches = random_batches(table, g);
    slow::Record ref;
    const std::string expected = ref.digest(batches);
    for (auto multi_lane :
         {LogicalHashOptions::MultiLane::kOff, LogicalHashOptions::MultiLane::kOn}) {
      for (unsigned threads : {1u, 2u}) {
        LogicalHashOptions options;
        options.multi_lane = multi_lane;
        options.threads = threads;
        ASSERT_EQ(batches_hex(batches, options), expected)
            << "seed " << seed << " schema " << table->schema()->ToString() << " in "
            << batches.size() << " batches, threads " << threads << ", multi-lane "
            << (multi_lane == LogicalHashOptions::MultiLane::kOn ? "on" : "off");
      }
    }
    for (const auto& col : cols) {
      if (col->type_id() == arrow::Type::STRUCT) continue;
      ASSERT_EQ(array_hex(col), slow::array_digest(*col))
          << "seed " << seed << " column " << col->type()->ToString();
      ++columns;
    }
    ++tables;
  }
  EXPECT_EQ(tables, 300);
  EXPECT_GT(columns, 300);
}

}  // namespace
}  // namespace odf_hash::test
