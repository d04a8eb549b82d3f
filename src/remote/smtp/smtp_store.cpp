// odf+http://host/[account/]dataset: a dataset read by kamu's Smart Transfer Protocol
// (smtp_session.h). Opening the store runs one pull flow: the whole chain's blocks arrive in
// one answer (the raw block bytes, named by their hashes: checked against them by whoever
// walks the chain, as any store's blocks are), refs/head is the newest of them, and the node
// is asked for a download of each data file and checkpoint that the blocks whose bytes hash
// to their names reference (never the transfer plan's word, never a hash the blocks do not
// name: the node answers any hash). Objects are then read by HTTP from those downloads
// (their URLs carry the node's own address); an object the node gave no download for (a
// linked object, which the protocol does not name) from the Simple Transfer Protocol's path
// under the dataset's http:// URL.
#include "smtp/smtp_store.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

#include "http/http_store.h"
#include "odf_hash/core/multihash.h"
#include "odf_hash/core/sha3.h"
#include "odf_hash/core/text.h"
#include "smtp/block_tar.h"
#include "smtp/smtp_session.h"

namespace odf_hash::remote {

namespace {

class MemoryReader final : public ObjectReader {
 public:
  MemoryReader(std::string name, std::shared_ptr<const std::vector<uint8_t>> bytes)
      : name_(std::move(name)), bytes_(std::move(bytes)) {}
  const std::string& name() const noexcept override { return name_; }
  uint64_t size() const noexcept override { return bytes_->size(); }
  Result<size_t> read(uint8_t* out, size_t n) override {
    const size_t got = copy_at(pos_, out, n);
    pos_ += got;
    return got;
  }
  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override {
    return copy_at(offset, out, n);
  }

 private:
  size_t copy_at(uint64_t offset, uint8_t* out, size_t n) const {
    if (offset >= bytes_->size()) return 0;
    const size_t got = static_cast<size_t>(std::min<uint64_t>(n, bytes_->size() - offset));
    std::memcpy(out, bytes_->data() + offset, got);
    return got;
  }
  std::string name_;
  std::shared_ptr<const std::vector<uint8_t>> bytes_;
  uint64_t pos_ = 0;
};

class SmtpStore final : public ObjectStore {
 public:
  SmtpStore(std::string shown, std::shared_ptr<ObjectStore> simple, HttpOptions http)
      : shown_(std::move(shown)), simple_(std::move(simple)), http_(std::move(http)) {}

  std::map<std::string, std::shared_ptr<const std::vector<uint8_t>>> memory;  // key -> bytes
  std::map<std::string, std::string> downloads;                               // key -> URL

  std::string location(std::string_view key) const override {
    return key.empty() ? shown_ : shown_ + "/" + std::string(key);
  }
  bool can_list() const noexcept override { return false; }
  Result<std::vector<ObjectEntry>> list(std::string_view prefix) const override {
    return Status::unsupported(location(prefix) +
                               ": a node speaking the Smart Transfer "
                               "Protocol is not listed");
  }
  Result<ObjectInfo> stat(std::string_view key) const override {
    if (auto it = memory.find(std::string(key)); it != memory.end()) {
      ObjectInfo info;
      info.size = it->second->size();
      return info;
    }
    if (in_memory_only(key)) return Status::not_found(location(key) + ": not sent by the node");
    ODF_HASH_ASSIGN_OR_RETURN(auto where, store_of(key));
    return where.first->stat(where.second);
  }
  Result<OpenedObject> open(std::string_view key, const OpenOptions& options) const override {
    if (auto it = memory.find(std::string(key)); it != memory.end()) {
      OpenedObject out;
      out.info.size = it->second->size();
      if (out.info.size <= options.max_size) {
        out.reader = std::make_unique<MemoryReader>(location(key), it->second);
      }
      return out;
    }
    if (in_memory_only(key)) return Status::not_found(location(key) + ": not sent by the node");
    ODF_HASH_ASSIGN_OR_RETURN(auto where, store_of(key));
    return where.first->open(where.second, options);
  }

