// Anonymous temporary storage for HTTP objects (spool_file.h).
#include "spool_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace odf_hash::remote {

Result<uint64_t> parse_spool_limit(std::string_view s) {
  auto refuse = [&] {
    return Status::invalid_argument(
        "ODF_HASH_HTTP_SPOOL_LIMIT=\"" + std::string(s.substr(0, 40)) +
        (s.size() > 40 ? "...\"" : "\"") +
        " is not a size: give whole bytes, optionally with a suffix K, M, G or T (1024-based), "
        "e.g. 8G or 500000000");
  };
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data()) return refuse();
  std::string_view suffix(p, s.data() + s.size() - p);
  unsigned shift = 0;
  if (!suffix.empty()) {
    static constexpr std::string_view kUnits = "KMGT";
    const size_t unit = kUnits.find(suffix[0]);
    if (unit == std::string_view::npos || (suffix.size() != 1 && suffix.substr(1) != "iB")) {
      return refuse();
    }
    shift = 10 * static_cast<unsigned>(unit + 1);
  }
  if (shift > 0 && v > (UINT64_MAX >> shift)) return refuse();
  return v << shift;
}

Result<uint64_t> spool_limit() {
  const char* text = std::getenv("ODF_HASH_HTTP_SPOOL_LIMIT");
  if (text == nullptr || *text == '\0') return kDefaultSpoolLimit;
  return parse_spool_limit(text);
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
