#include "fetch/dest_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include <dirent.h>

#include "odf_hash/internal/io/exclusive_temp.h"

namespace odf_hash::odf::fetch_detail {

namespace {

using io_internal::Fd;

std::string why(int e) {
  return std::strerror(e);
}

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// The folder `name` below `parent`, made when missing; a link or a file there is refused.
Result<Fd> open_subfolder(int parent, const std::string& name, const std::string& shown) {
  if (::mkdirat(parent, name.c_str(), 0777) != 0 && errno != EEXIST) {
    return Status::io_error(shown + ": cannot make the folder: " + why(errno));
  }
  Fd fd(::openat(parent, name.c_str(), kDirFlags));
  if (!fd.valid()) {
    if (errno == ELOOP || errno == ENOTDIR) {
      return Status::invalid_argument(shown +
                                      ": not a folder (a link or a file is there); "
                                      "fetch writes only into real folders of DEST");
    }
    return Status::io_error(shown + ": cannot open the folder: " + why(errno));
  }
  return fd;
}

// The names of the folder's entries ("." and ".." left out).
Result<std::vector<std::string>> entry_names(int fd, const std::string& shown) {
  const int dup = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  DIR* d = dup < 0 ? nullptr : ::fdopendir(dup);
  if (!d) {
    const int e = errno;
    if (dup >= 0) ::close(dup);
    return Status::io_error(shown + ": cannot list the folder: " + why(e));
  }
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(std::move(n));
  }
  ::closedir(d);
  return names;
}

}  // namespace

Status write_all(int fd, const uint8_t* p, size_t n, const std::string& shown) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status::io_error(shown + ": cannot write: " + why(errno));
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return Status::ok();
}

