#include "smtp/block_tar.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "odf_hash/core/text.h"

namespace odf_hash::remote::smtp {

namespace {

constexpr size_t kTarBlock = 512;

Result<std::vector<uint8_t>> gunzip(const std::vector<uint8_t>& gz, const std::string& shown) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return Status::internal("zlib: cannot start");
  std::vector<uint8_t> out;
  z.next_in = const_cast<Bytef*>(gz.data());
  z.avail_in = static_cast<uInt>(gz.size());
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    const size_t before = out.size();
    if (before >= kMaxBlocksBytes) {
      inflateEnd(&z);
      return Status::invalid_argument(shown + ": the blocks' tar inflates to more than " +
                                      format_bytes(kMaxBlocksBytes) + " (not read further)");
    }
    out.resize(before + std::min<size_t>(1 << 20, kMaxBlocksBytes - before));
    z.next_out = out.data() + before;
    z.avail_out = static_cast<uInt>(out.size() - before);
    rc = inflate(&z, Z_NO_FLUSH);
    out.resize(out.size() - z.avail_out);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&z);
      return Status::parse_error(shown + ": the blocks' gzip is corrupt or cut (" +
                                 std::string(z.msg != nullptr ? z.msg : "zlib error") + ")");
    }
    if (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0) {
      inflateEnd(&z);
      return Status::parse_error(shown + ": the blocks' gzip ends early");
    }
  }
  inflateEnd(&z);
  return out;
}

// An octal field of a tar header (NUL- or space-ended; all NUL reads as 0).
bool octal(const uint8_t* p, size_t n, uint64_t* out) {
  uint64_t v = 0;
  size_t i = 0;
  while (i < n && p[i] == ' ') ++i;
  for (; i < n && p[i] >= '0' && p[i] <= '7'; ++i) {
    if (v > (UINT64_MAX >> 3)) return false;
    v = v * 8 + static_cast<uint64_t>(p[i] - '0');
  }
  for (; i < n; ++i) {
    if (p[i] != 0 && p[i] != ' ') return false;
  }
  *out = v;
  return true;
}

bool checksum_ok(const uint8_t* h) {
  uint64_t recorded = 0;
  if (!octal(h + 148, 8, &recorded)) return false;
  uint64_t sum = 0;
  for (size_t i = 0; i < kTarBlock; ++i) sum += (i >= 148 && i < 156) ? ' ' : h[i];
  return sum == recorded;
}

}  // namespace

Result<std::vector<TarEntry>> unpack_blocks(const std::vector<uint8_t>& gz,
                                            const std::string& shown) {
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<uint8_t> tar, gunzip(gz, shown));
  std::vector<TarEntry> entries;
  size_t at = 0;
  const auto bad = [&](const std::string& why) {
    return Status::parse_error(shown + ": the blocks' tar is malformed at byte " +
                               std::to_string(at) + ": " + why);
  };
  for (;;) {
    if (at + kTarBlock > tar.size()) return bad("it ends without its end-of-archive blocks");
    const uint8_t* h = tar.data() + at;
    if (std::all_of(h, h + kTarBlock, [](uint8_t b) { return b == 0; })) break;
    if (!checksum_ok(h)) return bad("a header's checksum is wrong");
    const char type = static_cast<char>(h[156]);
    if (type != '0' && type != '\0') return bad("an entry that is not a regular file");
    uint64_t size = 0;
    if (!octal(h + 124, 12, &size)) return bad("a size that is not octal");
    if (size > kMaxBlockBytes) {
      return Status::invalid_argument(shown + ": a tar entry of " + std::to_string(size) +
                                      " bytes, larger than any metadata block may be");
    }
    const size_t name_len = strnlen(reinterpret_cast<const char*>(h), 100);
    if (name_len == 0) return bad("an entry without a name");
    at += kTarBlock;
    if (tar.size() - at < size) return bad("an entry cut short");
    TarEntry e;
    e.name.assign(reinterpret_cast<const char*>(h), name_len);
    e.bytes.assign(tar.begin() + static_cast<ptrdiff_t>(at),
                   tar.begin() + static_cast<ptrdiff_t>(at + size));
    entries.push_back(std::move(e));
    at += (size + kTarBlock - 1) / kTarBlock * kTarBlock;
  }
  return entries;
}

}  // namespace odf_hash::remote::smtp
