// The hashes of one file given as a path or a URL: what every command and binding that takes
// "a path or a URL" of one file calls (a local file is read directly, a URL through
// open_object of open_store.h).
//
// Thread safety: reentrant.
#pragma once

#include <string>

#include "odf_hash/core/status.h"
#include "odf_hash/io/physical.h"
#include "odf_hash/io/store_options.h"
#include "odf_hash/logical/logical.h"

namespace odf_hash {

// The physical hash of a local file (physical_hash_file: "-" is standard input) or of the
// object at a URL (open_object, streamed). What every command and binding that takes
// "a path or a URL" of one file calls.
Result<PhysicalDigest> physical_hash_path_or_url(const std::string& name,
                                                 const StoreOptions& options = {},
                                                 const ProgressFn& progress = {});

// The logical hash of a local file (logical_hash_file) or of the object at a URL
// (open_object, range reads): logical_hash_object over open_object. What every binding that
// takes "a path or a URL" of one data file calls.
Result<LogicalDigest> logical_hash_path_or_url(const std::string& name,
                                               const LogicalHashOptions& logical_options = {},
                                               const StoreOptions& options = {});

}  // namespace odf_hash
