// Random Arrow arrays for the logical hasher's randomized tests: random types (nesting,
// dictionaries, run-end encoding, views), nulls at every level with arbitrary values under
// them, sliced arrays. Every array passes Arrow's ValidateFull.
#pragma once

#include <arrow/api.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace odf_hash::test {

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}

  int64_t below(int64_t n) { return static_cast<int64_t>(rng_() % static_cast<uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }

  std::shared_ptr<arrow::DataType> leaf_type(int depth) {
    using namespace arrow;
    switch (below(depth > 0 ? 32 : 26)) {
      case 0: return int8();
      case 1: return int16();
      case 2: return int32();
      case 3: return int64();
      case 4: return uint8();
      case 5: return uint64();
      case 6: return float16();
      case 7: return float32();
      case 8: return float64();
      case 9: return boolean();
      case 10: return utf8();
      case 11: return large_utf8();
      case 12: return utf8_view();
      case 13: return binary();
      case 14: return large_binary();
      case 15: return binary_view();
      case 16: return fixed_size_binary(static_cast<int32_t>(below(5)));
      case 17: return decimal128(20, static_cast<int32_t>(below(10)) - 3);
      case 18: return decimal256(50, 4);
      case 19: return decimal32(9, 2);
      case 20: return date32();
      case 21: return date64();
      case 22: return time32(TimeUnit::MILLI);
      case 23: return time64(TimeUnit::NANO);
      case 24: return timestamp(TimeUnit::MICRO, chance(50) ? "" : "UTC");
      case 25: return null();
      case 26: return list(leaf_type(depth - 1));
      case 27: return large_list(leaf_type(depth - 1));
      case 28: return fixed_size_list(leaf_type(depth - 1), static_cast<int32_t>(below(3)));
      case 29: return list_view(leaf_type(depth - 1));
      case 30: {
        static const std::shared_ptr<DataType> idx[] = {int8(), int16(), int32(), uint32()};
        return dictionary(idx[below(4)], leaf_type(depth - 1));
      }
      default: return run_end_encoded(chance(50) ? int32() : int64(), leaf_type(depth - 1));
    }
  }

  std::shared_ptr<arrow::DataType> column_type(int depth) {
    if (depth > 0 && chance(30)) {
      arrow::FieldVector fs;
      const int64_t n = 1 + below(3);
      for (int64_t i = 0; i < n; ++i)
        fs.push_back(arrow::field("f" + std::to_string(i), column_type(depth - 1)));
      return arrow::struct_(fs);
    }
    return leaf_type(depth);
  }

  std::shared_ptr<arrow::Buffer> random_bytes(int64_t n) {
    auto buf = arrow::AllocateBuffer(std::max<int64_t>(n, 1)).ValueOrDie();
    for (int64_t i = 0; i < n; ++i) buf->mutable_data()[i] = static_cast<uint8_t>(rng_());
    return std::shared_ptr<arrow::Buffer>(std::move(buf));
  }

  // A validity bitmap for `n` slots (or none), and its null count.
  std::pair<std::shared_ptr<arrow::Buffer>, int64_t> validity(int64_t n) {
    const int mode = static_cast<int>(below(5));
    if (mode == 0) return {nullptr, 0};
    const int percent = mode == 1 ? 0 : mode == 2 ? 10 : mode == 3 ? 50 : 100;
    auto bits = arrow::AllocateBitmap(std::max<int64_t>(n, 1)).ValueOrDie();
    int64_t nulls = 0;
    for (int64_t i = 0; i < n; ++i) {
      const bool valid = !chance(percent);
      arrow::bit_util::SetBitTo(bits->mutable_data(), i, valid);
      nulls += !valid;
    }
    return {std::shared_ptr<arrow::Buffer>(std::move(bits)),
            chance(30) ? arrow::kUnknownNullCount : nulls};
  }

  std::shared_ptr<arrow::Array> with_validity(std::shared_ptr<arrow::ArrayData> data) {
    auto [bits, nulls] = validity(data->length);
    data->buffers[0] = bits;
    data->null_count = bits ? nulls : 0;
    return arrow::MakeArray(data);
  }

  std::string random_string() {
    const int64_t n = chance(10) ? 40 + below(100) : below(16);
    std::string s;
    for (int64_t i = 0; i < n; ++i) s.push_back(static_cast<char>('a' + below(26)));
    return s;
  }

  template <typename Builder>
  std::shared_ptr<arrow::Array> strings(int64_t n) {
    Builder b;
    for (int64_t i = 0; i < n; ++i) EXPECT_TRUE(b.Append(random_string()).ok());
    return with_validity(b.Finish().ValueOrDie()->data()->Copy());
  }

  std::shared_ptr<arrow::Buffer> offsets32(int64_t n, int64_t& total) {
    std::vector<int32_t> o{0};
    for (int64_t i = 0; i < n; ++i) o.push_back(o.back() + static_cast<int32_t>(below(4)));
    total = o.back();
    return arrow::Buffer::FromVector(o);
  }

  // A random array of `type` with `n` slots, offset by a random slice.
  std::shared_ptr<arrow::Array> array(const std::shared_ptr<arrow::DataType>& type, int64_t n) {
    const int64_t extra = chance(40) ? below(5) : 0;
    auto a = array_unsliced(type, n + extra);
    return a->Slice(extra, n);
  }

  std::shared_ptr<arrow::Array> array_unsliced(const std::shared_ptr<arrow::DataType>& type,
                                               int64_t n) {
    using arrow::Type;
    switch (type->id()) {
      case Type::NA: return std::make_shared<arrow::NullArray>(n);
      case Type::BOOL: {
        auto data = arrow::ArrayData::Make(type, n, {nullptr, random_bytes((n + 7) / 8)});
        return with_validity(data);
      }
      case Type::STRING: return strings<arrow::StringBuilder>(n);
      case Type::LARGE_STRING: return strings<arrow::LargeStringBuilder>(n);
      case Type::STRING_VIEW: return strings<arrow::StringViewBuilder>(n);
      case Type::BINARY: return strings<arrow::BinaryBuilder>(n);
      case Type::LARGE_BINARY: return strings<arrow::LargeBinaryBuilder>(n);
      case Type::BINARY_VIEW: return strings<arrow::BinaryViewBuilder>(n);
      case Type::LIST:
      case Type::LARGE_LIST: {
        int64_t total = 0;
        auto offsets = offsets32(n, total);
        auto items = array(type->field(0)->type(), total);
        std::shared_ptr<arrow::Array> list;
        if (type->id() == Type::LIST) {
          list = std::make_shared<arrow::ListArray>(type, n, offsets, items);
        } else {
          std::vector<int64_t> o64(
              static_cast<const int32_t*>(static_cast<const void*>(offsets->data())),
              static_cast<const int32_t*>(static_cast<const void*>(offsets->data())) + n + 1);
          list = std::make_shared<arrow::LargeListArray>(type, n, arrow::Buffer::FromVector(o64),
                                                         items);
        }
        return with_validity(list->data()->Copy());
      }
      case Type::LIST_VIEW: {
        const int64_t child_len = below(3 * n + 1);
        auto items = array(type->field(0)->type(), child_len);
        std::vector<int32_t> off(static_cast<size_t>(n)), size(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
          off[i] = static_cast<int32_t>(below(child_len + 1));
          size[i] = static_cast<int32_t>(below(child_len - off[i] + 1));
        }
        auto lv = std::make_shared<arrow::ListViewArray>(type, n, arrow::Buffer::FromVector(off),
                                                         arrow::Buffer::FromVector(size), items);
        return with_validity(lv->data()->Copy());
      }
      case Type::FIXED_SIZE_LIST: {
        const int size = static_cast<const arrow::FixedSizeListType&>(*type).list_size();
        auto items = array(type->field(0)->type(), n * size);
        auto fl = std::make_shared<arrow::FixedSizeListArray>(type, n, items);
        return with_validity(fl->data()->Copy());
      }
      case Type::DICTIONARY: {
        const auto& dt = static_cast<const arrow::DictionaryType&>(*type);
        const int64_t dict_len = 1 + below(6);
        auto dict = array(dt.value_type(), dict_len);
        const int w = dt.index_type()->byte_width();
        auto idx = random_bytes(n * w);
        auto [bits, nulls] = validity(n);
        for (int64_t i = 0; i < n; ++i) {
          const bool valid = !bits || arrow::bit_util::GetBit(bits->data(), i);
          // Garbage (out of range) under nulls: it must never be read.
          const int64_t v = valid ? below(dict_len) : 100;
          std::memcpy(idx->mutable_data() + i * w, &v, static_cast<size_t>(w));
        }
        auto indices = arrow::MakeArray(
            arrow::ArrayData::Make(dt.index_type(), n, {bits, idx}, bits ? nulls : 0));
        return std::make_shared<arrow::DictionaryArray>(type, indices, dict);
      }
      case Type::RUN_END_ENCODED: {
        const auto& rt = static_cast<const arrow::RunEndEncodedType&>(*type);
        std::vector<int64_t> ends;
        for (int64_t e = 0; e < n;) {
          e += 1 + below(4);
          ends.push_back(std::min(e, n));
        }
        auto values = array(rt.value_type(), static_cast<int64_t>(ends.size()));
        std::shared_ptr<arrow::Array> run_ends;
        if (rt.run_end_type()->id() == Type::INT32) {
          std::vector<int32_t> e32(ends.begin(), ends.end());
          run_ends = std::make_shared<arrow::Int32Array>(static_cast<int64_t>(e32.size()),
                                                         arrow::Buffer::FromVector(e32));
        } else {
          run_ends = std::make_shared<arrow::Int64Array>(static_cast<int64_t>(ends.size()),
                                                         arrow::Buffer::FromVector(ends));
        }
        return arrow::RunEndEncodedArray::Make(n, run_ends, values).ValueOrDie();
      }
      case Type::STRUCT: {
        std::vector<std::shared_ptr<arrow::Array>> children;
        for (const auto& f : type->fields()) children.push_back(array(f->type(), n));
        auto [bits, nulls] = validity(n);
        return std::make_shared<arrow::StructArray>(type, n, children, bits, bits ? nulls : 0);
      }
      default: {  // fixed width: random bytes, including under nulls
        const int64_t w = type->byte_width();
        auto bytes = random_bytes(n * w);
        const bool small = arrow::is_decimal(type->id()) || type->id() == Type::TIME32 ||
                           type->id() == Type::TIME64 || type->id() == Type::DATE64;
        for (int64_t i = 0; small && i < n; ++i) {
          // Values that Arrow's validation accepts: within a day, within the precision.
          const int64_t v = arrow::is_decimal(type->id()) ? below(2000) - 1000
                            : type->id() == Type::DATE64  ? (below(40000) - 20000) * 86400000
                                                          : below(86400);
          for (int64_t k = 0; k < w; ++k) {
            bytes->mutable_data()[i * w + k] = static_cast<uint8_t>(k < 8 ? v >> (8 * k) : v >> 63);
          }
        }
        return with_validity(arrow::ArrayData::Make(type, n, {nullptr, bytes}));
      }
    }
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace odf_hash::test
