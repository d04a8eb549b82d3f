#include "binary_values.h"

#include <cstring>
#include <string>

#include "array_check.h"
#include "staging.h"

namespace odf_hash::logical {

using staging::bit_mask;
using staging::kRun;
using staging::load_u32;
using staging::low_mask;
using staging::put_short;
using staging::run_validity;
using staging::store_u64;

namespace {

// One valid slot, the general way: u64 length + bytes (large runs straight from `data`).
void put_value(DigestSink& sink, const uint8_t* data, uint64_t n) {
  staging::put_counted(sink, n, data, n);
}

}  // namespace

template <typename Offset>
void stage_binary(DigestSink& sink, const Offset* offsets, const uint8_t* data, int64_t len,
                  const Validity& v) {
  const int64_t end = static_cast<int64_t>(offsets[len]);
  for (int64_t i = 0; i < len; i += kRun) {
    const int64_t k = len - i < kRun ? len - i : kRun;
    const uint64_t valid = run_validity(v, i, k);
    staging::stage_counted_run<0>(sink, offsets + i, data, end, valid, k);
  }
}

template void stage_binary<int32_t>(DigestSink&, const int32_t*, const uint8_t*, int64_t,
                                    const Validity&);
template void stage_binary<int64_t>(DigestSink&, const int64_t*, const uint8_t*, int64_t,
                                    const Validity&);

// A view is 16 bytes: int32 length, then either the value itself (length <= 12) or a 4-byte
// prefix, the int32 index of a variadic data buffer and the int32 offset in it.
Status stage_binary_views(DigestSink& sink, const TypeNode& node, const ArrowArray& a,
                          int64_t first, int64_t len, const Validity& v) {
  const auto* views = static_cast<const uint8_t*>(a.buffers[1]) + first * 16;
  const int64_t n_data = a.n_buffers - 3;
  const auto* sizes =
      n_data > 0 ? static_cast<const int64_t*>(a.buffers[a.n_buffers - 1]) : nullptr;
  for (int64_t i = 0; i < len; i += kRun) {
    const int64_t k = len - i < kRun ? len - i : kRun;
    const uint64_t valid = run_validity(v, i, k);
    const uint8_t* run = views + i * 16;
    // Whether every valid slot of the run holds its value inline (length 0..12).
    uint64_t out_of_line = 0;
    for (int64_t j = 0; j < k; ++j) {
      out_of_line |= bit_mask(valid, j) & static_cast<uint64_t>(load_u32(run + 16 * j) > 12);
    }
    if (out_of_line == 0) {
      // The whole view is copied 4 bytes into the slot, then the u64 length overwrites the
      // view's own length: the 12 inline bytes land right after the u64.
      uint8_t* out = sink.reserve(static_cast<size_t>(20 * k) + 8);
      size_t at = 0;
      for (int64_t j = 0; j < k; ++j) {
        const uint8_t* view = run + 16 * j;
        const uint64_t mask = bit_mask(valid, j);
        const uint64_t n = load_u32(view) & mask;
        std::memcpy(out + at + 4, view, 16);
        store_u64(out + at, n);
        at += 1 + (mask & (7 + n));
      }
      sink.commit(at);
      continue;
    }
    for (int64_t j = 0; j < k; ++j) {
      if (((valid >> j) & 1) == 0) {
        sink.put_byte(0);
        continue;
      }
      const uint8_t* view = run + 16 * j;
      int32_t size = 0;
      std::memcpy(&size, view, 4);
      if (size <= 12) {
        if (size < 0) {
          return Status::invalid_argument("column " + describe(node) + ": negative view length");
        }
        put_value(sink, view + 4, static_cast<uint64_t>(size));
        continue;
      }
      int32_t index = 0, offset = 0;
      std::memcpy(&index, view + 8, 4);
      std::memcpy(&offset, view + 12, 4);
      if (index < 0 || index >= n_data || offset < 0 ||
          static_cast<int64_t>(offset) + size > sizes[index]) {
        return Status::invalid_argument(
            "column " + describe(node) + ": malformed array: view at slot " +
            std::to_string(first + i + j) + " points outside its variadic data buffers");
      }
      put_value(sink, static_cast<const uint8_t*>(a.buffers[2 + index]) + offset,
                static_cast<uint64_t>(size));
    }
  }
  return Status::ok();
}

namespace {

// Fixed-size binary of a width known at compile time (exact copies: no read past the values).
template <size_t W>
void stage_fixed_width(DigestSink& sink, const uint8_t* data, int64_t len, const Validity& v) {
  for (int64_t i = 0; i < len; i += kRun) {
    const int64_t k = len - i < kRun ? len - i : kRun;
    const uint64_t valid = run_validity(v, i, k);
    uint8_t* out = sink.reserve(static_cast<size_t>(k) * (8 + W));
    size_t at = 0;
    for (int64_t j = 0; j < k; ++j) {
      const uint64_t mask = bit_mask(valid, j);
      // Copy first: for a null slot the next slot's u64 overwrites what lies past at + 1.
      std::memcpy(out + at + 8, data + (i + j) * static_cast<int64_t>(W), W);
      store_u64(out + at, W & mask);
      at += 1 + (mask & (7 + W));
    }
    sink.commit(at);
  }
}

}  // namespace

void stage_fixed_binary(DigestSink& sink, const uint8_t* data, int64_t width, int64_t len,
                        const Validity& v) {
  switch (width) {
    case 4: return stage_fixed_width<4>(sink, data, len, v);
    case 8: return stage_fixed_width<8>(sink, data, len, v);
    case 12: return stage_fixed_width<12>(sink, data, len, v);
    case 16: return stage_fixed_width<16>(sink, data, len, v);
    case 20: return stage_fixed_width<20>(sink, data, len, v);
    case 32: return stage_fixed_width<32>(sink, data, len, v);
    default: break;
  }
  // Any other width (0 included): one value at a time, the validity still a word per run.
  for (int64_t i = 0; i < len; i += kRun) {
    const int64_t k = len - i < kRun ? len - i : kRun;
    const uint64_t valid = run_validity(v, i, k);
    for (int64_t j = 0; j < k; ++j) {
      if (((valid >> j) & 1) == 0) {
        sink.put_byte(0);
      } else {
        put_value(sink, data + (i + j) * width, static_cast<uint64_t>(width));
      }
    }
  }
}

bool stages_dictionary(const TypeNode& node) {
  const Kind values = node.children[0].kind;
  return values == Kind::kBinary || values == Kind::kLargeBinary;
}

namespace {

// Dictionary of byte strings: each run gathers its slots' (start, length) from the
// dictionary's offsets, then writes them like stage_short_run when every length is below 16.
// A 16-byte read of a value near the end of the dictionary's data comes from `tail`, a padded
// copy of its last 32 bytes, so no read passes the data the offsets vouch for.
template <typename Offset, typename Index>
void stage_dictionary_runs(DigestSink& sink, const ArrowArray& a, int64_t first, int64_t len,
                           const Validity& v) {
  const ArrowArray& dict = *a.dictionary;
  const auto* doff = static_cast<const Offset*>(dict.buffers[1]) + dict.offset;
  const auto* ddata = static_cast<const uint8_t*>(dict.buffers[2]);
  const int64_t dict_len = dict.length;
  const int64_t begin = dict_len > 0 ? static_cast<int64_t>(doff[0]) : 0;
  const int64_t end = dict_len > 0 ? static_cast<int64_t>(doff[dict_len]) : 0;
  const int64_t tail_start = end - begin > 32 ? end - 32 : begin;
  uint8_t tail[48] = {};
  if (end > tail_start)
    std::memcpy(tail, ddata + tail_start, static_cast<size_t>(end - tail_start));
  const auto* indices = static_cast<const Index*>(a.buffers[1]) + first;
  const auto* index_bits = static_cast<const uint8_t*>(a.buffers[0]);
  for (int64_t i = 0; i < len; i += kRun) {
    const int64_t k = len - i < kRun ? len - i : kRun;
    const uint64_t valid = run_validity(v, i, k);
    // Slots whose index is null hash the empty string (when valid at all).
    const uint64_t has_index =
        index_bits != nullptr ? load_bits(index_bits, first + i, k) : low_mask(k);
    const uint64_t use = dict_len > 0 ? (valid & has_index) : 0;
    int64_t start[kRun];
    uint64_t n[kRun];
    uint64_t any = 0;
    for (int64_t j = 0; j < k; ++j) {
      // A slot not used reads index 0 (valid whenever the dictionary is not empty).
      const int64_t idx =
          static_cast<int64_t>(indices[i + j]) & static_cast<int64_t>(bit_mask(use, j));
      start[j] = dict_len > 0 ? static_cast<int64_t>(doff[idx]) : 0;
      n[j] = dict_len > 0 ? static_cast<uint64_t>(doff[idx + 1] - doff[idx]) & bit_mask(use, j) : 0;
      any |= n[j];
    }
    if (any < 16) {
      uint8_t* out = sink.reserve(static_cast<size_t>(24 * k) + 8);
      size_t at = 0;
      for (int64_t j = 0; j < k; ++j) {
        const bool near_end = start[j] + 16 > end;
        const uint8_t* src = near_end ? tail + (start[j] - tail_start) : ddata + start[j];
        at = put_short<16>(out, at, src, n[j], n[j], bit_mask(valid, j));
      }
      sink.commit(at);
      continue;
    }
    for (int64_t j = 0; j < k; ++j) {
      if (((valid >> j) & 1) == 0) {
        sink.put_byte(0);
      } else {
        put_value(sink, n[j] == 0 ? nullptr : ddata + start[j], n[j]);
      }
    }
  }
}

template <typename Offset>
void stage_dictionary_offsets(DigestSink& sink, const TypeNode& node, const ArrowArray& a,
                              int64_t first, int64_t len, const Validity& v) {
  switch (node.format[0]) {
    case 'c': return stage_dictionary_runs<Offset, int8_t>(sink, a, first, len, v);
    case 'C': return stage_dictionary_runs<Offset, uint8_t>(sink, a, first, len, v);
    case 's': return stage_dictionary_runs<Offset, int16_t>(sink, a, first, len, v);
    case 'S': return stage_dictionary_runs<Offset, uint16_t>(sink, a, first, len, v);
    case 'i': return stage_dictionary_runs<Offset, int32_t>(sink, a, first, len, v);
    case 'I': return stage_dictionary_runs<Offset, uint32_t>(sink, a, first, len, v);
    case 'l': return stage_dictionary_runs<Offset, int64_t>(sink, a, first, len, v);
    default: return stage_dictionary_runs<Offset, uint64_t>(sink, a, first, len, v);
  }
}

}  // namespace

void stage_dictionary(DigestSink& sink, const TypeNode& node, const ArrowArray& a, int64_t first,
                      int64_t len, const Validity& v) {
  if (node.children[0].kind == Kind::kLargeBinary) {
    stage_dictionary_offsets<int64_t>(sink, node, a, first, len, v);
  } else {
    stage_dictionary_offsets<int32_t>(sink, node, a, first, len, v);
  }
}

}  // namespace odf_hash::logical
