// Small text files read under a bound and replaced under a lock
// (include/odf_hash/internal/io/text_file.h).
#include "odf_hash/internal/io/text_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include "odf_hash/internal/io/exclusive_temp.h"
#include "odf_hash/internal/io/fd.h"

namespace odf_hash {

namespace {

using io_internal::Fd;

std::string why(int e) {
  return std::strerror(e);
}

const char* kind_text(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

std::string size_text(uint64_t n) {
  return n % (1u << 20) == 0 ? std::to_string(n >> 20) + " MiB" : std::to_string(n) + " bytes";
}

// The rest of `fd`, at most `max_bytes` (at most max_bytes + 64 KiB is ever held).
Result<std::string> read_bounded(int fd, const std::string& path, std::string_view what,
                                 uint64_t max_bytes) {
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return Status::io_error(path + ": cannot read the " + std::string(what) + ": " + why(errno));
    if (n == 0) return out;
    if (out.size() + static_cast<uint64_t>(n) > max_bytes) {
      return Status::invalid_argument(path + ": larger than " + size_text(max_bytes) +
                                      ", the most odf-hash reads of a " + std::string(what));
    }
    out.append(buf, static_cast<size_t>(n));
  }
}

std::optional<std::string> real_path(const std::string& path) {
  std::unique_ptr<char, decltype(&std::free)> r(::realpath(path.c_str(), nullptr), &std::free);
  if (!r) return std::nullopt;
  return std::string(r.get());
}

// "/a/b" -> ("/a", "b"); "b" -> (".", "b"); "/b" -> ("/", "b").
std::pair<std::string, std::string> split_folder(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

std::string join(const std::string& folder, const std::string& name) {
  return folder == "/" ? "/" + name : folder + "/" + name;
}

Status write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::io_error(why(errno));
    text.remove_prefix(static_cast<size_t>(n));
  }
  return Status::ok();
}

// Writes `text` to a new file of `dir` and renames it over `base` (steps 4 of the header).
Status replace_in_folder(int dir, const std::string& folder, const std::string& base,
                         std::optional<mode_t> mode, std::string_view text) {
  ODF_HASH_ASSIGN_OR_RETURN(
      io_internal::ExclusiveTemp tmp,
      io_internal::create_exclusive_temp(dir, folder, io_internal::random_temp_names(base)));
  Fd fd(tmp.fd);
  Status st = write_all(fd.get(), text);
  if (st.is_ok() && ::fsync(fd.get()) != 0) st = Status::io_error(why(errno));
  if (st.is_ok() && mode && ::fchmod(fd.get(), *mode) != 0) st = Status::io_error(why(errno));
  if (st.is_ok() && ::close(fd.release()) != 0) st = Status::io_error(why(errno));
  if (st.is_ok() && ::renameat(dir, tmp.name.c_str(), dir, base.c_str()) != 0) {
    st = Status::io_error(why(errno));
  }
  if (!st.is_ok()) {
    ::unlinkat(dir, tmp.name.c_str(), 0);
    return st;
  }
  (void)::fsync(dir);  // the rename on disk; some file systems cannot sync a folder
  return Status::ok();
}

}  // namespace

namespace io_internal {

Result<ExclusiveTemp> create_exclusive_temp(int dir_fd, const std::string& shown,
                                            const std::function<std::string()>& next_name,
                                            int attempts) {
  int last = EEXIST;
  for (int i = 0; i < attempts; ++i) {
    std::string name = next_name();
    const int fd =
        ::openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) return ExclusiveTemp{fd, std::move(name)};
    last = errno;
    if (last != EEXIST && last != EINTR) break;
  }
  return Status::io_error(shown + ": cannot create a temporary file there: " + why(last));
}

std::function<std::string()> random_temp_names(const std::string& base) {
  auto engine = std::make_shared<std::mt19937_64>(std::random_device{}());
  const std::string prefix = "." + base.substr(0, 100) + ".tmp-";
  return [engine, prefix] {
    static constexpr char kHex[] = "0123456789abcdef";
    uint64_t v = (*engine)();
    std::string name = prefix;
    for (int i = 0; i < 16; ++i, v >>= 4) name += kHex[v & 15];
    return name;
  };
}

}  // namespace io_internal

