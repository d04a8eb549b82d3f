// The rows of a keyed comparison as spilled (keyed.cpp, step 1) and merged (keyed_merge.cpp,
// step 2): the entry, its key's hash and partition, what the merge keeps to show. Internal to
// compare.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "odf_hash/compare/keyed.h"
#include "odf_hash/core/status.h"
#include "spill.h"

namespace odf_hash::compare::detail {

// One row as spilled, 32 bytes: its key (11 bytes: exact when short, else an 80-bit prefix
// of its digest, see keyed.cpp), the first 16 bytes of its value digest, its row index in
// 40 bits. A wrong match of hashed keys or values could only turn "same" into a difference,
// or one difference into another: the verdict also needs the whole 256-bit sums of the
// hashed keys and of the values to agree.
constexpr size_t kKeyBytes = 11;
constexpr size_t kValueBytes = 16;
constexpr uint64_t kMaxRows = uint64_t{1} << 40;
struct Entry {
  std::array<uint8_t, kKeyBytes> key;
  std::array<uint8_t, kValueBytes> value;
  std::array<uint8_t, 5> row_le;
  uint64_t row() const {
    uint64_t r = 0;
    std::memcpy(&r, row_le.data(), row_le.size());  // little-endian, as written
    return r;
  }
};
static_assert(sizeof(Entry) == 32);
static_assert(std::endian::native == std::endian::little, "Entry::row_le is written by memcpy");
// 256 partitions x 2 tables x 512 entries x 32 bytes: 8 MiB of write buffers (4 MiB a side:
// spilling a row is a store into one of 256 buffers, which had better stay in the cache).
using Spill = PartitionedSpill<Entry, kKeyedPartitions, 512>;

inline bool by_key_value_row(const Entry& x, const Entry& y) {
  if (x.key != y.key) return x.key < y.key;
  if (x.value != y.value) return x.value < y.value;
  return x.row() < y.row();
}

// The key field of an entry: a key whose bytes (its key columns' record bytes, as record
// digests take them: encodings of one type alike) fit in 10 bytes is stored exactly, after its
// length (an int64 key: 9 bytes); a longer one as 0xFF and the first 10 bytes of their SHA3-256.
// The two kinds never compare equal. Keys stored exactly need no hashing (most keys: ids,
// timestamps, short codes), and match without any collision.
constexpr size_t kExactKeyBytes = kKeyBytes - 1;
constexpr uint8_t kHashedKey = 0xFF;

// A key's bytes mixed into 64 bits (an exact key's first byte is its length): its
// partition is the top bits, and a partition is sorted by it first (step 2). Equal keys have
// equal hashes; the order by (hash, key) is all the merge needs of both sides.
inline uint64_t key_hash(const std::array<uint8_t, kKeyBytes>& key) {
  static_assert(kKeyBytes == 11);
  uint64_t a = 0;
  std::memcpy(&a, key.data(), 8);
  // The last three bytes one by one: a 3-byte memcpy into a zeroed word stalls the load of
  // that word (store forwarding), which took most of step 1's own time.
  const uint64_t b = uint64_t(key[8]) | uint64_t(key[9]) << 8 | uint64_t(key[10]) << 16;
  uint64_t h = (a ^ (b * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
  h ^= h >> 31;
  h *= 0x94D049BB133111EBull;
  return h ^ (h >> 29);
}
inline bool same_key(const std::array<uint8_t, kKeyBytes>& x,
                     const std::array<uint8_t, kKeyBytes>& y) {
  uint64_t x8 = 0, y8 = 0;
  std::memcpy(&x8, x.data(), 8);
  std::memcpy(&y8, y.data(), 8);
  return x8 == y8 && x[8] == y[8] && x[9] == y[9] && x[10] == y[10];
}
static_assert((kKeyedPartitions & (kKeyedPartitions - 1)) == 0, "a power of two");
constexpr int kPartitionBits = std::countr_zero(kKeyedPartitions);
inline unsigned partition_of(uint64_t hash) {
  return unsigned(hash >> (64 - kPartitionBits));
}

// What step 2 keeps of the rows to show: rows of each side, and the pairs of changed rows.
struct Shown {
  std::vector<uint64_t> only_a, only_b, dup_a, dup_b;
  std::vector<std::pair<uint64_t, uint64_t>> changes;  // (original row, reproduced row)
};

// Step 2: the partitions of both sides merged pairwise (half of them on a second thread):
// the counts into `out` (only_here, duplicates, matched and changed keys), the first `max`
// rows of each kind into `shown`.
Status merge_keyed_partitions(const Spill& sa, const Spill& sb, size_t max, KeyedComparison& out,
                              Shown& shown);

}  // namespace odf_hash::compare::detail
