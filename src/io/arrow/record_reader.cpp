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
#include "conform.h"
#include "empty_pages.h"
#include "int96.h"
#include "memory_pool.h"
#include "module_api.h"
#include "null_slots.h"
#include "object_file.h"
#include "odf_hash/io/record_stream.h"
#include "parquet_hint.h"
#include "validate.h"

namespace odf_hash {

namespace {

constexpr int64_t kParquetBatchSize = 10000;  // as kamu reads (and the conformance tool)

Status from_arrow(const std::string& path, const arrow::Status& st) {
  std::string m = path + ": " + st.message();
  if (st.IsIOError()) return Status::io_error(m);
  if (st.IsNotImplemented()) return Status::unsupported(m);
  if (st.IsOutOfMemory()) return Status::io_error(m);
  return Status::parse_error(m);
}

arrow::Status to_arrow(const Status& st) {
  if (st.is_ok()) return arrow::Status::OK();
  if (st.code() == StatusCode::kUnsupported) return arrow::Status::NotImplemented(st.message());
  if (st.code() == StatusCode::kIoError) return arrow::Status::IOError(st.message());
  return arrow::Status::Invalid(st.message());
}

// Runs `fn` (returning arrow::Status) with every exception turned into a Status: Parquet
// C++ throws ParquetException on corrupt data, and allocation failures on absurd sizes
// throw std::bad_alloc; neither may cross the C stream interface.
template <typename Fn>
arrow::Status guarded(Fn&& fn) {
  try {
    return fn();
  } catch (const parquet::ParquetException& e) {
    return arrow::Status::Invalid("corrupt Parquet data: ", e.what());
  } catch (const std::bad_alloc&) {
    return arrow::Status::OutOfMemory("out of memory (corrupt sizes?)");
  } catch (const std::exception& e) {
    return arrow::Status::Invalid(e.what());
  } catch (...) {
    return arrow::Status::UnknownError("unknown exception");
  }
}

// Rows read (and converted to the arrow-rs schema) but not yet handed out.
struct PendingRows {
  std::shared_ptr<arrow::RecordBatch> batch;
  int64_t consumed = 0;
  bool starts_row_group = false;
};

// Parquet: decoded one row group at a time, handed out in batches cut exactly as arrow-rs's
// ParquetRecordBatchReader cuts them (kParquetBatchSize rows, continuing across row groups):
// with nested nullable structs the reference's hash depends on the batch boundaries
// (docs/divergences.md section 1), and on which rows arrow-rs decodes together
// (null_slots.h). INT96 columns get arrow-rs's conversion of their raw values (int96.h).
class ParquetBatchReader : public arrow::RecordBatchReader {
 public:
  // `fields`: the top-level fields of the file read (indices into the file's schema; the
  // target holds those only) and `leaves` their Parquet leaf columns; empty: all of them.
  ParquetBatchReader(std::unique_ptr<parquet::arrow::FileReader> reader,
                     std::shared_ptr<arrow::Schema> target,
                     std::vector<io_internal::LeafFillByPath> fills,
                     io_internal::Int96Columns int96, std::vector<int> fields,
                     std::vector<int> leaves)
      : reader_(std::move(reader)),
        target_(std::move(target)),
        fills_(std::move(fills)),
        int96_(std::move(int96)),
        fields_(std::move(fields)),
        leaves_(std::move(leaves)) {
    if (fields_.empty()) {
      for (int f = 0; f < target_->num_fields(); ++f) fields_.push_back(f);
    }
    for (const auto& f : target_->fields())
      has_struct_ = has_struct_ || f->type()->id() == arrow::Type::STRUCT;
  }

  std::shared_ptr<arrow::Schema> schema() const override { return target_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* out) override {
    return guarded([&] { return read_next(out); });
  }

 private:
  arrow::Status start_row_group() {
    if (leaves_.empty()) {
      ARROW_ASSIGN_OR_RAISE(current_, reader_->GetRecordBatchReader({next_row_group_}));
    } else {
      ARROW_ASSIGN_OR_RAISE(current_, reader_->GetRecordBatchReader({next_row_group_}, leaves_));
    }
    ARROW_RETURN_NOT_OK(
        to_arrow(int96_.start_row_group(*reader_->parquet_reader(), next_row_group_)));
    rows_expected_ = reader_->parquet_reader()->metadata()->RowGroup(next_row_group_)->num_rows();
    rows_read_ = 0;
    ++next_row_group_;
    row_group_started_ = true;
    return arrow::Status::OK();
  }

