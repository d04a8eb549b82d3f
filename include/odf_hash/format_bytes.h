// Byte counts as people write them. format_bytes: "512 B", "12.3 KiB", "4.0 MiB" (binary
// units, one decimal), what the CLI's progress lines and verify's verdict ("3 of 8 files, 1.2
// MiB of 9.0 GiB read") show. parse_byte_size: the sizes users give in environment variables
// (ODF_HASH_HTTP_SPOOL_LIMIT, ODF_HASH_MAX_READER_BUFFER).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "odf_hash/status.h"

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

}  // namespace odf_hash
