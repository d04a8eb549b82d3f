// Internal (odf's dataset entries, the Smart Transfer Protocol store): bytes already in
// memory served as an object (store.h): sequential and random access over bytes a store got
// whole (a metadata block, refs/head, the blocks of a node's answer).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "odf_hash/io/store.h"

namespace odf_hash::io_internal {

// Bytes already read, served as an object. read_at may be called from several threads.
class BytesReader final : public ObjectReader {
 public:
  BytesReader(std::string name, std::shared_ptr<const std::vector<uint8_t>> bytes)
      : name_(std::move(name)), bytes_(std::move(bytes)) {}
  const std::string& name() const noexcept override { return name_; }
  uint64_t size() const noexcept override { return bytes_->size(); }
  Result<size_t> read(uint8_t* out, size_t n) override {
    const size_t got = copy_at(position_, out, n);
    position_ += got;
    return got;
  }
  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override {
    return copy_at(offset, out, n);
  }

 private:
  size_t copy_at(uint64_t offset, uint8_t* out, size_t n) const {
    if (offset >= bytes_->size()) return 0;
    const size_t got = static_cast<size_t>(std::min<uint64_t>(n, bytes_->size() - offset));
    std::memcpy(out, bytes_->data() + offset, got);
    return got;
  }

  std::string name_;
  std::shared_ptr<const std::vector<uint8_t>> bytes_;
  uint64_t position_ = 0;
};

}  // namespace odf_hash::io_internal
