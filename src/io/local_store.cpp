// The local folder store and local file readers (include/odf_hash/io/local_store.h).
#include "odf_hash/io/local_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <utility>

#include "odf_hash/internal/io/fd.h"

namespace odf_hash {
namespace {

// Symbolic links followed while resolving one key, as the kernel's own limit (ELOOP).
constexpr int kMaxLinksFollowed = 40;

using io_internal::Fd;

int openat_retry(int dir, const char* name, int flags) {
  int fd;
  do {
    fd = ::openat(dir, name, flags);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

ObjectKind kind_of(mode_t mode) {
  if (S_ISREG(mode)) return ObjectKind::kFile;
  if (S_ISDIR(mode)) return ObjectKind::kDirectory;
  if (S_ISLNK(mode)) return ObjectKind::kSymlink;
  if (S_ISFIFO(mode)) return ObjectKind::kFifo;
  if (S_ISSOCK(mode)) return ObjectKind::kSocket;
  if (S_ISCHR(mode)) return ObjectKind::kCharDevice;
  if (S_ISBLK(mode)) return ObjectKind::kBlockDevice;
  return ObjectKind::kOther;
}

ObjectKind kind_of_dirent(unsigned char type) {
  switch (type) {
    case DT_REG: return ObjectKind::kFile;
    case DT_DIR: return ObjectKind::kDirectory;
    case DT_LNK: return ObjectKind::kSymlink;
    case DT_FIFO: return ObjectKind::kFifo;
    case DT_SOCK: return ObjectKind::kSocket;
    case DT_CHR: return ObjectKind::kCharDevice;
    case DT_BLK: return ObjectKind::kBlockDevice;
    default: return ObjectKind::kOther;
  }
}

// "<where>: <what>: <reason>"; a name that is not there is kNotFound.
Status errno_status(const std::string& where, const char* what, int err) {
  if (err == ENOENT || err == ENOTDIR) {
    return Status::not_found(where + ": no such file or directory");
  }
  return Status::io_error(where + ": " + what + ": " + std::strerror(err));
}

// A regular file opened for reading, bounded by the size it had when opened.
class LocalObjectReader final : public ObjectReader {
 public:
  LocalObjectReader(Fd fd, std::string name, uint64_t size)
      : fd_(std::move(fd)), name_(std::move(name)), size_(size) {
    // Only a hint: it fails harmlessly on some file systems.
    (void)::posix_fadvise(fd_.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
  }

  const std::string& name() const noexcept override { return name_; }
  uint64_t size() const noexcept override { return size_; }

  Result<size_t> read(uint8_t* out, size_t n) override {
    if (n == 0) return size_t{0};
    if (pos_ >= size_) {
      uint8_t extra = 0;
      ODF_HASH_ASSIGN_OR_RETURN(size_t more, pread_some(&extra, 1, size_));
      if (more != 0) {
        return Status::io_error(name_ + ": grew while being read (it had " + std::to_string(size_) +
                                " bytes when opened)");
      }
      return size_t{0};
    }
    n = static_cast<size_t>(std::min<uint64_t>(n, size_ - pos_));
    ODF_HASH_ASSIGN_OR_RETURN(size_t got, pread_some(out, n, pos_));
    if (got == 0) {
      return Status::io_error(name_ + ": ended after " + std::to_string(pos_) + " of the " +
                              std::to_string(size_) +
                              " bytes it had when opened (truncated while being read)");
    }
    pos_ += got;
    return got;
  }

  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override {
    if (offset >= size_) return size_t{0};
    n = static_cast<size_t>(std::min<uint64_t>(n, size_ - offset));
    size_t done = 0;
    while (done < n) {
      ODF_HASH_ASSIGN_OR_RETURN(size_t got, pread_some(out + done, n - done, offset + done));
      if (got == 0) break;
      done += got;
    }
    return done;
  }

 private:
  Result<size_t> pread_some(uint8_t* out, size_t n, uint64_t offset) {
    for (;;) {
      ssize_t r = ::pread(fd_.get(), out, n, static_cast<off_t>(offset));
      if (r >= 0) return static_cast<size_t>(r);
      if (errno == EINTR) continue;
      if (errno == EISDIR) return Status::io_error(name_ + ": is a directory");
      return Status::io_error(name_ + ": read error: " + std::strerror(errno));
    }
  }

  Fd fd_;
  std::string name_;
  uint64_t size_;
  uint64_t pos_ = 0;
};

// Reopens what `path_fd` (an O_PATH descriptor checked to be a regular file with `checked`)
// names for reading, through (dir, name), and makes sure it is still the same file.
Result<Fd> reopen_for_reading(int dir, const char* name, int extra_flags,
                              const struct stat& checked, const std::string& where) {
  Fd fd(openat_retry(dir, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | extra_flags));
  if (!fd.valid()) {
    if (errno == ELOOP || errno == ENXIO) {
      return Status::io_error(where + ": changed while being opened");
    }
    return errno_status(where, "cannot open", errno);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return errno_status(where, "cannot stat", errno);
  if (!S_ISREG(st.st_mode) || st.st_dev != checked.st_dev || st.st_ino != checked.st_ino) {
    return Status::io_error(where + ": changed while being opened");
  }
  return fd;
}

class LocalFolderStore final : public ObjectStore {
 public:
  LocalFolderStore(Fd root, std::string path, LocalFolderOptions options)
      : root_(std::move(root)), path_(std::move(path)), options_(options) {}

  std::string location(std::string_view key) const override {
    if (key.empty()) return path_;
    std::string out = path_;
    if (out.empty() || out.back() != '/') out += '/';
    out += key;
    return out;
  }

  bool can_list() const noexcept override { return true; }

  Result<std::vector<ObjectEntry>> list(std::string_view prefix) const override {
    Fd dir_fd;
    const std::string where = location(prefix);
    if (prefix.empty()) {
      dir_fd = Fd(openat_retry(root_.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    } else {
      ODF_HASH_ASSIGN_OR_RETURN(Resolved r, resolve(prefix, nullptr));
      if (r.info.kind != ObjectKind::kDirectory) {
        return Status::invalid_argument(where + ": is a " + object_kind_name(r.info.kind) +
                                        ", not a directory");
      }
      dir_fd = Fd(openat_retry(r.fd.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    }
    if (!dir_fd.valid()) return errno_status(where, "cannot list", errno);
    DIR* d = ::fdopendir(dir_fd.get());
    if (d == nullptr) return errno_status(where, "cannot list", errno);
    dir_fd.release();  // owned by d now
    std::vector<ObjectEntry> entries;
    for (;;) {
      errno = 0;
      struct dirent* e = ::readdir(d);
      if (e == nullptr) break;
      std::string_view name(e->d_name);
      if (name == "." || name == "..") continue;
      ObjectKind kind = kind_of_dirent(e->d_type);
      if (e->d_type == DT_UNKNOWN) {
        struct stat st {};
        if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
          kind = kind_of(st.st_mode);
        }
      }
      entries.push_back(ObjectEntry{std::string(name), kind});
    }
    const int err = errno;
    ::closedir(d);
    if (err != 0) return errno_status(where, "cannot list", err);
    std::sort(entries.begin(), entries.end(),
              [](const ObjectEntry& a, const ObjectEntry& b) { return a.name < b.name; });
    return entries;
  }

  Result<ObjectInfo> stat(std::string_view key) const override {
    ODF_HASH_ASSIGN_OR_RETURN(Resolved r, resolve(key, nullptr));
    return r.info;
  }

  Result<OpenedObject> open(std::string_view key, const OpenOptions& options) const override {
    ReopenRequest reopen;
    ODF_HASH_ASSIGN_OR_RETURN(Resolved r, resolve(key, &reopen));
    OpenedObject out;
    out.info = std::move(r.info);
    if (out.info.kind != ObjectKind::kFile || out.info.size > options.max_size) return out;
    ODF_HASH_ASSIGN_OR_RETURN(Fd fd, reopen_for_reading(reopen.dir, reopen.name.c_str(),
                                                        reopen.flags, r.st, location(key)));
    out.reader = std::make_unique<LocalObjectReader>(std::move(fd), location(key), out.info.size);
    return out;
  }

 private:
  // What a key resolved to: an O_PATH descriptor and its fstat (when something is there and
  // was not a refused link), and what to report about it.
  struct Resolved {
    Fd fd;
    struct stat st {};
    ObjectInfo info;
    Fd parent;  // the folder holding the final name (walk only), for reopening
  };
  // How to reopen the final name for reading: openat(dir, name, flags). Filled by resolve
  // when asked; dir stays valid as long as the Resolved it came with.
  struct ReopenRequest {
    int dir = -1;
    std::string name;
    int flags = 0;
  };

  Result<Resolved> resolve(std::string_view key, ReopenRequest* reopen) const {
    const std::string where = location(key);
    if (!is_valid_object_key(key)) {
      return Status::invalid_argument(where + ": not a valid key");
    }
    Resolved r;
    if (options_.follow_symlinks) {
      const std::string k(key);
      r.fd = Fd(openat_retry(root_.get(), k.c_str(), O_PATH | O_CLOEXEC));
      if (!r.fd.valid()) return errno_status(where, "cannot open", errno);
      if (::fstat(r.fd.get(), &r.st) != 0) return errno_status(where, "cannot stat", errno);
      fill_info(r);
      if (reopen) *reopen = ReopenRequest{root_.get(), k, 0};
      return r;
    }
    return walk(key, reopen, std::move(r));
  }

  static void fill_info(Resolved& r) {
    r.info.kind = kind_of(r.st.st_mode);
    r.info.size = r.info.kind == ObjectKind::kFile ? static_cast<uint64_t>(r.st.st_size) : 0;
  }

  // Component by component from the root, following a link only while its target stays
  // below the root; see local_store.h. `dirs` holds the folders entered (the root is
  // implicit), so ".." pops one and may never pop the root.
  Result<Resolved> walk(std::string_view key, ReopenRequest* reopen, Resolved r) const {
    const std::string where = location(key);
    std::vector<Fd> dirs;
    std::vector<std::string> dir_names;  // the path of each folder in dirs, for messages
    std::deque<std::string> todo;
    auto push_components = [&](std::string_view path) {
      std::vector<std::string> parts;
      size_t start = 0;
      while (start <= path.size()) {
        size_t end = path.find('/', start);
        if (end == std::string_view::npos) end = path.size();
        parts.emplace_back(path.substr(start, end - start));
        start = end + 1;
      }
      todo.insert(todo.begin(), parts.begin(), parts.end());
    };
    auto current_dir = [&] { return dirs.empty() ? root_.get() : dirs.back().get(); };
    auto path_of = [&](const std::string& name) {
      return dir_names.empty() ? name : dir_names.back() + "/" + name;
    };
    auto refused_link = [&](const std::string& link_key, std::string target) {
      Resolved out;
      out.info.kind = ObjectKind::kSymlink;
      out.info.link_key = link_key;
      out.info.link_target = std::move(target);
      return out;
    };
    push_components(key);
    int links = 0;
    std::string last_link_key, last_link_target;
    while (!todo.empty()) {
      std::string name = std::move(todo.front());
      todo.pop_front();
      if (name.empty() || name == ".") continue;
      if (name == "..") {
        if (dirs.empty()) return refused_link(last_link_key, last_link_target);
        dirs.pop_back();
        dir_names.pop_back();
        continue;
      }
      Fd fd(openat_retry(current_dir(), name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
      if (!fd.valid()) return errno_status(where, "cannot open", errno);
      struct stat st {};
      if (::fstat(fd.get(), &st) != 0) return errno_status(where, "cannot stat", errno);
      if (S_ISLNK(st.st_mode)) {
        if (++links > kMaxLinksFollowed) {
          return Status::io_error(where + ": too many levels of symbolic links");
        }
        char buf[PATH_MAX + 1];
        ssize_t n = ::readlinkat(fd.get(), "", buf, sizeof buf);
        if (n < 0) return errno_status(where, "cannot read link", errno);
        last_link_key = path_of(name);
        last_link_target.assign(buf, static_cast<size_t>(n));
        if (static_cast<size_t>(n) == sizeof buf || last_link_target.empty() ||
            last_link_target.front() == '/') {
          return refused_link(last_link_key, last_link_target);
        }
        push_components(last_link_target);
        continue;
      }
      if (!todo.empty()) {
        if (!S_ISDIR(st.st_mode)) return Status::not_found(where + ": no such file or directory");
        dir_names.push_back(path_of(name));
        dirs.push_back(std::move(fd));
        continue;
      }
      r.fd = std::move(fd);
      r.st = st;
      fill_info(r);
      if (reopen) {
        // The folder descriptor must outlive the reopen: keep it in the result.
        r.parent = dirs.empty() ? Fd() : std::move(dirs.back());
        *reopen = ReopenRequest{r.parent.valid() ? r.parent.get() : root_.get(), name, O_NOFOLLOW};
      }
      return r;
    }
    // A link led back to a folder already entered (a link to "." or ".."): that folder.
    r.fd = Fd(openat_retry(current_dir(), ".", O_PATH | O_CLOEXEC));
    if (!r.fd.valid()) return errno_status(where, "cannot open", errno);
    if (::fstat(r.fd.get(), &r.st) != 0) return errno_status(where, "cannot stat", errno);
    fill_info(r);
    return r;
  }

  Fd root_;
  std::string path_;
  LocalFolderOptions options_;
};

}  // namespace

Result<std::shared_ptr<ObjectStore>> open_local_folder(const std::string& path,
                                                       const LocalFolderOptions& options) {
  ODF_HASH_RETURN_IF_ERROR(refuse_nul(path));
  int raw;
  do {
    raw = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  } while (raw < 0 && errno == EINTR);
  if (raw < 0) {
    const int err = errno;
    if (err == ENOENT) return Status::not_found(path + ": no such directory");
    if (err == ENOTDIR) return Status::invalid_argument(path + ": not a directory");
    return Status::io_error(path + ": cannot open: " + std::strerror(err));
  }
  return std::shared_ptr<ObjectStore>(std::make_shared<LocalFolderStore>(Fd(raw), path, options));
}

Result<std::unique_ptr<ObjectReader>> open_local_file(const std::string& path) {
  ODF_HASH_RETURN_IF_ERROR(refuse_nul(path));
  if (path == "-") {
    return Status::invalid_argument(
        "-: standard input is a stream, not a regular file (Parquet and Arrow IPC files are "
        "read at random offsets): give the file's path");
  }
  // A FIFO or device is refused without being opened: even a non-blocking open of a FIFO
  // wakes a writer waiting on it. (The fstat below covers a name swapped in between.)
  struct stat before {};
  if (::stat(path.c_str(), &before) == 0 && !S_ISREG(before.st_mode) && !S_ISDIR(before.st_mode)) {
    return Status::invalid_argument(path + ": is a " + object_kind_name(kind_of(before.st_mode)) +
                                    ", not a regular file (Parquet and Arrow IPC files are read "
                                    "at random offsets)");
  }
  int raw;
  do {
    raw = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  } while (raw < 0 && errno == EINTR);
  if (raw < 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return Status::not_found(path + ": " + std::strerror(err));
    return Status::io_error(path + ": " + std::strerror(err));
  }
  Fd fd(raw);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return Status::io_error(path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return Status::io_error(path + ": is a directory");
    return Status::invalid_argument(path + ": is a " + object_kind_name(kind_of(st.st_mode)) +
                                    ", not a regular file (Parquet and Arrow IPC files are read "
                                    "at random offsets)");
  }
  return std::unique_ptr<ObjectReader>(
      std::make_unique<LocalObjectReader>(std::move(fd), path, static_cast<uint64_t>(st.st_size)));
}

Result<ObjectKind> local_path_kind(const std::string& path) {
  ODF_HASH_RETURN_IF_ERROR(refuse_nul(path));
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return Status::not_found(path + ": " + std::strerror(err));
    return Status::io_error(path + ": " + std::strerror(err));
  }
  return kind_of(st.st_mode);
}

}  // namespace odf_hash
