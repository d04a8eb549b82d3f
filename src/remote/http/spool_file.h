// Internal to remote: anonymous temporary storage for an HTTP object whose size the server
// does not announce, or that it serves without Range support, when random access is needed
// (the logical fallback of a derivative data file reads Parquet at offsets). The object is
// read whole once, into a file that has no name (O_TMPFILE, else unlinked at once), so
// nothing is left behind however the process ends; memory stays bounded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "odf_hash/core/status.h"

namespace odf_hash::remote {

// The most bytes one object may spool: $ODF_HASH_HTTP_SPOOL_LIMIT when set (not empty; a
// size as parse_byte_size of text.h takes it: "8G"), else kDefaultSpoolLimit. A value
// that does not parse is an error naming the variable, never the default without a word.
constexpr uint64_t kDefaultSpoolLimit = uint64_t{4} << 30;
Result<uint64_t> spool_limit();

// Thread safety: append() and clear() by one thread, with no read_at() running; read_at()
// from any number of threads at once once the writing is done.
class SpoolFile {
 public:
  // A new empty file in $TMPDIR (else /tmp). `name` is the object's, for messages.
  static Result<std::unique_ptr<SpoolFile>> create(const std::string& name);
  ~SpoolFile();
  SpoolFile(const SpoolFile&) = delete;
  SpoolFile& operator=(const SpoolFile&) = delete;

  Status append(const uint8_t* data, size_t n);
  // Empties the file (a transfer started again from its first byte).
  Status clear();
  // Up to `n` bytes at `offset` (fewer only at the end).
  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) const;
  uint64_t size() const noexcept { return size_; }

 private:
  SpoolFile(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  int fd_;
  std::string name_;
  uint64_t size_ = 0;
};

}  // namespace odf_hash::remote
