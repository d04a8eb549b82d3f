// `logical -`: standard input copied to an unnamed temporary file, so that a Parquet or
// Arrow IPC file piped in (`curl … | odf-hash logical -`) can be read at random offsets as
// the readers need. At most `limit` bytes are copied (more is an error naming the limit and
// the option that raises it); the file, in $TMPDIR (else /tmp), has no name and is gone when
// the spool is destroyed or the process dies.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "odf_hash/core/status.h"

namespace odf_hash::cli {

class StdinSpool {
 public:
  // Reads standard input to its end.
  static Result<std::unique_ptr<StdinSpool>> create(uint64_t limit);
  StdinSpool(const StdinSpool&) = delete;
  StdinSpool& operator=(const StdinSpool&) = delete;
  ~StdinSpool();

  // A path that opens the spooled bytes ("/proc/self/fd/N").
  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }

 private:
  StdinSpool(int fd, uint64_t size);
  int fd_;
  uint64_t size_;
  std::string path_;
};

}  // namespace odf_hash::cli
