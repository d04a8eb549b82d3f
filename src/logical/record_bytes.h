// The bytes of records as record_digest.h specifies them (docs/unordered-digest.md): one
// value at a time (put_value), or whole runs of records column by column (RecordRows), which
// is how RecordDigester feeds sha3_256_each. Internal to src/logical/.
#pragma once

#include <cstdint>
#include <vector>

#include "odf_hash/arrow_c_data.h"
#include "type_node.h"

namespace odf_hash::logical {

// Whether slot i (logical index, before the array's own offset) of `a` is valid.
bool slot_valid(const ArrowArray& a, int64_t i);

// Little-endian, as every length in the record bytes.
inline void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// Appends the bytes of value i (logical index, before the array's own offset) of `a`, of
// type `node`; false for a malformed view (the only thing check_array cannot check
// beforehand). The array must have been checked (array_check.h).
[[nodiscard]] bool put_value(std::vector<uint8_t>& out, const TypeNode& node, const ArrowArray& a,
                             int64_t i);

// The bytes of a run of records, laid end to end. Fixed-width, boolean and offset-based
// binary columns are written column by column (a pass for the lengths, a pass for the bytes),
// other types value by value with put_value; the bytes are the same either way.
class RecordRows {
 public:
  // The records [begin, begin + count) of `batch` (checked with check_array against `root`),
  // made of the top-level fields `fields` (indices into root.children) in that order. Returns
  // -1, or the position in `fields` of a column holding a malformed view (nothing usable is
  // left then).
  int encode(const TypeNode& root, const std::vector<size_t>& fields, const ArrowArray& batch,
             int64_t begin, int64_t count);

  const uint8_t* data() const { return bytes_.data(); }
  // ends()[r]: where record r's bytes end (record r starts where r - 1 ends, record 0 at 0).
  const uint64_t* ends() const { return ends_.data(); }

 private:
  std::vector<uint8_t> bytes_;
  std::vector<uint64_t> ends_;
  std::vector<uint64_t> cursor_;
  // Per field written value by value: its bytes for the run, and where each record's end.
  std::vector<std::vector<uint8_t>> scratch_;
  std::vector<std::vector<uint64_t>> scratch_ends_;
};

}  // namespace odf_hash::logical
