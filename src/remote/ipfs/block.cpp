// IPFS blocks decoded (block.h).
#include "block.h"

namespace odf_hash::remote::ipfs {

Status check_codec(const Cid& cid) {
  if (cid.codec == kCodecRaw || cid.codec == kCodecDagPb) return Status::ok();
  return Status::unsupported(cid.to_string() + ": a " + codec_name(cid.codec) +
                             " block; odf-hash reads UnixFS, in dag-pb and raw blocks");
}

Result<Block> decode_block(const Cid& cid, std::vector<uint8_t> bytes) {
  ODF_HASH_RETURN_IF_ERROR(check_codec(cid));
  Block block;
  block.cid = cid;
  block.size = bytes.size();
  if (cid.codec == kCodecRaw) {
    block.raw = std::move(bytes);
    return block;
  }
  const std::string what = "IPFS block " + cid.to_string();
  auto node = decode_dag_pb(bytes);
  if (!node.is_ok()) return node.status().with_context(what);
  block.node = std::move(node).value();
  if (!block.node.data) return Status::parse_error(what + ": a dag-pb node without UnixFS data");
  auto unixfs = decode_unixfs(*block.node.data);
  if (!unixfs.is_ok()) return unixfs.status().with_context(what);
  block.unixfs = std::move(unixfs).value();
  block.node.data.reset();  // decoded: its bytes are in unixfs
  return block;
}

Result<uint64_t> file_block_size(const Block& block) {
  const std::string what = "IPFS block " + block.cid.to_string();
  if (block.is_raw()) return static_cast<uint64_t>(block.raw.size());
  const UnixFsData& fs = block.unixfs;
  if (fs.type != UnixFsType::kFile && fs.type != UnixFsType::kRaw) {
    return Status::parse_error(what + ": a " + unixfs_type_name(fs.type) +
                               " where a file's block was expected");
  }
  if (fs.blocksizes.size() != block.node.links.size()) {
    return Status::parse_error(what + ": a file node of " +
                               std::to_string(block.node.links.size()) + " links and " +
                               std::to_string(fs.blocksizes.size()) + " blocksizes");
  }
  uint64_t total = fs.data.size();
  for (size_t i = 0; i < fs.blocksizes.size(); ++i) {
    if (!block.node.links[i].name.empty()) {
      return Status::parse_error(what + ": a file node with a named link (a file has no entries)");
    }
    if (fs.blocksizes[i] > UINT64_MAX - total) {
      return Status::parse_error(what + ": blocksizes over 2^64 bytes in all");
    }
    total += fs.blocksizes[i];
  }
  if (fs.filesize && *fs.filesize != total) {
    return Status::parse_error(what + ": a file node whose filesize " +
                               std::to_string(*fs.filesize) + " is not its " +
                               std::to_string(total) + " bytes of data and blocksizes");
  }
  return total;
}

}  // namespace odf_hash::remote::ipfs
