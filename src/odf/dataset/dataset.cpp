#include "odf_hash/odf/dataset.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include "entry.h"
#include "odf_hash/core/text.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/odf/workspace.h"
#include "odf_hash/remote/open_store.h"

namespace odf_hash::odf {

namespace {

constexpr std::string_view kPendingPrefix = ".pending-";

std::string hash_key(const Multihash& hash) {
  auto bytes = hash.to_bytes();
  return std::string(bytes.begin(), bytes.end());
}

// The files of one spelling (canonical or not), by binary hash; the first in name order.
std::map<std::string, size_t> index_files(const std::vector<DatasetFile>& files, bool canonical) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < files.size(); ++i) {
    if (files[i].canonical == canonical) index.emplace(hash_key(files[i].hash), i);
  }
  return index;
}

std::optional<DatasetFile> find_listed(const std::vector<DatasetFile>& files,
                                       const std::map<std::string, size_t>& index,
                                       const Multihash& hash) {
  auto it = index.find(hash_key(hash));
  if (it == index.end()) return std::nullopt;
  return files[it->second];
}

std::optional<DatasetFile> find_in(bool listed, const char* folder,
                                   const std::vector<DatasetFile>& files,
                                   const std::map<std::string, size_t>& index,
                                   const Multihash& hash) {
  if (!listed) {
    std::string name = hash.to_string();
    return DatasetFile{name, std::string(folder) + "/" + name, hash, true, ObjectKind::kFile, "",
                       false};
  }
  return find_listed(files, index, hash);
}

}  // namespace

Status DatasetDir::list_folder(const std::string& folder, std::vector<DatasetFile>& files,
                               bool* listed) {
  *listed = true;
  auto info = store_->stat(folder);
  if (!info.is_ok()) {
    if (info.status().code() == StatusCode::kNotFound) return Status::ok();
    return info.status();
  }
  if (info->kind != ObjectKind::kDirectory) {
    // Files are then looked up by name, so that each says why it cannot be read.
    *listed = false;
    foreign_.push_back(DatasetEntry{folder, info->kind, info->link_target, false});
    return Status::ok();
  }
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<ObjectEntry> entries, store_->list(folder));
  for (auto& e : entries) {
    if (std::string_view(e.name).starts_with(kPendingPrefix)) continue;
    std::string rel = folder + "/" + e.name;
    ObjectKind kind = e.kind;
    std::string link_target;
    bool broken = false;
    if (kind == ObjectKind::kSymlink) {
      // Listed without following; what it is depends on where it leads (the store's link
      // policy). A link that leads nowhere or loops stays a link: opening it says why.
      auto target = store_->stat(rel);
      if (target.is_ok()) {
        kind = target->kind;
        link_target = std::move(target->link_target);
      } else {
        broken = true;
      }
    }
    // A size listed for an object (not for a link, whose target's size the listing does not
    // give) saves a request per unreferenced file.
    const std::optional<uint64_t> size = e.kind == ObjectKind::kFile ? e.size : std::nullopt;
    auto hash = Multihash::parse(e.name);
    if (!hash.is_ok()) {
      foreign_.push_back(DatasetEntry{std::move(rel), kind, std::move(link_target), broken, size});
      continue;
    }
    const bool canonical = e.name == hash->to_string();
    files.push_back(DatasetFile{std::move(e.name), std::move(rel), *hash, canonical, kind,
                                std::move(link_target), broken, size});
  }
  return Status::ok();
}

namespace {

// The data file and checkpoint a block adds (StoreOptions::block_objects: what a Smart
// Transfer Protocol store asks the node a download of).
std::vector<BlockObjectRef> block_objects_of(const std::vector<uint8_t>& bytes) {
  std::vector<BlockObjectRef> out;
  Result<MetadataBlock> b = parse_block(bytes);
  if (!b.is_ok()) return out;
  if (b->new_data)
    out.push_back({false, b->new_data->physical_hash.to_string(), b->new_data->size});
  if (b->new_checkpoint) {
    out.push_back({true, b->new_checkpoint->physical_hash.to_string(), b->new_checkpoint->size});
  }
  return out;
}

}  // namespace

Result<std::shared_ptr<ObjectStore>> open_dataset_store(const std::string& url_or_path,
                                                        const StoreOptions& options) {
  StoreOptions with_blocks = options;
  if (!with_blocks.block_objects) with_blocks.block_objects = block_objects_of;
  auto store = open_store(url_or_path, with_blocks);
  if (!store.is_ok() && store.status().code() == StatusCode::kNotFound &&
      !is_store_url(url_or_path)) {
    return Status::not_found(url_or_path + ": no such dataset directory");
  }
  return store;
}

Result<DatasetDir> DatasetDir::open(const std::string& url_or_path, const StoreOptions& options,
                                    bool list_folders) {
  ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectStore> store,
                            open_dataset_store(url_or_path, options));
  return open(std::shared_ptr<const ObjectStore>(std::move(store)), list_folders);
}

