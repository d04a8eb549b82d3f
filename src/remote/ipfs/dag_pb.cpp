// dag-pb and UnixFS decoding (dag_pb.h).
#include "dag_pb.h"

namespace odf_hash::remote::ipfs {

namespace {

// More links (or blocksizes) than any writer puts in one block: Kubo splits files into nodes
// of at most 174 links and shards a directory once its node passes 256 KiB (a few thousand
// entries). A bound keeps a crafted block of tiny links from costing ~100 bytes of memory per
// byte.
constexpr size_t kMaxLinks = 1u << 16;

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

// Reads protobuf's wire format (protobuf.dev/programming-guides/encoding) from a span.
class Wire {
 public:
  Wire(std::span<const uint8_t> bytes, const char* message) : b_(bytes), message_(message) {}

  bool done() const { return at_ >= b_.size(); }

  Result<uint64_t> varint(const std::string& what) {
    uint64_t value = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
      if (at_ >= b_.size()) return fail(what, "a varint runs past the end");
      const uint8_t byte = b_[at_++];
      if (shift == 63 && byte > 1) return fail(what, "a varint over 64 bits");
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    return fail(what, "a varint of more than 10 bytes");
  }

  // A field's tag: its number and wire type.
  Status tag(uint64_t* field, uint32_t* wire) {
    ODF_HASH_ASSIGN_OR_RETURN(const uint64_t t, varint("a field tag"));
    *field = t >> 3;
    *wire = static_cast<uint32_t>(t & 7);
    if (*field == 0 || *field > 0x1fffffff) return fail("a field tag", "field number 0 or too big");
    return Status::ok();
  }

  Result<std::span<const uint8_t>> bytes(const std::string& what) {
    ODF_HASH_ASSIGN_OR_RETURN(const uint64_t n, varint(what));
    if (n > b_.size() - at_) return fail(what, "its length runs past the end");
    auto out = b_.subspan(at_, static_cast<size_t>(n));
    at_ += static_cast<size_t>(n);
    return out;
  }

  Status skip(uint32_t wire, const std::string& what) {
    size_t n = 0;
    switch (wire) {
      case kVarint: return varint(what).status();
      case kLengthDelimited: return bytes(what).status();
      case kFixed64: n = 8; break;
      case kFixed32: n = 4; break;
      default: return fail(what, "wire type " + std::to_string(wire) + " (groups are not used)");
    }
    if (n > b_.size() - at_) return fail(what, "runs past the end");
    at_ += n;
    return Status::ok();
  }

  Status fail(const std::string& what, const std::string& why) const {
    return Status::parse_error(std::string("malformed ") + message_ + ": " + what + ": " + why +
                               " (at byte " + std::to_string(at_) + " of " +
                               std::to_string(b_.size()) + ")");
  }

