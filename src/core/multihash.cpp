#include "odf_hash/core/multihash.h"

#include <algorithm>
#include <cstdio>

#include "odf_hash/core/varint.h"

namespace odf_hash {
namespace {

std::string hex_code(uint64_t code) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(code));
  return buf;
}

// The text quoted in an error message, shortened so that a huge input stays readable.
std::string quote_text(std::string_view text) {
  constexpr size_t kMax = 80;
  std::string out = "'";
  for (char c : text.substr(0, kMax)) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out.push_back(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    }
  }
  out += "'";
  if (text.size() > kMax) out += "... (" + std::to_string(text.size()) + " characters)";
  return out;
}

}  // namespace

const char* hash_code_name(uint64_t code) {
  switch (code) {
    case static_cast<uint64_t>(HashCode::kSha3_256): return "sha3-256";
    case static_cast<uint64_t>(HashCode::kArrow0Sha3_256): return "arrow0-sha3-256";
    default: return nullptr;
  }
}

std::optional<HashCode> hash_code_from_name(std::string_view name) {
  if (name == "sha3-256") return HashCode::kSha3_256;
  if (name == "arrow0-sha3-256") return HashCode::kArrow0Sha3_256;
  return std::nullopt;
}

Multihash::Multihash(HashCode code, const Digest256& digest) : code_(code), digest_(digest) {}

Result<Multihash> Multihash::from_bytes(std::span<const uint8_t> bytes) {
  auto code = varint::decode(bytes);
  if (!code) return code.status().with_context("multihash code");
  if (hash_code_name(code->value) == nullptr) {
    return Status::invalid_argument("multihash: unknown hash code " + hex_code(code->value) +
                                    " (odf-hash knows sha3-256 0x16 and arrow0-sha3-256 0x300016)");
  }
  const auto rest = bytes.subspan(code->length);
  auto length = varint::decode(rest);
  if (!length) return length.status().with_context("multihash digest length");
  const size_t remaining = rest.size() - length->length;
  if (length->value != remaining) {
    return Status::invalid_argument("multihash: declared digest length " +
                                    std::to_string(length->value) + " but " +
                                    std::to_string(remaining) + " bytes follow");
  }
  if (remaining != kSha3_256DigestSize) {
    return Status::invalid_argument(std::string("multihash: ") + hash_code_name(code->value) +
                                    " digest must be 32 bytes, not " + std::to_string(remaining));
  }
  Digest256 digest;
  std::copy(rest.begin() + static_cast<ptrdiff_t>(length->length), rest.end(), digest.begin());
  return Multihash(static_cast<HashCode>(code->value), digest);
}

Result<Multihash> Multihash::parse(std::string_view text) {
  if (text.size() > kMaxMultihashTextLength) {
    return Status::invalid_argument("hash " + quote_text(text) +
                                    ": too long for a multihash (at most " +
                                    std::to_string(kMaxMultihashTextLength) + " characters)");
  }
  auto bytes = multibase::decode(text);
  if (!bytes) return bytes.status().with_context("hash " + quote_text(text));
  auto hash = from_bytes(*bytes);
  if (!hash) return hash.status().with_context("hash " + quote_text(text));
  return hash;
}

std::vector<uint8_t> Multihash::to_bytes() const {
  std::vector<uint8_t> out;
  out.reserve(4 + 1 + kSha3_256DigestSize);
  varint::append(out, static_cast<uint64_t>(code_));
  varint::append(out, kSha3_256DigestSize);
  out.insert(out.end(), digest_.begin(), digest_.end());
  return out;
}

std::string Multihash::to_string(multibase::Base base) const {
  return multibase::encode(base, to_bytes());
}

std::string Multihash::short_string() const {
  std::string s = to_string();
  return s.substr(s.size() - 8);
}

}  // namespace odf_hash
