// Validity bitmaps: reading bits at any offset, counting nulls, and the reference's rule
// for combining a parent struct's bitmap with a child's. Internal to src/logical/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace odf_hash::logical {

inline bool get_bit(const uint8_t* bits, int64_t i) {
  return (bits[i >> 3] >> (i & 7)) & 1;
}

// The `n` (1..64) bits starting at bit `pos`, bit k of the result = bit pos+k; bits above n
// are zero. Reads only the bytes holding those bits.
uint64_t load_bits(const uint8_t* bits, int64_t pos, int64_t n);

// Number of 0 bits in [pos, pos + n).
int64_t count_zero_bits(const uint8_t* bits, int64_t pos, int64_t n);

// The effective validity of `n` consecutive slots: slot i is valid iff bits is null or bit
// `offset + i` is set. `null_count` is the number of null slots among the n when known, or
// -1 (only the record walk, which needs it, asks for it).
struct Validity {
  const uint8_t* bits = nullptr;
  int64_t offset = 0;
  int64_t null_count = 0;

  bool present() const { return bits != nullptr; }
  bool valid(int64_t i) const { return bits == nullptr || get_bit(bits, offset + i); }
};

// A Validity that may point into its own storage (a combined or decoded bitmap).
struct OwnedValidity {
  Validity v;
  std::vector<uint8_t> storage;

  OwnedValidity() = default;
  explicit OwnedValidity(Validity borrowed) : v(borrowed) {}
  OwnedValidity(OwnedValidity&&) noexcept = default;
  OwnedValidity& operator=(OwnedValidity&&) noexcept = default;
  OwnedValidity(const OwnedValidity&) = delete;
  OwnedValidity& operator=(const OwnedValidity&) = delete;
};

// Builds an owned bitmap of n bits, all zero, ready to be set bit by bit.
OwnedValidity make_owned_bitmap(int64_t n);
inline void set_bit(OwnedValidity& o, int64_t i) {
  o.storage[static_cast<size_t>(i >> 3)] |= static_cast<uint8_t>(1u << (i & 7));
}
// Points o.v at its storage and counts its nulls.
void seal_owned_bitmap(OwnedValidity& o, int64_t n);

// The reference's combination of an inherited bitmap with a child's own one (arrow-digest
// 60 utils.rs, maybe_combine_null_buffers), over n slots. Both null counts must be known.
// See docs/divergences.md: a bitmap only counts when its null count is non-zero; an
// inherited bitmap with no nulls drops the child's; two bitmaps with nulls are ORed (a slot
// is valid when either says so). The result may borrow from `inherited` or `own`, so it
// must not outlive them.
OwnedValidity combine_validity(const Validity& inherited, const Validity& own, int64_t n);

}  // namespace odf_hash::logical
