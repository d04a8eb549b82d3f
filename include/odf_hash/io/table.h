// A table to hash, slice or compare: the records of one or more objects of any store, read
// one after the other, or a window of their rows. The one location type of the verbs that
// read records (compare::compare, compare::compare_unordered, compare::unordered_digest,
// odf::data_slice): a local file, an object of a store, the files of a run of ODF slices and
// a path or URL (open_table of remote/open_table.h) are all a Table, so each operation has
// one verb whatever its input is.
//
// Thread safety: a plain value; the objects are shared (ObjectReader's rules).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "odf_hash/core/status.h"
#include "odf_hash/io/cancel.h"
#include "odf_hash/io/row_window.h"
#include "odf_hash/io/store.h"

namespace odf_hash {

struct Table {
  // Read in this order, as one table (open_concatenated_record_stream of record_stream.h):
  // every object after the first must have the first's schema. Never empty, never null
  // (check_table).
  std::vector<std::shared_ptr<ObjectReader>> objects;
  RowWindow window;  // the rows read (row_window.h); whole: every row
  // Set from any thread to stop the verbs reading this table early (cancel.h): open_table
  // copies StoreOptions::cancel here, so a verb's work between reads stops too.
  const CancelFlag* cancel = nullptr;
  // The objects were written only to hold the records (Arrow data in memory spilled to a
  // temporary file to be read more than once): their bytes are nobody's file, so they are
  // never hashed or compared as a file's (one_file() is false).
  bool records_only = false;

  // A table of one object, whole.
  static Table of(std::shared_ptr<ObjectReader> object);

  // One object, every row, and a file of its own: the table's bytes are the file's (a
  // physical hash means something).
  bool one_file() const noexcept { return objects.size() == 1 && window.whole() && !records_only; }
  // The objects' names joined by " + " (one object: its name).
  std::string name() const;
  // The objects' sizes added up.
  uint64_t size() const noexcept;
};

// The files of a local folder holding one table (a hive-partitioned folder as pyarrow,
// polars, DuckDB and Spark write them: key=value/part-0.parquet...), in the order they are
// read as one: every regular file below it, its path from the folder compared byte by byte;
// names starting with '.' or '_' (_SUCCESS, .crc files) and symbolic links are passed over.
// The partition values are in the paths, not in the files: they are not columns of the
// table. Errors: not a folder, unreadable, no file.
Result<std::vector<std::string>> table_files_in_folder(const std::string& folder);

// kInvalidArgument "`verb`: no object" / "`verb`: null object" unless the table holds
// objects, none null.
Status check_table(const Table& table, const char* verb);

}  // namespace odf_hash
