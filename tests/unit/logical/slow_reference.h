// A slow, obviously-correct hasher for the differential test: it reads arrays through Arrow
// C++'s typed accessors (not the C Data Interface), one value at a time, straight from the
// rules (the spec text plus docs/divergences.md), collects every column's bytes in memory
// and hashes them with OpenSSL at the end.
#pragma once

#include <arrow/api.h>
#include <arrow/util/bit_util.h>

#include <optional>
#include <string>
#include <vector>

#include "logical_test_support.h"

namespace odf_hash::test::slow {

// A validity bitmap as the reference sees it: nullopt is "no bitmap".
using Bits = std::optional<std::vector<bool>>;

inline int64_t count_nulls(const std::vector<bool>& b) {
  return static_cast<int64_t>(std::count(b.begin(), b.end(), false));
}

inline void type_bytes(const arrow::DataType& t, Bytes& out) {
  using arrow::Type;
  auto int_type = [&](bool s, uint64_t bits) { out.u16(1).u8(s ? 1 : 0).u64(bits); };
  auto unit = [](arrow::TimeUnit::type u) {
    switch (u) {
      case arrow::TimeUnit::SECOND: return 0;
      case arrow::TimeUnit::MILLI: return 1;
      case arrow::TimeUnit::MICRO: return 2;
      default: return 3;
    }
  };
  switch (t.id()) {
    case Type::NA: out.u16(0); break;
    case Type::INT8: int_type(true, 8); break;
    case Type::INT16: int_type(true, 16); break;
    case Type::INT32: int_type(true, 32); break;
    case Type::INT64: int_type(true, 64); break;
    case Type::UINT8: int_type(false, 8); break;
    case Type::UINT16: int_type(false, 16); break;
    case Type::UINT32: int_type(false, 32); break;
    case Type::UINT64: int_type(false, 64); break;
    case Type::HALF_FLOAT: out.u16(2).u64(16); break;
    case Type::FLOAT: out.u16(2).u64(32); break;
    case Type::DOUBLE: out.u16(2).u64(64); break;
    case Type::BINARY:
    case Type::LARGE_BINARY:
    case Type::BINARY_VIEW:
    case Type::FIXED_SIZE_BINARY: out.u16(3); break;
    case Type::STRING:
    case Type::LARGE_STRING:
    case Type::STRING_VIEW: out.u16(4); break;
    case Type::BOOL: out.u16(5); break;
    case Type::DECIMAL32:
    case Type::DECIMAL64:
    case Type::DECIMAL128:
    case Type::DECIMAL256: {
      const auto& d = static_cast<const arrow::DecimalType&>(t);
      out.u16(6)
          .u64(static_cast<uint64_t>(d.bit_width()))
          .u64(static_cast<uint64_t>(d.precision()));
      out.u64(static_cast<uint64_t>(static_cast<int64_t>(d.scale())));
      break;
    }
    case Type::DATE32: out.u16(7).u64(32).u16(0); break;
    case Type::DATE64: out.u16(7).u64(64).u16(1); break;
    case Type::TIME32:
    case Type::TIME64:
      out.u16(8).u64(static_cast<uint64_t>(t.bit_width()));
      out.u16(static_cast<uint16_t>(unit(static_cast<const arrow::TimeType&>(t).unit())));
      break;
    case Type::TIMESTAMP: {
      const auto& ts = static_cast<const arrow::TimestampType&>(t);
      out.u16(9).u16(static_cast<uint16_t>(unit(ts.unit())));
      if (ts.timezone().empty()) {
        out.u8(0);
      } else {
        out.lstr(ts.timezone());
      }
      break;
    }
    case Type::LIST:
    case Type::LARGE_LIST:
    case Type::LIST_VIEW:
    case Type::LARGE_LIST_VIEW:
    case Type::FIXED_SIZE_LIST:
      out.u16(11);
      type_bytes(*t.field(0)->type(), out);
      break;
    case Type::DICTIONARY:
      type_bytes(*static_cast<const arrow::DictionaryType&>(t).value_type(), out);
      break;
    case Type::RUN_END_ENCODED:
      type_bytes(*static_cast<const arrow::RunEndEncodedType&>(t).value_type(), out);
      break;
    default: ADD_FAILURE() << "slow reference: unexpected type " << t.ToString();
  }
}

inline int64_t ree_physical(const arrow::RunEndEncodedArray& a, int64_t i) {
  const int64_t p = a.offset() + i;
  const auto& ends = *a.run_ends();
  for (int64_t r = 0; r < ends.length(); ++r) {
    int64_t end = 0;
    switch (ends.type_id()) {
      case arrow::Type::INT16: end = static_cast<const arrow::Int16Array&>(ends).Value(r); break;
      case arrow::Type::INT32: end = static_cast<const arrow::Int32Array&>(ends).Value(r); break;
      default: end = static_cast<const arrow::Int64Array&>(ends).Value(r); break;
    }
    if (end > p) return r;
  }
  ADD_FAILURE() << "slot beyond the last run";
  return 0;
}

// Whether slot i holds a value once decoded.
inline bool is_valid(const arrow::Array& a, int64_t i) {
  switch (a.type_id()) {
    case arrow::Type::NA: return false;
    case arrow::Type::DICTIONARY: {
      const auto& d = static_cast<const arrow::DictionaryArray&>(a);
      return d.indices()->IsValid(i) && is_valid(*d.dictionary(), d.GetValueIndex(i));
    }
    case arrow::Type::RUN_END_ENCODED: {
      const auto& r = static_cast<const arrow::RunEndEncodedArray&>(a);
      return is_valid(*r.values(), ree_physical(r, i));
    }
    default: return a.IsValid(i);
  }
}

// The bitmap the reference would see: none when there is no null.
inline Bits own_bits(const arrow::Array& a) {
  if (a.type_id() == arrow::Type::NA) return std::nullopt;
  std::vector<bool> v(static_cast<size_t>(a.length()));
  for (int64_t i = 0; i < a.length(); ++i) v[static_cast<size_t>(i)] = is_valid(a, i);
  if (count_nulls(v) == 0) return std::nullopt;
  return v;
}

// arrow-digest 60 utils.rs maybe_combine_null_buffers, restated.
inline Bits combine(const Bits& parent, const Bits& child) {
  const bool p = parent && count_nulls(*parent) != 0;
  const bool c = child && count_nulls(*child) != 0;
  if (!parent && c) return child;
  if (parent && !child && p) return parent;
  if (parent && child && p && c) {
    std::vector<bool> v(parent->size());
    for (size_t i = 0; i < v.size(); ++i) v[i] = (*parent)[i] || (*child)[i];
    return v;
  }
  return std::nullopt;
}

inline void zero_value(const arrow::DataType& t, Bytes& out) {
  switch (t.id()) {
    case arrow::Type::NA: out.u8(0); break;
    case arrow::Type::BOOL: out.u8(1); break;
    case arrow::Type::FIXED_SIZE_BINARY: {
      const int w = static_cast<const arrow::FixedSizeBinaryType&>(t).byte_width();
      out.u64(static_cast<uint64_t>(w));
      for (int k = 0; k < w; ++k) out.u8(0);
      break;
    }
    case arrow::Type::FIXED_SIZE_LIST: {
      const auto& f = static_cast<const arrow::FixedSizeListType&>(t);
      out.u64(static_cast<uint64_t>(f.list_size()));
      for (int k = 0; k < f.list_size(); ++k) zero_value(*f.value_type(), out);
      break;
    }
    case arrow::Type::DICTIONARY:
      zero_value(*static_cast<const arrow::DictionaryType&>(t).value_type(), out);
      break;
    case arrow::Type::RUN_END_ENCODED:
      zero_value(*static_cast<const arrow::RunEndEncodedType&>(t).value_type(), out);
      break;
    default:
      if (arrow::is_fixed_width(t.id())) {
        for (int k = 0; k < t.byte_width(); ++k) out.u8(0);
      } else {
        out.u64(0);  // strings, binaries, variable-size lists
      }
  }
}

inline void value(const arrow::Array& a, int64_t i, Bytes& out);

inline void items(const arrow::Array& list_items, Bytes& out) {
  out.u64(static_cast<uint64_t>(list_items.length()));
  for (int64_t j = 0; j < list_items.length(); ++j) {
    if (is_valid(list_items, j)) {
      value(list_items, j, out);
    } else {
      out.u8(0);
    }
  }
}

// Slot i as a value, whatever its validity.
inline void value(const arrow::Array& a, int64_t i, Bytes& out) {
  using arrow::Type;
  switch (a.type_id()) {
    case Type::NA: out.u8(0); return;
    case Type::BOOL: out.u8(static_cast<const arrow::BooleanArray&>(a).Value(i) ? 2 : 1); return;
    case Type::STRING:
    case Type::BINARY: {
      auto v = static_cast<const arrow::BinaryArray&>(a).GetView(i);
      out.lstr(std::string(v));
      return;
    }
    case Type::LARGE_STRING:
    case Type::LARGE_BINARY: {
      auto v = static_cast<const arrow::LargeBinaryArray&>(a).GetView(i);
      out.lstr(std::string(v));
      return;
    }
    case Type::STRING_VIEW:
    case Type::BINARY_VIEW: {
      auto v = static_cast<const arrow::BinaryViewArray&>(a).GetView(i);
      out.lstr(std::string(v));
      return;
    }
    case Type::FIXED_SIZE_BINARY: {
      auto v = static_cast<const arrow::FixedSizeBinaryArray&>(a).GetView(i);
      out.lstr(std::string(v));
      return;
    }
    case Type::LIST: items(*static_cast<const arrow::ListArray&>(a).value_slice(i), out); return;
    case Type::LARGE_LIST:
      items(*static_cast<const arrow::LargeListArray&>(a).value_slice(i), out);
      return;
    case Type::LIST_VIEW:
      items(*static_cast<const arrow::ListViewArray&>(a).value_slice(i), out);
      return;
    case Type::LARGE_LIST_VIEW:
      items(*static_cast<const arrow::LargeListViewArray&>(a).value_slice(i), out);
      return;
    case Type::FIXED_SIZE_LIST:
      items(*static_cast<const arrow::FixedSizeListArray&>(a).value_slice(i), out);
      return;
    case Type::DICTIONARY: {
      const auto& d = static_cast<const arrow::DictionaryArray&>(a);
      if (d.indices()->IsNull(i)) {
        zero_value(*d.dictionary()->type(), out);
      } else {
        value(*d.dictionary(), d.GetValueIndex(i), out);
      }
      return;
    }
    case Type::RUN_END_ENCODED: {
      const auto& r = static_cast<const arrow::RunEndEncodedArray&>(a);
      value(*r.values(), ree_physical(r, i), out);
      return;
    }
    default: {
      const int w = a.type()->byte_width();
      const uint8_t* p = a.data()->GetValues<uint8_t>(1, 0) + (a.offset() + i) * w;
      out.raw(p, static_cast<size_t>(w));
    }
  }
}

inline void leaf(const arrow::Array& a, const Bits& parent, Bytes& out) {
  const Bits bits = combine(parent, own_bits(a));
  for (int64_t i = 0; i < a.length(); ++i) {
    const bool valid = a.type_id() != arrow::Type::NA && (!bits || (*bits)[static_cast<size_t>(i)]);
    if (valid) {
      value(a, i, out);
    } else {
      out.u8(0);
    }
  }
}

inline std::string array_digest(const arrow::Array& a) {
  Bytes out;
  type_bytes(*a.type(), out);
  leaf(a, std::nullopt, out);
  return openssl_sha3_hex(out.b);
}

struct Record {
  std::vector<Bytes> leaves;
  Bytes combined;

