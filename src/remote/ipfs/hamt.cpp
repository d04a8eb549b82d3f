// HAMT shards (hamt.h).
#include "hamt.h"

#include <bit>
#include <vector>

namespace odf_hash::remote::ipfs {

namespace {

uint64_t load_le64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

constexpr uint64_t kC1 = 0x87c37b91114253d5ULL;
constexpr uint64_t kC2 = 0x4cf5ad432745937fULL;

uint64_t mix_k1(uint64_t k1) {
  return std::rotl(k1 * kC1, 31) * kC2;
}
uint64_t mix_k2(uint64_t k2) {
  return std::rotl(k2 * kC2, 33) * kC1;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;  // lower case is not what the spec writes
}

}  // namespace

uint64_t murmur3_x64_64(std::span<const uint8_t> bytes) {
  const size_t n = bytes.size();
  const uint8_t* p = bytes.data();
  uint64_t h1 = 0, h2 = 0;  // seed 0
  const size_t blocks = n / 16;
  for (size_t i = 0; i < blocks; ++i) {
    h1 ^= mix_k1(load_le64(p + 16 * i));
    h1 = std::rotl(h1, 27) + h2;
    h1 = h1 * 5 + 0x52dce729;
    h2 ^= mix_k2(load_le64(p + 16 * i + 8));
    h2 = std::rotl(h2, 31) + h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  const uint8_t* tail = p + 16 * blocks;
  const size_t rest = n & 15;
  uint64_t k1 = 0, k2 = 0;
  for (size_t i = rest; i > 8; --i) k2 ^= static_cast<uint64_t>(tail[i - 1]) << (8 * (i - 9));
  if (rest > 8) h2 ^= mix_k2(k2);
  for (size_t i = std::min<size_t>(rest, 8); i > 0; --i) {
    k1 ^= static_cast<uint64_t>(tail[i - 1]) << (8 * (i - 1));
  }
  if (rest > 0) h1 ^= mix_k1(k1);
  h1 ^= n;
  h2 ^= n;
  h1 += h2;
  h2 += h1;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 += h2;
  return h1;
}

Result<HamtLayout> hamt_layout(const UnixFsData& shard) {
  if (shard.type != UnixFsType::kHamtShard) {
    return Status::parse_error(std::string("a ") + unixfs_type_name(shard.type) +
                               " node where a HAMT shard was expected");
  }
  if (!shard.hash_type || *shard.hash_type != kHashMurmur3X64_64) {
    return Status::unsupported("a HAMT shard hashing names with " +
                               (shard.hash_type ? "hash type " + std::to_string(*shard.hash_type)
                                                : std::string("no hash")) +
                               " (odf-hash reads murmur3-x64-64, 0x22, what UnixFS writes)");
  }
  const uint64_t f = shard.fanout.value_or(0);
  if (f < 8 || f > 1024 || !std::has_single_bit(f)) {
    return Status::parse_error("a HAMT shard of fanout " + std::to_string(f) +
                               " (a power of two from 8 to 1024)");
  }
  HamtLayout l;
  l.fanout = f;
  l.bits = static_cast<unsigned>(std::countr_zero(f));
  l.pad = (static_cast<size_t>(std::bit_width(f - 1)) + 3) / 4;
  l.max_depth = 64 / l.bits;
  return l;
}

unsigned hamt_bucket(uint64_t hash, const HamtLayout& layout, unsigned depth) {
  const unsigned shift = 64 - layout.bits * (depth + 1);
  return static_cast<unsigned>((hash >> shift) & (layout.fanout - 1));
}

Result<HamtSlot> hamt_slot(std::string_view link_name, const HamtLayout& layout) {
  if (link_name.size() < layout.pad) {
    return Status::parse_error("a HAMT link named \"" + std::string(link_name) +
                               "\", shorter than its bucket prefix");
  }
  unsigned bucket = 0;
  for (size_t i = 0; i < layout.pad; ++i) {
    const int d = hex_digit(link_name[i]);
    if (d < 0) {
      return Status::parse_error(
          "a HAMT link whose name does not start with its bucket in "
          "upper-case hex");
    }
    bucket = bucket * 16 + static_cast<unsigned>(d);
  }
  if (bucket >= layout.fanout) {
    return Status::parse_error("a HAMT link in bucket " + std::to_string(bucket) +
                               ", beyond the fanout " + std::to_string(layout.fanout));
  }
  return HamtSlot{bucket, link_name.substr(layout.pad)};
}

Status check_hamt_shard(const PbNode& node, const UnixFsData& shard, const HamtLayout& layout) {
  const size_t field_bytes = static_cast<size_t>(layout.fanout / 8);
  if (shard.data.size() > field_bytes) {
    return Status::parse_error("a HAMT shard's bitfield of " + std::to_string(shard.data.size()) +
                               " bytes, more than its fanout's " + std::to_string(field_bytes));
  }
  std::vector<bool> used(static_cast<size_t>(layout.fanout), false);
  for (const PbLink& link : node.links) {
    ODF_HASH_ASSIGN_OR_RETURN(const HamtSlot slot, hamt_slot(link.name, layout));
    if (used[slot.bucket]) {
      return Status::parse_error("a HAMT shard with two links in bucket " +
                                 std::to_string(slot.bucket));
    }
    used[slot.bucket] = true;
  }
  // The bitfield as a big-endian integer, right-aligned on fanout / 8 bytes.
  const size_t skip = field_bytes - shard.data.size();
  for (size_t i = 0; i < used.size(); ++i) {
    const size_t byte = field_bytes - 1 - i / 8;
    const bool set = byte >= skip && ((shard.data[byte - skip] >> (i % 8)) & 1) != 0;
    if (set != used[i]) {
      return Status::parse_error(
          "a HAMT shard whose bitfield " + std::string(set ? "marks" : "does not mark") +
          " bucket " + std::to_string(i) + ", which " + (used[i] ? "has" : "has no") + " link");
    }
  }
  return Status::ok();
}

}  // namespace odf_hash::remote::ipfs
