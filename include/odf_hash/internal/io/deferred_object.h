// An object opened only when needed: a run of ODF dataset slices compared as one table may
// hold thousands of files, and holding each open (a descriptor, a connection) for the whole
// comparison could exhaust them. A concatenated record stream (open_concatenated_record_stream
// of record_stream.h) opens a fresh object from a DeferredObject for each file it reads, and drops
// it once the file's records are read; read() and read_at() open it once and keep it.
//
// Thread safety: as ObjectReader (read_at from several threads).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"

namespace odf_hash {

class DeferredObject final : public ObjectReader {
 public:
  using Opener = std::function<Result<std::shared_ptr<ObjectReader>>()>;

  // `size`: the size expected (a dataset's recorded size), reported by size() until the
  // object is opened.
  DeferredObject(std::string name, uint64_t size, Opener open);

  const std::string& name() const noexcept override { return name_; }
  uint64_t size() const noexcept override;
  Result<size_t> read(uint8_t* out, size_t n) override;
  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override;

  // A newly opened object, not kept.
  Result<std::shared_ptr<ObjectReader>> open() const { return open_(); }

 private:
  Result<ObjectReader*> kept();

  std::string name_;
  uint64_t size_;
  Opener open_;
  mutable std::mutex mutex_;
  std::shared_ptr<ObjectReader> kept_;  // opened by read() or read_at()
};

// `object` itself, or a newly opened object when it is a DeferredObject.
Result<std::shared_ptr<ObjectReader>> open_if_deferred(std::shared_ptr<ObjectReader> object);

}  // namespace odf_hash
