// Anonymous temporary storage for HTTP objects (spool_file.h).
#include "spool_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "odf_hash/core/text.h"

namespace odf_hash::remote {

Result<uint64_t> spool_limit() {
  return byte_size_from_env("ODF_HASH_HTTP_SPOOL_LIMIT", kDefaultSpoolLimit);
}

Result<std::unique_ptr<SpoolFile>> SpoolFile::create(const std::string& name) {
  const char* env = std::getenv("TMPDIR");
  const std::string dir = env != nullptr && *env != '\0' ? env : "/tmp";
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    // A file system without O_TMPFILE: a named file, unlinked before anything is written.
    std::string path = dir + "/odf-hash-spool-XXXXXX";
    fd = ::mkostemp(path.data(), O_CLOEXEC);
    if (fd >= 0) ::unlink(path.c_str());
  }
  if (fd < 0) {
    return Status::io_error(name + ": cannot create temporary storage in " + dir +
                            " to read the object whole: " + std::strerror(errno));
  }
  return std::unique_ptr<SpoolFile>(new SpoolFile(fd, name));
}

SpoolFile::~SpoolFile() {
  ::close(fd_);
}

Status SpoolFile::append(const uint8_t* data, size_t n) {
  while (n > 0) {
    const ssize_t w = ::pwrite(fd_, data, n, static_cast<off_t>(size_));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      return Status::io_error(name_ + ": cannot write the object to temporary storage: " +
                              std::strerror(w < 0 ? errno : ENOSPC));
    }
    data += w;
    n -= static_cast<size_t>(w);
    size_ += static_cast<uint64_t>(w);
  }
  return Status::ok();
}

Status SpoolFile::clear() {
  if (::ftruncate(fd_, 0) != 0) {
    return Status::io_error(name_ + ": cannot empty temporary storage: " + std::strerror(errno));
  }
  size_ = 0;
  return Status::ok();
}

Result<size_t> SpoolFile::read_at(uint64_t offset, uint8_t* out, size_t n) const {
  size_t got = 0;
  while (got < n && offset + got < size_) {
    const ssize_t r = ::pread(fd_, out + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      return Status::io_error(
          name_ + ": cannot read the object back from temporary storage: " + std::strerror(errno));
    }
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  return got;
}

}  // namespace odf_hash::remote