namespace {

constexpr std::string_view kHeadKey = "refs/head";
// refs/head holds about 70 characters; the chain walk reads at most 4 KiB of it.
constexpr uint64_t kMaxKeptHeadBytes = 4096;

// A store that cannot list, with the refs/head that DatasetDir::open read to probe it: that
// key is served from those bytes, so a verification over HTTP asks for it once (the probe
// and the chain walk see the same head); every other request goes to the store.
class ProbedHeadStore final : public ObjectStore {
 public:
  ProbedHeadStore(std::shared_ptr<const ObjectStore> store, ObjectInfo info, std::string name,
                  std::vector<uint8_t> bytes)
      : store_(std::move(store)),
        info_(std::move(info)),
        name_(std::move(name)),
        bytes_(std::make_shared<const std::vector<uint8_t>>(std::move(bytes))) {
    info_.size = bytes_->size();
  }
  std::string location(std::string_view key) const override { return store_->location(key); }
  bool can_list() const noexcept override { return store_->can_list(); }
  Result<std::vector<ObjectEntry>> list(std::string_view prefix) const override {
    return store_->list(prefix);
  }
  Result<ObjectInfo> stat(std::string_view key) const override {
    if (key == kHeadKey) return info_;
    return store_->stat(key);
  }
  Result<OpenedObject> open(std::string_view key, const OpenOptions& options) const override {
    if (key != kHeadKey) return store_->open(key, options);
    OpenedObject out;
    out.info = info_;
    if (info_.size <= options.max_size)
      out.reader = std::make_unique<detail::BytesReader>(name_, bytes_);
    return out;
  }

 private:
  std::shared_ptr<const ObjectStore> store_;
  ObjectInfo info_;
  std::string name_;
  std::shared_ptr<const std::vector<uint8_t>> bytes_;
};

}  // namespace

Result<DatasetDir> DatasetDir::open(std::shared_ptr<const ObjectStore> store, bool list_folders) {
  if (store == nullptr) return Status::invalid_argument("DatasetDir::open: null store");
  DatasetDir dir;
  dir.store_ = std::move(store);
  dir.path_ = dir.store_->location("");
  dir.listed_ = dir.store_->can_list();
  if (!dir.listed_) {
    // The first request to a store that cannot list: one that fails for any other reason
    // than a missing object means the dataset cannot be reached (an error, not a problem).
    // A GET, as the chain walk's (a HEAD may be refused where a GET is served). What it
    // read is kept for the chain walk, which starts from the same refs/head.
    OpenOptions small;
    small.max_size = kMaxKeptHeadBytes;
    auto head = dir.store_->open(kHeadKey, small);
    if (!head.is_ok() && head.status().code() != StatusCode::kNotFound) {
      return head.status().with_context("cannot reach the dataset");
    }
    // Nothing at refs/head: a store that cannot list shows a dataset only through it, so
    // this is no dataset (a mistyped URL, as a mistyped folder is), not a corrupt one.
    if (!head.is_ok()) {
      return Status::not_found("no ODF dataset at " + redact_url(dir.path_) +
                               ": it has no refs/head (" + head.status().message() +
                               "); check the location");
    }
    if (head.is_ok() && head->info.kind == ObjectKind::kFile && head->reader) {
      auto bytes = read_all(*head->reader);
      if (bytes.is_ok()) {
        dir.store_ = std::make_shared<ProbedHeadStore>(dir.store_, head->info, head->reader->name(),
                                                       std::move(*bytes));
      }
    }
  }
  if (dir.listed_) {
    // A folder without refs/ nor blocks/ is no dataset (a workspace, a dataset's blocks/,
    // anything else): an error saying what it looks like, not a head-missing problem.
    ODF_HASH_ASSIGN_OR_RETURN(bool dataset, is_dataset_root(*dir.store_));
    if (!dataset) return not_a_dataset_status(*dir.store_, redact_url(dir.path_));
    dir.listed_ = list_folders;
  }
  if (dir.listed_) {
    ODF_HASH_RETURN_IF_ERROR(dir.list_folder("blocks", dir.blocks_, &dir.blocks_listed_));
    ODF_HASH_RETURN_IF_ERROR(dir.list_folder("data", dir.data_, &dir.data_listed_));
    ODF_HASH_RETURN_IF_ERROR(
        dir.list_folder("checkpoints", dir.checkpoints_, &dir.checkpoints_listed_));
  }
  std::sort(dir.foreign_.begin(), dir.foreign_.end(),
            [](const DatasetEntry& a, const DatasetEntry& b) { return a.rel_path < b.rel_path; });
  dir.block_index_ = index_files(dir.blocks_, true);
  dir.data_index_ = index_files(dir.data_, true);
  dir.checkpoint_index_ = index_files(dir.checkpoints_, true);
  dir.block_misnamed_ = index_files(dir.blocks_, false);
  dir.data_misnamed_ = index_files(dir.data_, false);
  dir.checkpoint_misnamed_ = index_files(dir.checkpoints_, false);
  return dir;
}

Result<Multihash> DatasetDir::read_head() const {
  detail::HeadRead head = detail::read_head(*this);
  if (head.hash) return *head.hash;
  switch (head.problem) {
    case ProblemKind::kHeadMissing: return Status::not_found(head.message);
    case ProblemKind::kHeadInvalid: return Status::parse_error(head.message);
    default: return Status::io_error(head.message);
  }
}

std::optional<DatasetFile> DatasetDir::find_block(const Multihash& hash) const {
  return find_in(blocks_listed_, "blocks", blocks_, block_index_, hash);
}
std::optional<DatasetFile> DatasetDir::find_data(const Multihash& hash) const {
  return find_in(data_listed_, "data", data_, data_index_, hash);
}
std::optional<DatasetFile> DatasetDir::find_checkpoint(const Multihash& hash) const {
  return find_in(checkpoints_listed_, "checkpoints", checkpoints_, checkpoint_index_, hash);
}

std::optional<DatasetFile> DatasetDir::misnamed_block(const Multihash& hash) const {
  return find_listed(blocks_, block_misnamed_, hash);
}
std::optional<DatasetFile> DatasetDir::misnamed_data(const Multihash& hash) const {
  return find_listed(data_, data_misnamed_, hash);
}
std::optional<DatasetFile> DatasetDir::misnamed_checkpoint(const Multihash& hash) const {
  return find_listed(checkpoints_, checkpoint_misnamed_, hash);
}

}  // namespace odf_hash::odf
