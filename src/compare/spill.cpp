// TempFile (spill.h).
#include "spill.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace odf_hash::compare::detail {

TempFile::~TempFile() {
  if (fd_ >= 0) ::close(fd_);
}

Status TempFile::open() {
  const char* env = std::getenv("TMPDIR");
  const std::string dir = env != nullptr && *env != '\0' ? env : "/tmp";
  fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ < 0) {  // a file system without O_TMPFILE: a named file, unlinked at once
    std::string name = dir + "/odf-hash-records-XXXXXX";
    fd_ = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd_ >= 0) ::unlink(name.c_str());
  }
  if (fd_ < 0) {
    return Status::io_error("cannot create a temporary file for the records in " + dir + ": " +
                            std::strerror(errno) + " (set TMPDIR to another folder)");
  }
  return Status::ok();
}

Status TempFile::append(const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd_, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return Status::io_error(std::string("cannot write the records' temporary file: ") +
                              (n < 0 ? std::strerror(errno) : "no space"));
    }
    p += n;
    size -= size_t(n);
    size_ += uint64_t(n);
  }
  return Status::ok();
}

Status TempFile::read_at(uint64_t offset, void* out, size_t size) const {
  auto* p = static_cast<uint8_t*>(out);
  size_t at = 0;
  while (at < size) {
    const ssize_t n = ::pread(fd_, p + at, size - at, off_t(offset + at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::io_error("cannot read back the records' temporary file");
    at += size_t(n);
  }
  return Status::ok();
}

}  // namespace odf_hash::compare::detail
