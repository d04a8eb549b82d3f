// Several objects read as one record stream, one after the other (io, and compare's row diffs
// and multiset digests of file groups; not installed): the generic part of
// open_concatenated_record_stream (record_stream.h), with the way each object is opened left
// to the caller (a whole stream, or some top-level fields of a Parquet file).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "odf_hash/arrow_c_data.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/store.h"

namespace odf_hash::io_internal {

using StreamOpener = std::function<Status(std::shared_ptr<ObjectReader>, ArrowArrayStream*)>;
// Opens an object's stream from near a row, the rows passed over in the last argument
// (ArrowModuleApi::open_record_stream_from).
using StreamOpenerFrom =
    std::function<Status(std::shared_ptr<ObjectReader>, uint64_t, ArrowArrayStream*, uint64_t*)>;

// Opens objects[0] with `open` at once (its errors are returned here); each next object is
// opened when the previous one's stream ends, and must have the first's schema (the same
// fields, types and nullability, metadata aside), else reading fails with a message naming
// both objects and the first difference. One object: its own stream, unwrapped.
// `on_open`, when set, is called with each object's index as it is opened, from within
// get_next (0 from here): once the batches read before are counted, the next ones are that
// object's (src/compare/row_diff.cpp says which file of a group a row is in).
// `window`: only those rows of the whole (record_stream.h's open_concatenated_record_stream).
// `open_from`, when set, opens the objects while rows of the window's start remain to be
// skipped, so that a Parquet file's row groups before it are never decoded (`on_open` then
// sees fewer rows before an object than there are: not for callers that count them; and the
// batches are not cut where arrow-rs cuts them, which arrow0 of nullable structs depends on:
// not for hashing, only for reading rows).
Status concatenate_streams(std::vector<std::shared_ptr<ObjectReader>> objects, StreamOpener open,
                           ArrowArrayStream* out, std::function<void(size_t)> on_open = {},
                           RowWindow window = {}, StreamOpenerFrom open_from = {});

}  // namespace odf_hash::io_internal
