// Reading the values of a few string columns of a data file, for checks that look at values
// rather than hash them (the object links of ODF RFC-017: verify's linked objects).
//
// Only the columns asked for are decoded: a Parquet file is opened as a projected stream of
// the top-level fields involved (the Arrow module's column groups, logical_file.h), an Arrow IPC
// file as the whole stream. Batches and types are those open_record_stream gives (arrow-rs's
// view of the file); a column must be Utf8, LargeUtf8 or Utf8View, possibly inside structs.
//
// Thread safety: distinct calls may run on distinct threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"

namespace odf_hash {

// Called once per non-null value, in row order for each batch (columns interleaved per
// batch): `column` indexes `paths`, `row` counts from 0 over the whole file. A value under
// a null struct is null. Returning an error stops the read with that error.
using StringValueVisitor =
    std::function<Status(size_t column, uint64_t row, std::string_view value)>;

// Reads the columns at `paths` (each a path of field names from the top level) of a Parquet
// or Arrow IPC object. Errors name object->name() and the column: a path that names no
// field, a field that is not a string (or a struct on the way), a file that cannot be read.
Status read_string_columns(std::shared_ptr<ObjectReader> object,
                           const std::vector<std::vector<std::string>>& paths,
                           const StringValueVisitor& visit);

}  // namespace odf_hash