Result<std::string> read_text_file(const std::string& path, std::string_view what,
                                   uint64_t max_bytes) {
  const std::string cannot = path + ": cannot open the " + std::string(what) + ": ";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return errno == ENOENT ? Status::not_found(cannot + why(errno))
                           : Status::io_error(cannot + why(errno));
  }
  auto refuse = [&](mode_t mode) {
    return Status::invalid_argument(path + ": " + kind_text(mode) + ", not a " + std::string(what) +
                                    " (a regular file or a pipe)");
  };
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) return refuse(st.st_mode);
  // A FIFO is opened as `cat` opens it, waiting for its writer: opened without blocking, it
  // would read as empty until one comes (no pins, without a word). Anything else is opened
  // without blocking, and must still be a regular file once open.
  const bool fifo = S_ISFIFO(st.st_mode);
  int raw = -1;
  do {
    raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | (fifo ? 0 : O_NONBLOCK));
  } while (raw < 0 && errno == EINTR);
  if (raw < 0) return Status::io_error(cannot + why(errno));
  Fd fd(raw);
  if (::fstat(fd.get(), &st) != 0) return Status::io_error(cannot + why(errno));
  if (fifo ? !S_ISFIFO(st.st_mode) : !S_ISREG(st.st_mode)) return refuse(st.st_mode);
  return read_bounded(fd.get(), path, what, max_bytes);
}

Result<std::string> resolve_replaceable_file(const std::string& path, std::string_view what) {
  const std::string w(what);
  if (path.empty()) return Status::invalid_argument("the path of the " + w + " is empty");
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    const bool link = S_ISLNK(st.st_mode);
    std::optional<std::string> real = real_path(path);
    if (!real && !link) return Status::io_error(path + ": " + why(errno));
    if (!real) {
      return Status::invalid_argument(path + ": a symbolic link leading nowhere (" + why(errno) +
                                      "); the " + w + " is written to the file a link leads to");
    }
    if (link && ::stat(real->c_str(), &st) != 0) return Status::io_error(path + ": " + why(errno));
    if (!S_ISREG(st.st_mode)) {
      return Status::invalid_argument(path + (link ? ": a symbolic link to " : ": ") +
                                      kind_text(st.st_mode) + ", not a " + w +
                                      " (a regular file, replaced when written)");
    }
    return *real;
  }
  if (errno != ENOENT) return Status::io_error(path + ": " + why(errno));
  auto [folder, base] = split_folder(path);
  if (base.empty() || base == "." || base == "..") {
    return Status::invalid_argument(path + ": names a folder, not a " + w);
  }
  std::optional<std::string> real_folder = real_path(folder);
  if (!real_folder) {
    return Status::io_error(path + ": cannot write the " + w + " in " + folder + ": " + why(errno));
  }
  return join(*real_folder, base);
}

Status update_text_file(const std::string& path, std::string_view what, uint64_t max_bytes,
                        const TextFileUpdate& update) {
  ODF_HASH_ASSIGN_OR_RETURN(const std::string target, resolve_replaceable_file(path, what));
  const auto [folder, base] = split_folder(target);
  const std::string cannot = path + ": cannot write the " + std::string(what) + ": ";
  Fd dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) return Status::io_error(cannot + folder + ": " + why(errno));
  while (::flock(dir.get(), LOCK_EX) != 0) {
    if (errno != EINTR)
      return Status::io_error(cannot + "cannot lock " + folder + ": " + why(errno));
  }
  std::optional<std::string> current;
  std::optional<mode_t> mode;
  {
    Fd fd(::openat(dir.get(), base.c_str(),
                   O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW));
    struct stat st {};
    if (fd.get() < 0 && errno != ENOENT) {
      return errno == ELOOP ? Status::invalid_argument(target + ": became a symbolic link; the " +
                                                       std::string(what) + " was not written")
                            : Status::io_error(cannot + why(errno));
    }
    if (fd.get() >= 0) {
      if (::fstat(fd.get(), &st) != 0) return Status::io_error(cannot + why(errno));
      if (!S_ISREG(st.st_mode)) {
        return Status::invalid_argument(target + ": " + kind_text(st.st_mode) + ", not a " +
                                        std::string(what));
      }
      mode = st.st_mode & 07777;
      ODF_HASH_ASSIGN_OR_RETURN(current, read_bounded(fd.get(), path, what, max_bytes));
    }
  }
  ODF_HASH_ASSIGN_OR_RETURN(const std::string text, update(current));
  Status st = replace_in_folder(dir.get(), folder, base, mode, text);
  if (!st.is_ok()) return Status::io_error(cannot + st.message());
  return Status::ok();
}

}  // namespace odf_hash
