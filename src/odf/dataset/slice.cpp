#include "odf_hash/odf/slice.h"

#include "odf_hash/core/parallel.h"
#include "odf_hash/io/logical_file.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/logical/logical.h"

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

Result<DataSlice> data_slice(const Table& file, const SliceOptions& options) {
  ODF_HASH_RETURN_IF_ERROR(check_table(file, "data_slice"));
  if (!file.one_file()) {
    return Status::invalid_argument("data_slice: " + file.name() +
                                    " is not one whole file; a DataSlice is of one file");
  }
  const std::shared_ptr<ObjectReader>& object = file.objects[0];
  LogicalHashOptions logical = options.logical;
  if (logical.cancel == nullptr) logical.cancel = file.cancel;
  Result<PhysicalDigest> physical = Status::internal("not run");
  Result<LogicalDigest> result = Status::internal("not run");
  side_by_side([&] { result = logical_hash_object(object, logical); },
               [&] { physical = physical_hash_object(*object); });
  return slice_of(object->name(), physical, result, options);
}

}  // namespace odf_hash::odf
