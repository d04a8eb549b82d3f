// Reading FixedSizeList columns through Arrow C++ (internal to io).
//
// Arrow C++ refuses a null FixedSizeList slot that arrow-rs (and pyarrow itself) wrote to
// Parquet ("Expected all lists to be of size=N but index I had size=0"): the slot holds no
// items in the file, and Arrow C++ checks every slot, null or not. arrow-rs reads such a
// slot as null with N null items. odf-hash therefore lets Arrow C++ read those columns as
// plain lists, by handing it the file's metadata with the embedded ARROW:schema hint changed
// (FixedSizeList -> List), and conform_array rebuilds the fixed-size lists as arrow-rs does.
#pragma once

#include <memory>

#include <arrow/type.h>
#include <parquet/metadata.h>

#include "odf_hash/core/status.h"

namespace odf_hash::io_internal {

// nullptr when `origin` (the decoded ARROW:schema, may be nullptr) has no FixedSizeList.
Result<std::shared_ptr<parquet::FileMetaData>> metadata_reading_fixed_lists_as_lists(
    const parquet::FileMetaData& metadata, const std::shared_ptr<arrow::Schema>& origin,
    const parquet::ReaderProperties& properties);

}  // namespace odf_hash::io_internal
