#include "odf_hash/core/multihash_hint.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "odf_hash/core/multibase.h"
#include "odf_hash/core/multihash.h"

namespace odf_hash {
namespace {

bool is_hex(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
  });
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The shortest and longest spelling of a 32-byte-digest multihash of `code` in `base`
// (big-number bases vary with the value).
struct LengthRange {
  size_t min, max;
};
LengthRange text_lengths(HashCode code, multibase::Base base) {
  Digest256 low{}, high{};
  high.fill(0xff);
  size_t a = Multihash(code, low).to_string(base).size();
  size_t b = Multihash(code, high).to_string(base).size();
  return {std::min(a, b), std::max(a, b)};
}

std::optional<multibase::Base> base_of(char prefix) {
  for (multibase::Base b : multibase::all_bases()) {
    if (static_cast<char>(b) == prefix) return b;
  }
  return std::nullopt;
}

std::string count(size_t n) {
  return std::to_string(n) + (n == 1 ? " character" : " characters");
}

// "a sha3-256 multihash", "an arrow0-sha3-256 multihash".
std::string a_multihash(HashCode code) {
  const char* name = hash_code_name(static_cast<uint64_t>(code));
  return std::string(name[0] == 'a' ? "an " : "a ") + name + " multihash";
}

}  // namespace

std::string suggest_multihash_fix(std::string_view text) {
  // Pasted with its surroundings: quotes, spaces, a newline.
  std::string_view trimmed = text;
  const std::string_view kStrip = " \t\r\n\"'`";
  while (!trimmed.empty() && kStrip.find(trimmed.front()) != std::string_view::npos) {
    trimmed.remove_prefix(1);
  }
  while (!trimmed.empty() && kStrip.find(trimmed.back()) != std::string_view::npos) {
    trimmed.remove_suffix(1);
  }
  if (trimmed.size() != text.size() && !trimmed.empty() && Multihash::parse(trimmed).is_ok()) {
    return "remove the spaces or quotes around it: '" + std::string(trimmed) + "'";
  }
  text = trimmed;
  if (text.empty()) return "the hash is empty";

  // sha3sum / openssl / rhash print the bare digest; ODF records the multihash.
  if (text.size() == 64 && is_hex(text)) {
    const std::string hex = lower(text);
    return "this is a bare SHA3-256 digest (64 hex digits), not a multihash; as a physical "
           "hash it is f1620" +
           hex + " (as a logical hash, f9680c0012" + hex + ")";
  }
  // The hex form without its multibase prefix 'f'.
  if (is_hex(text)) {
    const std::string hex = lower(text);
    if ((hex.size() == 68 && hex.starts_with("1620")) ||
        (hex.size() == 74 && hex.starts_with("9680c00120"))) {
      return "the multibase prefix is missing: f" + hex;
    }
  }

  auto base = base_of(text.front());
  if (!base) return {};
  // Hex is the ODF form: its first digits say which hash was meant.
  std::optional<HashCode> meant;
  if (*base == multibase::Base::kBase16 || *base == multibase::Base::kBase16Upper) {
    const std::string hex = lower(text.substr(1));
    if (hex.starts_with("1620")) meant = HashCode::kSha3_256;
    if (hex.starts_with("9680c00120")) meant = HashCode::kArrow0Sha3_256;
  }
  std::string advice;
  for (HashCode code : {HashCode::kSha3_256, HashCode::kArrow0Sha3_256}) {
    if (meant && *meant != code) continue;
    const LengthRange r = text_lengths(code, *base);
    const size_t n = text.size();
    if (n >= r.min && n <= r.max) continue;
    std::string expected = r.min == r.max ? std::to_string(r.min)
                                          : std::to_string(r.min) + " to " + std::to_string(r.max);
    std::string what;
    if (n + 1 == r.min) {
      what = "one character is missing";
    } else if (n == r.max + 1) {
      what = "one character too many";
    } else {
      continue;
    }
    if (!advice.empty()) advice += "; or ";
    advice += what + " (" + a_multihash(code) + " in " + multibase::base_name(*base) + " has " +
              expected + " characters, this has " + std::to_string(n) + ")";
  }
  if (advice.empty() && meant) {
    const LengthRange r = text_lengths(*meant, *base);
    if (text.size() != r.min) {
      advice = a_multihash(*meant) + " in " + multibase::base_name(*base) + " has " + count(r.min) +
               ", this has " + std::to_string(text.size());
    }
  }
  return advice;
}

}  // namespace odf_hash
