// Internal to remote: ipfs://CID/path and ipns://NAME/path URLs, checked before anything is
// requested.
//
// The path's components are percent-decoded once, as a gateway decodes them; a component that
// is then "." or ".." is refused (a gateway resolves dot segments before "/ipfs/": "ipfs://cid/
// ../../x" would read another path of the gateway than the CID's content), and so is one
// holding '/' (from "%2F") or NUL, or a '%' not followed by two hex digits. Empty components
// ("a//b", a trailing '/') are dropped. A URL holding '?' or '#' is refused (the gateway would
// read them as a query or fragment). An ipfs:// name must be a CID (cid.h: parse_cid); an
// ipns:// name (a key's CID or a DNSLink domain) letters, digits, '-', '.' and '_'.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/status.h"

namespace odf_hash::remote::ipfs {

struct IpfsUrl {
  bool ipns = false;                    // ipns://
  std::string name;                     // the CID or IPNS name, as written
  std::vector<std::string> components;  // the path, decoded
};

// `url` starts with "ipfs://" or "ipns://" (any case). kInvalidArgument naming what is wrong.
Result<IpfsUrl> parse_ipfs_url(std::string_view url);

// The path of `url` on a path gateway: "/ipfs/NAME/a/b" with each component percent-encoded
// (what is not a letter, a digit or one of "-._~").
std::string gateway_path(const IpfsUrl& url);

}  // namespace odf_hash::remote::ipfs
