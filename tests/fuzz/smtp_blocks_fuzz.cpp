// Fuzzes what a node speaking the Smart Transfer Protocol sends as its blocks
// (src/remote/smtp/block_tar.h): the gzip'd tar of the blocks' files. Any bytes give entries
// or an error, within the bounds: no entry larger than a metadata block may be, no more than
// the bound of tar in all, every entry named. The input is taken as the gzip'd tar itself,
// and gzip'd here as a tar (so that the tar reader sees more than what inflates by chance).
// abort() marks an invariant violation, i.e. a bug in odf-hash.
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "../../src/remote/smtp/block_tar.h"

namespace {

using odf_hash::remote::smtp::kMaxBlockBytes;
using odf_hash::remote::smtp::kMaxBlocksBytes;
using odf_hash::remote::smtp::unpack_blocks;

void check(const std::vector<uint8_t>& gz) {
  auto entries = unpack_blocks(gz, "fuzz");
  if (!entries.is_ok()) return;
  uint64_t total = 0;
  for (const auto& e : *entries) {
    if (e.name.empty() || e.name.size() > 100 || e.bytes.size() > kMaxBlockBytes) std::abort();
    total += e.bytes.size();
  }
  if (total > kMaxBlocksBytes) std::abort();
}

std::vector<uint8_t> gzip(const uint8_t* data, size_t size) {
  z_stream z{};
  deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::vector<uint8_t> out(deflateBound(&z, size) + 64);
  z.next_in = const_cast<Bytef*>(data);
  z.avail_in = static_cast<uInt>(size);
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  check(std::vector<uint8_t>(data, data + size));
  check(gzip(data, size));
  return 0;
}
