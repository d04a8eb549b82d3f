// Helpers of the object interface that every store shares.
#include "odf_hash/io/store.h"
#include "odf_hash/core/text.h"

#include <cstdio>

namespace odf_hash {

const char* object_kind_name(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kFile: return "regular file";
    case ObjectKind::kDirectory: return "directory";
    case ObjectKind::kSymlink: return "symbolic link";
    case ObjectKind::kFifo: return "FIFO (named pipe)";
    case ObjectKind::kSocket: return "socket";
    case ObjectKind::kCharDevice: return "character device";
    case ObjectKind::kBlockDevice: return "block device";
    case ObjectKind::kOther: return "special file";
  }
  return "special file";
}

bool is_valid_object_key(std::string_view key) {
  if (key.empty() || key.size() > 4096) return false;
  size_t start = 0;
  for (;;) {
    size_t end = key.find('/', start);
    std::string_view part =
        key.substr(start, end == std::string_view::npos ? key.npos : end - start);
    if (part.empty() || part == "." || part == "..") return false;
    if (part.find('\0') != std::string_view::npos) return false;
    if (end == std::string_view::npos) return true;
    start = end + 1;
  }
}

Status refuse_nul(std::string_view path_or_url) {
  const size_t nul = path_or_url.find('\0');
  if (nul == std::string_view::npos) return Status::ok();
  return Status::invalid_argument("\"" + escape_untrusted(path_or_url, 160) +
                                  "\": a path or URL holding a NUL byte (at byte " +
                                  std::to_string(nul) + ") is refused");
}

std::string join_object_key(std::string_view prefix, std::string_view name) {
  if (prefix.empty()) return std::string(name);
  std::string key(prefix);
  key += '/';
  key += name;
  return key;
}

Result<size_t> read_fully(ObjectReader& reader, uint8_t* out, size_t n) {
  size_t done = 0;
  while (done < n) {
    ODF_HASH_ASSIGN_OR_RETURN(size_t got, reader.read(out + done, n - done));
    if (got == 0) break;
    done += got;
  }
  return done;
}

Result<std::vector<uint8_t>> read_all(ObjectReader& reader) {
  std::vector<uint8_t> bytes(static_cast<size_t>(reader.size()));
  ODF_HASH_ASSIGN_OR_RETURN(size_t got, read_fully(reader, bytes.data(), bytes.size()));
  if (got != bytes.size()) {
    return Status::io_error(reader.name() + ": ended after " + std::to_string(got) + " of its " +
                            std::to_string(bytes.size()) + " bytes");
  }
  uint8_t extra = 0;
  ODF_HASH_ASSIGN_OR_RETURN(size_t more, reader.read(&extra, 1));
  if (more != 0) return Status::internal(reader.name() + ": a reader returned more than size()");
  return bytes;
}

}  // namespace odf_hash
