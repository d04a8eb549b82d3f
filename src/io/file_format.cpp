// Detecting Parquet and Arrow IPC files by their magic bytes.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "odf_hash/reader.h"

namespace odf_hash {

const char* file_format_name(FileFormat format) {
  switch (format) {
    case FileFormat::kParquet: return "parquet";
    case FileFormat::kArrowIpcFile: return "arrow-ipc-file";
    case FileFormat::kArrowIpcStream: return "arrow-ipc-stream";
  }
  return "unknown";
}

namespace {

class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  int fd_;
};

// Reads up to `n` bytes at `offset`; returns how many were read, or -1 with errno set.
ssize_t read_at(int fd, uint8_t* out, size_t n, off_t offset) {
  size_t done = 0;
  while (done < n) {
    ssize_t r = ::pread(fd, out + done, n - done, offset + static_cast<off_t>(done));
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (r == 0) break;
    done += static_cast<size_t>(r);
  }
  return static_cast<ssize_t>(done);
}

uint32_t load_le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

Status open_error(const std::string& path, int err) {
  std::string reason = std::strerror(err);
  if (err == ENOENT) return Status::not_found(path + ": " + reason);
  return Status::io_error(path + ": " + reason);
}

}  // namespace

// Parquet files start and end with "PAR1" (an encrypted footer ends with "PARE"). Arrow
// IPC files start with "ARROW1" and end with it. Arrow IPC streams start with a message:
// the 0xFFFFFFFF continuation marker and a little-endian int32 metadata length, or, in the
// legacy (pre-0.15) format, the length alone. A stream holding only the end-of-stream
// marker (length 0) is still a stream; opening it reports the missing schema.
Result<FileFormat> detect_file_format(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return open_error(path, errno);
  FdCloser closer(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) return open_error(path, errno);
  if (S_ISDIR(st.st_mode)) return Status::io_error(path + ": is a directory");
  const uint64_t size = static_cast<uint64_t>(st.st_size);

  uint8_t head[8] = {};
  ssize_t got = read_at(fd, head, sizeof head, 0);
  if (got < 0) return open_error(path, errno);
  const size_t head_len = static_cast<size_t>(got);
  if (head_len == 0) {
    return Status::parse_error(path + ": not a Parquet or Arrow IPC file (empty file)");
  }
  uint8_t tail[6] = {};
  size_t tail_len = 0;
  if (size >= sizeof tail) {
    got = read_at(fd, tail, sizeof tail, static_cast<off_t>(size - sizeof tail));
    if (got < 0) return open_error(path, errno);
    tail_len = static_cast<size_t>(got);
  }

  if (head_len >= 4 && std::memcmp(head, "PAR1", 4) == 0) {
    if (size >= 12 && tail_len == 6 && std::memcmp(tail + 2, "PAR1", 4) == 0) {
      return FileFormat::kParquet;
    }
    if (size >= 12 && tail_len == 6 && std::memcmp(tail + 2, "PARE", 4) == 0) {
      return Status::unsupported(path + ": encrypted Parquet files are not supported");
    }
    return Status::parse_error(path +
                               ": truncated or corrupt Parquet file (no PAR1 magic at the end)");
  }
  if (head_len >= 6 && std::memcmp(head, "ARROW1", 6) == 0) {
    if (size >= 12 && tail_len == 6 && std::memcmp(tail, "ARROW1", 6) == 0) {
      return FileFormat::kArrowIpcFile;
    }
    return Status::parse_error(
        path + ": truncated or corrupt Arrow IPC file (no ARROW1 magic at the end)");
  }
  if (head_len == 8) {
    const uint32_t first = load_le32(head);
    const uint32_t second = load_le32(head + 4);
    if (first == 0xFFFFFFFFu && second < 0x80000000u && 8 + uint64_t{second} <= size) {
      return FileFormat::kArrowIpcStream;
    }
    // Legacy stream: a positive metadata length, then a FlatBuffer whose root offset
    // points inside that metadata.
    if (first > 0 && first < 0x80000000u && 4 + uint64_t{first} <= size && second >= 4 &&
        second < first) {
      return FileFormat::kArrowIpcStream;
    }
  }
  return Status::parse_error(path + ": not a Parquet or Arrow IPC file");
}

}  // namespace odf_hash
