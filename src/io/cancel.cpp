// cancel.h's store and reader wrappers.
#include "odf_hash/io/cancel.h"

#include <utility>

namespace odf_hash {

namespace {

// The wrapped call's error, or kCancelled when the flag was set meanwhile (the call most
// likely failed because of it: an aborted transfer).
Status judged(Status st, const CancelFlag* flag, const std::string& what) {
  if (!st.is_ok() && cancel_requested(flag)) return cancelled_status(what);
  return st;
}

class CancellableReader final : public ObjectReader {
 public:
  CancellableReader(std::unique_ptr<ObjectReader> inner, const CancelFlag* flag)
      : inner_(std::move(inner)), flag_(flag) {}

  const std::string& name() const noexcept override { return inner_->name(); }
  uint64_t size() const noexcept override { return inner_->size(); }

  Result<size_t> read(uint8_t* out, size_t n) override {
    if (cancel_requested(flag_)) return cancelled_status(name());
    Result<size_t> r = inner_->read(out, n);
    if (r.is_ok()) return r;
    return judged(r.status(), flag_, name());
  }

  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override {
    if (cancel_requested(flag_)) return cancelled_status(name());
    Result<size_t> r = inner_->read_at(offset, out, n);
    if (r.is_ok()) return r;
    return judged(r.status(), flag_, name());
  }

 private:
  std::unique_ptr<ObjectReader> inner_;
  const CancelFlag* flag_;
};

class CancellableStore final : public ObjectStore {
 public:
  CancellableStore(std::shared_ptr<ObjectStore> inner, const CancelFlag* flag)
      : inner_(std::move(inner)), flag_(flag) {}

  std::string location(std::string_view key) const override { return inner_->location(key); }
  bool can_list() const noexcept override { return inner_->can_list(); }

  Result<std::vector<ObjectEntry>> list(std::string_view prefix) const override {
    if (cancel_requested(flag_)) return cancelled_status(location(prefix));
    Result<std::vector<ObjectEntry>> r = inner_->list(prefix);
    if (r.is_ok()) return r;
    return judged(r.status(), flag_, location(prefix));
  }

  Result<ObjectInfo> stat(std::string_view key) const override {
    if (cancel_requested(flag_)) return cancelled_status(location(key));
    Result<ObjectInfo> r = inner_->stat(key);
    if (r.is_ok()) return r;
    return judged(r.status(), flag_, location(key));
  }

  Result<OpenedObject> open(std::string_view key, const OpenOptions& options) const override {
    if (cancel_requested(flag_)) return cancelled_status(location(key));
    Result<OpenedObject> r = inner_->open(key, options);
    if (!r.is_ok()) return judged(r.status(), flag_, location(key));
    OpenedObject opened = std::move(r).value();
    if (opened.reader) opened.reader = cancellable_reader(std::move(opened.reader), flag_);
    return opened;
  }

 private:
  std::shared_ptr<ObjectStore> inner_;
  const CancelFlag* flag_;
};

thread_local const CancelFlag* scope_flag = nullptr;

}  // namespace

CancelScope::CancelScope(const CancelFlag* flag) noexcept : previous_(scope_flag) {
  if (flag != nullptr) scope_flag = flag;
}

CancelScope::~CancelScope() {
  scope_flag = previous_;
}

bool CancelScope::requested() noexcept {
  return cancel_requested(scope_flag);
}

std::shared_ptr<ObjectStore> cancellable_store(std::shared_ptr<ObjectStore> store,
                                               const CancelFlag* flag) {
  if (flag == nullptr || store == nullptr) return store;
  return std::make_shared<CancellableStore>(std::move(store), flag);
}

std::unique_ptr<ObjectReader> cancellable_reader(std::unique_ptr<ObjectReader> reader,
                                                 const CancelFlag* flag) {
  if (flag == nullptr || reader == nullptr) return reader;
  return std::make_unique<CancellableReader>(std::move(reader), flag);
}

}  // namespace odf_hash
