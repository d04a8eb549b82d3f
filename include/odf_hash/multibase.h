// Multibase: self-describing base encodings (https://github.com/multiformats/multibase).
//
// encode() writes any supported base; ODF writers use Base::kBase16 ('f', lower-case hex).
// decode() accepts every encoding that the multibase spec marks final:
//   'f'/'F' base16 lower/upper, 'b'/'B' base32 lower/upper (RFC 4648, no padding),
//   'c'/'C' base32pad lower/upper, 'v'/'V' base32hex, 't'/'T' base32hexpad,
//   'z' base58btc, 'm' base64 (no padding), 'M' base64pad, 'u' base64url (no padding),
//   'U' base64urlpad, 'k'/'K' base36, '9' base10, '0' base2, '7' base8.
// Decoding is strict: an unknown prefix, a digit outside the alphabet, wrong padding or
// non-zero trailing bits give an error naming the position; never a crash.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/status.h"

namespace odf_hash::multibase {

enum class Base : char {
  kBase2 = '0',
  kBase8 = '7',
  kBase10 = '9',
  kBase16 = 'f',
  kBase16Upper = 'F',
  kBase32 = 'b',
  kBase32Upper = 'B',
  kBase32Pad = 'c',
  kBase32PadUpper = 'C',
  kBase32Hex = 'v',
  kBase32HexUpper = 'V',
  kBase32HexPad = 't',
  kBase32HexPadUpper = 'T',
  kBase36 = 'k',
  kBase36Upper = 'K',
  kBase58Btc = 'z',
  kBase64 = 'm',
  kBase64Pad = 'M',
  kBase64Url = 'u',
  kBase64UrlPad = 'U',
};

// Every Base above, for round-trip tests.
std::span<const Base> all_bases();

// Human name as in the multibase table, e.g. "base58btc".
const char* base_name(Base base);

// Prefix character followed by the encoded bytes.
std::string encode(Base base, std::span<const uint8_t> bytes);

// Decodes a prefixed string.
Result<std::vector<uint8_t>> decode(std::string_view text);

}  // namespace odf_hash::multibase
