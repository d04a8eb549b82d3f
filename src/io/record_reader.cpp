// Opening Parquet and Arrow IPC files as validated, arrow-rs-typed record batch streams.
#include <algorithm>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <set>
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
#include "memory_pool.h"
#include "null_slots.h"
#include "object_file.h"
#include "odf_hash/local_store.h"
#include "odf_hash/reader.h"
#include "parquet_hint.h"
#include "type_rewrite.h"

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

// The same type with every Date64 replaced by Int64 (same layout); nullptr for a Date64
// under a map or union (validated as is).
std::shared_ptr<arrow::DataType> date64_as_int64(const std::shared_ptr<arrow::DataType>& type) {
  return io_internal::rewrite_type(type, [](const std::shared_ptr<arrow::DataType>& t) {
    return t->id() == arrow::Type::DATE64 ? arrow::int64() : t;
  });
}

std::shared_ptr<arrow::ArrayData> date64_as_int64(const std::shared_ptr<arrow::ArrayData>& data,
                                                  const std::shared_ptr<arrow::DataType>& type) {
  auto out = data->Copy();
  out->type = type;
  if (type->id() == arrow::Type::DICTIONARY && out->dictionary) {
    out->dictionary = date64_as_int64(
        out->dictionary, static_cast<const arrow::DictionaryType&>(*type).value_type());
  }
  for (size_t i = 0; i < out->child_data.size() && static_cast<int>(i) < type->num_fields(); ++i) {
    out->child_data[i] =
        date64_as_int64(out->child_data[i], type->field(static_cast<int>(i))->type());
  }
  return out;
}

// Checks every buffer against lengths and offsets (the C Data Interface carries no buffer
// sizes, so consumers cannot check them) and UTF-8 in string columns, as arrow-rs does.
// Arrow C++ also insists that Date64 values are whole days; arrow-rs (and the hash) accept
// any milliseconds, so Date64 columns are validated as the Int64 they are laid out as.
arrow::Status validate_batch(const arrow::RecordBatch& batch) {
  arrow::Status st;
  bool viewed = false;
  for (int i = 0; i < batch.num_columns() && st.ok(); ++i) {
    const auto& col = batch.column(i);
    auto t = date64_as_int64(col->type());
    if (t == col->type() || !t) continue;
    viewed = true;
    st = arrow::MakeArray(date64_as_int64(col->data(), t))->ValidateFull();
    if (!st.ok()) st = st.WithMessage("In column ", i, ": ", st.message());
  }
  if (st.ok()) {
    if (viewed) {
      for (int i = 0; i < batch.num_columns() && st.ok(); ++i) {
        const auto& col = batch.column(i);
        auto t = date64_as_int64(col->type());
        if (t == col->type() || !t) {
          st = col->ValidateFull();
          if (!st.ok()) st = st.WithMessage("In column ", i, ": ", st.message());
        }
      }
    } else {
      st = batch.ValidateFull();
    }
  }
  if (!st.ok()) return arrow::Status::Invalid("invalid record batch: ", st.message());
  return st;
}

// One Parquet C++ reader over some of the file's top-level columns. There is more than one
// only when INT96 columns must be decoded in different time units (a per-reader option).
struct ParquetReaderGroup {
  std::unique_ptr<parquet::arrow::FileReader> reader;
  std::vector<int> fields;  // top-level field positions, ascending
  std::vector<int> leaves;  // their Parquet leaf column indices
  std::shared_ptr<arrow::RecordBatchReader> current;
};