  // The next batch Arrow C++ decodes, converted to the arrow-rs types; nullptr at the end.
  arrow::Status read_converted(std::shared_ptr<arrow::RecordBatch>* out, bool* starts_row_group) {
    *out = nullptr;
    for (;;) {
      if (!current_) {
        if (next_row_group_ >= reader_->num_row_groups()) return arrow::Status::OK();
        ARROW_RETURN_NOT_OK(start_row_group());
      }
      std::shared_ptr<arrow::RecordBatch> raw;
      if (arrow::Status st = guarded([&] { return current_->ReadNext(&raw); }); !st.ok()) {
        return name_failing_column(next_row_group_ - 1, st);
      }
      if (!raw) {
        // Never hash fewer (or more) rows than the file holds: Arrow C++ can decode a row
        // group into fewer rows without an error (seen with files pyarrow writes with data
        // page v2 and records spanning tiny pages, which arrow-rs reads in full).
        if (rows_read_ != rows_expected_) {
          return arrow::Status::Invalid("Arrow C++ decoded ", rows_read_, " rows of row group ",
                                        next_row_group_ - 1, ", whose metadata says ",
                                        rows_expected_,
                                        " (a file odf-hash cannot read as arrow-rs does)");
        }
        ARROW_RETURN_NOT_OK(to_arrow(int96_.finish_row_group()));
        current_.reset();
        continue;
      }
      ARROW_RETURN_NOT_OK(raw->Validate());
      if (raw->num_columns() != target_->num_fields()) {
        return arrow::Status::Invalid("Arrow C++ read ", raw->num_columns(),
                                      " columns, arrow-rs would read ", target_->num_fields());
      }
      std::vector<std::shared_ptr<arrow::Array>> columns(target_->num_fields());
      for (int field = 0; field < target_->num_fields(); ++field) {
        std::shared_ptr<arrow::Array> col = raw->column(field);
        if (int96_.touches(fields_[field])) {
          auto rewritten = int96_.rewrite(fields_[field], col);
          if (!rewritten.is_ok()) return to_arrow(rewritten.status());
          col = std::move(rewritten).value();
        }
        const auto& f = target_->field(field);
        auto c = io_internal::conform_array(col, f->type(), f->name());
        if (!c.is_ok()) return to_arrow(c.status());
        columns[field] = std::move(c).value();
      }
      rows_read_ += raw->num_rows();
      *out = arrow::RecordBatch::Make(target_, raw->num_rows(), std::move(columns));
      *starts_row_group = row_group_started_;
      row_group_started_ = false;
      return arrow::Status::OK();
    }
  }

  // Arrow C++ decodes a row group's columns together and its errors do not say which column
  // failed ("Unexpected end of stream: InitBlock"): a user with a corrupt file needs the
  // column and where. Only on that error path, each column of the row group is decoded
  // alone (one at a time, freed at once) until one fails; its name, encodings and row group
  // are put in front of the original message.
  arrow::Status name_failing_column(int row_group, const arrow::Status& st) {
    const auto metadata = reader_->parquet_reader()->metadata();
    const std::string where = "row group " + std::to_string(row_group) + " of " +
                              std::to_string(metadata->num_row_groups());
    for (int field : fields_) {
      std::shared_ptr<arrow::ChunkedArray> values;
      arrow::Status one =
          guarded([&] { return reader_->RowGroup(row_group)->Column(field)->Read(&values); });
      values.reset();
      if (one.ok()) continue;
      const parquet::SchemaDescriptor* schema = metadata->schema();
      const parquet::schema::Node* root = schema->group_node()->field(field).get();
      std::string encodings;
      const auto group = metadata->RowGroup(row_group);  // owns what encodings() returns
      for (int leaf = 0; leaf < schema->num_columns(); ++leaf) {
        if (schema->GetColumnRoot(leaf) != root) continue;
        const auto chunk = group->ColumnChunk(leaf);
        for (parquet::Encoding::type e : chunk->encodings()) {
          std::string name = parquet::EncodingToString(e);
          if (encodings.find(name) == std::string::npos) {
            encodings += (encodings.empty() ? "" : ", ") + name;
          }
        }
      }
      return st.WithMessage("decoding column '", root->name(), "' (", where,
                            encodings.empty() ? "" : "; encodings ", encodings,
                            "): ", st.message());
    }
    return st.WithMessage("decoding ", where, ": ", st.message());
  }

