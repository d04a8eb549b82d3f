#include "odf_hash/io/physical.h"
#include "odf_hash/io/store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <system_error>
#include <thread>

#include "odf_hash/core/parallel.h"
#include "odf_hash/core/sha3.h"

namespace odf_hash {
namespace {

// Bytes read per read(2). Measured on a cached 512 MiB file (CPU time of read + hash, buffers
// of 16 KiB to 4 MiB): no size differed beyond the noise (~270 MB/s; SHA3 dominates). 512 KiB
// keeps the syscall count low (2,048 per GiB) while staying a small, constant allocation per
// concurrently hashed file.
constexpr size_t kReadBufferSize = size_t{512} * 1024;

std::string errno_message(const std::string& path, int err) {
  return path + ": " + std::strerror(err);
}

Status open_error(const std::string& path, int err) {
  if (err == ENOENT || err == ENOTDIR) return Status::not_found(errno_message(path, err));
  return Status::io_error(errno_message(path, err));
}

// Closes the descriptor it owns when it goes out of scope.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) noexcept : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const noexcept { return fd_; }

 private:
  int fd_;
};

// Reads `fd` to its end into a ring of buffers on a thread of its own, while the caller
// hashes the buffers already filled: read(2) of a cached file is a copy of ~15% of the time
// of one SHA3 stream (openssl dgst spends it inline), and overlapped it leaves the hash at
// the Keccak rate. Used for large regular files only: a thread is not worth it for a small
// file, and a pipe's writer sets the pace anyway.
class ReadAhead {
 public:
  static constexpr size_t kSlots = 4;
  static constexpr uint64_t kMinFileSize = uint64_t{8} << 20;

  explicit ReadAhead(int fd) : fd_(fd) {
    for (auto& slot : slots_) slot.data.reset(new uint8_t[kReadBufferSize]);
  }
  ~ReadAhead() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    if (reader_.joinable()) reader_.join();
  }

  // False when the system refuses a thread (then the file is read inline).
  bool start() {
    std::optional<std::thread> thread = try_thread([this] { read_loop(); });
    if (thread) reader_ = std::move(*thread);
    return thread.has_value();
  }
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next filled buffer and its size (0 at the end of the file), or the read's errno.
  // The buffer stays valid until the next call.
  struct Chunk {
    const uint8_t* data = nullptr;
    size_t size = 0;
    int error = 0;
  };
  Chunk next() {
    std::unique_lock lock(mutex_);
    if (taken_) {  // the previous buffer is hashed: the reader may fill it again
      taken_ = false;
      ++consumed_;
      changed_.notify_all();
    }
    changed_.wait(lock, [&] { return filled_ > consumed_ || finished_; });
    if (filled_ > consumed_) {
      Slot& slot = slots_[consumed_ % kSlots];
      taken_ = true;
      return Chunk{slot.data.get(), slot.size, 0};
    }
    return Chunk{nullptr, 0, error_};
  }

 private:
  struct Slot {
    std::unique_ptr<uint8_t[]> data;
    size_t size = 0;
  };

  void read_loop() {
    for (;;) {
      Slot* slot;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stop_ || filled_ - consumed_ < kSlots; });
        if (stop_) return;
        slot = &slots_[filled_ % kSlots];  // free: the hasher is at most kSlots behind
      }
      ssize_t n;
      do {
        n = ::read(fd_, slot->data.get(), kReadBufferSize);
      } while (n < 0 && errno == EINTR);
      const int err = n < 0 ? errno : 0;
      std::lock_guard lock(mutex_);
      if (n <= 0) {
        error_ = err;
        finished_ = true;
        changed_.notify_all();
        return;
      }
      slot->size = static_cast<size_t>(n);
      ++filled_;
      changed_.notify_all();
    }
  }

  const int fd_;
  std::array<Slot, kSlots> slots_;
  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t filled_ = 0;    // buffers read (guarded by mutex_)
  uint64_t consumed_ = 0;  // buffers hashed and given back
  bool taken_ = false;     // slots_[consumed_ % kSlots] is being hashed by the caller
  bool finished_ = false;  // the reader saw the end or an error (error_)
  bool stop_ = false;
  int error_ = 0;
  std::thread reader_;
};

using Bytes = std::span<const uint8_t>;

// SHA3-256 of the chunks `next` returns (Result<Bytes>), up to the first empty one; progress
// after each, with `total` (0: unknown). What every physical hash here runs.
template <typename Next>
Result<PhysicalDigest> hash_chunks(const std::string& name, uint64_t total,
                                   const ProgressFn& progress, Next next) {
  Sha3_256 hasher;
  uint64_t done = 0;
  for (;;) {
    ODF_HASH_ASSIGN_OR_RETURN(Bytes chunk, next());
    if (chunk.empty()) break;
    hasher.update(chunk.data(), chunk.size());
    done += chunk.size();
    if (progress && !progress(done, total)) return Status::cancelled(name + ": cancelled");
  }
  return PhysicalDigest{Multihash::sha3_256(hasher.finalize()), done};
}

}  // namespace

Result<PhysicalDigest> physical_hash_fd(int fd, const std::string& name_for_errors,
                                        const ProgressFn& progress) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return Status::io_error(errno_message(name_for_errors, errno));
  if (S_ISDIR(st.st_mode)) return Status::io_error(name_for_errors + ": is a directory");
  const uint64_t total = S_ISREG(st.st_mode) ? static_cast<uint64_t>(st.st_size) : 0;
  if (S_ISREG(st.st_mode)) {
    // Only a hint: it fails harmlessly on pipes and some file systems.
    (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  }

  auto read_error = [&](int err) {
    if (err == EISDIR) return Status::io_error(name_for_errors + ": is a directory");
    return Status::io_error(errno_message(name_for_errors, err));
  };
  std::optional<ReadAhead> ahead;
  if (total >= ReadAhead::kMinFileSize) {
    ahead.emplace(fd);
    if (!ahead->start()) ahead.reset();  // no thread to be had: read inline, as below
  }
  if (ahead) {
    return hash_chunks(name_for_errors, total, progress, [&]() -> Result<Bytes> {
      ReadAhead::Chunk chunk = ahead->next();
      if (chunk.error != 0) return read_error(chunk.error);
      return Bytes(chunk.data, chunk.size);
    });
  }
  std::unique_ptr<uint8_t[]> buffer(new uint8_t[kReadBufferSize]);
  return hash_chunks(name_for_errors, total, progress, [&]() -> Result<Bytes> {
    for (;;) {
      const ssize_t n = ::read(fd, buffer.get(), kReadBufferSize);
      if (n >= 0) return Bytes(buffer.get(), static_cast<size_t>(n));
      if (errno != EINTR) return read_error(errno);
    }
  });
}

Result<PhysicalDigest> physical_hash_object(ObjectReader& object, const ProgressFn& progress) {
  std::unique_ptr<uint8_t[]> buffer(new uint8_t[kReadBufferSize]);
  return hash_chunks(object.name(), object.size(), progress, [&]() -> Result<Bytes> {
    ODF_HASH_ASSIGN_OR_RETURN(size_t n, object.read(buffer.get(), kReadBufferSize));
    return Bytes(buffer.get(), n);
  });
}

Result<PhysicalDigest> physical_hash_file(const std::string& path, const ProgressFn& progress) {
  ODF_HASH_RETURN_IF_ERROR(refuse_nul(path));
  if (path == "-") return physical_hash_fd(STDIN_FILENO, path, progress);
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return open_error(path, errno);
  FileDescriptor owned(fd);
  return physical_hash_fd(owned.get(), path, progress);
}

}  // namespace odf_hash