 private:
  std::span<const uint8_t> b_;
  size_t at_ = 0;
  const char* message_;
};

Result<PbLink> decode_link(std::span<const uint8_t> bytes) {
  Wire w(bytes, "dag-pb link");
  PbLink link;
  bool has_hash = false;
  uint64_t last = 0;
  while (!w.done()) {
    uint64_t field = 0;
    uint32_t wire = 0;
    ODF_HASH_RETURN_IF_ERROR(w.tag(&field, &wire));
    if (field <= last) return w.fail("field " + std::to_string(field), "repeated or out of order");
    last = field;
    if (field == 1 && wire == kLengthDelimited) {
      ODF_HASH_ASSIGN_OR_RETURN(auto hash, w.bytes("Hash"));
      auto cid = cid_from_bytes(hash);
      if (!cid.is_ok()) return w.fail("Hash", cid.status().message());
      link.hash = std::move(cid).value();
      has_hash = true;
    } else if (field == 2 && wire == kLengthDelimited) {
      ODF_HASH_ASSIGN_OR_RETURN(auto name, w.bytes("Name"));
      link.name.assign(name.begin(), name.end());
    } else if (field == 3 && wire == kVarint) {
      ODF_HASH_ASSIGN_OR_RETURN(link.tsize, w.varint("Tsize"));
    } else {
      return w.fail("field " + std::to_string(field) + " (wire type " + std::to_string(wire) + ")",
                    "not a field of PBLink");
    }
  }
  if (!has_hash) return w.fail("Hash", "missing");
  return link;
}

}  // namespace

Result<PbNode> decode_dag_pb(std::span<const uint8_t> block) {
  Wire w(block, "dag-pb node");
  PbNode node;
  while (!w.done()) {
    uint64_t field = 0;
    uint32_t wire = 0;
    ODF_HASH_RETURN_IF_ERROR(w.tag(&field, &wire));
    if (field == 2 && wire == kLengthDelimited) {
      if (node.links.size() == kMaxLinks) {
        return w.fail("Links", "more than " + std::to_string(kMaxLinks) + " links");
      }
      ODF_HASH_ASSIGN_OR_RETURN(auto bytes, w.bytes("Links"));
      auto link = decode_link(bytes);
      if (!link.is_ok()) {
        return link.status().with_context("link " + std::to_string(node.links.size()));
      }
      node.links.push_back(std::move(link).value());
    } else if (field == 1 && wire == kLengthDelimited) {
      if (node.data) return w.fail("Data", "present twice");
      ODF_HASH_ASSIGN_OR_RETURN(auto bytes, w.bytes("Data"));
      node.data.emplace(bytes.begin(), bytes.end());
    } else {
      return w.fail("field " + std::to_string(field) + " (wire type " + std::to_string(wire) + ")",
                    "not a field of PBNode");
    }
  }
  return node;
}

const char* unixfs_type_name(UnixFsType type) {
  switch (type) {
    case UnixFsType::kRaw: return "raw";
    case UnixFsType::kDirectory: return "directory";
    case UnixFsType::kFile: return "file";
    case UnixFsType::kMetadata: return "metadata";
    case UnixFsType::kSymlink: return "symlink";
    case UnixFsType::kHamtShard: return "HAMT shard";
  }
  return "?";
}

Result<UnixFsData> decode_unixfs(std::span<const uint8_t> bytes) {
  Wire w(bytes, "UnixFS data");
  UnixFsData out;
  bool has_type = false;
  auto add_blocksize = [&](uint64_t v) {
    if (out.blocksizes.size() == kMaxLinks) {
      return w.fail("blocksizes", "more than " + std::to_string(kMaxLinks));
    }
    out.blocksizes.push_back(v);
    return Status::ok();
  };
  while (!w.done()) {
    uint64_t field = 0;
    uint32_t wire = 0;
    ODF_HASH_RETURN_IF_ERROR(w.tag(&field, &wire));
    if (field == 1 && wire == kVarint) {
      ODF_HASH_ASSIGN_OR_RETURN(const uint64_t t, w.varint("Type"));
      if (t > static_cast<uint64_t>(UnixFsType::kHamtShard)) {
        return w.fail("Type", "unknown type " + std::to_string(t));
      }
      out.type = static_cast<UnixFsType>(t);
      has_type = true;
    } else if (field == 2 && wire == kLengthDelimited) {
      ODF_HASH_ASSIGN_OR_RETURN(auto data, w.bytes("Data"));
      out.data.assign(data.begin(), data.end());
    } else if (field == 3 && wire == kVarint) {
      ODF_HASH_ASSIGN_OR_RETURN(out.filesize, w.varint("filesize"));
    } else if (field == 4 && wire == kVarint) {
      ODF_HASH_ASSIGN_OR_RETURN(const uint64_t v, w.varint("blocksizes"));
      ODF_HASH_RETURN_IF_ERROR(add_blocksize(v));
    } else if (field == 4 && wire == kLengthDelimited) {  // packed
      ODF_HASH_ASSIGN_OR_RETURN(auto packed, w.bytes("blocksizes"));
      Wire p(packed, "UnixFS blocksizes");
      while (!p.done()) {
        ODF_HASH_ASSIGN_OR_RETURN(const uint64_t v, p.varint("blocksizes"));
        ODF_HASH_RETURN_IF_ERROR(add_blocksize(v));
      }
    } else if (field == 5 && wire == kVarint) {
      ODF_HASH_ASSIGN_OR_RETURN(out.hash_type, w.varint("hashType"));
    } else if (field == 6 && wire == kVarint) {
      ODF_HASH_ASSIGN_OR_RETURN(out.fanout, w.varint("fanout"));
    } else if (field <= 6) {
      return w.fail("field " + std::to_string(field),
                    "wire type " + std::to_string(wire) + " is not its type");
    } else {
      ODF_HASH_RETURN_IF_ERROR(w.skip(wire, "field " + std::to_string(field)));
    }
  }
  if (!has_type) return w.fail("Type", "missing");
  return out;
}

}  // namespace odf_hash::remote::ipfs
