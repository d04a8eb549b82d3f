#include "line_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace odf_hash::cli {

namespace {
constexpr size_t kChunk = 65536;
}

LineReader::~LineReader() {
  if (own_fd_ && fd_ >= 0) ::close(fd_);
}

Status LineReader::open(const std::string& path) {
  path_ = path;
  if (path == "-") {
    fd_ = STDIN_FILENO;
    return Status();
  }
  do {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) return Status::io_error(path + ": " + std::strerror(errno));
  own_fd_ = true;
  return Status();
}

Result<bool> LineReader::fill() {
  if (eof_) return false;
  if (pos_ > 0) {
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  const size_t old = buf_.size();
  buf_.resize(old + kChunk);
  ssize_t n;
  do {
    n = ::read(fd_, buf_.data() + old, kChunk);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    buf_.resize(old);
    return Status::io_error(path_ + ": " +
                            (errno == EISDIR ? "is a directory" : std::strerror(errno)));
  }
  buf_.resize(old + static_cast<size_t>(n));
  if (n == 0) eof_ = true;
  return n > 0;
}

Result<bool> LineReader::next(std::string& line, bool& too_long) {
  line.clear();
  too_long = false;
  for (;;) {
    const size_t nl = buf_.find('\n', pos_);
    if (nl != std::string::npos) {
      if (!too_long) line.assign(buf_, pos_, nl - pos_);
      pos_ = nl + 1;
      return true;
    }
    // No newline yet: keep at most kMaxLineBytes of the line, drop the rest as it comes.
    if (buf_.size() - pos_ > kMaxLineBytes || too_long) {
      if (!too_long) line.assign(buf_, pos_, kMaxLineBytes);
      too_long = true;
      pos_ = buf_.size();
    }
    ODF_HASH_ASSIGN_OR_RETURN(bool more, fill());
    if (!more) {
      if (pos_ == buf_.size() && !too_long) return false;
      if (!too_long) line.assign(buf_, pos_, buf_.size() - pos_);
      pos_ = buf_.size();
      return true;
    }
  }
}

}  // namespace odf_hash::cli
