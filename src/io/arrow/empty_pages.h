// Opening a Parquet file so that data pages holding no values are skipped (internal to io).
//
// Arrow C++'s Parquet writer (pyarrow) writes data pages with no values at all (seen with data
// page v2, small pages and repeated columns). Parquet C++'s column readers take such a page
// for the end of the column chunk (`HasNext()` is false once a new page has no values), so
// the Arrow reader decodes fewer rows than the row group holds, or none: pyarrow cannot read
// back the file it wrote, while arrow-rs reads it in full. An empty page carries nothing
// (no levels, no values), so skipping it changes no record: the file is opened through a
// ParquetFileReader whose page readers skip data pages with zero values (Parquet C++'s
// data page filter), and the Arrow reader then decodes every row, as arrow-rs does.
#pragma once

#include <memory>

#include <arrow/io/interfaces.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/properties.h>

namespace odf_hash::io_internal {

// Throws as ParquetFileReader::Open does (ParquetException) on a corrupt file.
std::unique_ptr<parquet::ParquetFileReader> open_skipping_empty_pages(
    std::shared_ptr<arrow::io::RandomAccessFile> source, const parquet::ReaderProperties& props,
    std::shared_ptr<parquet::FileMetaData> metadata);

}  // namespace odf_hash::io_internal
