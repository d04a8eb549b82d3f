// Objects whose reads are counted (include/odf_hash/io/read_counter.h).
#include "odf_hash/io/read_counter.h"

#include <string>
#include <utility>

#include "odf_hash/internal/io/deferred_object.h"

namespace odf_hash {

namespace {

class CountedObject final : public ObjectReader {
 public:
  CountedObject(std::shared_ptr<ObjectReader> object, std::shared_ptr<ReadCounter> counter)
      : object_(std::move(object)), counter_(std::move(counter)) {}

  const std::string& name() const noexcept override { return object_->name(); }
  uint64_t size() const noexcept override { return object_->size(); }
  Result<size_t> read(uint8_t* out, size_t n) override { return counted(object_->read(out, n)); }
  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override {
    return counted(object_->read_at(offset, out, n));
  }

 private:
  Result<size_t> counted(Result<size_t> r) {
    if (r.is_ok()) counter_->bytes.fetch_add(*r, std::memory_order_relaxed);
    return r;
  }

  std::shared_ptr<ObjectReader> object_;
  std::shared_ptr<ReadCounter> counter_;
};

}  // namespace

std::shared_ptr<ObjectReader> count_reads(std::shared_ptr<ObjectReader> object,
                                          std::shared_ptr<ReadCounter> counter) {
  if (object == nullptr || counter == nullptr) return object;
  if (auto* deferred = dynamic_cast<DeferredObject*>(object.get())) {
    const std::string name = deferred->name();
    const uint64_t size = deferred->size();
    return std::make_shared<DeferredObject>(
        name, size, [object, counter]() -> Result<std::shared_ptr<ObjectReader>> {
          ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<ObjectReader> opened,
                                    static_cast<DeferredObject&>(*object).open());
          return std::shared_ptr<ObjectReader>(
              std::make_shared<CountedObject>(std::move(opened), counter));
        });
  }
  return std::make_shared<CountedObject>(std::move(object), std::move(counter));
}

Table count_reads(Table table, const std::shared_ptr<ReadCounter>& counter) {
  for (auto& o : table.objects) o = count_reads(std::move(o), counter);
  return table;
}

}  // namespace odf_hash
