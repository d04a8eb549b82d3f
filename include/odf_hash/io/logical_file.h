// The logical hash (arrow0-sha3-256) of data files: their record streams (record_stream.h)
// through the logical hasher (logical.h). A Parquet file hashed on several threads is read as
// column groups, each on its own thread (LogicalFileOptions::column_streams).
//
// Thread safety: reentrant; distinct files may be hashed from distinct threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/store.h"
#include "odf_hash/logical/logical.h"

namespace odf_hash {

// What hashing a file may do beyond hashing a stream (logical.h's options, which it holds).
struct LogicalFileOptions : LogicalHashOptions {
  LogicalFileOptions() = default;
  // Any stream's options hash a file as well (column_streams then kAuto).
  LogicalFileOptions(const LogicalHashOptions& stream) : LogicalHashOptions(stream) {}  // NOLINT

  // With threads > 1, a Parquet file's top-level columns may be split into up to 2 x
  // `threads` groups balanced by their sizes in the footer, each group read by its own
  // Parquet reader over the same file and hashed by one of `threads` workers taking the
  // groups in turn (its next batch read ahead on another thread), then combined
  // (combine_fields_digests): decoding runs in parallel too, and only the columns of the
  // groups being read are open at a time. Up to 2 x `threads` threads run.
  //   kAuto: when the file has >= 2 top-level columns and >= 8 MiB of data (decompressed);
  //   kOff:  one record stream (decoded on one thread, hashed on `threads`);
  //   kOn:   whenever the file has >= 2 top-level columns (tests).
  // Arrow IPC files are always read as one stream. A file that fails in column groups is
  // read again as one stream, whose error is reported: errors never depend on this option.
  enum class ColumnStreams { kAuto, kOff, kOn };
  ColumnStreams column_streams = ColumnStreams::kAuto;
};

// Logical hash (arrow0-sha3-256) of a data file: open_record_stream + logical_hash_stream
// (`options` choose threads and multi-lane Keccak, never the result).
Result<LogicalDigest> logical_hash_file(const std::string& path,
                                        const LogicalFileOptions& options = {});
Result<LogicalDigest> logical_hash_object(std::shared_ptr<ObjectReader> object,
                                          const LogicalFileOptions& options = {});
// The logical hash of several objects read as one table (open_concatenated_record_stream).
// arrow0 does not depend on how records are split into batches, so this is the hash of one
// file holding all their records in that order. `window`: of the rows of that window only.
Result<LogicalDigest> logical_hash_objects(std::vector<std::shared_ptr<ObjectReader>> objects,
                                           const LogicalFileOptions& options = {},
                                           RowWindow window = {});

}  // namespace odf_hash
