// DeferredObject (deferred_object.h).
#include "odf_hash/internal/io/deferred_object.h"

#include <utility>

namespace odf_hash {

DeferredObject::DeferredObject(std::string name, uint64_t size, Opener open)
    : name_(std::move(name)), size_(size), open_(std::move(open)) {}

uint64_t DeferredObject::size() const noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  return kept_ != nullptr ? kept_->size() : size_;
}

Result<ObjectReader*> DeferredObject::kept() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (kept_ == nullptr) {
    ODF_HASH_ASSIGN_OR_RETURN(kept_, open_());
    if (kept_ == nullptr) return Status::internal(name_ + ": the opener gave no object");
  }
  return kept_.get();
}

Result<size_t> DeferredObject::read(uint8_t* out, size_t n) {
  ODF_HASH_ASSIGN_OR_RETURN(ObjectReader * o, kept());
  return o->read(out, n);
}

Result<size_t> DeferredObject::read_at(uint64_t offset, uint8_t* out, size_t n) {
  ODF_HASH_ASSIGN_OR_RETURN(ObjectReader * o, kept());
  return o->read_at(offset, out, n);
}

Result<std::shared_ptr<ObjectReader>> open_if_deferred(std::shared_ptr<ObjectReader> object) {
  if (const auto* d = dynamic_cast<const DeferredObject*>(object.get())) {
    ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectReader> fresh, d->open());
    if (fresh == nullptr) return Status::internal(d->name() + ": the opener gave no object");
    return fresh;
  }
  return object;
}

}  // namespace odf_hash