// A top-level struct whose INT96 leaves are read in different time units: Parquet C++ takes
// the unit per reader, so the column is read by the reader of each unit, and the subtrees
// holding the INT96 leaves of another unit than the base reader's are taken from the reader
// of their unit (same rows, same structure) before the conversion to arrow-rs types.
struct Int96Merge {
  int base_group = 0;
  std::vector<std::pair<std::vector<int>, int>> subtrees;  // child-index path, group
};

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
// (null_slots.h).
class ParquetBatchReader : public arrow::RecordBatchReader {
 public:
  ParquetBatchReader(std::vector<ParquetReaderGroup> groups, std::shared_ptr<arrow::Schema> target,
                     std::vector<io_internal::StaleZeroByPath> zeros,
                     std::map<int, Int96Merge> merges)
      : groups_(std::move(groups)),
        target_(std::move(target)),
        zeros_(std::move(zeros)),
        merges_(std::move(merges)) {
    for (const auto& f : target_->fields())
      has_struct_ = has_struct_ || f->type()->id() == arrow::Type::STRUCT;
  }

  std::shared_ptr<arrow::Schema> schema() const override { return target_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* out) override {
    return guarded([&] { return read_next(out); });
  }

 private:
  arrow::Status start_row_group() {
    for (auto& g : groups_) {
      if (groups_.size() == 1) {
        ARROW_ASSIGN_OR_RAISE(g.current, g.reader->GetRecordBatchReader({next_row_group_}));
      } else {
        ARROW_ASSIGN_OR_RAISE(g.current,
                              g.reader->GetRecordBatchReader({next_row_group_}, g.leaves));
      }
    }
    rows_expected_ =
        groups_[0].reader->parquet_reader()->metadata()->RowGroup(next_row_group_)->num_rows();
    rows_read_ = 0;
    ++next_row_group_;
    row_group_started_ = true;
    return arrow::Status::OK();
  }

  // The next batch Arrow C++ decodes, converted to the arrow-rs types; nullptr at the end.
  arrow::Status read_converted(std::shared_ptr<arrow::RecordBatch>* out, bool* starts_row_group) {
    *out = nullptr;
    const int num_row_groups = groups_[0].reader->num_row_groups();
    for (;;) {
      if (!groups_[0].current) {
        if (next_row_group_ >= num_row_groups) return arrow::Status::OK();
        ARROW_RETURN_NOT_OK(start_row_group());
      }
      std::vector<std::shared_ptr<arrow::RecordBatch>> raws(groups_.size());
      int64_t rows = -1;
      size_t ended = 0;
      for (size_t gi = 0; gi < groups_.size(); ++gi) {
        auto& g = groups_[gi];
        std::shared_ptr<arrow::RecordBatch> raw;
        ARROW_RETURN_NOT_OK(g.current->ReadNext(&raw));
        if (!raw) {
          ++ended;
          continue;
        }
        ARROW_RETURN_NOT_OK(raw->Validate());
        if (static_cast<size_t>(raw->num_columns()) != g.fields.size()) {
          return arrow::Status::Invalid("Arrow C++ read ", raw->num_columns(),
                                        " columns, arrow-rs would read ", g.fields.size());
        }
        if (rows >= 0 && raw->num_rows() != rows) {
          return arrow::Status::Invalid("column groups read uneven batches");
        }
        rows = raw->num_rows();
        raws[gi] = std::move(raw);
      }
      if (ended == groups_.size()) {
        // Never hash fewer (or more) rows than the file holds: Arrow C++ can decode a row
        // group into fewer rows without an error (seen with files pyarrow writes with data
        // page v2 and records spanning pages, which arrow-rs reads in full).
        if (rows_read_ != rows_expected_) {
          return arrow::Status::Invalid("Arrow C++ decoded ", rows_read_, " rows of row group ",
                                        next_row_group_ - 1, ", whose metadata says ",
                                        rows_expected_,
                                        " (a file odf-hash cannot read as arrow-rs does)");
        }
        for (auto& g : groups_) g.current.reset();
        continue;
      }
      if (ended != 0) return arrow::Status::Invalid("column groups read uneven batches");
      std::vector<std::shared_ptr<arrow::Array>> columns(target_->num_fields());
      for (size_t gi = 0; gi < groups_.size(); ++gi) {
        const auto& g = groups_[gi];
        for (size_t k = 0; k < g.fields.size(); ++k) {
          const int field = g.fields[k];
          std::shared_ptr<arrow::Array> raw = raws[gi]->column(static_cast<int>(k));
          const auto merge = merges_.find(field);
          if (merge != merges_.end()) {
            if (merge->second.base_group != static_cast<int>(gi)) continue;
            ARROW_ASSIGN_OR_RAISE(raw, merge_int96_subtrees(raw, field, merge->second, raws));
          }
          const auto& f = target_->field(field);
          auto c = io_internal::conform_array(raw, f->type(), f->name());
          if (!c.is_ok()) return to_arrow(c.status());
          columns[field] = std::move(c).value();
        }
      }
      rows_read_ += rows;
      *out = arrow::RecordBatch::Make(target_, rows, std::move(columns));
      *starts_row_group = row_group_started_;
      row_group_started_ = false;
      return arrow::Status::OK();
    }
  }

