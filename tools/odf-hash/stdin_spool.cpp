// Standard input spooled to an unnamed temporary file (stdin_spool.h).
#include "stdin_spool.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "odf_hash/core/text.h"

namespace odf_hash::cli {

StdinSpool::StdinSpool(int fd, uint64_t size)
    : fd_(fd), size_(size), path_("/proc/self/fd/" + std::to_string(fd)) {}

StdinSpool::~StdinSpool() {
  if (fd_ >= 0) ::close(fd_);
}

Result<std::unique_ptr<StdinSpool>> StdinSpool::create(uint64_t limit) {
  const char* env = std::getenv("TMPDIR");
  const std::string dir = env != nullptr && *env != '\0' ? env : "/tmp";
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {  // a file system without O_TMPFILE: a named file, unlinked at once
    std::string name = dir + "/odf-hash-stdin-XXXXXX";
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd >= 0) ::unlink(name.c_str());
  }
  if (fd < 0) {
    return Status::io_error("-: cannot create a temporary file for standard input in " + dir +
                            ": " + std::strerror(errno) + " (set TMPDIR to another folder)");
  }
  std::unique_ptr<StdinSpool> spool(new StdinSpool(fd, 0));
  std::vector<char> buffer(1 << 20);
  while (true) {
    const ssize_t n = ::read(STDIN_FILENO, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return Status::io_error(std::string("-: reading standard input: ") + std::strerror(errno));
    if (n == 0) break;
    if (spool->size_ + uint64_t(n) > limit) {
      return Status::invalid_argument("-: standard input holds more than " + format_bytes(limit) +
                                      ", the limit of what `logical -` copies to a temporary "
                                      "file (--stdin-limit SIZE raises it; or give the path)");
    }
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(fd, buffer.data() + done, size_t(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        return Status::io_error("-: writing standard input to a temporary file in " + dir + ": " +
                                (w < 0 ? std::strerror(errno) : "no space"));
      }
      done += w;
    }
    spool->size_ += uint64_t(n);
  }
  return spool;
}

}  // namespace odf_hash::cli
