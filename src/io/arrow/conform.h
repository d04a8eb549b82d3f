// Converting arrays read by Arrow C++ into the types arrow-rs gives (internal to io).
//
// The target type comes from arrow_rs_parquet_schema(); Arrow C++ read the same Parquet
// column, possibly into another type (a time zone, an offset width, a decimal width, a
// dictionary...). Every conversion here keeps the values arrow-rs would read; a pair of
// types with no such conversion is an error naming the column, never a silent guess.
#pragma once

#include <memory>
#include <string>

#include <arrow/array.h>
#include <arrow/type.h>

#include "odf_hash/core/status.h"

namespace odf_hash::io_internal {

// `path` names the column in errors (e.g. "a.b").
Result<std::shared_ptr<arrow::Array>> conform_array(const std::shared_ptr<arrow::Array>& array,
                                                    const std::shared_ptr<arrow::DataType>& target,
                                                    const std::string& path);

}  // namespace odf_hash::io_internal
