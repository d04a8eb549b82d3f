// The S3 object store (s3_store.h) over arrow::fs::S3FileSystem.
//
// Arrow's S3 input file issues one ranged GetObject per read, so a sequential read asks for
// kChunk bytes at a time and keeps the next chunk in flight (ReadAsync on Arrow's I/O
// pool) while the caller hashes the current one: at most two chunks per streamed object.
// read_at is ReadAt, straight into the caller's buffer (thread-safe in Arrow).
#include "s3_store.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <utility>

#include <arrow/buffer.h>
#include <arrow/filesystem/s3fs.h>
#include <arrow/io/interfaces.h>
#include <arrow/util/future.h>

namespace odf_hash::remote {

namespace {

constexpr int64_t kChunk = 4 << 20;

Status init_s3() {
  static std::once_flag once;
  static arrow::Status status;
  std::call_once(once, [] { status = arrow::fs::EnsureS3Initialized(); });
  if (!status.ok()) return Status::io_error("cannot start S3 support: " + status.ToString());
  return Status::ok();
}

// "<location>: <Arrow's message>", saying "access denied" first when S3 refused.
Status s3_error(const std::string& location, const arrow::Status& status) {
  const std::string& m = status.message();
  if (m.find("ACCESS_DENIED") != std::string::npos || m.find("AccessDenied") != std::string::npos) {
    return Status::io_error(location + ": access denied (" + m + ")");
  }
  return Status::io_error(location + ": " + m);
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

class S3ObjectReader final : public ObjectReader {
 public:
  S3ObjectReader(std::shared_ptr<arrow::io::RandomAccessFile> file, std::string name, uint64_t size)
      : file_(std::move(file)), name_(std::move(name)), size_(size) {}
  ~S3ObjectReader() override {
    if (next_) next_->Wait();  // the read ahead writes into a buffer it owns; let it finish
  }

  const std::string& name() const noexcept override { return name_; }
  uint64_t size() const noexcept override { return size_; }

  Result<size_t> read(uint8_t* out, size_t n) override {
    if (n == 0) return size_t{0};
    if (chunk_ == nullptr || chunk_off_ == chunk_->size()) {
      if (chunk_start_ + (chunk_ ? chunk_->size() : 0) >= size_) return size_t{0};
      ODF_HASH_RETURN_IF_ERROR(next_chunk());
    }
    const size_t c = std::min<size_t>(n, static_cast<size_t>(chunk_->size() - chunk_off_));
    std::memcpy(out, chunk_->data() + chunk_off_, c);
    chunk_off_ += static_cast<int64_t>(c);
    return c;
  }

  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override {
    if (offset >= size_ || n == 0) return size_t{0};
    n = static_cast<size_t>(std::min<uint64_t>(n, size_ - offset));
    auto got = file_->ReadAt(static_cast<int64_t>(offset), static_cast<int64_t>(n), out);
    if (!got.ok()) return s3_error(name_, got.status());
    if (static_cast<size_t>(*got) != n) return short_body(offset + static_cast<uint64_t>(*got));
    return n;
  }

 private:
  Status short_body(uint64_t at) const {
    return Status::io_error(name_ + ": the object ended after " + std::to_string(at) + " of its " +
                            std::to_string(size_) + " bytes");
  }

  arrow::Future<std::shared_ptr<arrow::Buffer>> request(uint64_t start) {
    const int64_t len = std::min<int64_t>(kChunk, static_cast<int64_t>(size_ - start));
    return file_->ReadAsync(arrow::io::default_io_context(), static_cast<int64_t>(start), len);
  }

  Status next_chunk() {
    const uint64_t start = chunk_ ? chunk_start_ + static_cast<uint64_t>(chunk_->size()) : 0;
    auto pending = next_ ? std::move(*next_) : request(start);
    next_.reset();
    auto chunk = pending.result();
    if (!chunk.ok()) return s3_error(name_, chunk.status());
    const uint64_t expected = std::min<uint64_t>(kChunk, size_ - start);
    if (static_cast<uint64_t>((*chunk)->size()) != expected) {
      return short_body(start + static_cast<uint64_t>((*chunk)->size()));
    }
    chunk_ = std::move(*chunk);
    chunk_start_ = start;
    chunk_off_ = 0;
    const uint64_t after = start + expected;
    if (after < size_) next_ = request(after);
    return Status::ok();
  }

  std::shared_ptr<arrow::io::RandomAccessFile> file_;
  std::string name_;
  uint64_t size_;
  std::shared_ptr<arrow::Buffer> chunk_;  // the chunk being read, from chunk_start_
  uint64_t chunk_start_ = 0;
  int64_t chunk_off_ = 0;
  std::optional<arrow::Future<std::shared_ptr<arrow::Buffer>>> next_;  // read ahead
};

class S3Store final : public ObjectStore {
 public:
  S3Store(std::shared_ptr<arrow::fs::S3FileSystem> fs, std::string bucket, std::string prefix)
      : fs_(std::move(fs)), bucket_(std::move(bucket)), prefix_(std::move(prefix)) {}

  std::string location(std::string_view key) const override { return "s3://" + path_of(key); }

  bool can_list() const noexcept override { return true; }

  Result<std::vector<ObjectEntry>> list(std::string_view prefix) const override {
    if (!prefix.empty() && !is_valid_object_key(prefix)) {
      return Status::invalid_argument(location(prefix) + ": not a key");
    }
    arrow::fs::FileSelector selector;
    selector.base_dir = path_of(prefix);
    selector.recursive = false;
    selector.allow_not_found = true;
    auto infos = fs_->GetFileInfo(selector);
    if (!infos.ok()) return s3_error(location(prefix), infos.status());
    if (infos->empty()) {
      ODF_HASH_ASSIGN_OR_RETURN(ObjectInfo info, stat_path(prefix));
      if (info.kind != ObjectKind::kDirectory) {
        return Status::invalid_argument(location(prefix) + ": is an object, not a prefix");
      }
    }
    std::vector<ObjectEntry> entries;
    for (const auto& info : *infos) {
      const bool folder = info.type() == arrow::fs::FileType::Directory;
      ObjectEntry e{info.base_name(), folder ? ObjectKind::kDirectory : ObjectKind::kFile,
                    std::nullopt};
      if (!folder && info.size() >= 0) e.size = static_cast<uint64_t>(info.size());
      entries.push_back(std::move(e));
    }
    std::sort(entries.begin(), entries.end(),
              [](const ObjectEntry& a, const ObjectEntry& b) { return a.name < b.name; });
    return entries;
  }

  Result<ObjectInfo> stat(std::string_view key) const override {
    if (!key.empty() && !is_valid_object_key(key)) {
      return Status::invalid_argument(location(key) + ": not a key");
    }
    return stat_path(key);
  }

  Result<OpenedObject> open(std::string_view key, const OpenOptions& options) const override {
    if (!is_valid_object_key(key)) return Status::invalid_argument(location(key) + ": not a key");
    auto info = fs_->GetFileInfo(path_of(key));
    if (!info.ok()) return s3_error(location(key), info.status());
    OpenedObject out;
    ODF_HASH_RETURN_IF_ERROR(fill(key, *info, &out.info));
    if (out.info.kind != ObjectKind::kFile || out.info.size > options.max_size) return out;
    // From the FileInfo: no second HEAD request, and the size is the one checked.
    auto file = fs_->OpenInputFile(*info);
    if (!file.ok()) return s3_error(location(key), file.status());
    out.reader = std::make_unique<S3ObjectReader>(std::move(*file), location(key), out.info.size);
    return out;
  }

 private:
  std::string path_of(std::string_view key) const {
    std::string p = bucket_;
    if (!prefix_.empty()) p += "/" + prefix_;
    if (!key.empty()) p += "/" + std::string(key);
    return p;
  }

  Status fill(std::string_view key, const arrow::fs::FileInfo& info, ObjectInfo* out) const {
    switch (info.type()) {
      case arrow::fs::FileType::NotFound:
        return Status::not_found(location(key) + ": no such object");
      case arrow::fs::FileType::Directory: out->kind = ObjectKind::kDirectory; break;
      case arrow::fs::FileType::File:
        out->kind = ObjectKind::kFile;
        out->size = info.size() < 0 ? 0 : static_cast<uint64_t>(info.size());
        break;
      default: out->kind = ObjectKind::kOther; break;
    }
    return Status::ok();
  }

  Result<ObjectInfo> stat_path(std::string_view key) const {
    auto info = fs_->GetFileInfo(path_of(key));
    if (!info.ok()) return s3_error(location(key), info.status());
    ObjectInfo out;
    ODF_HASH_RETURN_IF_ERROR(fill(key, *info, &out));
    return out;
  }

  std::shared_ptr<arrow::fs::S3FileSystem> fs_;
  std::string bucket_;
  std::string prefix_;
};

}  // namespace

void shutdown_s3() {
  if (arrow::fs::IsS3Initialized()) (void)arrow::fs::EnsureS3Finalized();
}

Result<std::shared_ptr<ObjectStore>> open_s3_store(const std::string& url,
                                                   const StoreOptions& options) {
  std::string rest = url.substr(5);  // after "s3://"
  while (!rest.empty() && rest.back() == '/') rest.pop_back();
  const size_t slash = rest.find('/');
  std::string bucket = rest.substr(0, slash);
  std::string prefix = slash == std::string::npos ? std::string() : rest.substr(slash + 1);
  if (bucket.empty() || url.find_first_of("?#") != std::string::npos ||
      (!prefix.empty() && !is_valid_object_key(prefix))) {
    return Status::invalid_argument(url + ": not an s3://bucket/prefix URL");
  }
  ODF_HASH_RETURN_IF_ERROR(init_s3());

  arrow::fs::S3Options s3 = options.no_sign_request ? arrow::fs::S3Options::Anonymous()
                                                    : arrow::fs::S3Options::Defaults();
  std::string endpoint = options.endpoint_url;
  if (endpoint.empty()) endpoint = env("AWS_ENDPOINT_URL_S3");
  if (endpoint.empty()) endpoint = env("AWS_ENDPOINT_URL");
  if (!endpoint.empty()) {
    const size_t sep = endpoint.find("://");
    if (sep != std::string::npos) {
      s3.scheme = endpoint.substr(0, sep);
      endpoint = endpoint.substr(sep + 3);
    }
    while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
    if ((s3.scheme != "http" && s3.scheme != "https") || endpoint.empty() ||
        endpoint.find('/') != std::string::npos) {
      return Status::invalid_argument(options.endpoint_url.empty()
                                          ? "$AWS_ENDPOINT_URL"
                                          : options.endpoint_url +
                                                ": an endpoint is http(s)://host[:port]");
    }
    s3.endpoint_override = endpoint;
  }
  s3.region = options.region;
  if (s3.region.empty()) s3.region = env("AWS_REGION");
  if (s3.region.empty()) s3.region = env("AWS_DEFAULT_REGION");
  if (s3.region.empty() && s3.endpoint_override.empty()) {
    auto region = arrow::fs::ResolveS3BucketRegion(bucket);
    if (region.ok()) s3.region = *region;
  }
  if (s3.region.empty()) s3.region = "us-east-1";
  s3.connect_timeout = options.connect_timeout_s;
  s3.request_timeout = options.read_timeout_s;
  s3.retry_strategy = arrow::fs::S3RetryStrategy::GetAwsStandardRetryStrategy(
      static_cast<int64_t>(std::max(1u, options.max_attempts)));

  auto fs = arrow::fs::S3FileSystem::Make(s3);
  if (!fs.ok()) return Status::io_error(url + ": " + fs.status().message());
  auto store = std::make_shared<S3Store>(std::move(*fs), bucket, prefix);
  // A prefix with nothing under it is no dataset (a local folder that does not exist).
  auto root = store->stat("");
  if (!root.is_ok() && root.status().code() == StatusCode::kNotFound) {
    return Status::not_found(url + ": nothing under this prefix (no such dataset)");
  }
  ODF_HASH_RETURN_IF_ERROR(root.status());
  if (root->kind != ObjectKind::kDirectory) {
    return Status::invalid_argument(url + ": is an object, not a prefix");
  }
  return std::shared_ptr<ObjectStore>(std::move(store));
}

}  // namespace odf_hash::remote
