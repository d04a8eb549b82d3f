// The ipfs:// store (ipfs_store.h).
#include "ipfs_store.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "block_source.h"
#include "hamt.h"
#include "odf_hash/core/text.h"
#include "odf_hash/remote/open_store.h"
#include "unixfs_file.h"

namespace odf_hash::remote::ipfs {

namespace {

bool is_directory(const Block& b) {
  return !b.is_raw() &&
         (b.unixfs.type == UnixFsType::kDirectory || b.unixfs.type == UnixFsType::kHamtShard);
}

// A directory's entries: name, CID.
using Entries = std::vector<std::pair<std::string, Cid>>;

// A shard and where it sits in its HAMT: its level and the buckets that lead to it (the top
// bits of the hash of every name below it).
struct ShardAt {
  std::shared_ptr<const Block> block;
  unsigned depth = 0;
  uint64_t prefix = 0;  // the buckets above, bits * depth bits
};

class IpfsStore final : public ObjectStore {
 public:
  IpfsStore(std::shared_ptr<const BlockSource> source, Cid root, std::string root_name,
            std::vector<std::string> prefix)
      : source_(std::move(source)),
        root_(std::move(root)),
        root_name_(std::move(root_name)),
        root_location_(root_name_),
        prefix_(std::move(prefix)) {
    for (const std::string& c : prefix_) root_location_ += "/" + c;
  }

  std::string location(std::string_view key) const override {
    if (key.empty()) return root_location_;
    return root_location_ + "/" + std::string(key);
  }

  bool can_list() const noexcept override { return true; }

  Result<std::vector<ObjectEntry>> list(std::string_view prefix) const override {
    ODF_HASH_ASSIGN_OR_RETURN(const Resolved dir, resolve(prefix));
    if (!dir.block || !is_directory(*dir.block)) {
      return Status::invalid_argument(location(prefix) + ": not a folder");
    }
    ODF_HASH_ASSIGN_OR_RETURN(Entries entries, entries_of(dir.block, location(prefix)));
    std::vector<ObjectEntry> out;
    out.reserve(entries.size());
    for (auto& [name, cid] : entries) {
      ObjectEntry e;
      e.name = name;
      e.kind = ObjectKind::kFile;  // a raw block: its size is its length, which stat fetches
      if (cid.codec != kCodecRaw) {
        const std::string key = join_object_key(prefix, name);
        Resolved r{cid, nullptr};
        if (cid.codec == kCodecDagPb) {
          ODF_HASH_ASSIGN_OR_RETURN(r.block, fetch(cid, location(key)));
        }
        // A file node that is inconsistent stays a file without a size: opening it says why.
        auto info = info_of(r, key);
        if (info.is_ok()) e.kind = info->kind;
        if (info.is_ok() && e.kind == ObjectKind::kFile) e.size = info->size;
      }
      out.push_back(std::move(e));
    }
    return out;
  }

  Result<ObjectInfo> stat(std::string_view key) const override {
    if (!is_valid_object_key(key)) return Status::invalid_argument(location(key) + ": not a key");
    ODF_HASH_ASSIGN_OR_RETURN(const Resolved r, resolve(key));
    return info_of(r, key);
  }

  Result<OpenedObject> open(std::string_view key, const OpenOptions& options) const override {
    if (!is_valid_object_key(key)) return Status::invalid_argument(location(key) + ": not a key");
    ODF_HASH_ASSIGN_OR_RETURN(const Resolved r, resolve(key));
    OpenedObject out;
    ODF_HASH_ASSIGN_OR_RETURN(out.info, info_of(r, key));
    if (out.info.kind == ObjectKind::kFile && out.info.size <= options.max_size) {
      out.reader = open_unixfs_file(source_, r.block, out.info.size, location(key));
    }
    return out;
  }

 private:
  // What a key resolved to: its CID, and its block (null for a codec the store does not read).
  struct Resolved {
    Cid cid;
    std::shared_ptr<const Block> block;
  };

  Result<std::shared_ptr<const Block>> fetch(const Cid& cid, const std::string& where) const {
    auto block = source_->get(cid);
    if (!block.is_ok()) return block.status().with_context(where);
    return std::move(block).value();
  }

