// Reading data files as Arrow record batches, the way the main ODF implementation does.
//
// The logical hash of a Parquet file is defined by what kamu computes: arrow-rs's Parquet
// reader at default options (the embedded ARROW:schema honoured) feeding arrow-digest. So
// the batches produced here carry the Arrow types arrow-rs would produce for the same file
// (time zones, string/list/view variants, dictionaries, INT96, legacy annotations...), even
// where Arrow C++ (used underneath) maps Parquet types differently; docs/divergences.md
// lists every normalisation.
//
// Files are read as a stream: one Parquet row group (or one IPC message) at a time, never the
// whole file, so memory stays bounded by the largest row group.
//
// Thread safety: distinct files may be read from distinct threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "odf_hash/arrow_c_data.h"
#include "odf_hash/core/status.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/store.h"

namespace odf_hash {

enum class FileFormat { kParquet, kArrowIpcFile, kArrowIpcStream };

const char* file_format_name(FileFormat format);  // "parquet", "arrow-ipc-file", ...

// Detects the format from the file's content (magic bytes), never from its name.
Result<FileFormat> detect_file_format(const std::string& path);
Result<FileFormat> detect_file_format(ObjectReader& object);

// Opens `path` as a stream of record batches (struct arrays, one per batch) with the
// arrow-rs types described above. On success *out is a live stream the caller owns and
// must release. Truncated or corrupt files, and files whose schema holds a type odf-hash
// cannot hash, are reported as errors naming the path (and the column).
// `path` is a local file (open_local_file in local_store.h: regular files only).
Status open_record_stream(const std::string& path, ArrowArrayStream* out);
// The same over an object of any store (range reads); messages name object->name(). The
// stream keeps the object alive until it is released.
Status open_record_stream(std::shared_ptr<ObjectReader> object, ArrowArrayStream* out);

// Several objects read as one table (the files of consecutive slices of an ODF dataset):
// their records one object after the other, in the order given. Each object is opened when
// the previous one's records end, so memory stays that of one object's stream. Every object
// must have the first's schema (fields, types, nullability): reading fails at the first
// that has another, with a message naming both objects and the first difference. One
// object: open_record_stream of it.
// `window` (row_window.h): only the rows [skip, skip + limit) of the whole, rows counted
// across the objects; batches are sliced at its edges (no copy), and once its last row is
// read the stream ends without opening the objects after it.
Status open_concatenated_record_stream(std::vector<std::shared_ptr<ObjectReader>> objects,
                                       ArrowArrayStream* out, RowWindow window = {});

}  // namespace odf_hash
