// Unsupported types give the documented error naming the column path; malformed C structs
// give errors, never a crash.
#include <gtest/gtest.h>

#include "logical_test_support.h"

namespace odf_hash::test {
namespace {

using arrow::field;

Status create_status(const std::shared_ptr<arrow::Schema>& schema) {
  ArrowSchema c{};
  EXPECT_TRUE(arrow::ExportSchema(*schema, &c).ok());
  auto r = LogicalHasher::create(c);
  c.release(&c);
  return r.status();
}

void expect_unsupported(const std::shared_ptr<arrow::DataType>& inner, const std::string& word) {
  auto schema = arrow::schema(
      {field("ok", arrow::int32()),
       field("s", arrow::struct_({field("t", arrow::struct_({field("bad", inner)}))}))});
  const Status st = create_status(schema);
  EXPECT_EQ(st.code(), StatusCode::kUnsupported) << st.to_string();
  EXPECT_NE(st.message().find("'s.t.bad'"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find(word), std::string::npos) << st.message();
}

TEST(LogicalErrors, ReservedTypesAreUnsupportedWithTheirPath) {
  expect_unsupported(arrow::month_interval(), "Interval");
  expect_unsupported(arrow::day_time_interval(), "Interval");
  expect_unsupported(arrow::month_day_nano_interval(), "Interval");
  expect_unsupported(arrow::duration(arrow::TimeUnit::SECOND), "Duration");
  expect_unsupported(arrow::map(arrow::utf8(), arrow::int32()), "Map");
  expect_unsupported(arrow::dense_union({field("a", arrow::int32())}), "Union");
  expect_unsupported(arrow::sparse_union({field("a", arrow::int32())}), "Union");
}

TEST(LogicalErrors, StructInsideListIsUnsupported) {
  auto schema = arrow::schema(
      {field("l", arrow::list(field("it", arrow::struct_({field("x", arrow::int32())}))))});
  const Status st = create_status(schema);
  EXPECT_EQ(st.code(), StatusCode::kUnsupported);
  EXPECT_NE(st.message().find("'l.it'"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("Struct"), std::string::npos) << st.message();
}

TEST(LogicalErrors, ArrayHasherRejectsStructs) {
  ArrowSchema c{};
  ASSERT_TRUE(
      arrow::ExportField(*field("s", arrow::struct_({field("x", arrow::int8())})), &c).ok());
  auto r = ArrayHasher::create(c);
  c.release(&c);
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
}

TEST(LogicalErrors, MalformedSchemas) {
  ArrowSchema child{};
  child.format = "d:abc";
  child.name = "x";
  ArrowSchema* children[] = {&child};
  ArrowSchema root{};
  root.format = "+s";
  root.n_children = 1;
  root.children = children;
  for (const char* bad :
       {"d:abc", "d:10", "d:10,2,48", "d:300,2", "w:-1", "w:x", "?", "", "+w:", "tsx:", "+r"}) {
    child.format = bad;
    auto r = LogicalHasher::create(root);
    EXPECT_FALSE(r.is_ok()) << bad;
  }
  child.format = nullptr;
  EXPECT_FALSE(LogicalHasher::create(root).is_ok());
  child.format = "+l";  // a list without its item schema
  EXPECT_EQ(LogicalHasher::create(root).status().code(), StatusCode::kInvalidArgument);
  root.format = "i";
  EXPECT_EQ(LogicalHasher::create(root).status().code(), StatusCode::kInvalidArgument);
}

// Exports a batch, lets `mutate` break it, and expects update() to fail, then to keep
// failing (the hasher is unusable after an error).
template <typename F>
void expect_malformed(const std::shared_ptr<arrow::RecordBatch>& batch, F mutate,
                      const std::string& expected_word) {
  auto e = export_batch(*batch);
  ASSERT_TRUE(e);
  auto h = LogicalHasher::create(e->schema);
  ASSERT_TRUE(h.is_ok());
  ArrowArray copy = e->array;  // shallow: mutations must not reach the release callback
  std::vector<ArrowArray> child_copies;
  for (int64_t i = 0; i < copy.n_children; ++i) child_copies.push_back(*e->array.children[i]);
  std::vector<ArrowArray*> child_ptrs;
  for (auto& c : child_copies) child_ptrs.push_back(&c);
  copy.children = child_ptrs.data();
  mutate(copy);
  const Status st = h->update(copy);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.to_string();
  EXPECT_NE(st.message().find(expected_word), std::string::npos) << st.message();
  EXPECT_FALSE(h->update(e->array).is_ok());
  EXPECT_FALSE(std::move(*h).finalize().is_ok());
}

std::shared_ptr<arrow::RecordBatch> one_column(const std::shared_ptr<arrow::Array>& a) {
  return arrow::RecordBatch::Make(arrow::schema({field("c", a->type())}), a->length(), {a});
}

TEST(LogicalErrors, MalformedArrays) {
  auto ints = one_column(from_json(arrow::int32(), "[1, null, 3]"));
  expect_malformed(
      ints, [](ArrowArray& b) { b.children[0]->n_buffers = 3; }, "buffers");
  expect_malformed(
      ints, [](ArrowArray& b) { b.children[0]->length = -1; }, "length");
  expect_malformed(
      ints, [](ArrowArray& b) { b.length = -5; }, "length");
  expect_malformed(
      ints, [](ArrowArray& b) { b.children[0]->offset = -1; }, "offset");
  expect_malformed(
      ints, [](ArrowArray& b) { b.children[0]->length = 2; }, "length");
  expect_malformed(
      ints, [](ArrowArray& b) { b.children[0]->null_count = 0; }, "null_count");
  expect_malformed(
      ints, [](ArrowArray& b) { b.n_children = 2; }, "children");
  expect_malformed(
      ints, [](ArrowArray& b) { b.children[0] = nullptr; }, "null");
  expect_malformed(
      ints, [](ArrowArray& b) { b.children[0]->n_children = 1; }, "children");
  static const void* no_values[2] = {nullptr, nullptr};
  expect_malformed(
      ints,
      [](ArrowArray& b) {
        b.children[0]->buffers = no_values;
        b.children[0]->null_count = 0;
      },
      "values buffer is null");
  static const void* only_values[2] = {nullptr, nullptr};
  expect_malformed(
      ints,
      [](ArrowArray& b) {
        only_values[1] = b.children[0]->buffers[1];
        b.children[0]->buffers = only_values;  // null_count 1 but no bitmap
      },
      "no validity bitmap");

  // Offsets: decreasing, negative, beyond the child.
  auto strs = one_column(from_json(arrow::utf8(), R"(["ab", "c", "def"])"));
  static int32_t offsets[4];
  static const void* str_bufs[3];
  auto with_offsets = [](std::array<int32_t, 4> o) {
    return [o](ArrowArray& b) {
      std::copy(o.begin(), o.end(), offsets);
      str_bufs[0] = nullptr;
      str_bufs[1] = offsets;
      str_bufs[2] = b.children[0]->buffers[2];
      b.children[0]->buffers = str_bufs;
    };
  };
  expect_malformed(strs, with_offsets({0, 2, 1, 6}), "decrease");
  expect_malformed(strs, with_offsets({-1, 2, 3, 6}), "negative offset");

  // Offsets are checked 16 at a time: a decrease anywhere in a long column (first block,
  // inside a later block, its last slot, the tail after the blocks) is found and named.
  for (const bool large : {false, true}) {
    constexpr int kSlots = 100;
    std::string json = "[";
    for (int i = 0; i < kSlots; ++i) json += std::string(i ? "," : "") + "\"ab\"";
    auto col = from_json(large ? arrow::large_utf8() : arrow::utf8(), json + "]");
    auto batch = one_column(col);
    for (const int slot : {0, 1, 15, 16, 37, 63, 64, 97, 98}) {
      // Offset slot + 1 drops below offset slot: slot `slot` has a negative length.
      static std::vector<int64_t> wide;
      static std::vector<int32_t> narrow;
      wide.assign(kSlots + 1, 0);
      narrow.assign(kSlots + 1, 0);
      for (int i = 0; i <= kSlots; ++i) {
        wide[i] = narrow[i] = 2 * i;
      }
      wide[slot + 1] = narrow[slot + 1] = 2 * slot - 1 < 0 ? 0 : 2 * slot - 1;
      if (slot == 0) wide[0] = narrow[0] = 1;  // 1 then 0
      static const void* bufs[3];
      const std::string expected = "offsets decrease at slot " + std::to_string(slot) + " ";
      expect_malformed(
          batch,
          [large](ArrowArray& b) {
            bufs[0] = nullptr;
            bufs[1] = large ? static_cast<const void*>(wide.data()) : narrow.data();
            bufs[2] = b.children[0]->buffers[2];
            b.children[0]->buffers = bufs;
          },
          expected);
    }
  }
  auto lists = one_column(from_json(arrow::list(arrow::int8()), "[[1], [2, 3], []]"));
  static int32_t list_offsets[4] = {0, 1, 3, 9};
  static const void* list_bufs[2] = {nullptr, list_offsets};
  expect_malformed(
      lists, [](ArrowArray& b) { b.children[0]->buffers = list_bufs; }, "child of length");

  // A struct child shorter than its parent; a record batch with null rows.
  auto s =
      arrow::StructArray::Make({from_json(arrow::int8(), "[1, 2]")}, std::vector<std::string>{"x"})
          .ValueOrDie();
  auto structs = one_column(s);
  static ArrowArray short_child;
  static ArrowArray* short_children[1];
  expect_malformed(
      structs,
      [](ArrowArray& b) {
        short_child = *b.children[0]->children[0];
        short_child.length = 1;
        short_children[0] = &short_child;
        b.children[0]->children = short_children;
      },
      "length");
  static uint8_t no_rows_valid[1] = {0};
  static const void* batch_bufs[1] = {no_rows_valid};
  expect_malformed(
      ints,
      [](ArrowArray& b) {
        b.buffers = batch_bufs;
        b.null_count = -1;
      },
      "null rows");

  // Dictionary index outside the dictionary.
  auto dict =
      one_column(arrow::json::DictArrayFromJSONString(
                     arrow::dictionary(arrow::int8(), arrow::utf8()), "[0, 1]", R"(["a", "b"])")
                     .ValueOrDie());
  static int8_t bad_indices[2] = {0, 5};
  static const void* dict_bufs[2] = {nullptr, bad_indices};
  expect_malformed(
      dict, [](ArrowArray& b) { b.children[0]->buffers = dict_bufs; }, "dictionary index 5");

  // Views pointing outside their variadic buffers, or with a bad buffer index.
  auto views = one_column(from_json(arrow::utf8_view(), R"(["a string longer than 12"])"));
  static uint8_t view[16];
  static const void* view_bufs[4];
  auto with_view = [](int32_t size, int32_t index, int32_t offset) {
    return [=](ArrowArray& b) {
      std::memcpy(view, b.children[0]->buffers[1], 16);
      std::memcpy(view, &size, 4);
      std::memcpy(view + 8, &index, 4);
      std::memcpy(view + 12, &offset, 4);
      for (int i = 0; i < 4; ++i) view_bufs[i] = b.children[0]->buffers[i];
      view_bufs[1] = view;
      b.children[0]->buffers = view_bufs;
    };
  };
  expect_malformed(views, with_view(1000, 0, 0), "outside");
  expect_malformed(views, with_view(20, 1, 0), "outside");
  expect_malformed(views, with_view(20, 0, 10), "outside");
  expect_malformed(views, with_view(-4, 0, 0), "negative");
}

TEST(LogicalErrors, MalformedStreams) {
  EXPECT_FALSE(logical_hash_stream(nullptr).is_ok());
  ArrowArrayStream released{};
  EXPECT_FALSE(logical_hash_stream(&released).is_ok());
  // A producer whose get_next fails: the error carries its message and the stream is released.
  struct Failing {
    static int get_schema(ArrowArrayStream*, ArrowSchema* out) {
      return arrow::ExportSchema(*arrow::schema({field("a", arrow::int8())}), out).ok() ? 0 : 1;
    }
    static int get_next(ArrowArrayStream*, ArrowArray*) { return 5; }
    static const char* last_error(ArrowArrayStream*) { return "disk on fire"; }
    static void release(ArrowArrayStream* s) { s->release = nullptr; }
  };
  ArrowArrayStream failing{&Failing::get_schema, &Failing::get_next, &Failing::last_error,
                           &Failing::release, nullptr};
  auto r = logical_hash_stream(&failing);
  EXPECT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("disk on fire"), std::string::npos);
  EXPECT_EQ(failing.release, nullptr);
}

}  // namespace
}  // namespace odf_hash::test
