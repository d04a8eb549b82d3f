// An ObjectReader (store.h) seen as an Arrow RandomAccessFile, so that Arrow's Parquet and
// IPC readers read through the object interface (internal to io).
//
// Every read is a range read (ObjectReader::read_at); the file position lives here. Reads
// past the end are short, as Arrow expects; errors carry the object's message.
#pragma once

#include <memory>

#include <arrow/io/interfaces.h>

#include "odf_hash/io/store.h"

namespace odf_hash::io_internal {

std::shared_ptr<arrow::io::RandomAccessFile> object_as_arrow_file(
    std::shared_ptr<ObjectReader> object);

}  // namespace odf_hash::io_internal
