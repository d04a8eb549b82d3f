// Text for people and for messages, shared by every layer and front-end:
//  - byte counts as people write them. format_bytes: "512 B", "12.3 KiB", "4.0 MiB" (binary
//    units, one decimal), what the CLI's progress lines and verify's verdict ("3 of 8 files,
//    1.2 MiB of 9.0 GiB read") show. parse_byte_size: the sizes users give in environment
//    variables (ODF_HASH_HTTP_SPOOL_LIMIT, ODF_HASH_MAX_READER_BUFFER);
//  - URLs shown without their user information (redact_url);
//  - untrusted text (names and bytes from datasets and servers) made safe to print
//    (escape_untrusted, escape_text).
//
// Pure functions over text: no I/O but byte_size_from_env's getenv. Thread safety: reentrant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "odf_hash/core/status.h"

namespace odf_hash {

std::string format_bytes(uint64_t bytes);

// Whole bytes, optionally followed by one 1024-based suffix K, M, G or T (also KiB, MiB,
// GiB, TiB): "500000000", "8G", "256MiB". Anything else (a sign, space, exponent, hex, a
// fraction, lower case, more than 2^64 - 1 bytes) is a kInvalidArgument error whose message
// quotes the text and says the form. An environment variable's value that does not parse is
// an error, never a default taken silently.
Result<uint64_t> parse_byte_size(std::string_view text);

// parse_byte_size of the variable `name` when it is set and not empty, else `fallback`;
// errors name the variable.
Result<uint64_t> byte_size_from_env(const char* name, uint64_t fallback);

// `text` (a URL, a path, or a message quoting URLs) with the user information of every URL
// in it replaced by "***": "https://user:secret@host/ds" -> "https://***@host/ds". Every
// place that shows a location (messages, reports, JSON, tasks) goes through it, so that a
// password typed in a URL never leaves the process that was given it. Text without
// "scheme://user@" is returned unchanged.
std::string redact_url(std::string_view text);

// Untrusted text (a link target, the start of a file) made safe to print: at most
// `max_chars` characters, printable ASCII kept, every other byte as \xHH, '\\' and '"' as
// \\ and \", and "…" appended when cut.
std::string escape_untrusted(std::string_view text, size_t max_chars = 40);

// Text from a dataset (file names, messages quoting them) for a terminal: control
// characters (newlines, escape sequences) become \xHH, so that a name cannot forge report
// lines or drive the terminal. Everything else, UTF-8 included, is kept; URLs are shown
// redacted (redact_url).
std::string escape_text(std::string_view text);

}  // namespace odf_hash
