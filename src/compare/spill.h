// Records spilled to disk by the order-insensitive comparisons (unordered.cpp, keyed.cpp):
// a temporary file without a name, and a set of partitions in one such file, each written in
// blocks from a buffer of its own and read back whole. Internal to compare.
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
  // Reads `size` bytes at `offset` into `out`; safe from several threads at once.
  Status read_at(uint64_t offset, void* out, size_t size) const;
  uint64_t size() const { return size_; }

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
};

// kPartitions partitions of fixed-size entries in one TempFile: each partition buffered by
// kBatch entries, written as a block at the end of the file, and read back as its blocks.
// One file descriptor however many partitions (a process may be short of them).
template <typename Entry, unsigned kPartitions, size_t kBatch = 4096>
class PartitionedSpill {
 public:
  Status open() {
    ODF_HASH_RETURN_IF_ERROR(file_.open());
    for (auto& p : pending_) p.reserve(kBatch);
    return Status::ok();
  }
  // Appends `e` to partition `p`.
  Status add(unsigned p, const Entry& e) {
    std::vector<Entry>& v = pending_[p];
    v.push_back(e);
    return v.size() == kBatch ? flush(p) : Status::ok();
  }
  // Writes what is buffered: after the last add, before the first read.
  Status finish() {
    for (unsigned p = 0; p < kPartitions; ++p) ODF_HASH_RETURN_IF_ERROR(flush(p));
    pending_ = {};
    finished_ = true;
    return Status::ok();
  }
  // Replaces `out` with every entry of partition `p`, in the order added (after finish();
  // several partitions may be read at once from several threads).
  Status read(unsigned p, std::vector<Entry>& out) const {
    // Before finish(), the entries still buffered would be missing without a word.
    if (!finished_) return Status::internal("a spill read before it was finished");
    size_t n = 0;
    for (const Block& b : blocks_[p]) n += b.entries;
    out.resize(n);
    size_t at = 0;
    for (const Block& b : blocks_[p]) {
      ODF_HASH_RETURN_IF_ERROR(file_.read_at(b.offset, out.data() + at, b.entries * sizeof(Entry)));
      at += b.entries;
    }
    return Status::ok();
  }
  Result<std::vector<Entry>> read(unsigned p) const {
    std::vector<Entry> out;
    ODF_HASH_RETURN_IF_ERROR(read(p, out));
    return out;
  }

 private:
  struct Block {
    uint64_t offset;
    size_t entries;
  };

  Status flush(unsigned p) {
    std::vector<Entry>& v = pending_[p];
    if (v.empty()) return Status::ok();
    blocks_[p].push_back({file_.size(), v.size()});
    ODF_HASH_RETURN_IF_ERROR(file_.append(v.data(), v.size() * sizeof(Entry)));
    v.clear();
    return Status::ok();
  }

  TempFile file_;
  bool finished_ = false;
  std::array<std::vector<Entry>, kPartitions> pending_;
  std::array<std::vector<Block>, kPartitions> blocks_;
};

}  // namespace odf_hash::compare::detail
