// Records spilled to disk by the order-insensitive comparisons (unordered.cpp, keyed.cpp):
// a temporary file without a name, and a set of partitions, each such a file written in
// batches from a buffer of its own and read back whole, one at a time. Internal to compare.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "odf_hash/core/status.h"

namespace odf_hash::compare::detail {

// A temporary file without a name, in $TMPDIR (else /tmp): removed when closed, also if the
// process dies. (std::tmpfile ignores TMPDIR in glibc.)
class TempFile {
 public:
  TempFile() = default;
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile();

  Status open();
  Status append(const void* data, size_t size);
  // Reads the whole file into `out` (size() bytes).
  Status read_all(void* out) const;
  uint64_t size() const { return size_; }

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
};

// kPartitions TempFiles of fixed-size entries, each buffered by kBatch entries before a write.
template <typename Entry, unsigned kPartitions, size_t kBatch = 4096>
class PartitionedSpill {
 public:
  Status open() {
    for (auto& f : files_) ODF_HASH_RETURN_IF_ERROR(f.open());
    for (auto& p : pending_) p.reserve(kBatch);
    return Status::ok();
  }
  // Appends `e` to partition `p`.
  Status add(unsigned p, const Entry& e) {
    std::vector<Entry>& v = pending_[p];
    v.push_back(e);
    return v.size() == kBatch ? flush(p) : Status::ok();
  }
  // Every entry of partition `p`, in the order added.
  Result<std::vector<Entry>> read(unsigned p) {
    ODF_HASH_RETURN_IF_ERROR(flush(p));
    std::vector<Entry> out(size_t(files_[p].size() / sizeof(Entry)));
    ODF_HASH_RETURN_IF_ERROR(files_[p].read_all(out.data()));
    return out;
  }

 private:
  Status flush(unsigned p) {
    std::vector<Entry>& v = pending_[p];
    if (!v.empty()) ODF_HASH_RETURN_IF_ERROR(files_[p].append(v.data(), v.size() * sizeof(Entry)));
    v.clear();
    return Status::ok();
  }

  std::array<TempFile, kPartitions> files_;
  std::array<std::vector<Entry>, kPartitions> pending_;
};

}  // namespace odf_hash::compare::detail
