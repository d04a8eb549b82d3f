// Multihash: varint(code) || varint(digest length) || digest.
//
// Codes known to odf-hash (the ODF hash codes):
//   sha3-256        0x16      physical hashes of data and checkpoint files, block hashes
//   arrow0-sha3-256 0x300016  logical hashes (ODF private-use multicodec)
// Both have 32-byte digests. Equality is on (code, digest), never on the string form.
//
// Errors from from_bytes() and parse() are StatusCode::kInvalidArgument (or kUnsupported for
// a registered multibase that odf-hash does not decode); parse() messages quote the text
// (shortened) and say what is wrong with it. parse() rejects text longer than
// kMaxMultihashTextLength before decoding it, so untrusted input costs bounded work.
//
// Thread safety: Multihash is a plain value; all functions may be called from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/multibase.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/core/status.h"

namespace odf_hash {

enum class HashCode : uint64_t {
  kSha3_256 = 0x16,
  kArrow0Sha3_256 = 0x300016,
};

// Longest string parse() decodes: a 32-byte-digest multihash is at most 37 bytes, i.e. 297
// characters in base2 (the widest base); the rest is margin.
inline constexpr size_t kMaxMultihashTextLength = 512;

// "sha3-256" / "arrow0-sha3-256"; nullptr for a code odf-hash does not know.
const char* hash_code_name(uint64_t code);
// Inverse of hash_code_name.
std::optional<HashCode> hash_code_from_name(std::string_view name);

class Multihash {
 public:
  Multihash(HashCode code, const Digest256& digest);

  static Multihash sha3_256(const Digest256& digest) { return {HashCode::kSha3_256, digest}; }
  static Multihash arrow0_sha3_256(const Digest256& digest) {
    return {HashCode::kArrow0Sha3_256, digest};
  }

  // Strict decode of the binary form: unknown code, varint overflow or a declared length
  // that is not the number of remaining bytes (or not 32) is an error.
  static Result<Multihash> from_bytes(std::span<const uint8_t> bytes);
  // Multibase string (any final base) -> Multihash.
  static Result<Multihash> parse(std::string_view text);

  HashCode code() const noexcept { return code_; }
  const Digest256& digest() const noexcept { return digest_; }
  std::vector<uint8_t> to_bytes() const;
  // Canonical ODF form by default: 'f' + lower-case hex of to_bytes().
  std::string to_string(multibase::Base base = multibase::Base::kBase16) const;
  // Last 8 characters of to_string(), the ODF short display form.
  std::string short_string() const;

  friend bool operator==(const Multihash& a, const Multihash& b) noexcept {
    return a.code_ == b.code_ && a.digest_ == b.digest_;
  }

 private:
  HashCode code_;
  Digest256 digest_;
};

}  // namespace odf_hash