  // The URL's path and then `key`, from the root CID down.
  Result<Resolved> resolve(std::string_view key) const {
    std::vector<std::string> parts = prefix_;
    for (size_t at = 0; !key.empty() && at <= key.size();) {
      const size_t end = std::min(key.find('/', at), key.size());
      parts.emplace_back(key.substr(at, end - at));
      at = end + 1;
    }
    Resolved r{root_, nullptr};
    std::string where = root_name_;
    ODF_HASH_ASSIGN_OR_RETURN(r.block, fetch(r.cid, where));
    for (const std::string& part : parts) {
      if (!is_directory(*r.block)) {
        return Status::not_found(
            where + "/" + part + ": not found: " + where + " is a " +
            (r.block->is_raw() ? "file" : unixfs_type_name(r.block->unixfs.type)) +
            ", not a folder");
      }
      ODF_HASH_ASSIGN_OR_RETURN(std::optional<Cid> child, find_entry(r.block, part, where));
      if (!child) {
        return Status::not_found(where + "/" + escape_untrusted(part, 160) +
                                 ": not found (the folder has no such entry)");
      }
      where += "/" + part;
      r.cid = std::move(*child);
      r.block = nullptr;
      if (r.cid.codec != kCodecRaw && r.cid.codec != kCodecDagPb && &part == &parts.back()) break;
      ODF_HASH_ASSIGN_OR_RETURN(r.block, fetch(r.cid, where));
    }
    return r;
  }

  Result<ObjectInfo> info_of(const Resolved& r, std::string_view key) const {
    ObjectInfo info;
    if (!r.block) {
      info.kind = ObjectKind::kOther;
      return info;
    }
    const Block& b = *r.block;
    if (b.is_raw()) {
      info.size = b.raw.size();
      return info;
    }
    switch (b.unixfs.type) {
      case UnixFsType::kRaw:
      case UnixFsType::kFile: {
        auto size = file_block_size(b);
        if (!size.is_ok()) return size.status().with_context(location(key));
        info.size = *size;
        return info;
      }
      case UnixFsType::kDirectory:
      case UnixFsType::kHamtShard: info.kind = ObjectKind::kDirectory; return info;
      case UnixFsType::kSymlink:
        info.kind = ObjectKind::kSymlink;
        info.link_key = std::string(key);
        info.link_target.assign(b.unixfs.data.begin(), b.unixfs.data.end());
        return info;
      case UnixFsType::kMetadata: info.kind = ObjectKind::kOther; return info;
    }
    info.kind = ObjectKind::kOther;
    return info;
  }

  // The entry `name` of a directory block, or nullopt.
  Result<std::optional<Cid>> find_entry(const std::shared_ptr<const Block>& dir,
                                        const std::string& name, const std::string& where) const {
    if (dir->unixfs.type == UnixFsType::kDirectory) {
      // The first of duplicate names, as the UnixFS spec says a reader resolves them.
      for (const PbLink& link : dir->node.links) {
        if (link.name == name) return std::optional<Cid>(link.hash);
      }
      return std::optional<Cid>();
    }
    const auto bytes = std::span(reinterpret_cast<const uint8_t*>(name.data()), name.size());
    const uint64_t hash = murmur3_x64_64(bytes);
    ShardAt at{dir, 0, 0};
    ODF_HASH_ASSIGN_OR_RETURN(const HamtLayout layout, shard_layout(*dir, where));
    for (;;) {
      const unsigned bucket = hamt_bucket(hash, layout, at.depth);
      const PbLink* found = nullptr;
      std::string_view entry;
      for (const PbLink& link : at.block->node.links) {
        auto slot = hamt_slot(link.name, layout);  // checked: well-formed
        if (slot.is_ok() && slot->bucket == bucket) {
          found = &link;
          entry = slot->entry;
          break;
        }
      }
      if (found == nullptr) return std::optional<Cid>();
      if (!entry.empty()) return entry == name ? std::optional<Cid>(found->hash) : std::nullopt;
      ODF_HASH_ASSIGN_OR_RETURN(at, sub_shard(at, *found, bucket, layout, where));
    }
  }

  // The layout of a HAMT's root shard, checked.
  Result<HamtLayout> shard_layout(const Block& shard, const std::string& where) const {
    auto layout = hamt_layout(shard.unixfs);
    if (!layout.is_ok()) return layout.status().with_context(where);
    Status checked = check_hamt_shard(shard.node, shard.unixfs, *layout);
    if (!checked.is_ok()) return checked.with_context(where + " (" + shard.cid.to_string() + ")");
    return layout;
  }

  // The sub-shard `link` (in bucket `bucket` of `at`), checked to be a shard of the same HAMT
  // that is not empty and not deeper than the hash.
  Result<ShardAt> sub_shard(const ShardAt& at, const PbLink& link, unsigned bucket,
                            const HamtLayout& layout, const std::string& where) const {
    const std::string what = where + " (HAMT shard " + link.hash.to_string() + ")";
    if (at.depth + 1 >= layout.max_depth) {
      return Status::parse_error(what + ": the HAMT goes deeper than its names' 64-bit hashes");
    }
    ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<const Block> child, fetch(link.hash, where));
    if (child->is_raw() || child->unixfs.type != UnixFsType::kHamtShard) {
      return Status::parse_error(what + ": a sub-shard link to a block that is no HAMT shard");
    }
    ODF_HASH_ASSIGN_OR_RETURN(const HamtLayout sub, shard_layout(*child, where));
    if (sub.fanout != layout.fanout) {
      return Status::parse_error(what + ": a sub-shard of another fanout than its HAMT's");
    }
    if (child->node.links.empty()) return Status::parse_error(what + ": an empty sub-shard");
    return ShardAt{std::move(child), at.depth + 1, (at.prefix << layout.bits) | bucket};
  }

