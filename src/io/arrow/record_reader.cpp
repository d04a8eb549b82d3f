// Opening Parquet and Arrow IPC files as validated, arrow-rs-typed record batch streams.
#include <algorithm>
#include <deque>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <arrow/array/concatenate.h>
#include <arrow/c/bridge.h>
#include <arrow/ipc/reader.h>
#include <arrow/record_batch.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/exception.h>
#include <parquet/file_reader.h>

#include "arrow_rs_schema.h"
#include "arrow_status.h"
#include "conform.h"
#include "empty_pages.h"
#include "int96.h"
#include "memory_pool.h"
#include "module_api.h"
#include "null_slots.h"
#include "object_file.h"
#include "odf_hash/io/record_stream.h"
#include "parquet_batch_reader.h"
#include "parquet_hint.h"
#include "validate.h"

namespace odf_hash {

namespace {

using io_internal::from_arrow;
using io_internal::guarded;
using io_internal::kParquetBatchSize;
using io_internal::to_arrow;

// Arrow IPC file: one record batch block at a time, validated.
class IpcFileBatchReader : public arrow::RecordBatchReader {
 public:
  explicit IpcFileBatchReader(std::shared_ptr<arrow::ipc::RecordBatchFileReader> reader)
      : reader_(std::move(reader)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return reader_->schema(); }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* out) override {
    return guarded([&]() -> arrow::Status {
      *out = nullptr;
      if (next_ >= reader_->num_record_batches()) return arrow::Status::OK();
      ARROW_ASSIGN_OR_RAISE(auto batch, reader_->ReadRecordBatch(next_));
      ++next_;
      ARROW_RETURN_NOT_OK(
          io_internal::validate_like_arrow_rs(*batch, io_internal::ArrowRsChecks::kIpc));
      *out = std::move(batch);
      return arrow::Status::OK();
    });
  }

 private:
  std::shared_ptr<arrow::ipc::RecordBatchFileReader> reader_;
  int next_ = 0;
};

// Arrow IPC stream (or any reader): every batch validated.
class ValidatingBatchReader : public arrow::RecordBatchReader {
 public:
  explicit ValidatingBatchReader(std::shared_ptr<arrow::RecordBatchReader> reader)
      : reader_(std::move(reader)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return reader_->schema(); }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* out) override {
    return guarded([&]() -> arrow::Status {
      ARROW_RETURN_NOT_OK(reader_->ReadNext(out));
      if (*out) {
        ARROW_RETURN_NOT_OK(
            io_internal::validate_like_arrow_rs(**out, io_internal::ArrowRsChecks::kIpc));
      }
      return arrow::Status::OK();
    });
  }

 private:
  std::shared_ptr<arrow::RecordBatchReader> reader_;
};

parquet::ReaderProperties parquet_reader_properties() {
  parquet::ReaderProperties props(io_internal::reader_memory_pool());
  // Read column chunks through a small buffer, page by page, rather than whole: memory then
  // stays near one batch of decoded values instead of one compressed row group. A page larger
  // than the buffer is read whole anyway; a 64 KiB buffer instead of 1 MiB took 8 MiB off the
  // peak RSS of an eight-column file, at the same CPU time (bench/endtoend.sh).
  props.enable_buffered_stream();
  props.set_buffer_size(64 << 10);
  return props;
}

arrow::Result<std::unique_ptr<parquet::arrow::FileReader>> make_parquet_reader(
    const std::shared_ptr<arrow::io::RandomAccessFile>& file,
    const std::shared_ptr<parquet::FileMetaData>& metadata) {
  parquet::ArrowReaderProperties arrow_props;
  arrow_props.set_pre_buffer(false);   // never read more than the row group being decoded
  arrow_props.set_use_threads(false);  // files are read in parallel, not columns
  arrow_props.set_batch_size(kParquetBatchSize);

  // Data pages with no values are skipped (empty_pages.h). Called inside guarded(): opening
  // throws ParquetException on a corrupt footer.
  return parquet::arrow::FileReader::Make(
      io_internal::reader_memory_pool(),
      io_internal::open_skipping_empty_pages(file, parquet_reader_properties(), metadata),
      arrow_props);
}

