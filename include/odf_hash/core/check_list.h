// Check lists: the `<hash>  <path>` text files that `odf-hash physical` writes and
// `odf-hash physical --check` reads, in the format of coreutils' sha256sum.
//
// One entry per line:
//   <multihash>  <path>      two spaces: text mode, as odf-hash and sha256sum write it
//   <multihash> *<path>      coreutils' binary-mode marker (the bytes hashed are the same)
// The hash may be in any final multibase (parsed by Multihash::parse). The path is the rest
// of the line, spaces included. The lists of the other SHA3-256 tools are read too:
//   <64 hex digits>  <path>  sha3sum, `rhash --sha3-256`; ' *' as `openssl dgst -sha3-256 -r`
//   SHA3-256 (<path>) = <64 hex digits>    BSD style (`rhash --bsd`, coreutils' --tag)
//   SHA3-256(<path>)= <64 hex digits>      `openssl dgst -sha3-256`
// A bare 64-digit hex digest (either case) is a SHA3-256 digest: the entry holds the
// physical sha3-256 multihash of it, and says it was bare (CheckLineFormat). A BSD line
// naming another algorithm (SHA256, BLAKE3...) is malformed, and the reason says so. A line
// starting with a backslash has an escaped path
// ("\\" is a backslash, "\n" a newline, "\r" a carriage return), as coreutils writes names
// holding those bytes, and "\xHH" any other control character (odf-hash's addition, so that
// a name printed on a terminal cannot drive it; coreutils writes those bytes raw).
// Lines may end in "\n" or "\r\n". Blank lines and lines whose first non-blank character
// is '#' are ignored. Everything else that does not parse is reported, with its 1-based
// line number and why, and does not stop the parse.
//
// Pure text processing: nothing here touches the file system. Thread safety: reentrant.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/multihash.h"
#include "odf_hash/core/status.h"

namespace odf_hash {

// How an entry's hash was written.
enum class CheckLineFormat {
  kMultihash,   // "<multihash>  <path>": odf-hash's own lists
  kBareDigest,  // "<hex>  <path>": sha3sum, rhash, openssl dgst -r
  kBsdTag,      // "SHA3-256 (<path>) = <hex>"
};

struct CheckListEntry {
  Multihash expected;
  std::string path;
  size_t line = 0;  // 1-based
  CheckLineFormat format = CheckLineFormat::kMultihash;
};

struct CheckListProblem {
  size_t line = 0;  // 1-based
  std::string reason;
};

struct CheckList {
  std::vector<CheckListEntry> entries;     // in file order
  std::vector<CheckListProblem> problems;  // malformed lines, in file order
};

// Parses one line (without its "\n"; a trailing "\r" is ignored). Returns nullopt for a
// blank or comment line, an error (kParseError, reason as message) for a malformed one.
// The returned entry's `line` is `line_number`.
Result<std::optional<CheckListEntry>> parse_check_line(std::string_view line, size_t line_number);

// Parses a whole check list. Never fails: malformed lines are collected in `problems`.
CheckList parse_check_list(std::string_view text);

// The line odf-hash writes for one file, without the trailing newline:
// "<hash.to_string()>  <path>", escaped (leading backslash) when the path holds a
// newline, a carriage return, a backslash or another control character. parse_check_line() reads it
// back exactly.
std::string format_check_line(const Multihash& hash, std::string_view path);

// The BSD-style line (coreutils' --tag, `rhash --bsd`) for one file, without the trailing
// newline: "SHA3-256 (<path>) = <64 hex digits>" (`hash` must be a sha3-256 multihash: its
// digest is written), escaped as format_check_line() escapes (the backslash starts the line).
// parse_check_line() reads it back as a kBsdTag entry with the same hash and path.
std::string format_bsd_check_line(const Multihash& hash, std::string_view path);

// A file name as the coreutils checksum tools print it: unchanged, or, when it holds a
// newline, a carriage return or a backslash, those escaped ("\\n", "\\r", "\\\\") behind a
// leading backslash, and other control characters (escape sequences) as "\\xHH".
// format_check_line() puts that leading backslash at the start of the line.
std::string escape_check_list_name(std::string_view path);

}  // namespace odf_hash