  // Every entry of a directory (a HAMT walked whole), names checked, sorted by name.
  Result<Entries> entries_of(const std::shared_ptr<const Block>& dir,
                             const std::string& where) const {
    Entries out;
    if (dir->unixfs.type == UnixFsType::kDirectory) {
      for (const PbLink& link : dir->node.links) out.emplace_back(link.name, link.hash);
    } else {
      ODF_HASH_ASSIGN_OR_RETURN(const HamtLayout layout, shard_layout(*dir, where));
      size_t shards = 1;
      ODF_HASH_RETURN_IF_ERROR(walk_shard(ShardAt{dir, 0, 0}, layout, where, &shards, out));
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 0; i < out.size(); ++i) {
      const std::string& name = out[i].first;
      if (name.empty() || name == "." || name == ".." ||
          name.find_first_of(std::string_view("/\0", 2)) != std::string::npos) {
        return Status::parse_error(where + ": the folder holds an entry named \"" +
                                   escape_untrusted(name, 160) + "\", which no key can name");
      }
      if (i > 0 && out[i - 1].first == name) {
        return Status::parse_error(where + ": the folder holds two entries named \"" +
                                   escape_untrusted(name, 160) + "\"");
      }
    }
    return out;
  }

  Status walk_shard(const ShardAt& at, const HamtLayout& layout, const std::string& where,
                    size_t* shards, Entries& out) const {
    for (const PbLink& link : at.block->node.links) {
      ODF_HASH_ASSIGN_OR_RETURN(const HamtSlot slot, hamt_slot(link.name, layout));
      if (slot.entry.empty()) {
        if (++*shards > kMaxHamtShards) {
          return Status::parse_error(where + ": a HAMT of more than " +
                                     std::to_string(kMaxHamtShards) + " shards");
        }
        ODF_HASH_ASSIGN_OR_RETURN(const ShardAt sub,
                                  sub_shard(at, link, slot.bucket, layout, where));
        ODF_HASH_RETURN_IF_ERROR(walk_shard(sub, layout, where, shards, out));
        continue;
      }
      // The buckets that led here must be those of the name's hash: a shard cannot list an
      // entry where a lookup would never find it (nor the same entry twice).
      const auto bytes =
          std::span(reinterpret_cast<const uint8_t*>(slot.entry.data()), slot.entry.size());
      const unsigned used = layout.bits * (at.depth + 1);
      const uint64_t expected = (at.prefix << layout.bits) | slot.bucket;
      if ((murmur3_x64_64(bytes) >> (64 - used)) != expected) {
        return Status::parse_error(where + ": the HAMT holds \"" +
                                   escape_untrusted(slot.entry, 160) +
                                   "\" in a bucket its name does not hash to");
      }
      if (out.size() == kMaxListEntries) {
        return Status::parse_error(where + ": a folder of more than " +
                                   std::to_string(kMaxListEntries) + " entries");
      }
      out.emplace_back(std::string(slot.entry), link.hash);
    }
    return Status::ok();
  }

  std::shared_ptr<const BlockSource> source_;
  Cid root_;
  std::string root_name_;      // "ipfs://CID", the CID as written
  std::string root_location_;  // "ipfs://CID/path"
  std::vector<std::string> prefix_;
};

}  // namespace

Result<std::shared_ptr<ObjectStore>> open_ipfs_store(const IpfsUrl& url, const std::string& gateway,
                                                     const HttpOptions& options) {
  if (url.ipns) return Status::invalid_argument("open_ipfs_store: an ipns:// URL");
  ODF_HASH_ASSIGN_OR_RETURN(Cid root, parse_cid(url.name));
  if (root.codec != kCodecDagPb && root.codec != kCodecRaw) {
    return Status::unsupported("ipfs://" + url.name + ": a " + codec_name(root.codec) +
                               " CID; odf-hash reads UnixFS folders and files (dag-pb and raw)");
  }
  auto source = std::make_shared<const BlockSource>(gateway, redact_url(gateway), options);
  return std::shared_ptr<ObjectStore>(std::make_shared<IpfsStore>(
      std::move(source), std::move(root), "ipfs://" + url.name, url.components));
}

}  // namespace odf_hash::remote::ipfs
