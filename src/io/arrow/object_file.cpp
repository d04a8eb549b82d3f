// ObjectReader as arrow::io::RandomAccessFile (object_file.h).
#include "object_file.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include <arrow/buffer.h>

#include "memory_pool.h"

namespace odf_hash::io_internal {
namespace {

class ObjectFile final : public arrow::io::RandomAccessFile {
 public:
  explicit ObjectFile(std::shared_ptr<ObjectReader> object)
      : object_(std::move(object)), open_(object_->size()) {
    set_mode(arrow::io::FileMode::READ);
  }

  arrow::Status Close() override {
    closed_ = true;
    return arrow::Status::OK();
  }
  bool closed() const override { return closed_; }

  arrow::Result<int64_t> Tell() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return position_;
  }
  arrow::Status Seek(int64_t position) override {
    if (position < 0) return arrow::Status::Invalid(object_->name(), ": negative seek position");
    std::lock_guard<std::mutex> lock(mu_);
    position_ = position;
    return arrow::Status::OK();
  }
  arrow::Result<int64_t> GetSize() override { return static_cast<int64_t>(object_->size()); }

  arrow::Result<int64_t> Read(int64_t nbytes, void* out) override {
    std::lock_guard<std::mutex> lock(mu_);
    ARROW_ASSIGN_OR_RAISE(int64_t got, read_at(position_, nbytes, out));
    position_ += got;
    return got;
  }
  arrow::Result<std::shared_ptr<arrow::Buffer>> Read(int64_t nbytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    ARROW_ASSIGN_OR_RAISE(auto buffer, read_buffer_at(position_, nbytes));
    position_ += buffer->size();
    return buffer;
  }

  arrow::Result<int64_t> ReadAt(int64_t position, int64_t nbytes, void* out) override {
    return ReadAt(position, nbytes, /*allow_short_read=*/true, out);
  }
  arrow::Result<int64_t> ReadAt(int64_t position, int64_t nbytes, bool allow_short_read,
                                void* out) override {
    ARROW_ASSIGN_OR_RAISE(int64_t got, read_at(position, nbytes, out));
    if (!allow_short_read && got != nbytes) return short_read(position, nbytes, got);
    return got;
  }
  arrow::Result<std::shared_ptr<arrow::Buffer>> ReadAt(int64_t position, int64_t nbytes) override {
    return ReadAt(position, nbytes, /*allow_short_read=*/true);
  }
  arrow::Result<std::shared_ptr<arrow::Buffer>> ReadAt(int64_t position, int64_t nbytes,
                                                       bool allow_short_read) override {
    ARROW_ASSIGN_OR_RAISE(auto buffer, read_buffer_at(position, nbytes));
    if (!allow_short_read && buffer->size() != nbytes) {
      return short_read(position, nbytes, buffer->size());
    }
    return buffer;
  }

 private:
  arrow::Status short_read(int64_t position, int64_t wanted, int64_t got) const {
    return arrow::Status::IOError(object_->name(), ": ", wanted, " bytes asked at offset ",
                                  position, ", only ", got, " there");
  }

  arrow::Result<int64_t> read_at(int64_t position, int64_t nbytes, void* out) {
    if (closed_) return arrow::Status::Invalid(object_->name(), ": read after close");
    if (position < 0 || nbytes < 0) {
      return arrow::Status::Invalid(object_->name(), ": negative read offset or length");
    }
    auto got = object_->read_at(static_cast<uint64_t>(position), static_cast<uint8_t*>(out),
                                static_cast<size_t>(nbytes));
    if (!got.is_ok()) return arrow::Status::IOError(got.status().message());
    return static_cast<int64_t>(*got);
  }

  arrow::Result<std::shared_ptr<arrow::Buffer>> read_buffer_at(int64_t position, int64_t nbytes) {
    // Never allocate more than what is there: lengths come from untrusted metadata.
    const int64_t size = static_cast<int64_t>(object_->size());
    if (position < 0 || nbytes < 0) {
      return arrow::Status::Invalid(object_->name(), ": negative read offset or length");
    }
    const int64_t available = position >= size ? 0 : std::min(nbytes, size - position);
    ARROW_ASSIGN_OR_RAISE(auto buffer,
                          arrow::AllocateResizableBuffer(available, reader_memory_pool()));
    ARROW_ASSIGN_OR_RAISE(int64_t got, read_at(position, available, buffer->mutable_data()));
    if (got != available) ARROW_RETURN_NOT_OK(buffer->Resize(got, /*shrink_to_fit=*/false));
    return std::shared_ptr<arrow::Buffer>(std::move(buffer));
  }

  std::shared_ptr<ObjectReader> object_;
  OpenInput open_;         // bounds the readers' buffers while the file is read (memory_pool.h)
  mutable std::mutex mu_;  // guards position_ for Read/Seek/Tell
  int64_t position_ = 0;
  std::atomic<bool> closed_{false};
};

}  // namespace

std::shared_ptr<arrow::io::RandomAccessFile> object_as_arrow_file(
    std::shared_ptr<ObjectReader> object) {
  return std::make_shared<ObjectFile>(std::move(object));
}

}  // namespace odf_hash::io_internal