  void fields(const arrow::FieldVector& fs, uint64_t level) {
    for (const auto& f : fs) {
      combined.lstr(f->name()).u64(level);
      if (f->type()->id() == arrow::Type::STRUCT) {
        fields(f->type()->fields(), level + 1);
      } else {
        leaves.emplace_back();
        type_bytes(*f->type(), leaves.back());
      }
    }
  }

  void walk(const arrow::Array& a, const Bits& parent, size_t& next) {
    if (a.type_id() == arrow::Type::STRUCT) {
      const auto& s = static_cast<const arrow::StructArray&>(a);
      const Bits bits = combine(parent, own_bits(a));
      for (int c = 0; c < s.num_fields(); ++c) walk(*s.field(c), bits, next);
      return;
    }
    leaf(a, parent, leaves[next++]);
  }

  std::string digest(const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches) {
    fields(batches.at(0)->schema()->fields(), 0);
    for (const auto& b : batches) {
      size_t next = 0;
      for (const auto& col : b->columns()) walk(*col, std::nullopt, next);
    }
    for (const auto& l : leaves) {
      const std::string h = openssl_sha3_hex(l.b);
      for (size_t k = 0; k < h.size(); k += 2) {
        combined.u8(static_cast<uint8_t>(std::stoi(h.substr(k, 2), nullptr, 16)));
      }
    }
    return openssl_sha3_hex(combined.b);
  }
};

}  // namespace odf_hash::test::slow
