// Fuzzes what a node speaking the Smart Transfer Protocol sends as its blocks
// (src/remote/smtp/block_tar.h): the gzip'd tar of the blocks' files. Any bytes give entries
// or an error, within the bounds: no entry larger than a metadata block may be, no more than
// the bound of tar in all, every entry named. The input is taken as the gzip'd tar itself,
// and gzip'd here as a tar (so that the tar reader sees more than what inflates by chance).
// abort() marks an invariant violation, i.e. a bug in odf-hash.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "../../src/remote/smtp/block_tar.h"
#include "../support/gzip_bytes.h"

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  check(std::vector<uint8_t>(data, data + size));
  check(gzip_bytes(data, size, 1));
  return 0;
}
