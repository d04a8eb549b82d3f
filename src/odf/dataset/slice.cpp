#include "odf_hash/odf/slice.h"

#include "odf_hash/core/parallel.h"
#include "odf_hash/io/local_store.h"
#include "odf_hash/io/logical_file.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/logical/logical.h"
#include "odf_hash/remote/open_store.h"

namespace odf_hash::odf {

namespace {

Result<DataSlice> slice_of(const std::string& path, const Result<PhysicalDigest>& physical,
                           const Result<LogicalDigest>& logical, const SliceOptions& options) {
  ODF_HASH_RETURN_IF_ERROR(physical.status());
  ODF_HASH_RETURN_IF_ERROR(logical.status());
  if (logical->num_rows == 0) {
    return Status::invalid_argument(
        path + " holds no records; ODF records no DataSlice for an empty file");
  }
  const uint64_t end = options.offset + logical->num_rows - 1;
  if (end < options.offset) {
    return Status::invalid_argument("offset " + std::to_string(options.offset) + " + " +
                                    std::to_string(logical->num_rows) +
                                    " records overflows 64 bits");
  }
  if (options.reference_gaps != nullptr) {
    options.reference_gaps->clear();
    for (const ColumnDigest& c : logical->columns) {
      if (!c.reference_gap.empty()) options.reference_gaps->push_back(c);
    }
  }
  return DataSlice{logical->multihash(), physical->hash, OffsetInterval{options.offset, end},
                   physical->size};
}

}  // namespace

Result<DataSlice> data_slice_of_file(const std::string& path, const SliceOptions& options) {
  // Opened once, as a regular file (a FIFO or "-" is refused at once, never waited on); the
  // two hashes then read it side by side.
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_local_file(path));
  return data_slice_of_object(std::move(object), options);
}

Result<DataSlice> data_slice_of_object(std::shared_ptr<ObjectReader> object,
                                       const SliceOptions& options) {
  if (object == nullptr) return Status::invalid_argument("data_slice_of_object: null object");
  Result<PhysicalDigest> physical = Status::internal("not run");
  Result<LogicalDigest> logical = Status::internal("not run");
  side_by_side([&] { logical = logical_hash_object(object, options.logical); },
               [&] { physical = physical_hash_object(*object); });
  return slice_of(object->name(), physical, logical, options);
}

Result<DataSlice> data_slice_of_path_or_url(const std::string& path_or_url,
                                            const SliceOptions& options,
                                            const StoreOptions& store) {
  // open_object opens a local path as data_slice_of_file does, and makes the reads
  // cancellable (store.cancel).
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_object(path_or_url, store));
  SliceOptions checked = options;
  if (checked.logical.cancel == nullptr) checked.logical.cancel = store.cancel;
  return data_slice_of_object(std::move(object), checked);
}

}  // namespace odf_hash::odf