  arrow::Status read_next(std::shared_ptr<arrow::RecordBatch>* out) {
    *out = nullptr;
    while (pending_rows_ < kParquetBatchSize) {
      std::shared_ptr<arrow::RecordBatch> batch;
      bool starts = false;
      ARROW_RETURN_NOT_OK(read_converted(&batch, &starts));
      if (!batch) break;
      if (batch->num_rows() == 0) continue;
      pending_rows_ += batch->num_rows();
      pending_.push_back({std::move(batch), 0, starts});
    }
    if (pending_rows_ == 0) return arrow::Status::OK();

    const int64_t n = std::min(pending_rows_, kParquetBatchSize);
    std::vector<std::shared_ptr<arrow::RecordBatch>> pieces;
    std::vector<int64_t> runs;  // rows arrow-rs decodes in one go: one per row group
    int64_t taken = 0;
    while (taken < n) {
      PendingRows& p = pending_.front();
      const int64_t k = std::min(n - taken, p.batch->num_rows() - p.consumed);
      if (taken == 0 || (p.consumed == 0 && p.starts_row_group)) runs.push_back(taken);
      pieces.push_back(p.consumed == 0 && k == p.batch->num_rows() ? p.batch
                                                                   : p.batch->Slice(p.consumed, k));
      p.consumed += k;
      taken += k;
      if (p.consumed == p.batch->num_rows()) pending_.pop_front();
    }
    pending_rows_ -= n;

    std::vector<std::shared_ptr<arrow::Array>> columns(target_->num_fields());
    for (int c = 0; c < target_->num_fields(); ++c) {
      if (pieces.size() == 1) {
        columns[c] = pieces[0]->column(c);
      } else {
        arrow::ArrayVector parts;
        for (const auto& piece : pieces) parts.push_back(piece->column(c));
        ARROW_ASSIGN_OR_RAISE(columns[c],
                              arrow::Concatenate(parts, io_internal::reader_memory_pool()));
      }
      if (has_struct_) {
        auto filled = io_internal::fill_undefined_like_arrow_rs(columns[c], runs, fills_[c]);
        if (!filled.is_ok()) return to_arrow(filled.status());
        columns[c] = std::move(filled).value();
      }
    }
    auto batch = arrow::RecordBatch::Make(target_, n, std::move(columns));
    ARROW_RETURN_NOT_OK(
        io_internal::validate_like_arrow_rs(*batch, io_internal::ArrowRsChecks::kParquet));
    *out = std::move(batch);
    return arrow::Status::OK();
  }

  std::unique_ptr<parquet::arrow::FileReader> reader_;
  std::shared_ptr<arrow::Schema> target_;
  std::vector<io_internal::LeafFillByPath> fills_;     // per top-level field
  io_internal::Int96Columns int96_;                    // by field of the file
  std::vector<int> fields_;                            // of the file, one per target field
  std::vector<int> leaves_;                            // Parquet leaf columns read; empty: all
  std::shared_ptr<arrow::RecordBatchReader> current_;  // of the row group being decoded
  bool has_struct_ = false;
  int next_row_group_ = 0;
  bool row_group_started_ = false;
  int64_t rows_expected_ = 0;  // of the row group being decoded, from the metadata
  int64_t rows_read_ = 0;
  std::deque<PendingRows> pending_;
  int64_t pending_rows_ = 0;
};

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

// `fields`: the top-level fields to read (ascending indices), or null for all.
arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> open_parquet(
    const std::shared_ptr<arrow::io::RandomAccessFile>& file, Status* schema_error,
    const std::vector<int>* fields = nullptr) {
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
  if (fields == nullptr) {
    return std::make_shared<ParquetBatchReader>(std::move(reader), std::move(target->schema),
                                                std::move(fills), std::move(int96).value(),
                                                std::vector<int>{}, std::vector<int>{});
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
  return std::make_shared<ParquetBatchReader>(
      std::move(reader), arrow::schema(std::move(kept), target->schema->metadata()),
      std::move(kept_fills), std::move(int96).value(), *fields, std::move(leaves));
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

// open_arrow_record_stream, or open_parquet_fields_stream when `fields` is not null.
Status open_stream(std::shared_ptr<ObjectReader> object, const std::vector<int>* fields,
                   ArrowArrayStream* out) {
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
      ARROW_ASSIGN_OR_RAISE(reader, open_parquet(file, &schema_error, fields));
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