// How arrow-rs fills the undefined slots of the leaves under a struct (null_slots.h), by
// child-index path.
void collect_leaf_fills(const parquet::arrow::SchemaField& field, const arrow::DataType& target,
                        const parquet::SchemaDescriptor& descr, const std::string& key,
                        io_internal::LeafFillByPath* out) {
  if (field.column_index >= 0) {
    if (field.column_index >= descr.num_columns()) return;
    const auto physical = descr.Column(field.column_index)->physical_type();
    if (physical == parquet::Type::INT96 && target.id() == arrow::Type::TIMESTAMP) {
      (*out)[key].zero = io_internal::int96_to_arrow_rs(
          parquet::Int96{}, static_cast<const arrow::TimestampType&>(target).unit());
    } else if (physical == parquet::Type::BYTE_ARRAY && arrow::is_decimal(target.id())) {
      (*out)[key].stale = false;
    }
    return;
  }
  if (target.id() != arrow::Type::STRUCT) return;
  const size_t n = std::min(field.children.size(), static_cast<size_t>(target.num_fields()));
  for (size_t i = 0; i < n; ++i) {
    collect_leaf_fills(field.children[i], *target.field(static_cast<int>(i))->type(), descr,
                       key.empty() ? std::to_string(i) : key + "/" + std::to_string(i), out);
  }
}

// arrow-rs reads a column chunk from its dictionary_page_offset whenever the footer sets
// one. parquet-mr before 1.11 (and others) wrote 0 there with the dictionary page at
// data_page_offset: arrow-rs then parses the file's magic bytes as a page header and fails
// ("Required field type_ is missing"), so kamu cannot have hashed such a file. Parquet C++
// reads it; odf-hash refuses it as the reference does.
Status check_dictionary_page_offsets(const parquet::FileMetaData& metadata) {
  for (int g = 0; g < metadata.num_row_groups(); ++g) {
    auto group = metadata.RowGroup(g);
    for (int c = 0; c < group->num_columns(); ++c) {
      auto chunk = group->ColumnChunk(c);
      if (chunk->has_dictionary_page() && chunk->dictionary_page_offset() == 0) {
        return Status::unsupported(
            "column '" + chunk->path_in_schema()->ToDotString() + "' of row group " +
            std::to_string(g) +
            " has dictionary_page_offset 0 (an old writer's footer); arrow-rs, and so the "
            "reference logical hash, cannot read it");
      }
    }
  }
  return Status::ok();
}

// The Parquet leaf columns under a field of Arrow C++'s schema manifest.
void collect_leaves(const parquet::arrow::SchemaField& field, std::vector<int>* out) {
  if (field.column_index >= 0) out->push_back(field.column_index);
  for (const auto& child : field.children) collect_leaves(child, out);
}

