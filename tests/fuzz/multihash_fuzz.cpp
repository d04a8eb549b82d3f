// Fuzzes the hash-string surface: multibase::decode, Multihash::parse, Multihash::from_bytes
// and varint::decode over arbitrary bytes. Bad input must give an error value; when decoding
// succeeds, the result must re-encode to the canonical form of the input (strict decoding
// accepts exactly one string per byte sequence, up to letter case in case-insensitive
// bases). abort() marks an invariant violation, i.e. a bug in odf-hash.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/multibase.h"
#include "odf_hash/core/multihash.h"
#include "odf_hash/core/varint.h"

namespace {

using namespace odf_hash;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "multihash_fuzz: invariant violated: %s\n", what);
  std::abort();
}

bool case_insensitive(char prefix) {
  return std::string_view("fFbBcCvVtTkK").find(prefix) != std::string_view::npos;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

void check_multibase(std::string_view text) {
  auto decoded = multibase::decode(text);
  if (!decoded.is_ok()) {
    if (decoded.status().message().empty()) fail("multibase error without a message");
    return;
  }
  const auto base = static_cast<multibase::Base>(text[0]);
  const std::string again = multibase::encode(base, *decoded);
  if (case_insensitive(text[0])) {
    if (again[0] != text[0] || lower(again.substr(1)) != lower(text.substr(1))) {
      fail("multibase: re-encoding differs from the input beyond letter case");
    }
  } else if (again != text) {
    fail("multibase: re-encoding differs from the input");
  }
  auto twice = multibase::decode(again);
  if (!twice.is_ok() || *twice != *decoded) fail("multibase: re-encoding does not decode back");
}

void check_multihash(const Multihash& mh) {
  auto from_bytes = Multihash::from_bytes(mh.to_bytes());
  if (!from_bytes.is_ok() || !(*from_bytes == mh)) fail("multihash: bytes round trip");
  for (multibase::Base base : multibase::all_bases()) {
    auto parsed = Multihash::parse(mh.to_string(base));
    if (!parsed.is_ok() || !(*parsed == mh)) fail("multihash: string round trip");
  }
  if (mh.short_string().size() != 8) fail("multihash: short string is not 8 characters");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::span<const uint8_t> bytes(data, size);

  check_multibase(text);

  auto parsed = Multihash::parse(text);
  if (parsed.is_ok()) {
    check_multihash(*parsed);
    auto raw = multibase::decode(text);
    if (!raw.is_ok() || *raw != parsed->to_bytes()) fail("multihash: parse disagrees with decode");
  }

  auto from_bytes = Multihash::from_bytes(bytes);
  if (from_bytes.is_ok()) {
    check_multihash(*from_bytes);
    const auto canonical = from_bytes->to_bytes();
    if (canonical.size() != size || !std::equal(canonical.begin(), canonical.end(), data)) {
      fail("multihash: from_bytes accepted a non-canonical binary form");
    }
  }

  auto v = varint::decode(bytes);
  if (v.is_ok()) {
    std::vector<uint8_t> re;
    varint::append(re, v->value);
    if (re.size() != v->length || !std::equal(re.begin(), re.end(), data)) {
      fail("varint: decode accepted a non-minimal encoding");
    }
  }
  return 0;
}
