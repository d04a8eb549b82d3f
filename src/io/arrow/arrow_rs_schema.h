// The Arrow schema that arrow-rs 60's Parquet reader gives a Parquet file (internal to io).
//
// kamu computes the logical hash of a Parquet file from the record batches of arrow-rs's
// ParquetRecordBatchReader at default options, so the Arrow types of those batches are part
// of the hash (decimal widths, timestamp units and time zones, dates, time bit widths...).
// This is our own C++ rendering of the rules in arrow-rs's parquet::arrow::schema
// (complex.rs visitor, primitive.rs from_parquet + apply_hint), driven by the Parquet schema
// and the embedded ARROW:schema "hint". docs/divergences.md lists how it differs from what
// Arrow C++ infers for the same file.
#pragma once

#include <memory>
#include <vector>

#include <arrow/type.h>
#include <parquet/schema.h>

#include "odf_hash/core/status.h"

namespace odf_hash::io_internal {

struct ArrowRsSchema {
  std::shared_ptr<arrow::Schema> schema;
};

// `hint` is the schema decoded from ARROW:schema (nullptr when the file has none).
// Errors mirror arrow-rs's: Parquet types it cannot convert, or an embedded schema that
// does not fit the Parquet schema.
Result<ArrowRsSchema> arrow_rs_parquet_schema(const parquet::SchemaDescriptor& descr,
                                              const std::shared_ptr<arrow::Schema>& hint);

// A type with every extension type replaced by its storage type (arrow-rs has no
// extension types: it reads extensions as their storage types with field metadata).
std::shared_ptr<arrow::DataType> strip_extensions(const std::shared_ptr<arrow::DataType>& type);

}  // namespace odf_hash::io_internal
