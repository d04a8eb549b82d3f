// Proves the build finds Arrow C++ and Parquet C++ (system or pyarrow-bundled) and that
// arrays exported through the C Data Interface reach our own struct definitions intact.
#include <arrow/api.h>
#include <arrow/c/bridge.h>
#include <gtest/gtest.h>
#include <parquet/api/reader.h>

#include "odf_hash/arrow_c_data.h"

TEST(ArrowSmoke, ExportsInt64ArrayThroughCDataInterface) {
  arrow::Int64Builder builder;
  ASSERT_TRUE(builder.AppendValues({1, 2, 3}).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  std::shared_ptr<arrow::Array> array;
  ASSERT_TRUE(builder.Finish(&array).ok());

  ArrowArray c_array{};
  ArrowSchema c_schema{};
  ASSERT_TRUE(arrow::ExportArray(*array, &c_array, &c_schema).ok());
  EXPECT_STREQ(c_schema.format, "l");
  EXPECT_EQ(c_array.length, 4);
  EXPECT_EQ(c_array.null_count, 1);
  EXPECT_EQ(c_array.n_buffers, 2);
  const auto* values = static_cast<const int64_t*>(c_array.buffers[1]);
  EXPECT_EQ(values[2], 3);
  c_array.release(&c_array);
  c_schema.release(&c_schema);
}

TEST(ArrowSmoke, ParquetVersionIsLinked) {
  EXPECT_FALSE(parquet::default_writer_properties()->created_by().empty());
}
