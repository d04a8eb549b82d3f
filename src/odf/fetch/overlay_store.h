// Private to fetch: the source seen through what DEST already holds. An incremental fetch
// plans over the whole chain (the new blocks above DEST's verified ones), so that a linked
// object of a new data file is known even when the SetDataSchema naming its column is below
// DEST's head, and a trusted head or dataset id is looked for down to the Seed; the link
// columns of DEST's own data files are then read from DEST, not transferred again. Keys DEST
// has are read from it (a store that cannot list: DatasetDir names files canonically);
// others from the source.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "odf_hash/io/store.h"

namespace odf_hash::odf::fetch_detail {

class OverlayStore final : public ObjectStore {
 public:
  OverlayStore(std::shared_ptr<const ObjectStore> dest, std::shared_ptr<const ObjectStore> source)
      : dest_(std::move(dest)), source_(std::move(source)) {}

  std::string location(std::string_view key) const override { return source_->location(key); }
  bool can_list() const noexcept override { return false; }
  Result<std::vector<ObjectEntry>> list(std::string_view prefix) const override {
    return Status::unsupported(source_->location(prefix) + ": not listed");
  }
  Result<ObjectInfo> stat(std::string_view key) const override {
    auto here = dest_->stat(key);
    if (here.is_ok() && here->kind == ObjectKind::kFile) return here;
    return source_->stat(key);
  }
  Result<OpenedObject> open(std::string_view key, const OpenOptions& options) const override {
    auto here = dest_->open(key, options);
    if (here.is_ok() && here->reader) return here;
    return source_->open(key, options);
  }

 private:
  std::shared_ptr<const ObjectStore> dest_, source_;
};

}  // namespace odf_hash::odf::fetch_detail
