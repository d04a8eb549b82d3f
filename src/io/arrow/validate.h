// Validating decoded record batches the way arrow-rs validates what it reads (internal to io).
//
// Every batch is validated before it is exported through the C Data Interface, which carries
// no buffer sizes: what would make hashing unsafe (buffers shorter than lengths and offsets
// say, offsets out of bounds or decreasing, view and dictionary indices outside their data,
// null counts contradicting bitmaps) is always an error, as it is in both Arrow libraries.
//
// Beyond that the libraries disagree on VALUES, and a file is hashed exactly when the
// reference (arrow-rs, then arrow-digest) hashes it:
//   - Arrow C++'s ValidateFull refuses decimals wider than their precision, Time32/Time64
//     values outside [0, one day) and Date64 values that are not whole days. arrow-rs checks
//     none of these (its IPC and Parquet readers accept them and arrow-digest hashes their
//     bytes), so they are validated as the integers / fixed-size binaries they are laid out as.
//   - arrow-rs's IPC reader (ArrayData::validate_full, RecordBatch::try_new) refuses what
//     Arrow C++ accepts: invalid UTF-8 anywhere in a string column's data span, null slots
//     included, and offsets splitting a character; string and binary views in null slots
//     with non-zero inline padding, bad buffer indices or offsets, prefixes that differ from
//     their data, or invalid UTF-8; nulls in non-nullable fields (top-level columns, struct
//     children outside their parent's nulls, list and map items, fixed-size list items
//     outside their list's nulls). `ipc` turns these checks on. (arrow-rs's Parquet reader
//     builds its arrays itself and never produces them; Parquet batches do not need them.)
// docs/divergences.md, "Validation of what is read", lists each check.
#pragma once

#include <arrow/record_batch.h>
#include <arrow/status.h>

namespace odf_hash::io_internal {

enum class ArrowRsChecks { kParquet, kIpc };

// OK or Invalid("invalid record batch: <column path>: <what>").
arrow::Status validate_like_arrow_rs(const arrow::RecordBatch& batch, ArrowRsChecks checks);

}  // namespace odf_hash::io_internal