// `fields`: the top-level fields to read (ascending indices), or null for all. The row
// groups ending at or before `first_row` are passed over, their rows added to *skipped.
arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> open_parquet(
    const std::shared_ptr<arrow::io::RandomAccessFile>& file, Status* schema_error,
    const std::vector<int>* fields = nullptr, uint64_t first_row = 0, uint64_t* skipped = nullptr) {
  ARROW_ASSIGN_OR_RAISE(auto reader, make_parquet_reader(file, nullptr));
  *schema_error = check_dictionary_page_offsets(*reader->parquet_reader()->metadata());
  if (!schema_error->is_ok()) return arrow::Status::Invalid("schema");
  auto target = io_internal::arrow_rs_parquet_schema(
      *reader->parquet_reader()->metadata()->schema(), reader->manifest().origin_schema);
  if (!target.is_ok()) {
    *schema_error = target.status();
    return arrow::Status::Invalid("schema");
  }
  auto patched = io_internal::metadata_reading_fixed_lists_as_lists(
      *reader->parquet_reader()->metadata(), reader->manifest().origin_schema,
      parquet_reader_properties());
  if (!patched.is_ok()) {
    *schema_error = patched.status();
    return arrow::Status::Invalid("schema");
  }
  std::shared_ptr<parquet::FileMetaData> metadata = std::move(patched).value();
  if (metadata) {
    ARROW_ASSIGN_OR_RAISE(reader, make_parquet_reader(file, metadata));
  }
  const auto& descr = *reader->parquet_reader()->metadata()->schema();
  auto int96 = io_internal::Int96Columns::plan(reader->manifest(), *target->schema, descr);
  if (!int96.is_ok()) {
    *schema_error = int96.status();
    return arrow::Status::Invalid("schema");
  }
  const int num_fields = target->schema->num_fields();
  std::vector<io_internal::LeafFillByPath> fills(num_fields);
  const auto& manifest_fields = reader->manifest().schema_fields;
  if (static_cast<int>(manifest_fields.size()) == num_fields) {
    for (int i = 0; i < num_fields; ++i) {
      const auto& type = *target->schema->field(i)->type();
      if (type.id() == arrow::Type::STRUCT)
        collect_leaf_fills(manifest_fields[i], type, descr, "", &fills[i]);
    }
  }
  int first_group = 0;
  uint64_t before = 0;
  const auto& groups = *reader->parquet_reader()->metadata();
  while (first_group < groups.num_row_groups()) {
    const int64_t rows = groups.RowGroup(first_group)->num_rows();
    if (rows < 0 || before + uint64_t(rows) > first_row) break;
    before += uint64_t(rows);
    ++first_group;
  }
  if (skipped != nullptr) *skipped = before;
  if (fields == nullptr) {
    return io_internal::make_parquet_batch_reader(
        std::move(reader), std::move(target->schema), std::move(fills), std::move(int96).value(),
        std::vector<int>{}, std::vector<int>{}, first_group);
  }
  // A projection: Arrow C++ reads the leaves of the chosen fields, and the target, the fills
  // and the INT96 plan keep those fields only.
  if (static_cast<int>(manifest_fields.size()) != num_fields) {
    return arrow::Status::NotImplemented(
        "the Parquet schema and its Arrow form have different "
        "top-level fields: the file is read as one stream");
  }
  arrow::FieldVector kept;
  std::vector<io_internal::LeafFillByPath> kept_fills;
  std::vector<int> leaves;
  for (size_t i = 0; i < fields->size(); ++i) {
    const int f = (*fields)[i];
    if (f < 0 || f >= num_fields || (i > 0 && f <= (*fields)[i - 1])) {
      return arrow::Status::Invalid("column projection out of range or out of order");
    }
    kept.push_back(target->schema->field(f));
    kept_fills.push_back(std::move(fills[f]));
    collect_leaves(manifest_fields[f], &leaves);
  }
  int96->keep_fields(*fields);
  return io_internal::make_parquet_batch_reader(
      std::move(reader), arrow::schema(std::move(kept), target->schema->metadata()),
      std::move(kept_fills), std::move(int96).value(), *fields, std::move(leaves), first_group);
}

// Bytes of the column chunks under each top-level field, uncompressed, from the footer.
arrow::Result<std::vector<uint64_t>> field_weights(
    const std::shared_ptr<arrow::io::RandomAccessFile>& file) {
  ARROW_ASSIGN_OR_RAISE(auto reader, make_parquet_reader(file, nullptr));
  const auto& metadata = *reader->parquet_reader()->metadata();
  std::vector<uint64_t> out;
  for (const auto& field : reader->manifest().schema_fields) {
    std::vector<int> leaves;
    collect_leaves(field, &leaves);
    uint64_t bytes = 0;
    for (int g = 0; g < metadata.num_row_groups(); ++g) {
      auto group = metadata.RowGroup(g);
      for (int leaf : leaves) {
        if (leaf < 0 || leaf >= group->num_columns()) continue;
        bytes += static_cast<uint64_t>(
            std::max<int64_t>(0, group->ColumnChunk(leaf)->total_uncompressed_size()));
      }
    }
    out.push_back(bytes);
  }
  return out;
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> open_ipc(
    const std::shared_ptr<arrow::io::RandomAccessFile>& file, FileFormat format) {
  auto options = arrow::ipc::IpcReadOptions::Defaults();
  options.memory_pool = io_internal::reader_memory_pool();
  options.use_threads = false;
  // arrow-rs reads IPC buffers as they lie, little-endian: it refuses a big-endian file, and
  // a big-endian stream with a top-level decimal column, and reads other big-endian streams
  // without swapping a byte. Arrow C++ would swap them: it is told not to.
  options.ensure_native_endian = false;
  if (format == FileFormat::kArrowIpcFile) {
    ARROW_ASSIGN_OR_RAISE(auto reader, arrow::ipc::RecordBatchFileReader::Open(file, options));
    if (!reader->schema()->is_native_endian()) {
      return arrow::Status::NotImplemented(
          "big-endian Arrow IPC file (arrow-rs refuses it: \"the endianness of the source "
          "system does not match the endianness of the target system\")");
    }
    return std::make_shared<IpcFileBatchReader>(std::move(reader));
  }
  ARROW_ASSIGN_OR_RAISE(auto reader, arrow::ipc::RecordBatchStreamReader::Open(file, options));
  if (!reader->schema()->is_native_endian()) {
    for (const auto& f : reader->schema()->fields()) {
      if (arrow::is_decimal(f->type()->id())) {
        return arrow::Status::NotImplemented("big-endian Arrow IPC stream with decimal column '",
                                             f->name(), "' (arrow-rs refuses it)");
      }
    }
  }
  return std::make_shared<ValidatingBatchReader>(std::move(reader));
}

}  // namespace

