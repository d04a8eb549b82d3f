// Trusted keys: the did:keys whose signatures on a query answer you accept (verify_query.h).
// A valid signature only says which key signed; whether that key speaks for a node you
// trust is yours to say, with --trust DID or a trust file.
//
// A trust file holds one key per line, kept like a pin file (verify_pins.h):
//   # comment
//   did:key:z6Mko2nqhQ9wYSTS5Giab2j1aHzGnxHimqwmFeEVY8aNsVnN  kamu node of the data team
//   did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK
// the DID (did_key.h: an Ed25519 did:key), then optionally spaces and a name to the end of
// the line (spaces around it dropped). Blank lines and lines starting with '#' are ignored.
// Read strictly: a line that is not a DID, a DID of another key type, a name holding a
// control character (a tab, a carriage return: CRLF line ends are refused) or bytes that are
// not UTF-8, a key listed twice: each is an error naming the line, and the file is taken
// whole or not at all. Read bounded (text_file.h): at most kMaxTrustFileBytes, a regular file
// or a pipe (a device such as /dev/zero is refused before it is read).
//
// Thread safety: a TrustedKeys is a plain value; read_trust_file is reentrant.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/query/did_key.h"

namespace odf_hash::query {

// The most bytes of a trust file read (about 10,000 keys).
inline constexpr uint64_t kMaxTrustFileBytes = uint64_t{1} << 20;

struct TrustedKey {
  DidKey key;
  std::string did;     // "did:key:z6Mk…"
  std::string name;    // from the trust file; may be empty
  std::string source;  // where it was trusted: "--trust", "<path>:<line>"
};

class TrustedKeys {
 public:
  // The keys of a trust file's text. Errors (kInvalidArgument, kUnsupported for another key
  // type): "<where>:N: <why>" for the first bad line ("line N: <why>" when `where` is empty).
  static Result<TrustedKeys> parse(std::string_view text, std::string_view where = "");

  // Trusts `did` (kInvalidArgument / kUnsupported when it is no Ed25519 did:key). A key
  // already trusted keeps its entry (and name).
  Status add(std::string_view did, std::string_view source);
  // Adds every key of `other` not trusted yet.
  void merge(const TrustedKeys& other);

  // The entry of `key`, or nullptr when it is not trusted.
  const TrustedKey* find(const DidKey& key) const;

  const std::vector<TrustedKey>& keys() const noexcept { return keys_; }
  bool empty() const noexcept { return keys_.empty(); }

 private:
  std::vector<TrustedKey> keys_;
};

// The trust file at `path` (errors name the path, and the line).
Result<TrustedKeys> read_trust_file(const std::string& path);

}  // namespace odf_hash::query