  // The column of `field` read by group `gi` (which must read it).
  arrow::Result<std::shared_ptr<arrow::Array>> column_of(
      int field, size_t gi, const std::vector<std::shared_ptr<arrow::RecordBatch>>& raws) const {
    const auto& fields = groups_[gi].fields;
    for (size_t k = 0; k < fields.size(); ++k) {
      if (fields[k] == field) return raws[gi]->column(static_cast<int>(k));
    }
    return arrow::Status::Invalid("INT96 column group does not read field ", field);
  }

  static arrow::Result<std::shared_ptr<arrow::ArrayData>> replace_subtree(
      const std::shared_ptr<arrow::ArrayData>& base, const std::shared_ptr<arrow::ArrayData>& donor,
      const std::vector<int>& path, size_t depth) {
    if (depth == path.size()) return donor;
    const auto i = static_cast<size_t>(path[depth]);
    if (i >= base->child_data.size() || i >= donor->child_data.size() ||
        base->length != donor->length || base->offset != donor->offset) {
      return arrow::Status::Invalid("INT96 column groups read different structures");
    }
    auto out = base->Copy();
    ARROW_ASSIGN_OR_RAISE(
        out->child_data[i],
        replace_subtree(base->child_data[i], donor->child_data[i], path, depth + 1));
    return out;
  }

  arrow::Result<std::shared_ptr<arrow::Array>> merge_int96_subtrees(
      std::shared_ptr<arrow::Array> base, int field, const Int96Merge& merge,
      const std::vector<std::shared_ptr<arrow::RecordBatch>>& raws) const {
    auto data = base->data();
    for (const auto& [path, gi] : merge.subtrees) {
      ARROW_ASSIGN_OR_RAISE(auto donor, column_of(field, static_cast<size_t>(gi), raws));
      ARROW_ASSIGN_OR_RAISE(data, replace_subtree(data, donor->data(), path, 0));
    }
    return arrow::MakeArray(data);
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
        auto filled = io_internal::fill_undefined_like_arrow_rs(columns[c], runs, zeros_[c]);
        if (!filled.is_ok()) return to_arrow(filled.status());
        columns[c] = std::move(filled).value();
      }
    }
    auto batch = arrow::RecordBatch::Make(target_, n, std::move(columns));
    ARROW_RETURN_NOT_OK(validate_batch(*batch));
    *out = std::move(batch);
    return arrow::Status::OK();
  }

  std::vector<ParquetReaderGroup> groups_;
  std::shared_ptr<arrow::Schema> target_;
  std::vector<io_internal::StaleZeroByPath> zeros_;  // per top-level field
  std::map<int, Int96Merge> merges_;                 // by top-level field
  bool has_struct_ = false;
  int next_row_group_ = 0;
  bool row_group_started_ = false;
  int64_t rows_expected_ = 0;  // of the row group being decoded, from the metadata
  int64_t rows_read_ = 0;
  std::deque<PendingRows> pending_;
  int64_t pending_rows_ = 0;
};

