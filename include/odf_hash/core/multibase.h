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
//
// Details of the strict decoder (see the multibase spec and its tests/*.csv vectors):
//  - base2/base8/base16/base32*/base64* are bit-oriented (RFC 4648, base2 and base8 as in the
//    multibase RFCs): a digit count that no byte count encodes to, missing or extra '='
//    padding, '=' in a base without padding, or non-zero bits in the last digit are errors.
//    base2 must be canonical (8 digits per byte).
//  - base10/base36/base58btc are big-number bases: each leading zero byte is one leading
//    zero digit ('0', '0', '1'). Their decoding is quadratic, so at most kMaxBigNumberDigits
//    digits are decoded; longer strings are an error.
//  - base16, base32* and base36 are case-insensitive, as the spec requires: the prefix picks
//    the case encode() writes; decode() accepts digits of either case.
//  - Errors are StatusCode::kInvalidArgument, or kUnsupported for a registered multibase
//    that odf-hash does not decode (base32z, base58flickr, base45, proquint, base256emoji).
//    Positions in messages are 0-based indexes into the whole string (the prefix is 0).
//
// Thread safety: all functions are pure and may be called from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/status.h"

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

// Longest big-number (base10, base36, base58btc) body that decode() accepts, in digits.
inline constexpr size_t kMaxBigNumberDigits = 4096;

// Every Base above, for round-trip tests.
std::span<const Base> all_bases();

// Human name as in the multibase table, e.g. "base58btc".
const char* base_name(Base base);

// Prefix character followed by the encoded bytes. Big-number bases take time quadratic in
// the length (fine for hashes). A value outside the Base enumerators encodes as base16.
std::string encode(Base base, std::span<const uint8_t> bytes);

// Decodes a prefixed string. "f" (a prefix alone) is the empty byte string.
Result<std::vector<uint8_t>> decode(std::string_view text);

}  // namespace odf_hash::multibase
