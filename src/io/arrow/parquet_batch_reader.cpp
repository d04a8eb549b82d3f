// Parquet record batches cut as arrow-rs cuts them (parquet_batch_reader.h).
#include "parquet_batch_reader.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <arrow/array/concatenate.h>
#include <parquet/arrow/reader.h>
#include <parquet/file_reader.h>

#include "arrow_status.h"
#include "conform.h"
#include "memory_pool.h"
#include "validate.h"

namespace odf_hash::io_internal {

namespace {

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
                     std::shared_ptr<arrow::Schema> target, std::vector<LeafFillByPath> fills,
                     Int96Columns int96, std::vector<int> fields, std::vector<int> leaves,
                     int first_row_group)
      : reader_(std::move(reader)),
        target_(std::move(target)),
        fills_(std::move(fills)),
        int96_(std::move(int96)),
        fields_(std::move(fields)),
        leaves_(std::move(leaves)),
        next_row_group_(first_row_group) {
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
        auto c = conform_array(col, f->type(), f->name());
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
        ARROW_ASSIGN_OR_RAISE(columns[c], arrow::Concatenate(parts, reader_memory_pool()));
      }
      if (has_struct_) {
        auto filled = fill_undefined_like_arrow_rs(columns[c], runs, fills_[c]);
        if (!filled.is_ok()) return to_arrow(filled.status());
        columns[c] = std::move(filled).value();
      }
    }
    auto batch = arrow::RecordBatch::Make(target_, n, std::move(columns));
    ARROW_RETURN_NOT_OK(validate_like_arrow_rs(*batch, ArrowRsChecks::kParquet));
    *out = std::move(batch);
    return arrow::Status::OK();
  }

  std::unique_ptr<parquet::arrow::FileReader> reader_;
  std::shared_ptr<arrow::Schema> target_;
  std::vector<LeafFillByPath> fills_;                  // per top-level field
  Int96Columns int96_;                                 // by field of the file
  std::vector<int> fields_;                            // of the file, one per target field
  std::vector<int> leaves_;                            // Parquet leaf columns read; empty: all
  std::shared_ptr<arrow::RecordBatchReader> current_;  // of the row group being decoded
  bool has_struct_ = false;
  int next_row_group_;
  bool row_group_started_ = false;
  int64_t rows_expected_ = 0;  // of the row group being decoded, from the metadata
  int64_t rows_read_ = 0;
  std::deque<PendingRows> pending_;
  int64_t pending_rows_ = 0;
};

}  // namespace

std::shared_ptr<arrow::RecordBatchReader> make_parquet_batch_reader(
    std::unique_ptr<parquet::arrow::FileReader> reader, std::shared_ptr<arrow::Schema> target,
    std::vector<LeafFillByPath> fills, Int96Columns int96, std::vector<int> fields,
    std::vector<int> leaves, int first_row_group) {
  return std::make_shared<ParquetBatchReader>(std::move(reader), std::move(target),
                                              std::move(fills), std::move(int96), std::move(fields),
                                              std::move(leaves), first_row_group);
}

}  // namespace odf_hash::io_internal
