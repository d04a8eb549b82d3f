// The ODF DataSlice of a data file: what a coordinator records in an AddData or
// ExecuteTransform block for a new data part file (logicalHash, physicalHash,
// offsetInterval, size).
//
// Thread safety: reentrant; distinct files may be sliced from distinct threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/logical/logical.h"
#include "odf_hash/odf/odf_block.h"

namespace odf_hash::odf {

struct SliceOptions {
  uint64_t offset = 0;         // offset of the file's first record in the dataset
  LogicalHashOptions logical;  // threads for the logical hash (never changes the result)
  // When set, receives the leaf columns whose type the reference cannot hash
  // (ColumnDigest::reference_gap not empty): a logicalHash kamu cannot check. Written only
  // when the slice is computed.
  std::vector<ColumnDigest>* reference_gaps = nullptr;
};

// Reads the file twice, side by side: its physical hash and size (the exact bytes), and its
// logical hash and record count (the records, as arrow-rs reads them; see record_stream.h). The
// interval is [offset, offset + records - 1].
// Errors name the path: the file cannot be read or parsed (as physical_hash_file and
// logical_hash_file report them); kInvalidArgument when the file holds no records (ODF
// records no DataSlice for an empty file) or when offset + records overflows 64 bits.
Result<DataSlice> data_slice_of_file(const std::string& path, const SliceOptions& options = {});

// The same over an opened object of any store (a URL: open_store.h): the bytes are hashed
// with read() while the records are read with read_at(), side by side. Errors name
// object->name().
Result<DataSlice> data_slice_of_object(std::shared_ptr<ObjectReader> object,
                                       const SliceOptions& options = {});

// data_slice_of_file for a path, data_slice_of_object of open_object(url, store) for a URL.
Result<DataSlice> data_slice_of_path_or_url(const std::string& path_or_url,
                                            const SliceOptions& options = {},
                                            const StoreOptions& store = {});

}  // namespace odf_hash::odf
