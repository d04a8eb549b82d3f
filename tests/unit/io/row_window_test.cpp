// A row window over a concatenated record stream (open_concatenated_record_stream of
// record_stream.h, row_window.h): every window over three Arrow IPC files of several batches gives
// the rows skip .. skip + limit - 1 of the whole, counted by hand; the files after the
// window's last row are never opened. With an opener from a row (open_record_stream_from),
// a Parquet file's row groups before the window are passed over, never decoded, and every
// window still gives the same rows.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "odf_hash/internal/io/arrow_module.h"
#include "odf_hash/internal/io/concat_stream.h"
#include "odf_hash/internal/io/deferred_object.h"
#include "odf_hash/io/local_store.h"
#include "odf_hash/io/record_stream.h"
#include "reader_fixtures.h"

namespace odf_hash::test {
namespace {

// `rows` ids from `first`, in IPC batches of `chunk` rows.
std::string ids_file(const std::string& name, int64_t first, int64_t rows, int64_t chunk) {
  arrow::Int64Builder b;
  for (int64_t i = 0; i < rows; ++i) EXPECT_TRUE(b.Append(first + i).ok());
  auto table = arrow::Table::Make(arrow::schema({arrow::field("id", arrow::int64())}),
                                  {ok_or_die(b.Finish())});
  return write_ipc(name, table, /*stream=*/false, /*legacy=*/false, chunk);
}

// `rows` ids from `first` in Parquet row groups of `group` rows.
std::string ids_parquet(const std::string& name, int64_t first, int64_t rows, int64_t group) {
  arrow::Int64Builder b;
  for (int64_t i = 0; i < rows; ++i) EXPECT_TRUE(b.Append(first + i).ok());
  auto table = arrow::Table::Make(arrow::schema({arrow::field("id", arrow::int64())}),
                                  {ok_or_die(b.Finish())});
  ParquetOptions options;
  options.row_group_size = group;
  return write_parquet(name, table, options);
}

struct Read {
  Status open;
  std::string error;
  std::vector<int64_t> ids;
};

// The ids the windowed stream gives, read through each batch's offset and length.
// `from`: opened by the Arrow module's open_record_stream_from while rows remain to skip.
Read read_ids(const std::vector<std::shared_ptr<ObjectReader>>& objects, RowWindow window,
              bool from = false) {
  Read r;
  ArrowArrayStream stream{};
  if (from) {
    auto api = io_internal::arrow_module();
    EXPECT_TRUE(api.is_ok()) << api.status().message();
    r.open = io_internal::concatenate_streams(objects, (*api)->open_record_stream, &stream, {},
                                              window, (*api)->open_record_stream_from);
  } else {
    r.open = open_concatenated_record_stream(objects, &stream, window);
  }
  if (!r.open.is_ok()) return r;
  for (;;) {
    ArrowArray batch{};
    if (stream.get_next(&stream, &batch) != 0) {
      r.error = stream.get_last_error(&stream);
      break;
    }
    if (batch.release == nullptr) break;
    const ArrowArray& c = *batch.children[0];
    const auto* v = static_cast<const int64_t*>(c.buffers[1]);
    for (int64_t i = 0; i < batch.length; ++i) r.ids.push_back(v[batch.offset + c.offset + i]);
    batch.release(&batch);
  }
  stream.release(&stream);
  return r;
}

std::vector<std::shared_ptr<ObjectReader>> open_all(const std::vector<std::string>& paths) {
  std::vector<std::shared_ptr<ObjectReader>> objects;
  for (const auto& p : paths) {
    auto o = open_local_file(p);
    EXPECT_TRUE(o.is_ok()) << o.status().message();
    if (o.is_ok()) objects.push_back(std::move(o).value());
  }
  return objects;
}

// The ids first + skip ... of a window over ids first .. first + total - 1 (limit < 0: no
// limit), counted by hand.
std::vector<int64_t> window_ids(int64_t first, int64_t total, int64_t skip, int64_t limit) {
  std::vector<int64_t> ids;
  for (int64_t i = skip; i < total && (limit < 0 || i < skip + limit); ++i)
    ids.push_back(first + i);
  return ids;
}

std::shared_ptr<ObjectReader> deferred(const std::string& path, std::atomic<int>& opens) {
  return std::make_shared<DeferredObject>(
      path, 0, [path, &opens]() -> Result<std::shared_ptr<ObjectReader>> {
        ++opens;
        ODF_HASH_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> o, open_local_file(path));
        return std::shared_ptr<ObjectReader>(std::move(o));
      });
}

TEST(RowWindow, EveryWindowOfThreeFiles) {
  // 7 + 5 + 9 rows in batches of 3, 2 and 4: windows cut inside batches, at their edges and
  // across files.
  const std::vector<std::string> paths = {ids_file("win_a.arrow", 0, 7, 3),
                                          ids_file("win_b.arrow", 7, 5, 2),
                                          ids_file("win_c.arrow", 12, 9, 4)};
  const std::vector<std::shared_ptr<ObjectReader>> objects = open_all(paths);
  ASSERT_EQ(objects.size(), paths.size());
  const int64_t total = 21;
  for (int64_t skip = 0; skip <= total + 1; ++skip) {
    for (int64_t limit = -1; limit <= total + 1; ++limit) {  // -1: no limit
      RowWindow w{uint64_t(skip), limit < 0 ? std::nullopt : std::optional<uint64_t>(limit)};
      const std::vector<int64_t> expected = window_ids(0, total, skip, limit);
      Read r = read_ids(objects, w);
      ASSERT_TRUE(r.open.is_ok()) << r.open.message();
      EXPECT_EQ(r.error, "");
      EXPECT_EQ(r.ids, expected) << "skip " << skip << " limit " << limit;
      // One file alone is windowed too.
      Read one = read_ids({objects[2]}, w);
      EXPECT_EQ(one.ids, window_ids(12, 9, skip, limit)) << "skip " << skip << " limit " << limit;
    }
  }
}

TEST(RowWindow, FilesAfterTheWindowAreNeverOpened) {
  std::atomic<int> opens_a{0}, opens_b{0}, opens_bad{0};
  const std::string a = ids_file("win_lazy_a.arrow", 0, 10, 4);
  const std::string b = ids_file("win_lazy_b.arrow", 10, 10, 4);
  // Not a data file: reading it would fail.
  const std::string bad = write_bytes("win_lazy_bad.arrow", "not arrow");
  std::vector<std::shared_ptr<ObjectReader>> objects = {deferred(a, opens_a), deferred(b, opens_b),
                                                        deferred(bad, opens_bad)};
  // The window ends with the second file's last row: the third is never opened.
  Read r = read_ids(objects, RowWindow{5, 15});
  ASSERT_TRUE(r.open.is_ok()) << r.open.message();
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(r.ids.size(), 15u);
  EXPECT_EQ(r.ids.front(), 5);
  EXPECT_EQ(r.ids.back(), 19);
  EXPECT_EQ(opens_bad.load(), 0);
  // Ending inside the first file: the second is not opened either.
  const int before = opens_b.load();
  r = read_ids(objects, RowWindow{0, 3});
  EXPECT_EQ(r.ids, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(opens_b.load(), before);
  EXPECT_EQ(opens_bad.load(), 0);
  // Without a limit the bad file is read, and its error said.
  r = read_ids(objects, RowWindow{18, std::nullopt});
  EXPECT_NE(r.error, "");
  EXPECT_EQ(opens_bad.load(), 1);
}

TEST(RowWindow, ParquetRowGroupsBeforeTheWindowAreNotDecoded) {
  // Row groups of 3, 2 and 4 rows; IPC in the middle (read from its first row).
  const std::vector<std::string> paths = {ids_parquet("win_p_a.parquet", 0, 7, 3),
                                          ids_file("win_p_b.arrow", 7, 5, 2),
                                          ids_parquet("win_p_c.parquet", 12, 9, 4)};
  const std::vector<std::shared_ptr<ObjectReader>> objects = open_all(paths);
  ASSERT_EQ(objects.size(), paths.size());
  auto api = io_internal::arrow_module();
  ASSERT_TRUE(api.is_ok()) << api.status().message();
  // The first file's groups are [0, 3), [3, 6) and [6, 7): from row 6 the first two are
  // passed over and the stream starts at row 6; from row 5 only the first; from row 7 or
  // later (past the file) all three.
  for (auto [row, skipped_rows] : std::vector<std::pair<uint64_t, uint64_t>>{
           {0, 0}, {2, 0}, {3, 3}, {5, 3}, {6, 6}, {7, 7}, {100, 7}}) {
    ArrowArrayStream s{};
    uint64_t skipped = 99;
    ASSERT_TRUE((*api)->open_record_stream_from(objects[0], row, &s, &skipped).is_ok());
    EXPECT_EQ(skipped, skipped_rows) << "from row " << row;
    ArrowArray batch{};
    ASSERT_EQ(s.get_next(&s, &batch), 0);
    if (skipped_rows < 7) {
      ASSERT_NE(batch.release, nullptr);
      const auto* v = static_cast<const int64_t*>(batch.children[0]->buffers[1]);
      EXPECT_EQ(v[batch.offset + batch.children[0]->offset], int64_t(skipped_rows));
      batch.release(&batch);
    } else {
      EXPECT_EQ(batch.release, nullptr);  // every group passed over: no rows
    }
    s.release(&s);
  }
  {
    ArrowArrayStream s{};
    uint64_t skipped = 99;
    ASSERT_TRUE((*api)->open_record_stream_from(objects[1], 3, &s, &skipped).is_ok());
    EXPECT_EQ(skipped, 0u);  // IPC: from its first row
    s.release(&s);
  }
  const int64_t total = 21;
  for (int64_t skip = 0; skip <= total + 1; ++skip) {
    for (int64_t limit = -1; limit <= total + 1; ++limit) {  // -1: no limit
      RowWindow w{uint64_t(skip), limit < 0 ? std::nullopt : std::optional<uint64_t>(limit)};
      const std::vector<int64_t> expected = window_ids(0, total, skip, limit);
      Read r = read_ids(objects, w, /*from=*/true);
      ASSERT_TRUE(r.open.is_ok()) << r.open.message();
      EXPECT_EQ(r.error, "");
      EXPECT_EQ(r.ids, expected) << "skip " << skip << " limit " << limit;
    }
  }
}

}  // namespace
}  // namespace odf_hash::test
