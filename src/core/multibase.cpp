#include "odf_hash/core/multibase.h"

#include <array>
#include <cstdio>
#include <optional>

namespace odf_hash::multibase {
namespace {

constexpr std::array kAllBases = {
    Base::kBase2,
    Base::kBase8,
    Base::kBase10,
    Base::kBase16,
    Base::kBase16Upper,
    Base::kBase32,
    Base::kBase32Upper,
    Base::kBase32Pad,
    Base::kBase32PadUpper,
    Base::kBase32Hex,
    Base::kBase32HexUpper,
    Base::kBase32HexPad,
    Base::kBase32HexPadUpper,
    Base::kBase36,
    Base::kBase36Upper,
    Base::kBase58Btc,
    Base::kBase64,
    Base::kBase64Pad,
    Base::kBase64Url,
    Base::kBase64UrlPad,
};

// How a base turns bytes into digits.
//  - kBits: RFC 4648 style; each digit carries `bits` bits, MSB first, the last digit padded
//    with zero bits, optionally followed by '=' up to a whole group.
//  - kBigNumber: the bytes after the leading zero bytes are one big-endian integer written in
//    radix `radix`; each leading zero byte becomes one leading zero digit.
enum class Kind { kBits, kBigNumber };

struct Spec {
  Base base;
  const char* name;
  Kind kind;
  unsigned bits;  // kBits: bits per digit
  unsigned radix;
  const char* alphabet;   // as written by encode()
  bool case_insensitive;  // decode accepts the other case as well
  bool padded;            // kBits: '=' padding to a whole group
};

constexpr char kLowerHex[] = "0123456789abcdef";
constexpr char kUpperHex[] = "0123456789ABCDEF";
constexpr char kLower32[] = "abcdefghijklmnopqrstuvwxyz234567";
constexpr char kUpper32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
constexpr char kLower32Hex[] = "0123456789abcdefghijklmnopqrstuv";
constexpr char kUpper32Hex[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
constexpr char kLower36[] = "0123456789abcdefghijklmnopqrstuvwxyz";
constexpr char kUpper36[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
constexpr char k58Btc[] = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
constexpr char k64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char k64Url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

constexpr Spec kSpecs[] = {
    {Base::kBase2, "base2", Kind::kBits, 1, 2, "01", false, false},
    {Base::kBase8, "base8", Kind::kBits, 3, 8, "01234567", false, false},
    {Base::kBase10, "base10", Kind::kBigNumber, 0, 10, "0123456789", false, false},
    {Base::kBase16, "base16", Kind::kBits, 4, 16, kLowerHex, true, false},
    {Base::kBase16Upper, "base16upper", Kind::kBits, 4, 16, kUpperHex, true, false},
    {Base::kBase32, "base32", Kind::kBits, 5, 32, kLower32, true, false},
    {Base::kBase32Upper, "base32upper", Kind::kBits, 5, 32, kUpper32, true, false},
    {Base::kBase32Pad, "base32pad", Kind::kBits, 5, 32, kLower32, true, true},
    {Base::kBase32PadUpper, "base32padupper", Kind::kBits, 5, 32, kUpper32, true, true},
    {Base::kBase32Hex, "base32hex", Kind::kBits, 5, 32, kLower32Hex, true, false},
    {Base::kBase32HexUpper, "base32hexupper", Kind::kBits, 5, 32, kUpper32Hex, true, false},
    {Base::kBase32HexPad, "base32hexpad", Kind::kBits, 5, 32, kLower32Hex, true, true},
    {Base::kBase32HexPadUpper, "base32hexpadupper", Kind::kBits, 5, 32, kUpper32Hex, true, true},
    {Base::kBase36, "base36", Kind::kBigNumber, 0, 36, kLower36, true, false},
    {Base::kBase36Upper, "base36upper", Kind::kBigNumber, 0, 36, kUpper36, true, false},
    {Base::kBase58Btc, "base58btc", Kind::kBigNumber, 0, 58, k58Btc, false, false},
    {Base::kBase64, "base64", Kind::kBits, 6, 64, k64, false, false},
    {Base::kBase64Pad, "base64pad", Kind::kBits, 6, 64, k64, false, true},
    {Base::kBase64Url, "base64url", Kind::kBits, 6, 64, k64Url, false, false},
    {Base::kBase64UrlPad, "base64urlpad", Kind::kBits, 6, 64, k64Url, false, true},
};

const Spec* find_spec(char prefix) {
  for (const Spec& s : kSpecs) {
    if (static_cast<char>(s.base) == prefix) return &s;
  }
  return nullptr;
}

// Multibase encodings that are registered but that odf-hash does not decode.
const char* unsupported_name(std::string_view text) {
  if (text.starts_with("\xF0\x9F\x9A\x80")) return "base256emoji";
  switch (text[0]) {
    case 'h': return "base32z";
    case 'Z': return "base58flickr";
    case 'p': return "proquint";
    case 'R': return "base45";
    default: return nullptr;
  }
}

// Digit value of every byte for one alphabet; -1 when the byte is not a digit.
using DigitTable = std::array<int8_t, 256>;

DigitTable make_table(const Spec& spec) {
  DigitTable t;
  t.fill(-1);
  for (unsigned v = 0; v < spec.radix; ++v) {
    const auto c = static_cast<unsigned char>(spec.alphabet[v]);
    t[c] = static_cast<int8_t>(v);
    if (spec.case_insensitive) {
      if (c >= 'a' && c <= 'z') t[c - 'a' + 'A'] = static_cast<int8_t>(v);
      if (c >= 'A' && c <= 'Z') t[c - 'A' + 'a'] = static_cast<int8_t>(v);
    }
  }
  return t;
}

const DigitTable& table_for(const Spec& spec) {
  static const auto tables = [] {
    std::array<DigitTable, std::size(kSpecs)> all;
    for (size_t i = 0; i < std::size(kSpecs); ++i) all[i] = make_table(kSpecs[i]);
    return all;
  }();
  return tables[static_cast<size_t>(&spec - kSpecs)];
}

// "'x'" for printable ASCII, "byte 0xNN" otherwise.
std::string describe_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  char buf[16];
  if (u >= 0x20 && u < 0x7f) {
    std::snprintf(buf, sizeof buf, "'%c'", c);
  } else {
    std::snprintf(buf, sizeof buf, "byte 0x%02x", u);
  }
  return buf;
}

Status bad_digit(const Spec& spec, std::string_view text, size_t index) {
  std::string msg = std::string("multibase ") + spec.name + ": " + describe_char(text[index]) +
                    " at index " + std::to_string(index) + " is not a " + spec.name + " digit";
  if (text[index] == '=' && spec.kind == Kind::kBits) {
    msg += spec.padded ? " (padding may only end the string)" : " (this encoding takes no padding)";
  }
  return Status::invalid_argument(std::move(msg));
}

Status error(const Spec& spec, const std::string& what) {
  return Status::invalid_argument(std::string("multibase ") + spec.name + ": " + what);
}

// Digits of one RFC 4648 group: 8 for base32 (40 bits), 4 for base64 (24 bits).
unsigned group_digits(unsigned bits) {
  unsigned digits = 1;
  while ((digits * bits) % 8 != 0) ++digits;
  return digits;
}

void encode_bits(const Spec& spec, std::span<const uint8_t> bytes, std::string& out) {
  const unsigned mask = (1u << spec.bits) - 1;
  uint32_t acc = 0;
  unsigned nbits = 0;
  size_t digits = 0;
  for (uint8_t b : bytes) {
    acc = (acc << 8) | b;
    nbits += 8;
    while (nbits >= spec.bits) {
      nbits -= spec.bits;
      out.push_back(spec.alphabet[(acc >> nbits) & mask]);
      ++digits;
    }
    acc &= (1u << nbits) - 1;
  }
  if (nbits > 0) {
    out.push_back(spec.alphabet[(acc << (spec.bits - nbits)) & mask]);
    ++digits;
  }
  if (spec.padded) {
    const unsigned group = group_digits(spec.bits);
    while (digits % group != 0) {
      out.push_back('=');
      ++digits;
    }
  }
}

Result<std::vector<uint8_t>> decode_bits(const Spec& spec, std::string_view text) {
  const DigitTable& table = table_for(spec);
  std::string_view body = text.substr(1);
  size_t ndigits = body.size();
  if (spec.padded) {
    const unsigned group = group_digits(spec.bits);
    if (body.size() % group != 0) {
      return error(spec, std::to_string(body.size()) + " characters is not a multiple of " +
                             std::to_string(group) + " (padding missing or extra)");
    }
    while (ndigits > 0 && body[ndigits - 1] == '=') --ndigits;
    const size_t pads = body.size() - ndigits;
    const size_t want = (group - ndigits % group) % group;
    if (pads != want) {
      return error(spec, std::to_string(pads) + " padding characters where " +
                             std::to_string(ndigits) + " digits need " + std::to_string(want));
    }
  }
  const size_t nbytes = ndigits * spec.bits / 8;
  // The canonical encoding of nbytes has ceil(8 * nbytes / bits) digits; any other count
  // leaves a digit that carries no whole byte.
  if ((nbytes * 8 + spec.bits - 1) / spec.bits != ndigits) {
    return error(spec, std::to_string(ndigits) + " digits cannot encode a whole number of bytes");
  }
  std::vector<uint8_t> out;
  out.reserve(nbytes);
  uint32_t acc = 0;
  unsigned nbits = 0;
  for (size_t i = 0; i < ndigits; ++i) {
    const int v = table[static_cast<unsigned char>(body[i])];
    if (v < 0) return bad_digit(spec, text, i + 1);
    acc = (acc << spec.bits) | static_cast<uint32_t>(v);
    nbits += spec.bits;
    if (nbits >= 8) {
      nbits -= 8;
      out.push_back(static_cast<uint8_t>(acc >> nbits));
      acc &= (1u << nbits) - 1;
    }
  }
  if (acc != 0) {
    return error(spec, "the last digit " + describe_char(body[ndigits - 1]) + " at index " +
                           std::to_string(ndigits) + " has non-zero trailing bits");
  }
  return out;
}

void encode_big_number(const Spec& spec, std::span<const uint8_t> bytes, std::string& out) {
  size_t zeros = 0;
  while (zeros < bytes.size() && bytes[zeros] == 0) ++zeros;
  // Digits of the integer, least significant first: multiply by 256 and add each byte.
  std::vector<uint8_t> digits;
  digits.reserve((bytes.size() - zeros) * 2 + 1);
  for (size_t i = zeros; i < bytes.size(); ++i) {
    uint32_t carry = bytes[i];
    for (uint8_t& d : digits) {
      carry += static_cast<uint32_t>(d) << 8;
      d = static_cast<uint8_t>(carry % spec.radix);
      carry /= spec.radix;
    }
    while (carry > 0) {
      digits.push_back(static_cast<uint8_t>(carry % spec.radix));
      carry /= spec.radix;
    }
  }
  out.append(zeros, spec.alphabet[0]);
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) out.push_back(spec.alphabet[*it]);
}

Result<std::vector<uint8_t>> decode_big_number(const Spec& spec, std::string_view text) {
  const DigitTable& table = table_for(spec);
  std::string_view body = text.substr(1);
  if (body.size() > kMaxBigNumberDigits) {
    return error(spec, std::to_string(body.size()) + " digits is too long (at most " +
                           std::to_string(kMaxBigNumberDigits) + " are decoded)");
  }
  size_t zeros = 0;
  // Bytes of the integer, least significant first: multiply by radix and add each digit.
  std::vector<uint8_t> bytes;
  bytes.reserve(body.size());
  bool leading = true;
  for (size_t i = 0; i < body.size(); ++i) {
    const int v = table[static_cast<unsigned char>(body[i])];
    if (v < 0) return bad_digit(spec, text, i + 1);
    if (leading && v == 0) {
      ++zeros;
      continue;
    }
    leading = false;
    uint32_t carry = static_cast<uint32_t>(v);
    for (uint8_t& b : bytes) {
      carry += static_cast<uint32_t>(b) * spec.radix;
      b = static_cast<uint8_t>(carry & 0xff);
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push_back(static_cast<uint8_t>(carry & 0xff));
      carry >>= 8;
    }
  }
  std::vector<uint8_t> out(zeros, 0);
  out.insert(out.end(), bytes.rbegin(), bytes.rend());
  return out;
}

}  // namespace

std::span<const Base> all_bases() {
  return kAllBases;
}

const char* base_name(Base base) {
  const Spec* spec = find_spec(static_cast<char>(base));
  return spec != nullptr ? spec->name : "unknown";
}

std::string encode(Base base, std::span<const uint8_t> bytes) {
  const Spec* spec = find_spec(static_cast<char>(base));
  if (spec == nullptr) spec = find_spec(static_cast<char>(Base::kBase16));
  std::string out(1, static_cast<char>(spec->base));
  if (spec->kind == Kind::kBits) {
    out.reserve(1 + (bytes.size() * 8 + spec->bits - 1) / spec->bits + 8);
    encode_bits(*spec, bytes, out);
  } else {
    encode_big_number(*spec, bytes, out);
  }
  return out;
}

Result<std::vector<uint8_t>> decode(std::string_view text) {
  if (text.empty()) return Status::invalid_argument("multibase: empty string (no prefix)");
  const Spec* spec = find_spec(text[0]);
  if (spec == nullptr) {
    if (const char* name = unsupported_name(text)) {
      return Status::unsupported(std::string("multibase: ") + name +
                                 " is not supported by odf-hash");
    }
    return Status::invalid_argument("multibase: unknown prefix " + describe_char(text[0]));
  }
  if (spec->kind == Kind::kBits) return decode_bits(*spec, text);
  return decode_big_number(*spec, text);
}

}  // namespace odf_hash::multibase