void collect_leaves(const parquet::arrow::SchemaField& field, std::vector<int>* out) {
  if (field.column_index >= 0) out->push_back(field.column_index);
  for (const auto& c : field.children) collect_leaves(c, out);
}

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
      ARROW_RETURN_NOT_OK(validate_batch(*batch));
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
      if (*out) ARROW_RETURN_NOT_OK(validate_batch(**out));
      return arrow::Status::OK();
    });
  }

 private:
  std::shared_ptr<arrow::RecordBatchReader> reader_;
};

parquet::ReaderProperties parquet_reader_properties() {
  parquet::ReaderProperties props(io_internal::reader_memory_pool());
  // Read column chunks through a small buffer, page by page, rather than whole: memory then
  // stays near one batch of decoded values instead of one compressed row group.
  props.enable_buffered_stream();
  props.set_buffer_size(1 << 20);
  return props;
}

arrow::Result<std::unique_ptr<parquet::arrow::FileReader>> make_parquet_reader(
    const std::shared_ptr<arrow::io::RandomAccessFile>& file, arrow::TimeUnit::type int96_unit,
    const std::shared_ptr<parquet::FileMetaData>& metadata) {
  parquet::ArrowReaderProperties arrow_props;
  arrow_props.set_pre_buffer(false);   // never read more than the row group being decoded
  arrow_props.set_use_threads(false);  // files are read in parallel, not columns
  arrow_props.set_batch_size(kParquetBatchSize);
  arrow_props.set_coerce_int96_timestamp_unit(int96_unit);

  parquet::arrow::FileReaderBuilder builder;
  ARROW_RETURN_NOT_OK(builder.Open(file, parquet_reader_properties(), metadata));
  std::unique_ptr<parquet::arrow::FileReader> reader;
  ARROW_RETURN_NOT_OK(builder.memory_pool(io_internal::reader_memory_pool())
                          ->properties(arrow_props)
                          ->Build(&reader));
  return reader;
}

// The fill values of INT96 leaves under structs (null_slots.h), by child-index path.
void collect_int96_zeros(const parquet::arrow::SchemaField& field, const arrow::DataType& target,
                         const parquet::SchemaDescriptor& descr, const std::string& key,
                         io_internal::StaleZeroByPath* out) {
  if (field.column_index >= 0) {
    if (field.column_index < descr.num_columns() &&
        descr.Column(field.column_index)->physical_type() == parquet::Type::INT96 &&
        target.id() == arrow::Type::TIMESTAMP) {
      (*out)[key] =
          io_internal::int96_zero_in(static_cast<const arrow::TimestampType&>(target).unit());
    }
    return;
  }
  if (target.id() != arrow::Type::STRUCT) return;
  const size_t n = std::min(field.children.size(), static_cast<size_t>(target.num_fields()));
  for (size_t i = 0; i < n; ++i) {
    collect_int96_zeros(field.children[i], *target.field(static_cast<int>(i))->type(), descr,
                        key.empty() ? std::to_string(i) : key + "/" + std::to_string(i), out);
  }
}

// The INT96 time units of the leaves under `field` (whose arrow-rs type is `target`).
void int96_units_under(const parquet::arrow::SchemaField& field, const arrow::DataType& target,
                       const parquet::SchemaDescriptor& descr,
                       std::set<arrow::TimeUnit::type>* out) {
  if (field.column_index >= 0) {
    if (field.column_index < descr.num_columns() &&
        descr.Column(field.column_index)->physical_type() == parquet::Type::INT96 &&
        target.id() == arrow::Type::TIMESTAMP) {
      out->insert(static_cast<const arrow::TimestampType&>(target).unit());
    }
    return;
  }
  const size_t n = std::min(field.children.size(), static_cast<size_t>(target.num_fields()));
  for (size_t i = 0; i < n; ++i) {
    int96_units_under(field.children[i], *target.field(static_cast<int>(i))->type(), descr, out);
  }
}

