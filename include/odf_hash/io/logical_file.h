// The logical hash (arrow0-sha3-256) of data files: their record streams (record_stream.h)
// through the logical hasher (logical.h). A Parquet file hashed on several threads is read as
// column groups, each on its own thread (LogicalHashOptions::column_streams).
//
// Thread safety: reentrant; distinct files may be hashed from distinct threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/store.h"
#include "odf_hash/logical/logical.h"

namespace odf_hash {

// Logical hash (arrow0-sha3-256) of a data file: open_record_stream + logical_hash_stream
// (`options` choose threads and multi-lane Keccak, never the result).
Result<LogicalDigest> logical_hash_file(const std::string& path,
                                        const LogicalHashOptions& options = {});
Result<LogicalDigest> logical_hash_object(std::shared_ptr<ObjectReader> object,
                                          const LogicalHashOptions& options = {});
// The logical hash of several objects read as one table (open_concatenated_record_stream).
// arrow0 does not depend on how records are split into batches, so this is the hash of one
// file holding all their records in that order. `window`: of the rows of that window only.
Result<LogicalDigest> logical_hash_objects(std::vector<std::shared_ptr<ObjectReader>> objects,
                                           const LogicalHashOptions& options = {},
                                           RowWindow window = {});

}  // namespace odf_hash
