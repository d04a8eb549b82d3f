// open_cast_stream (module_api.h): a table's fields as the other table types them, for
// `compare` to neutralise a type or nullability difference and see what it changes.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <arrow/c/bridge.h>
#include <arrow/compute/cast.h>
#include <arrow/record_batch.h>

#include "arrow_status.h"
#include "memory_pool.h"
#include "module_api.h"

namespace odf_hash::io_internal {

namespace {

// The batches of `inner` with only `columns` (indices into its schema), each cast to its
// field of `target` (safe: a value that would change or be lost fails the batch).
class CastingReader final : public arrow::RecordBatchReader {
 public:
  CastingReader(std::shared_ptr<arrow::RecordBatchReader> inner, std::vector<int> columns,
                std::shared_ptr<arrow::Schema> target)
      : inner_(std::move(inner)), columns_(std::move(columns)), target_(std::move(target)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return target_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* out) override {
    return guarded([&]() -> arrow::Status {
      std::shared_ptr<arrow::RecordBatch> batch;
      ARROW_RETURN_NOT_OK(inner_->ReadNext(&batch));
      if (batch == nullptr) {
        *out = nullptr;
        return arrow::Status::OK();
      }
      arrow::ArrayVector cast;
      arrow::compute::ExecContext ctx(reader_memory_pool());
      for (size_t i = 0; i < columns_.size(); ++i) {
        std::shared_ptr<arrow::Array> column = batch->column(columns_[i]);
        const std::shared_ptr<arrow::Field>& to = target_->field(int(i));
        if (!column->type()->Equals(*to->type())) {
          auto r =
              arrow::compute::Cast(*column, to->type(), arrow::compute::CastOptions::Safe(), &ctx);
          if (!r.ok()) {
            return arrow::Status::NotImplemented(
                "column '", to->name(), "': cannot cast ", column->type()->ToString(), " to ",
                to->type()->ToString(), ": ", r.status().message());
          }
          column = std::move(r).ValueOrDie();
        }
        cast.push_back(std::move(column));
      }
      *out = arrow::RecordBatch::Make(target_, batch->num_rows(), std::move(cast));
      return arrow::Status::OK();
    });
  }

 private:
  std::shared_ptr<arrow::RecordBatchReader> inner_;
  std::vector<int> columns_;
  std::shared_ptr<arrow::Schema> target_;
};

Result<std::shared_ptr<arrow::RecordBatchReader>> import_stream(const std::string& name,
                                                                ArrowArrayStream* stream) {
  auto reader = arrow::ImportRecordBatchReader(stream);  // takes the stream, even on error
  if (!reader.ok()) return from_arrow(name, reader.status());
  return std::move(reader).ValueOrDie();
}

// `object`'s records, only its top-level `fields` read when it is a Parquet file whose fields
// map one to one (open_parquet_fields_stream), else every field.
Result<std::shared_ptr<arrow::RecordBatchReader>> open_fields(
    std::shared_ptr<ObjectReader> object, const std::vector<std::string>& fields) {
  ArrowArrayStream whole{};
  ODF_HASH_RETURN_IF_ERROR(open_arrow_record_stream(object, &whole));
  ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<arrow::RecordBatchReader> reader,
                            import_stream(object->name(), &whole));
  std::vector<int> indices;
  for (const std::string& name : fields) {
    const int i = reader->schema()->GetFieldIndex(name);
    if (i < 0) return reader;  // the caller names the missing field
    indices.push_back(i);
  }
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  ArrowArrayStream some{};
  Status st = open_parquet_fields_stream(object, indices, &some);
  if (st.code() == StatusCode::kUnsupported) return reader;  // Arrow IPC, or no 1:1 map
  ODF_HASH_RETURN_IF_ERROR(st);
  return import_stream(object->name(), &some);
}

}  // namespace

Status open_cast_stream(std::shared_ptr<ObjectReader> object, std::shared_ptr<ObjectReader> like,
                        const std::vector<std::string>& fields, bool types,
                        ArrowArrayStream* out) try {
  std::shared_ptr<arrow::Schema> model_schema;
  {
    ArrowArrayStream stream{};
    ODF_HASH_RETURN_IF_ERROR(open_arrow_record_stream(like, &stream));
    ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<arrow::RecordBatchReader> model,
                              import_stream(like->name(), &stream));
    model_schema = model->schema();  // only its schema is needed
  }
  ODF_HASH_ASSIGN_OR_RETURN(std::shared_ptr<arrow::RecordBatchReader> reader,
                            open_fields(object, fields));
  std::vector<int> columns;
  arrow::FieldVector target;
  for (const std::string& name : fields) {
    const int i = reader->schema()->GetFieldIndex(name);
    const std::shared_ptr<arrow::Field> to = model_schema->GetFieldByName(name);
    if (i < 0 || to == nullptr) {
      return Status::invalid_argument("open_cast_stream: field '" + name +
                                      "' is not a single top-level field of both tables");
    }
    columns.push_back(i);
    target.push_back(types ? to : reader->schema()->field(i)->WithNullable(to->nullable()));
  }
  auto casting = std::make_shared<CastingReader>(std::move(reader), std::move(columns),
                                                 arrow::schema(std::move(target)));
  arrow::Status exported = arrow::ExportRecordBatchReader(casting, out);
  if (!exported.ok()) return from_arrow(object->name() + ": exporting the cast stream", exported);
  return Status::ok();
} catch (const std::bad_alloc&) {
  return Status::io_error(object->name() + ": out of memory casting its records");
}

}  // namespace odf_hash::io_internal