// Splits a struct's INT96 leaves into subtrees of one unit each (child-index paths); false
// when a subtree that is not a struct mixes units.
bool int96_subtrees(const parquet::arrow::SchemaField& field, const arrow::DataType& target,
                    const parquet::SchemaDescriptor& descr, std::vector<int>* path,
                    std::vector<std::pair<std::vector<int>, arrow::TimeUnit::type>>* out) {
  if (target.id() != arrow::Type::STRUCT) return false;
  const size_t n = std::min(field.children.size(), static_cast<size_t>(target.num_fields()));
  for (size_t i = 0; i < n; ++i) {
    const auto& child_type = *target.field(static_cast<int>(i))->type();
    std::set<arrow::TimeUnit::type> units;
    int96_units_under(field.children[i], child_type, descr, &units);
    if (units.empty()) continue;
    path->push_back(static_cast<int>(i));
    if (units.size() == 1) {
      out->emplace_back(*path, *units.begin());
    } else if (!int96_subtrees(field.children[i], child_type, descr, path, out)) {
      return false;
    }
    path->pop_back();
  }
  return true;
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> open_parquet(
    const std::shared_ptr<arrow::io::RandomAccessFile>& file, Status* schema_error) {
  ARROW_ASSIGN_OR_RAISE(auto reader, make_parquet_reader(file, arrow::TimeUnit::NANO, nullptr));
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
    ARROW_ASSIGN_OR_RAISE(reader, make_parquet_reader(file, arrow::TimeUnit::NANO, metadata));
  }
  // INT96 values are converted to the timestamp unit while decoding (a coarser unit keeps
  // dates that nanoseconds cannot hold), and Parquet C++ takes that unit per reader: the
  // top-level columns are read by one reader per unit needed.
  const auto& per_field = target->int96_units;
  const auto& manifest_fields = reader->manifest().schema_fields;
  const auto& descr = *reader->parquet_reader()->metadata()->schema();
  std::vector<arrow::TimeUnit::type> units;  // the unit of each group
  const auto group_of_unit = [&units](arrow::TimeUnit::type unit) {
    size_t g = 0;
    while (g < units.size() && units[g] != unit) ++g;
    if (g == units.size()) units.push_back(unit);
    return static_cast<int>(g);
  };
  std::vector<int> group_of_field;
  std::map<int, Int96Merge> merges;
  for (size_t i = 0; i < per_field.size(); ++i) {
    if (per_field[i].size() > 1) {
      const auto& type = *target->schema->field(static_cast<int>(i))->type();
      std::vector<std::pair<std::vector<int>, arrow::TimeUnit::type>> subtrees;
      std::vector<int> path;
      if (manifest_fields.size() != per_field.size() ||
          !int96_subtrees(manifest_fields[i], type, descr, &path, &subtrees) || subtrees.empty()) {
        *schema_error = Status::unsupported(
            "column '" + target->schema->field(static_cast<int>(i))->name() +
            "' holds INT96 timestamps read in different time units (embedded Arrow schema) "
            "under a list; odf-hash reads them per struct member");
        return arrow::Status::Invalid("schema");
      }
      Int96Merge merge;
      merge.base_group = group_of_unit(subtrees[0].second);
      for (const auto& [p, unit] : subtrees) {
        const int g = group_of_unit(unit);
        if (g != merge.base_group) merge.subtrees.emplace_back(p, g);
      }
      group_of_field.push_back(merge.base_group);
      merges[static_cast<int>(i)] = std::move(merge);
      continue;
    }
    arrow::TimeUnit::type unit =
        per_field[i].empty() ? (units.empty() ? arrow::TimeUnit::NANO : units[0]) : per_field[i][0];
    group_of_field.push_back(group_of_unit(unit));
  }
  if (units.empty()) units.push_back(arrow::TimeUnit::NANO);
  if (units.size() > 1 && manifest_fields.size() != per_field.size()) {
    *schema_error = Status::unsupported(
        "INT96 columns in different time units in a schema "
        "with empty groups");
    return arrow::Status::Invalid("schema");
  }
  std::vector<ParquetReaderGroup> groups(units.size());
  for (size_t g = 0; g < units.size(); ++g) {
    if (g == 0 && units[0] == arrow::TimeUnit::NANO) {
      groups[g].reader = std::move(reader);
    } else {
      ARROW_ASSIGN_OR_RAISE(groups[g].reader, make_parquet_reader(file, units[g], metadata));
    }
  }
  const int num_fields = target->schema->num_fields();
  for (int i = 0; i < num_fields; ++i) {
    std::set<int> readers = {units.size() == 1 ? 0 : group_of_field[i]};
    const auto merge = merges.find(i);
    if (merge != merges.end()) {
      for (const auto& subtree : merge->second.subtrees) readers.insert(subtree.second);
    }
    for (int r : readers) {
      auto& g = groups[r];
      g.fields.push_back(i);
      if (units.size() > 1) collect_leaves(manifest_fields[i], &g.leaves);
    }
  }
  if (num_fields == 0) groups.resize(1);
  std::vector<io_internal::StaleZeroByPath> zeros(num_fields);
  const auto& fields = groups[0].reader->manifest().schema_fields;
  if (static_cast<int>(fields.size()) == num_fields) {
    for (int i = 0; i < num_fields; ++i) {
      const auto& type = *target->schema->field(i)->type();
      if (type.id() == arrow::Type::STRUCT)
        collect_int96_zeros(fields[i], type, descr, "", &zeros[i]);
    }
  }
  return std::make_shared<ParquetBatchReader>(std::move(groups), std::move(target->schema),
                                              std::move(zeros), std::move(merges));
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> open_ipc(
    const std::shared_ptr<arrow::io::RandomAccessFile>& file, FileFormat format) {
  auto options = arrow::ipc::IpcReadOptions::Defaults();
  options.memory_pool = io_internal::reader_memory_pool();
  options.use_threads = false;
  if (format == FileFormat::kArrowIpcFile) {
    ARROW_ASSIGN_OR_RAISE(auto reader, arrow::ipc::RecordBatchFileReader::Open(file, options));
    return std::make_shared<IpcFileBatchReader>(std::move(reader));
  }
  ARROW_ASSIGN_OR_RAISE(auto reader, arrow::ipc::RecordBatchStreamReader::Open(file, options));
  return std::make_shared<ValidatingBatchReader>(std::move(reader));
}

}  // namespace

