// Object stores: where the bytes of a dataset come from (a local folder today; S3 and HTTP
// are meant to be further implementations of the same interface).
//
// A store names its objects by keys: relative, '/'-separated paths such as "refs/head" or
// "data/f1620…" (no leading '/', no "." or ".." components, no empty components). Code that
// checks datasets (the odf layer) and the file readers (io) read through this interface only,
// so they never learn where the bytes come from.
//
// The interface assumes nothing of a local file system:
//  - kinds other than kFile and kDirectory (links, FIFOs, devices) only exist in local
//    folders; an object store reports kFile for objects and kDirectory for common prefixes;
//  - a store may be unable to list (HTTP): can_list() says so and list() then fails with
//    kUnsupported; callers must then find objects by their expected keys;
//  - every object is read through an ObjectReader: sequential reads (a streamed GET) and
//    range reads (a GET with a Range header), with the size known when it was opened.
//
// Objects are untrusted: a store never returns more bytes than OpenOptions::max_size, never
// blocks forever on an object that is not a regular file (it is not opened: see
// OpenedObject), and names the object in every error (ObjectStore::location).
//
// Thread safety: an ObjectStore's methods are const and may be called from any number of
// threads at once. An ObjectReader is used by one thread at a time, except read_at, which
// may be called concurrently, with itself and with read() (Parquet readers do; a data
// slice hashes the bytes with read() while the records are read with read_at).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/status.h"

namespace odf_hash {

// What a key names.
enum class ObjectKind : uint8_t {
  kFile,         // a regular file or an object: the only kind that can be opened and read
  kDirectory,    // a folder (in an object store: a prefix that other keys continue)
  kSymlink,      // a symbolic link the store did not follow (see its link policy)
  kFifo,         // a named pipe
  kSocket,       // a Unix socket
  kCharDevice,   // a character device
  kBlockDevice,  // a block device
  kOther,        // any other kind of special file
};

// "regular file", "directory", "symbolic link", "FIFO (named pipe)", "socket",
// "character device", "block device", "special file".
const char* object_kind_name(ObjectKind kind);

// What a key names, as stat() or open() found it.
struct ObjectInfo {
  ObjectKind kind = ObjectKind::kFile;
  uint64_t size = 0;  // bytes, for kFile (0 otherwise)
  // `size` is a lower bound: the object is larger than OpenOptions::max_size, which it was
  // opened with, and its server announced no size (a body without Content-Length that went
  // on past max_size). Then no reader is given, as for any object over max_size.
  bool size_at_least = false;
  // For kSymlink: the link that was not followed (a key: the link itself, or a folder on the
  // way to the key) and its target as stored in the link. Both are untrusted text: escape
  // them before printing.
  std::string link_key;
  std::string link_target;
};

// One entry of a listing: its name (one component, any bytes but '/' and NUL) and its kind
// as listed, links not followed (kSymlink).
struct ObjectEntry {
  std::string name;
  ObjectKind kind = ObjectKind::kFile;
  // The size of a kFile when the listing says it (object stores list sizes; a local folder
  // does not): callers needing it otherwise stat() the key.
  std::optional<uint64_t> size;
};

// An object opened for reading.
class ObjectReader {
 public:
  virtual ~ObjectReader() = default;

  // The object's location for messages (a path, a URL).
  virtual const std::string& name() const noexcept = 0;

  // The size in bytes when the object was opened. The bytes returned never exceed it.
  virtual uint64_t size() const noexcept = 0;

  // Reads up to `n` bytes from the current position into `out` and advances it; returns 0
  // at the end. Errors name the object. An object that turns out longer than size() (a
  // file appended to while being read, a body longer than announced) is an error, never
  // more bytes.
  virtual Result<size_t> read(uint8_t* out, size_t n) = 0;

  // Reads up to `n` bytes at `offset` (fewer only at the end of the object); does not move
  // the position of read(). May be called from several threads at once, and while another
  // thread is in read().
  virtual Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) = 0;
};

struct OpenOptions {
  // The largest object the caller accepts: a larger one is not read (OpenedObject::reader
  // stays null, info.size says how large it is). Set it whenever the size is known in
  // advance (a recorded size) or bounded (a metadata block, a ref).
  uint64_t max_size = std::numeric_limits<uint64_t>::max();
};

// The outcome of open(): what the key names, and a reader when it is a regular file of at
// most max_size bytes. A key that names something else (a directory, a FIFO, a link the
// store does not follow) is not an error: info says what it is and reader is null.
struct OpenedObject {
  ObjectInfo info;
  std::unique_ptr<ObjectReader> reader;
};

class ObjectStore {
 public:
  virtual ~ObjectStore() = default;

  // Where `key` is, for messages: "<root>/<key>" for a folder, a URL for a remote store;
  // location("") is the store's root.
  virtual std::string location(std::string_view key) const = 0;

  // Whether list() works. A store that cannot list (HTTP) still opens and stats keys.
  virtual bool can_list() const noexcept = 0;

  // The entries directly under the folder `prefix` ("" for the root), sorted by name.
  // kNotFound when there is no such folder, kInvalidArgument when `prefix` names something
  // that is not a folder, kUnsupported when the store cannot list.
  virtual Result<std::vector<ObjectEntry>> list(std::string_view prefix) const = 0;

  // What `key` names, links followed as the store's policy says. kNotFound when nothing is
  // there; kIoError when the store refused (permission denied, network error).
  virtual Result<ObjectInfo> stat(std::string_view key) const = 0;

  // Opens `key` for reading; see OpenedObject. kNotFound when nothing is there; kIoError
  // when the store refused (permission denied) or the object changed while being opened.
  virtual Result<OpenedObject> open(std::string_view key,
                                    const OpenOptions& options = {}) const = 0;
};

// Whether `key` is a valid store key (see the top of this file).
bool is_valid_object_key(std::string_view key);

// kInvalidArgument when a path or URL a caller gives holds a NUL byte: the operating system
// and libcurl read names up to the first NUL, so "/etc/passwd\0.txt" would open /etc/passwd.
// Every function that takes a path or URL from a caller (Python, the C ABI, task JSON, check
// lists) checks it first.
Status refuse_nul(std::string_view path_or_url);

// "prefix/name" (or "name" for an empty prefix).
std::string join_object_key(std::string_view prefix, std::string_view name);

// Reads the whole object (reader.size() bytes, then checks that nothing follows). For small
// objects (refs, metadata blocks): open them with a max_size.
Result<std::vector<uint8_t>> read_all(ObjectReader& reader);

// Reads until `n` bytes are in `out` or the object ends; returns the bytes read.
Result<size_t> read_fully(ObjectReader& reader, uint8_t* out, size_t n);

}  // namespace odf_hash