Result<DestFolder> DestFolder::open(const std::string& path) {
  DestFolder d;
  d.path_ = path;
  if (::mkdir(path.c_str(), 0777) != 0 && errno != EEXIST) {
    return Status::io_error(path + ": cannot make the destination folder: " + why(errno));
  }
  d.root_ = Fd(::open(path.c_str(), kDirFlags));
  if (!d.root_.valid()) {
    if (errno == ELOOP || errno == ENOTDIR) {
      return Status::invalid_argument(path + ": the destination is not a folder");
    }
    return Status::io_error(path + ": cannot open the destination folder: " + why(errno));
  }
  ODF_HASH_ASSIGN_OR_RETURN(std::vector<std::string> names, entry_names(d.root_.get(), path));
  bool dataset = false, foreign = false;
  for (const std::string& n : names) {
    dataset = dataset || n == "refs" || n == "blocks";
    foreign = foreign || (n != kPrivateFolder && n != "data" && n != "checkpoints" &&
                          n != "info");  // what an interrupted fetch leaves
  }
  if (foreign && !dataset) {
    return Status::invalid_argument(path +
                                    ": the destination holds files but no dataset (no "
                                    "refs/ nor blocks/): fetch into a new or empty folder, or "
                                    "a dataset");
  }
  ODF_HASH_ASSIGN_OR_RETURN(d.private_,
                            open_subfolder(d.root_.get(), kPrivateFolder, d.shown(kPrivateFolder)));
  d.lock_ = Fd(::openat(d.private_.get(), "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666));
  if (!d.lock_.valid()) {
    return Status::io_error(d.shown(std::string(kPrivateFolder) + "/lock") +
                            ": cannot open the lock file: " + why(errno));
  }
  if (::flock(d.lock_.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      return Status::io_error(path + ": another fetch is writing this destination");
    }
    return Status::io_error(path + ": cannot lock the destination: " + why(errno));
  }
  return d;
}

const Fd* DestFolder::slot(const std::string& folder) const {
  if (folder == "refs") return &refs_;
  if (folder == "blocks") return &blocks_;
  if (folder == "data") return &data_;
  if (folder == "checkpoints") return &checkpoints_;
  return nullptr;
}

Status DestFolder::make_folder(const std::string& name) {
  const Fd* s = slot(name);
  if (!s) return Status::internal("fetch: no folder " + name + " in a dataset");
  if (s->valid()) return Status::ok();
  ODF_HASH_ASSIGN_OR_RETURN(Fd fd, open_subfolder(root_.get(), name, shown(name)));
  *const_cast<Fd*>(s) = std::move(fd);
  return Status::ok();
}

int DestFolder::folder_of(const std::string& key, std::string* name) const {
  const size_t slash = key.find('/');
  if (slash == std::string::npos) return -1;
  const Fd* s = slot(key.substr(0, slash));
  *name = key.substr(slash + 1);
  return s && s->valid() ? s->get() : -1;
}

Result<std::optional<Fd>> DestFolder::open_final(const std::string& key) {
  std::string name;
  const int dir = folder_of(key, &name);
  if (dir < 0) return Status::internal("fetch: the folder of " + key + " is not open");
  Fd fd(::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) {
    if (errno == ENOENT) return std::optional<Fd>();
    if (errno == ELOOP) {
      return Status::invalid_argument(shown(key) +
                                      ": a symbolic link is there; fetch never "
                                      "writes through one");
    }
    return Status::io_error(shown(key) + ": cannot open: " + why(errno));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return Status::invalid_argument(shown(key) + ": not a regular file");
  }
  return std::optional<Fd>(std::move(fd));
}

Result<PartialFile> DestFolder::open_partial(const std::string& name) {
  PartialFile p;
  p.name = name + ".partial";
  const std::string where = shown(std::string(kPrivateFolder) + "/" + p.name);
  p.fd = Fd(::openat(private_.get(), p.name.c_str(),
                     O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666));
  if (!p.fd.valid()) return Status::io_error(where + ": cannot open: " + why(errno));
  struct stat st {};
  if (::fstat(p.fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return Status::invalid_argument(where + ": not a regular file");
  }
  p.size = static_cast<uint64_t>(st.st_size);
  if (::lseek(p.fd.get(), 0, SEEK_END) < 0) {
    return Status::io_error(where + ": cannot seek: " + why(errno));
  }
  return p;
}

void start_writeback(PartialFile& partial, uint64_t end) {
#if defined(__linux__)
  constexpr uint64_t kWriteback = 2u << 20;  // 2 MiB: measured in bench/fetch.sh
  if (end < partial.written_back + kWriteback) return;
  (void)::sync_file_range(partial.fd.get(), static_cast<off_t>(partial.written_back),
                          static_cast<off_t>(end - partial.written_back), SYNC_FILE_RANGE_WRITE);
  partial.written_back = end;
#else
  (void)partial;
  (void)end;
#endif
}

Status DestFolder::discard_partial(const PartialFile& partial) {
  if (::unlinkat(private_.get(), partial.name.c_str(), 0) != 0 && errno != ENOENT) {
    return Status::io_error(shown(std::string(kPrivateFolder) + "/" + partial.name) +
                            ": cannot remove: " + why(errno));
  }
  return Status::ok();
}

Status DestFolder::commit_partial(const PartialFile& partial, const std::string& key) {
  std::string name;
  const int dir = folder_of(key, &name);
  if (dir < 0) return Status::internal("fetch: the folder of " + key + " is not open");
  if (::fsync(partial.fd.get()) != 0) {
    return Status::io_error(shown(key) + ": cannot flush to disk: " + why(errno));
  }
  if (::renameat(private_.get(), partial.name.c_str(), dir, name.c_str()) != 0) {
    return Status::io_error(shown(key) + ": cannot rename into place: " + why(errno));
  }
  return Status::ok();
}

Status DestFolder::write_file(const std::string& key, std::span<const uint8_t> bytes) {
  std::string name;
  const int dir = folder_of(key, &name);
  if (dir < 0) return Status::internal("fetch: the folder of " + key + " is not open");
  ODF_HASH_ASSIGN_OR_RETURN(
      io_internal::ExclusiveTemp temp,
      io_internal::create_exclusive_temp(private_.get(), shown(kPrivateFolder),
                                         io_internal::random_temp_names(name)));
  Fd fd(temp.fd);
  Status s = write_all(fd.get(), bytes.data(), bytes.size(), shown(key));
  if (s.is_ok() && ::fsync(fd.get()) != 0) {
    s = Status::io_error(shown(key) + ": cannot flush to disk: " + why(errno));
  }
  if (s.is_ok() && ::renameat(private_.get(), temp.name.c_str(), dir, name.c_str()) != 0) {
    s = Status::io_error(shown(key) + ": cannot rename into place: " + why(errno));
  }
  if (!s.is_ok()) (void)::unlinkat(private_.get(), temp.name.c_str(), 0);
  return s;
}

void DestFolder::sync_folders() {
  for (const Fd* fd : {&data_, &checkpoints_, &blocks_, &refs_, &root_}) {
    if (fd->valid()) (void)::fsync(fd->get());  // some file systems cannot sync a folder
  }
}

void DestFolder::remove_private_folder_if_empty() {
  auto names = entry_names(private_.get(), shown(kPrivateFolder));
  if (!names.is_ok() || names->size() != 1 || names->front() != "lock") return;
  // Under the lock; a fetch starting meanwhile makes the folder and its lock anew.
  if (::unlinkat(private_.get(), "lock", 0) == 0) {
    (void)::unlinkat(root_.get(), kPrivateFolder, AT_REMOVEDIR);
  }
}

}  // namespace odf_hash::odf::fetch_detail
