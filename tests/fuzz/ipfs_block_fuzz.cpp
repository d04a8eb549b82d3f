// Fuzzes what an IPFS gateway sends and a dataset's URL names (src/remote/ipfs/): a block that
// hashed to its CID is still content someone else wrote, so each decoder must give a value or
// an error for any bytes. The input is taken as
//   - a binary CID (cid_from_bytes) and as CID text (parse_cid): a CID that parses prints as
//     text that parses back to the same CID;
//   - a dag-pb block (decode_block), then what the store asks of it: a file's size
//     (file_block_size) and, for a HAMT shard, its layout, check_hamt_shard and each link's
//     bucket; a file's size is its Data plus its blocksizes;
//   - UnixFS data alone (decode_unixfs);
//   - an ipfs:// URL's text after the scheme (parse_ipfs_url): a URL accepted holds no
//     component a gateway would read as a dot segment or a separator, and its gateway path
//     starts with /ipfs/.
// abort() marks an invariant violation, i.e. a bug in odf-hash.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../../src/remote/ipfs/block.h"
#include "../../src/remote/ipfs/cid.h"
#include "../../src/remote/ipfs/hamt.h"
#include "../../src/remote/ipfs/ipfs_url.h"

namespace {

using namespace odf_hash::remote::ipfs;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "ipfs_block_fuzz: invariant violated: %s\n", what);
  std::abort();
}

void check_cid(std::span<const uint8_t> bytes, std::string_view text) {
  if (auto cid = cid_from_bytes(bytes); cid.is_ok()) {
    auto again = parse_cid(cid->to_string());
    const bool inline_too_large =
        cid->hash_code == kHashIdentity && cid->digest.size() > kMaxBlockBytes;
    if (!inline_too_large && (!again.is_ok() || !(*again == *cid))) {
      fail("a binary CID does not print as text that parses back to it");
    }
  }
  if (auto cid = parse_cid(text); cid.is_ok() && !cid_from_bytes(cid->bytes).is_ok()) {
    fail("a CID's bytes do not parse");
  }
}

void check_block(std::span<const uint8_t> bytes) {
  static const Cid dag_pb = *cid_from_bytes(std::vector<uint8_t>{1, kCodecDagPb, 0x00, 0});
  auto block = decode_block(dag_pb, std::vector<uint8_t>(bytes.begin(), bytes.end()));
  if (!block.is_ok()) return;
  if (auto size = file_block_size(*block); size.is_ok()) {
    uint64_t sum = block->unixfs.data.size();
    for (uint64_t s : block->unixfs.blocksizes) sum += s;
    if (sum != *size) fail("a file block's size is not its Data plus its blocksizes");
    if (block->unixfs.blocksizes.size() != block->node.links.size()) {
      fail("a file block of more blocksizes than links");
    }
  }
  auto layout = hamt_layout(block->unixfs);
  if (!layout.is_ok()) return;
  const bool well_formed = check_hamt_shard(block->node, block->unixfs, *layout).is_ok();
  for (const PbLink& link : block->node.links) {
    auto slot = hamt_slot(link.name, *layout);
    if (well_formed && (!slot.is_ok() || slot->bucket >= layout->fanout)) {
      fail("a shard checked well-formed has a link outside its buckets");
    }
  }
  (void)hamt_bucket(murmur3_x64_64(bytes), *layout, layout->max_depth - 1);
}

void check_url(std::string_view text) {
  auto url = parse_ipfs_url("ipfs://" + std::string(text));
  if (!url.is_ok()) return;
  for (const std::string& c : url->components) {
    if (c.empty() || c == "." || c == ".." || c.find('/') != std::string::npos) {
      fail("an accepted ipfs:// URL holds an empty, dot or '/' component");
    }
  }
  if (gateway_path(*url).rfind("/ipfs/", 0) != 0) fail("a gateway path outside /ipfs/");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_cid(bytes, text);
  check_block(bytes);
  (void)decode_unixfs(bytes);
  check_url(text);
  return 0;
}
