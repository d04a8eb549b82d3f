// The canonical location of a dataset: one text for every spelling of one place, the key pin
// files (verify_pins.h) find a dataset by.
//
//  - A local path: the real path of the folder (absolute, every symbolic link resolved, no
//    ".", "..", repeated or trailing '/'), so "/abs/ds", "./ds", "ds", "//abs/ds", "ds/" and a
//    link to the folder give the same text. A path that does not exist (yet) gives the real
//    path of its nearest existing ancestor followed by the rest, "." and ".." resolved by
//    text. Relative paths are taken from the current folder.
//  - A URL (is_store_url: s3, http, https, ipfs, ipns): scheme in lower case; the user
//    information removed (it is no part of the place, and never written: redact_url); for
//    http and https the host in lower case and the default port (80, 443) dropped (an S3
//    bucket, an IPFS CID or IPNS name is kept as written: base58 CIDs are case-sensitive);
//    the path with its dot segments resolved (RFC 3986 5.2.4), repeated '/' collapsed,
//    percent-escapes of unreserved characters decoded and the others' hex digits in upper
//    case, and no trailing '/'. A query or fragment is kept as written.
//
// Reads the file system (realpath) for local paths; writes nothing. Thread safety:
// reentrant (the current folder is read once per call: do not chdir meanwhile).
#pragma once

#include <string>
#include <string_view>

namespace odf_hash {

// See above. Never fails: text that is neither an existing path nor a well-formed URL is
// normalised as far as it can be. "" gives "".
std::string canonical_location(std::string_view url_or_path);

}  // namespace odf_hash