 private:
  // refs/head and blocks/ come from the pull's answer only.
  static bool in_memory_only(std::string_view key) {
    return key == "refs/head" || key.rfind("blocks/", 0) == 0;
  }

  // The store and key an object is read from: its download's folder on the node, or the
  // dataset's own http:// URL.
  Result<std::pair<std::shared_ptr<ObjectStore>, std::string>> store_of(
      std::string_view key) const {
    auto it = downloads.find(std::string(key));
    if (it == downloads.end()) return std::make_pair(simple_, std::string(key));
    const std::string& url = it->second;
    const size_t slash = url.rfind('/');
    const std::string base = url.substr(0, slash);
    const std::string name = url.substr(slash + 1);
    std::lock_guard lock(mu_);
    auto& store = by_base_[base];
    if (!store) {
      ODF_HASH_ASSIGN_OR_RETURN(store, open_http_store(base, http_));
    }
    return std::make_pair(store, name);
  }

  std::string shown_;
  std::shared_ptr<ObjectStore> simple_;
  HttpOptions http_;
  mutable std::mutex mu_;
  mutable std::map<std::string, std::shared_ptr<ObjectStore>> by_base_;
};

bool is_download_url(const std::string& url, const std::string& key) {
  const bool http = url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
  const std::string name = key.substr(key.find('/') + 1);
  return http && url.find_first_of("?#") == std::string::npos && url.size() > name.size() &&
         url.compare(url.size() - name.size() - 1, name.size() + 1, "/" + name) == 0;
}

}  // namespace

Result<std::shared_ptr<ObjectStore>> open_smtp_store(const std::string& url,
                                                     const HttpOptions& http,
                                                     const BlockObjects& block_objects) {
  std::string http_url = url.substr(std::string("odf+").size());
  while (!http_url.empty() && http_url.back() == '/') http_url.pop_back();
  const std::string shown = redact_url(url);
  ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectStore> simple, open_http_store(http_url, http));
  smtp::SessionOptions so;
  so.connect_timeout_s = http.connect_timeout_s;
  so.read_timeout_s = http.read_timeout_s;
  so.cancel = http.cancel;
  ODF_HASH_ASSIGN_OR_RETURN(smtp::PullSession session,
                            smtp::PullSession::connect(http_url, shown, so));
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<uint8_t> gz, session.pull_blocks(std::nullopt));
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<smtp::TarEntry> entries, smtp::unpack_blocks(gz, shown));

  auto store = std::make_shared<SmtpStore>(shown, simple, http);
  std::vector<smtp::ObjectRef> objects;
  std::vector<std::string> keys;
  for (auto& e : entries) {
    const auto bytes = std::make_shared<const std::vector<uint8_t>>(std::move(e.bytes));
    const bool named_right = Multihash::sha3_256(Sha3_256::digest(*bytes)).to_string() == e.name;
    if (named_right && block_objects) {
      for (const auto& ref : block_objects(*bytes)) {
        const std::string key = std::string(ref.checkpoint ? "checkpoints/" : "data/") + ref.hash;
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
        keys.push_back(key);
        objects.push_back(smtp::ObjectRef{ref.checkpoint, ref.hash, ref.size});
      }
    }
    if (is_valid_object_key("blocks/" + e.name)) store->memory["blocks/" + e.name] = bytes;
  }
  if (!entries.empty()) {
    const std::string& head = entries.back().name;
    store->memory["refs/head"] =
        std::make_shared<const std::vector<uint8_t>>(head.begin(), head.end());
  }
  if (!objects.empty()) {
    ODF_HASH_ASSIGN_OR_RETURN(std::vector<smtp::Download> got, session.downloads(objects));
    for (size_t i = 0; i < got.size(); ++i) {
      if (is_download_url(got[i].url, keys[i])) store->downloads[keys[i]] = got[i].url;
    }
  }
  session.close();
  return std::shared_ptr<ObjectStore>(std::move(store));
}

}  // namespace odf_hash::remote
