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
#include "odf_hash/io/local_store.h"
#include "odf_hash/io/store.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/io/table.h"
#include "odf_hash/logical/logical.h"
#include "odf_hash/odf/odf_block.h"
#include "odf_hash/remote/open_table.h"

namespace odf_hash::odf {

struct SliceOptions {
  uint64_t offset = 0;         // offset of the file's first record in the dataset
  LogicalHashOptions logical;  // threads for the logical hash (never changes the result)
  // When set, receives the leaf columns whose type the reference cannot hash
  // (ColumnDigest::reference_gap not empty): a logicalHash kamu cannot check. Written only
  // when the slice is computed.
  std::vector<ColumnDigest>* reference_gaps = nullptr;
};

// The DataSlice of one data file (io/table.h: Table::of an opened object of any store, or
// open_table of remote/open_table.h for a path or URL). Reads it twice, side by side: its
// physical hash and size (the exact bytes, with read()), and its logical hash and record count
// (the records as arrow-rs reads them, with read_at(): see record_stream.h). The interval is
// [offset, offset + records - 1]. The table's cancel flag stops the logical hash too (when
// options.logical.cancel is not set).
// Errors name the file: it cannot be read or parsed (as physical_hash_object and
// logical_hash_object report them); kInvalidArgument when the table is not one whole file
// (Table::one_file), when the file holds no records (ODF records no DataSlice for an empty
// file) or when offset + records overflows 64 bits.
Result<DataSlice> data_slice(const Table& file, const SliceOptions& options = {});

// Shorthands kept for the C++ callers of earlier releases (the fronts call data_slice on
// open_table): a local path (a regular file; a FIFO or "-" refused at once), an object, a path
// or URL.
inline Result<DataSlice> data_slice_of_file(const std::string& path,
                                            const SliceOptions& options = {}) {
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> file, open_local_file(path));
  return data_slice(Table::of(std::move(file)), options);
}
inline Result<DataSlice> data_slice_of_object(std::shared_ptr<ObjectReader> object,
                                              const SliceOptions& options = {}) {
  return data_slice(Table::of(std::move(object)), options);
}
inline Result<DataSlice> data_slice_of_path_or_url(const std::string& path_or_url,
                                                   const SliceOptions& options = {},
                                                   const StoreOptions& store = {}) {
  ODF_HASH_ASSIGN_OR_RETURN(Table file, open_table(path_or_url, store));
  return data_slice(file, options);
}

}  // namespace odf_hash::odf
