#include "empty_pages.h"

#include <utility>

#include <parquet/column_reader.h>

namespace odf_hash::io_internal {

namespace {

// A row group whose page readers skip data pages with no values.
class SkippingRowGroup : public parquet::RowGroupReader::Contents {
 public:
  SkippingRowGroup(std::shared_ptr<parquet::RowGroupReader> inner, parquet::ReaderProperties props)
      : inner_(std::move(inner)), props_(std::move(props)) {}

  std::unique_ptr<parquet::PageReader> GetColumnPageReader(int i) override {
    auto pages = inner_->GetColumnPageReader(i);
    pages->set_data_page_filter(
        [](const parquet::DataPageStats& stats) { return stats.num_values == 0; });
    return pages;
  }
  const parquet::RowGroupMetaData* metadata() const override { return inner_->metadata(); }
  const parquet::ReaderProperties* properties() const override { return &props_; }

 private:
  std::shared_ptr<parquet::RowGroupReader> inner_;
  parquet::ReaderProperties props_;
};

class SkippingFile : public parquet::ParquetFileReader::Contents {
 public:
  SkippingFile(std::unique_ptr<parquet::ParquetFileReader> inner, parquet::ReaderProperties props)
      : inner_(std::move(inner)), props_(std::move(props)) {}

  void Close() override { inner_->Close(); }
  std::shared_ptr<parquet::RowGroupReader> GetRowGroup(int i) override {
    return std::make_shared<parquet::RowGroupReader>(
        std::make_unique<SkippingRowGroup>(inner_->RowGroup(i), props_));
  }
  std::shared_ptr<parquet::FileMetaData> metadata() const override { return inner_->metadata(); }
  std::shared_ptr<parquet::PageIndexReader> GetPageIndexReader() override {
    return inner_->GetPageIndexReader();
  }
  parquet::BloomFilterReader& GetBloomFilterReader() override {
    return inner_->GetBloomFilterReader();
  }

 private:
  std::unique_ptr<parquet::ParquetFileReader> inner_;
  parquet::ReaderProperties props_;
};

}  // namespace

std::unique_ptr<parquet::ParquetFileReader> open_skipping_empty_pages(
    std::shared_ptr<arrow::io::RandomAccessFile> source, const parquet::ReaderProperties& props,
    std::shared_ptr<parquet::FileMetaData> metadata) {
  auto inner = parquet::ParquetFileReader::Open(std::move(source), props, std::move(metadata));
  auto out = std::make_unique<parquet::ParquetFileReader>();
  out->Open(std::make_unique<SkippingFile>(std::move(inner), props));
  return out;
}

}  // namespace odf_hash::io_internal
