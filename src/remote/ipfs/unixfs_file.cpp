// UnixFS files (unixfs_file.h).
#include "unixfs_file.h"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace odf_hash::remote::ipfs {

namespace {

// A leaf's bytes and the file offset of their first byte.
struct Piece {
  std::shared_ptr<const Block> block;
  uint64_t start = 0;
};

class UnixFsFileReader final : public ObjectReader {
 public:
  UnixFsFileReader(std::shared_ptr<const BlockSource> source, std::shared_ptr<const Block> root,
                   uint64_t size, std::string name)
      : source_(std::move(source)), root_(std::move(root)), size_(size), name_(std::move(name)) {}

  const std::string& name() const noexcept override { return name_; }
  uint64_t size() const noexcept override { return size_; }

  Result<size_t> read(uint8_t* out, size_t n) override {
    ODF_HASH_ASSIGN_OR_RETURN(const size_t got, read_at(pos_, out, n));
    pos_ += got;
    return got;
  }

  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override {
    if (offset >= size_ || n == 0) return size_t{0};
    n = static_cast<size_t>(std::min<uint64_t>(n, size_ - offset));
    size_t done = 0;
    while (done < n) {
      ODF_HASH_ASSIGN_OR_RETURN(const Piece piece, piece_at(offset + done));
      const auto content = piece.block->content();
      const uint64_t at = offset + done - piece.start;
      const size_t take = static_cast<size_t>(std::min<uint64_t>(n - done, content.size() - at));
      std::memcpy(out + done, content.data() + at, take);
      done += take;
    }
    return done;
  }

 private:
  // The block holding the byte at `offset` (< size_): the last one read, or a walk down.
  Result<Piece> piece_at(uint64_t offset) {
    {
      std::lock_guard lock(mu_);
      if (last_.block && offset >= last_.start &&
          offset - last_.start < last_.block->content().size()) {
        return last_;
      }
    }
    ODF_HASH_ASSIGN_OR_RETURN(Piece piece, walk_to(offset));
    std::lock_guard lock(mu_);
    last_ = piece;
    return piece;
  }

  Result<Piece> walk_to(uint64_t offset) const {
    Piece at{root_, 0};
    for (unsigned depth = 0; depth <= kMaxFileDepth; ++depth) {
      const std::shared_ptr<const Block> node = at.block;  // `at` moves on below
      const Block& b = *node;
      const uint64_t own = b.content().size();
      if (offset - at.start < own) return at;
      uint64_t child_start = at.start + own;
      for (size_t i = 0; i < b.unixfs.blocksizes.size(); ++i) {
        const uint64_t child_size = b.unixfs.blocksizes[i];
        if (offset - child_start >= child_size) {
          child_start += child_size;
          continue;
        }
        auto child = source_->get(b.node.links[i].hash);
        if (!child.is_ok()) return child.status().with_context(name_);
        auto size = file_block_size(**child);
        if (!size.is_ok()) return size.status().with_context(name_);
        if (*size != child_size) {
          return Status::parse_error(name_ + ": the file's block " +
                                     b.node.links[i].hash.to_string() + " holds " +
                                     std::to_string(*size) + " bytes where its parent " +
                                     b.cid.to_string() + " says " + std::to_string(child_size));
        }
        at = Piece{std::move(child).value(), child_start};
        break;
      }
      if (at.block == node) {
        return Status::parse_error(name_ + ": the file's blocks end before byte " +
                                   std::to_string(offset));  // sizes were checked: unreachable
      }
    }
    return Status::parse_error(name_ + ": the file's DAG is more than " +
                               std::to_string(kMaxFileDepth) + " levels deep");
  }

  std::shared_ptr<const BlockSource> source_;
  std::shared_ptr<const Block> root_;
  uint64_t size_;
  std::string name_;
  uint64_t pos_ = 0;  // read()'s position
  std::mutex mu_;
  Piece last_;
};

}  // namespace

std::unique_ptr<ObjectReader> open_unixfs_file(std::shared_ptr<const BlockSource> source,
                                               std::shared_ptr<const Block> root, uint64_t size,
                                               std::string name) {
  return std::make_unique<UnixFsFileReader>(std::move(source), std::move(root), size,
                                            std::move(name));
}

}  // namespace odf_hash::remote::ipfs
