// What the Arrow module does (internal to io/arrow): the functions behind the table of
// ../arrow_module.h.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "odf_hash/arrow_c_data.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/store.h"

namespace odf_hash::io_internal {

// open_record_stream of record_stream.h; `object` and `out` are not null. Messages name
// object->name() (and the column, the batch).
Status open_arrow_record_stream(std::shared_ptr<ObjectReader> object, ArrowArrayStream* out);

// The same from near row `first_row`: a Parquet file's row groups that end at or before it
// are passed over (never decoded), their rows in *skipped (not null); every other object is
// read from its first row (*skipped 0). The stream's first row is row *skipped.
Status open_arrow_record_stream_from(std::shared_ptr<ObjectReader> object, uint64_t first_row,
                                     ArrowArrayStream* out, uint64_t* skipped);

// The same restricted to the top-level fields `fields` (indices into the file's arrow-rs
// schema, ascending, each once) of a Parquet object: the same batches (rows, boundaries,
// values) as open_arrow_record_stream's, with only those columns. kUnsupported for an Arrow
// IPC object and for a file whose Arrow schema does not map its Parquet fields one to one.
Status open_parquet_fields_stream(std::shared_ptr<ObjectReader> object,
                                  const std::vector<int>& fields, ArrowArrayStream* out);

// For each top-level field of a Parquet object, the bytes its column chunks hold once
// decompressed (from the footer): the weights for splitting its columns among streams. An
// Arrow IPC object gets an empty vector.
Result<std::vector<uint64_t>> parquet_field_weights(std::shared_ptr<ObjectReader> object);

// The top-level `fields` of `object`'s records, in that order, each given the nullability of
// the same-named field of `like`'s records and, when `types`, cast to its type (Arrow C++'s
// safe cast: a value that would change or be lost fails the batch, kUnsupported naming the
// column and both types). kInvalidArgument when a name is not a top-level field of both.
Status open_cast_stream(std::shared_ptr<ObjectReader> object, std::shared_ptr<ObjectReader> like,
                        const std::vector<std::string>& fields, bool types, ArrowArrayStream* out);

}  // namespace odf_hash::io_internal