Status open_record_stream(const std::string& path, ArrowArrayStream* out) {
  if (out == nullptr) return Status::invalid_argument("open_record_stream: null output stream");
  ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> object, open_local_file(path));
  return open_record_stream(std::shared_ptr<ObjectReader>(std::move(object)), out);
}

// Messages of Arrow and Parquet C++ are passed through after "<path>: <what odf-hash was
// doing>: ", so that a user sees which file and which step they are about.
Status open_record_stream(std::shared_ptr<ObjectReader> object, ArrowArrayStream* out) {
  if (out == nullptr) return Status::invalid_argument("open_record_stream: null output stream");
  if (object == nullptr) return Status::invalid_argument("open_record_stream: null object");
  ODF_HASH_ASSIGN_OR_RETURN(FileFormat format, detect_file_format(*object));
  const std::string path = object->name();
  const char* doing = format == FileFormat::kParquet        ? "reading the Parquet footer"
                      : format == FileFormat::kArrowIpcFile ? "reading the Arrow IPC file footer"
                                                            : "reading the Arrow IPC stream schema";

  Status schema_error;
  std::shared_ptr<arrow::RecordBatchReader> reader;
  arrow::Status st = guarded([&]() -> arrow::Status {
    auto file = io_internal::object_as_arrow_file(std::move(object));
    if (format == FileFormat::kParquet) {
      ARROW_ASSIGN_OR_RAISE(reader, open_parquet(file, &schema_error));
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

}  // namespace odf_hash