// Messages of Arrow and Parquet C++ are passed through after "<path>: <what odf-hash was
// doing>: ", so that a user sees which file and which step they are about.
namespace {

// open_arrow_record_stream, or open_parquet_fields_stream when `fields` is not null; from
// the row group holding `first_row` of a Parquet file (the rows before it in *skipped).
Status open_stream(std::shared_ptr<ObjectReader> object, const std::vector<int>* fields,
                   ArrowArrayStream* out, uint64_t first_row = 0, uint64_t* skipped = nullptr) {
  if (skipped != nullptr) *skipped = 0;
  ODF_HASH_ASSIGN_OR_RETURN(FileFormat format, detect_file_format(*object));
  if (fields != nullptr && format != FileFormat::kParquet) {
    return Status::unsupported(object->name() + ": a projection of columns needs a Parquet file");
  }
  const std::string path = object->name();
  const char* doing = format == FileFormat::kParquet        ? "reading the Parquet footer"
                      : format == FileFormat::kArrowIpcFile ? "reading the Arrow IPC file footer"
                                                            : "reading the Arrow IPC stream schema";

  Status schema_error;
  std::shared_ptr<arrow::RecordBatchReader> reader;
  arrow::Status st = guarded([&]() -> arrow::Status {
    auto file = io_internal::object_as_arrow_file(std::move(object));
    if (format == FileFormat::kParquet) {
      ARROW_ASSIGN_OR_RAISE(reader, open_parquet(file, &schema_error, fields, first_row, skipped));
    } else {
      ARROW_ASSIGN_OR_RAISE(reader, open_ipc(file, format));
    }
    return arrow::Status::OK();
  });
  if (!schema_error.is_ok()) return schema_error.with_context(path);
  if (!st.ok()) return from_arrow(path + ": " + doing, st);

  // The exported stream reports errors from get_next as text; prefix them with the path and
  // the batch being read.
  struct PathPrefixing : arrow::RecordBatchReader {
    std::shared_ptr<arrow::RecordBatchReader> inner;
    std::string path;
    uint64_t batches = 0;
    std::shared_ptr<arrow::Schema> schema() const override { return inner->schema(); }
    arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
      arrow::Status s = inner->ReadNext(batch);
      if (!s.ok()) {
        return s.WithMessage(path, ": reading record batch ", batches + 1, ": ", s.message());
      }
      ++batches;
      return s;
    }
  };
  auto prefixed = std::make_shared<PathPrefixing>();
  prefixed->inner = std::move(reader);
  prefixed->path = path;
  arrow::Status exported = arrow::ExportRecordBatchReader(prefixed, out);
  if (!exported.ok()) return from_arrow(path + ": exporting the record stream", exported);
  return Status::ok();
}

}  // namespace

Status io_internal::open_arrow_record_stream(std::shared_ptr<ObjectReader> object,
                                             ArrowArrayStream* out) {
  return open_stream(std::move(object), nullptr, out);
}

Status io_internal::open_arrow_record_stream_from(std::shared_ptr<ObjectReader> object,
                                                  uint64_t first_row, ArrowArrayStream* out,
                                                  uint64_t* skipped) {
  return open_stream(std::move(object), nullptr, out, first_row, skipped);
}

Status io_internal::open_parquet_fields_stream(std::shared_ptr<ObjectReader> object,
                                               const std::vector<int>& fields,
                                               ArrowArrayStream* out) {
  return open_stream(std::move(object), &fields, out);
}

Result<std::vector<uint64_t>> io_internal::parquet_field_weights(
    std::shared_ptr<ObjectReader> object) {
  ODF_HASH_ASSIGN_OR_RETURN(FileFormat format, detect_file_format(*object));
  if (format != FileFormat::kParquet) return std::vector<uint64_t>{};
  const std::string path = object->name();
  std::vector<uint64_t> weights;
  arrow::Status st = guarded([&]() -> arrow::Status {
    ARROW_ASSIGN_OR_RAISE(weights, field_weights(io_internal::object_as_arrow_file(object)));
    return arrow::Status::OK();
  });
  if (!st.ok()) return from_arrow(path + ": reading the Parquet footer", st);
  return weights;
}

}  // namespace odf_hash
