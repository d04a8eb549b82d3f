// Parallel and multi-lane logical hashing against the serial OpenSSL path: on random wide
// tables, every thread count (1..4) and multi-lane setting gives the same combined digest,
// the same column digests and the same row count; through logical_hash_stream (batches read
// ahead on a thread of its own) too. Error paths (a malformed batch mid-stream, a failing
// get_next) give the same Status as the serial path, release every array and never hang.
// The serial path itself is checked against the slow reference (differential_test.cpp).
// combine_fields_digests (columns hashed apart, then combined) gives the whole table's digest.
#include <arrow/c/bridge.h>
#include <arrow/record_batch.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <mutex>
#include <set>
#include <thread>

#include "logical_test_support.h"
#include "odf_hash/internal/core/sha3_multi.h"
#include "random_arrays.h"

namespace odf_hash::test {
namespace {

using arrow::field;
using MultiLane = LogicalHashOptions::MultiLane;

struct Table {
  std::shared_ptr<arrow::Schema> schema;
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
};

// A random table of `ncols` columns (structs included, so leaves can be more), split into
// random batches.
Table random_table(Gen& g, int64_t ncols, int64_t rows) {
  arrow::FieldVector fields;
  std::vector<std::shared_ptr<arrow::Array>> cols;
  for (int64_t c = 0; c < ncols; ++c) {
    auto type = g.column_type(2);
    fields.push_back(field("c" + std::to_string(c), type));
    cols.push_back(g.array(type, rows));
    EXPECT_TRUE(cols.back()->ValidateFull().ok()) << type->ToString();
  }
  Table t;
  t.schema = arrow::schema(fields);
  auto whole = arrow::RecordBatch::Make(t.schema, rows, cols);
  for (int64_t pos = 0; pos < rows || t.batches.empty();) {
    const int64_t len = std::min(rows - pos, g.below(rows + 1));
    t.batches.push_back(whole->Slice(pos, len));
    pos += len;
    if (rows == 0) break;
  }
  return t;
}

Result<LogicalDigest> hash_with(const Table& t, const LogicalHashOptions& options) {
  return hash_batches(t.schema, t.batches, options);
}

// A C stream over record batches that checks the C stream rules from the producer's side:
// callbacks never run concurrently, get_last_error runs on the thread of the failing
// get_next, and every array handed out is released (live() is 0 at the end). It can fail
// get_next at batch `fail_at` (returning EIO with a message).
class CheckedStream {
 public:
  CheckedStream(std::vector<std::shared_ptr<arrow::RecordBatch>> batches,
                std::shared_ptr<arrow::Schema> schema, int64_t fail_at = -1)
      : batches_(std::move(batches)), schema_(std::move(schema)), fail_at_(fail_at) {}

  // Fills `out` with a stream whose private data is this object (which must outlive it).
  void export_to(ArrowArrayStream* out) {
    out->get_schema = [](ArrowArrayStream* s, ArrowSchema* schema) {
      auto* self = static_cast<CheckedStream*>(s->private_data);
      Enter e(*self);
      return arrow::ExportSchema(*self->schema_, schema).ok() ? 0 : EINVAL;
    };
    out->get_next = [](ArrowArrayStream* s, ArrowArray* array) {
      auto* self = static_cast<CheckedStream*>(s->private_data);
      Enter e(*self);
      self->next_thread_ = std::this_thread::get_id();
      const int64_t i = self->next_++;
      if (i == self->fail_at_) return EIO;
      if (i >= static_cast<int64_t>(self->batches_.size())) {
        array->release = nullptr;
        return 0;
      }
      if (!arrow::ExportRecordBatch(*self->batches_[i], array).ok()) return EINVAL;
      self->wrap_release(array);
      return 0;
    };
    out->get_last_error = [](ArrowArrayStream* s) -> const char* {
      auto* self = static_cast<CheckedStream*>(s->private_data);
      Enter e(*self);
      if (self->next_thread_ != std::this_thread::get_id()) self->violations_++;
      return "injected read failure";
    };
    out->release = [](ArrowArrayStream* s) {
      auto* self = static_cast<CheckedStream*>(s->private_data);
      self->released_ = true;
      s->release = nullptr;
    };
    out->private_data = this;
  }

  int live() const { return live_.load(); }
  int violations() const { return violations_.load(); }
  bool released() const { return released_; }
  int64_t next_calls() const { return next_; }

 private:
  struct Enter {
    CheckedStream& s;
    explicit Enter(CheckedStream& stream) : s(stream) {
      if (s.in_call_.exchange(true)) s.violations_++;
    }
    ~Enter() { s.in_call_ = false; }
  };
  struct Wrapped {
    CheckedStream* owner;
    void (*release)(ArrowArray*);
    void* private_data;
  };
  void wrap_release(ArrowArray* array) {
    live_++;
    array->private_data = new Wrapped{this, array->release, array->private_data};
    array->release = [](ArrowArray* a) {
      auto* w = static_cast<Wrapped*>(a->private_data);
      a->private_data = w->private_data;
      a->release = w->release;
      a->release(a);
      w->owner->live_--;
      delete w;
    };
  }

  std::vector<std::shared_ptr<arrow::RecordBatch>> batches_;
  std::shared_ptr<arrow::Schema> schema_;
  int64_t fail_at_;
  int64_t next_ = 0;
  std::thread::id next_thread_;
  std::atomic<bool> in_call_{false};
  std::atomic<int> live_{0};
  std::atomic<int> violations_{0};
  bool released_ = false;
};

Result<LogicalDigest> hash_stream_with(const Table& t, const LogicalHashOptions& options,
                                       int64_t fail_at = -1) {
  CheckedStream checked(t.batches, t.schema, fail_at);
  ArrowArrayStream stream{};
  checked.export_to(&stream);
  auto r = logical_hash_stream(&stream, options);
  EXPECT_TRUE(checked.released());
  EXPECT_EQ(checked.live(), 0) << "arrays not released";
  EXPECT_EQ(checked.violations(), 0) << "concurrent or misplaced stream callbacks";
  return r;
}

void expect_same(const Result<LogicalDigest>& want, const Result<LogicalDigest>& got,
                 const std::string& what) {
  ASSERT_EQ(want.is_ok(), got.is_ok()) << what << ": " << got.status().to_string();
  if (!want.is_ok()) {
    EXPECT_EQ(want.status().code(), got.status().code()) << what;
    EXPECT_EQ(want.status().message(), got.status().message()) << what;
    return;
  }
  EXPECT_EQ(hex(want->digest), hex(got->digest)) << what;
  EXPECT_EQ(want->num_rows, got->num_rows) << what;
  ASSERT_EQ(want->columns.size(), got->columns.size()) << what;
  for (size_t i = 0; i < want->columns.size(); ++i) {
    EXPECT_EQ(want->columns[i].path, got->columns[i].path) << what;
    EXPECT_EQ(want->columns[i].type, got->columns[i].type) << what;
    EXPECT_EQ(hex(want->columns[i].digest), hex(got->columns[i].digest))
        << what << " column " << want->columns[i].path;
  }
}

LogicalHashOptions options(unsigned threads, MultiLane lanes) {
  LogicalHashOptions o;
  o.threads = threads;
  o.multi_lane = lanes;
  return o;
}

const MultiLane kLaneModes[] = {MultiLane::kOff, MultiLane::kOn, MultiLane::kAuto};

std::string label(uint64_t seed, unsigned threads, MultiLane lanes) {
  return "seed " + std::to_string(seed) + " threads " + std::to_string(threads) + " lanes " +
         std::to_string(static_cast<int>(lanes));
}

TEST(LogicalParallel, EveryThreadCountAndLaneModeMatchesTheSerialPath) {
  int tables = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    Gen g(seed * 7919);
    const Table t = random_table(g, 4 + g.below(20), g.chance(10) ? 0 : g.below(500));
    const auto serial = hash_with(t, options(1, MultiLane::kOff));
    ASSERT_TRUE(serial.is_ok()) << seed << ": " << serial.status().to_string();
    for (unsigned threads = 1; threads <= 4; ++threads) {
      for (MultiLane lanes : kLaneModes) {
        expect_same(serial, hash_with(t, options(threads, lanes)), label(seed, threads, lanes));
      }
    }
    ++tables;
  }
  EXPECT_EQ(tables, 60);
}

// The top-level fields of `t` listed in `fields`, hashed as a table of their own.
Result<LogicalDigest> hash_fields(const Table& t, const std::vector<int>& fields) {
  arrow::FieldVector kept;
  for (int f : fields) kept.push_back(t.schema->field(f));
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  for (const auto& b : t.batches) batches.push_back(*b->SelectColumns(fields));
  return hash_batches(arrow::schema(kept), batches);
}

Result<LogicalDigest> combine(const Table& t, std::vector<FieldsDigest> parts) {
  ArrowSchema c_schema{};
  EXPECT_TRUE(arrow::ExportSchema(*t.schema, &c_schema).ok());
  auto out = combine_fields_digests(c_schema, std::move(parts));
  c_schema.release(&c_schema);
  return out;
}

// combine_fields_digests over the fields of a table split at random into parts, each hashed as
// a table of its own, gives the digest of the whole table hashed at once (combined digest,
// column digests, rows), whatever the split and the order of the parts.
TEST(CombineFieldsDigests, PartsHashedApartGiveTheWholeDigest) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    Gen g(seed * 15485863);
    const Table t = random_table(g, 1 + g.below(8), g.chance(10) ? 0 : g.below(300));
    const auto whole = hash_with(t, options(1, MultiLane::kOff));
    ASSERT_TRUE(whole.is_ok()) << seed << ": " << whole.status().to_string();
    const int nfields = t.schema->num_fields();
    const int nparts = 1 + static_cast<int>(g.below(std::min(nfields, 4)));
    std::vector<std::vector<int>> split(nparts);
    for (int f = 0; f < nfields; ++f) split[f < nparts ? f : g.below(nparts)].push_back(f);
    for (auto& fields : split) std::sort(fields.begin(), fields.end());
    std::vector<FieldsDigest> parts;
    for (const auto& fields : split) {
      auto d = hash_fields(t, fields);
      ASSERT_TRUE(d.is_ok()) << d.status().to_string();
      parts.push_back(FieldsDigest{fields, std::move(d).value()});
    }
    if (g.chance(50)) std::reverse(parts.begin(), parts.end());
    expect_same(whole, combine(t, parts), "seed " + std::to_string(seed));
  }
}

TEST(CombineFieldsDigests, PartsThatDoNotCoverTheSchemaExactlyAreRefused) {
  Gen g(7);
  const Table t = random_table(g, 3, 20);
  std::vector<FieldsDigest> parts;
  for (int f = 0; f < 3; ++f) parts.push_back(FieldsDigest{{f}, *hash_fields(t, {f})});
  ASSERT_TRUE(combine(t, parts).is_ok());
  const auto refused = [&](std::vector<FieldsDigest> p, const std::string& what) {
    auto r = combine(t, std::move(p));
    ASSERT_FALSE(r.is_ok()) << what;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << what;
    EXPECT_NE(r.status().message().find("combining column digests"), std::string::npos);
  };
  refused({parts[0], parts[1]}, "a field missing");
  refused({parts[0], parts[1], parts[2], parts[2]}, "a field twice");
  auto swapped = parts;
  std::swap(swapped[0].fields, swapped[1].fields);
  refused(swapped, "columns that are not the field's");
  auto shorter = parts;
  shorter[2].digest.num_rows += 1;
  refused(shorter, "different row counts");
  refused({FieldsDigest{{0, 1, 2}, *hash_fields(t, {0, 1})}}, "fewer columns than leaves");
  refused({FieldsDigest{{1, 0}, *hash_fields(t, {1, 0})}, parts[2]}, "fields out of order");
  refused({FieldsDigest{{0, 1, 2, 3}, *hash_fields(t, {0, 1, 2})}}, "a field out of range");
}

TEST(LogicalParallel, StreamWithReadAheadMatchesTheSerialPath) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Gen g(seed * 104729);
    const Table t = random_table(g, 3 + g.below(12), g.below(400));
    const auto serial = hash_with(t, options(1, MultiLane::kOff));
    ASSERT_TRUE(serial.is_ok());
    for (unsigned threads : {0u, 1u, 2u, 4u}) {
      for (MultiLane lanes : {MultiLane::kOff, MultiLane::kOn}) {
        expect_same(serial, hash_stream_with(t, options(threads, lanes)),
                    "stream " + label(seed, threads, lanes));
      }
    }
  }
}

// Long fixed-width and string columns, so that lane groups drain many chunks and staging
// buffers fill, and threads really overlap.
TEST(LogicalParallel, LargeWideTableMatchesTheSerialPath) {
  Gen g(42);
  const int64_t rows = 40000;
  arrow::FieldVector fields;
  std::vector<std::shared_ptr<arrow::Array>> cols;
  const std::shared_ptr<arrow::DataType> types[] = {arrow::int64(),
                                                    arrow::int8(),
                                                    arrow::utf8(),
                                                    arrow::boolean(),
                                                    arrow::decimal256(50, 4),
                                                    arrow::int32(),
                                                    arrow::large_utf8(),
                                                    arrow::float64(),
                                                    arrow::list(arrow::int16())};
  for (size_t c = 0; c < 18; ++c) {
    auto type = types[c % std::size(types)];
    fields.push_back(field("c" + std::to_string(c), type));
    cols.push_back(g.array(type, rows));
  }
  Table t;
  t.schema = arrow::schema(fields);
  auto whole = arrow::RecordBatch::Make(t.schema, rows, cols);
  t.batches = {whole->Slice(0, 20000), whole->Slice(20000, 1), whole->Slice(20001)};
  const auto serial = hash_with(t, options(1, MultiLane::kOff));
  ASSERT_TRUE(serial.is_ok());
  for (unsigned threads = 1; threads <= 4; ++threads) {
    for (MultiLane lanes : kLaneModes) {
      expect_same(serial, hash_with(t, options(threads, lanes)), label(42, threads, lanes));
      expect_same(serial, hash_stream_with(t, options(threads, lanes)),
                  "stream " + label(42, threads, lanes));
    }
  }
}

// A binary view column whose view at `bad_slot` points past its data buffers: the error is
// found while hashing (by a worker thread), not by check_array.
std::shared_ptr<arrow::Array> bad_views(int64_t n, int64_t bad_slot) {
  arrow::BinaryViewBuilder b;
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_TRUE(b.Append("value number " + std::to_string(i) + " long enough").ok());
  }
  auto data = b.Finish().ValueOrDie()->data()->Copy();
  auto views = arrow::AllocateBuffer(data->buffers[1]->size()).ValueOrDie();
  std::memcpy(views->mutable_data(), data->buffers[1]->data(),
              static_cast<size_t>(data->buffers[1]->size()));
  const int32_t bad_offset = 1 << 30;
  std::memcpy(views->mutable_data() + bad_slot * 16 + 12, &bad_offset, 4);
  data->buffers[1] = std::move(views);
  return arrow::MakeArray(data);
}

TEST(LogicalParallel, MalformedBatchMidStreamGivesTheSerialError) {
  Gen g(7);
  const int64_t rows = 3000;
  arrow::FieldVector fields;
  std::vector<std::shared_ptr<arrow::Array>> good, bad;
  for (int c = 0; c < 10; ++c) {
    auto type = c % 3 == 0 ? arrow::int64() : c % 3 == 1 ? arrow::utf8() : arrow::binary_view();
    fields.push_back(field("c" + std::to_string(c), type));
    good.push_back(g.array(type, rows));
    // Two malformed columns, so that the reported one must be the first in leaf order.
    bad.push_back(c == 5 ? bad_views(rows, 2500) : c == 8 ? bad_views(rows, 10) : good.back());
  }
  Table t;
  t.schema = arrow::schema(fields);
  auto ok_batch = arrow::RecordBatch::Make(t.schema, rows, good);
  auto bad_batch = arrow::RecordBatch::Make(t.schema, rows, bad);
  t.batches = {ok_batch, ok_batch->Slice(5, 100), bad_batch, ok_batch};
  const auto serial = hash_with(t, options(1, MultiLane::kOff));
  ASSERT_FALSE(serial.is_ok());
  EXPECT_NE(serial.status().message().find("c5"), std::string::npos) << serial.status().message();
  EXPECT_NE(serial.status().message().find("slot 2500"), std::string::npos);
  for (unsigned threads = 1; threads <= 4; ++threads) {
    for (MultiLane lanes : kLaneModes) {
      expect_same(serial, hash_with(t, options(threads, lanes)), label(7, threads, lanes));
      expect_same(serial, hash_stream_with(t, options(threads, lanes)),
                  "stream " + label(7, threads, lanes));
    }
  }
  // A batch check_array rejects (a column shorter than the batch), mid-stream.
  std::vector<std::shared_ptr<arrow::Array>> short_cols = good;
  short_cols[3] = good[3]->Slice(0, rows - 10);
  t.batches[2] = arrow::RecordBatch::Make(t.schema, rows, short_cols);
  const auto serial_short = hash_stream_with(t, options(1, MultiLane::kOff));
  ASSERT_FALSE(serial_short.is_ok());
  for (unsigned threads = 1; threads <= 4; ++threads) {
    expect_same(serial_short, hash_stream_with(t, options(threads, MultiLane::kAuto)),
                "short column, threads " + std::to_string(threads));
  }
}

TEST(LogicalParallel, GetNextErrorGivesTheSerialErrorAndReleasesEverything) {
  Gen g(11);
  const Table t = random_table(g, 12, 2000);
  for (int64_t fail_at = 0; fail_at <= static_cast<int64_t>(t.batches.size()); ++fail_at) {
    const auto serial = hash_stream_with(t, options(1, MultiLane::kOff), fail_at);
    ASSERT_FALSE(serial.is_ok());
    EXPECT_EQ(serial.status().code(), StatusCode::kIoError);
    EXPECT_NE(serial.status().message().find("injected read failure"), std::string::npos);
    for (unsigned threads = 1; threads <= 4; ++threads) {
      for (MultiLane lanes : kLaneModes) {
        expect_same(serial, hash_stream_with(t, options(threads, lanes), fail_at),
                    "fail at " + std::to_string(fail_at) + " " + label(11, threads, lanes));
      }
    }
  }
}

// LogicalHashOptions::cancel: a set flag stops the stream with kCancelled (on every path),
// releases every batch and the stream; an unset flag changes nothing.
TEST(LogicalParallel, CancelFlagStopsTheStreamAndReleasesEverything) {
  Gen g(13);
  const Table t = random_table(g, 6, 3000);
  ASSERT_GT(t.batches.size(), 1u);
  const auto serial = hash_stream_with(t, options(1, MultiLane::kOff));
  ASSERT_TRUE(serial.is_ok());
  for (unsigned threads : {1u, 2u, 4u}) {
    std::atomic<bool> flag{false};
    LogicalHashOptions o = options(threads, MultiLane::kAuto);
    o.cancel = &flag;
    expect_same(serial, hash_stream_with(t, o), "unset flag, threads " + std::to_string(threads));
    flag.store(true);
    const auto cancelled = hash_stream_with(t, o);
    ASSERT_FALSE(cancelled.is_ok());
    EXPECT_EQ(cancelled.status().code(), StatusCode::kCancelled) << cancelled.status().to_string();
    EXPECT_NE(cancelled.status().message().find("cancelled"), std::string::npos);
  }
}

TEST(LogicalParallel, HasherDestroyedEarlyOrAfterAnErrorJoinsItsThreads) {
  Gen g(13);
  const Table t = random_table(g, 16, 1000);
  ArrowSchema c_schema{};
  ASSERT_TRUE(arrow::ExportSchema(*t.schema, &c_schema).ok());
  for (unsigned threads = 2; threads <= 4; ++threads) {
    for (MultiLane lanes : kLaneModes) {
      {  // destroyed without finalize, after a batch
        auto hasher = LogicalHasher::create(c_schema, options(threads, lanes));
        ASSERT_TRUE(hasher.is_ok());
        ArrowArray a{};
        ASSERT_TRUE(arrow::ExportRecordBatch(*t.batches[0], &a).ok());
        EXPECT_TRUE(hasher->update(a).is_ok());
        a.release(&a);
      }
      {  // destroyed without any batch
        auto hasher = LogicalHasher::create(c_schema, options(threads, lanes));
        ASSERT_TRUE(hasher.is_ok());
      }
      {  // moved, then the error sticks
        auto hasher = LogicalHasher::create(c_schema, options(threads, lanes));
        ASSERT_TRUE(hasher.is_ok());
        LogicalHasher moved = std::move(*hasher);
        ArrowArray a{};
        ASSERT_TRUE(arrow::ExportRecordBatch(*t.batches[0], &a).ok());
        a.length += 1;  // longer than its children: check_array rejects it
        const Status first = moved.update(a);
        a.length -= 1;
        EXPECT_FALSE(first.is_ok());
        EXPECT_EQ(moved.update(a).message(), first.message());
        a.release(&a);
        EXPECT_EQ(std::move(moved).finalize().status().message(), first.message());
      }
    }
  }
  c_schema.release(&c_schema);
}

// Multi-lane Keccak (4-lane, and 8-lane at kAvx512) at every dispatch level this CPU runs,
// against the single-stream path, on tables of 1..19 leaves of very different widths (so lanes
// run at very different rates).
TEST(LogicalMultiLane, EveryDispatchLevelMatchesOpenSsl) {
  const std::shared_ptr<arrow::DataType> types[] = {arrow::int8(),
                                                    arrow::boolean(),
                                                    arrow::int64(),
                                                    arrow::utf8(),
                                                    arrow::decimal256(50, 4),
                                                    arrow::null(),
                                                    arrow::large_utf8(),
                                                    arrow::list(arrow::int32()),
                                                    arrow::fixed_size_binary(3),
                                                    arrow::binary_view(),
                                                    arrow::float16()};
  int checked = 0;
  for (KeccakLevel level : kKeccakLevels) {
    if (!keccak_level_supported(level)) {
      std::cout << "LogicalMultiLane: level " << keccak_level_name(level)
                << " skipped (not supported by this CPU)\n";
      continue;
    }
    ASSERT_TRUE(set_multi_lane_level(level).is_ok());
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      Gen g(seed * 31 + static_cast<uint64_t>(level));
      const int64_t rows = g.chance(20) ? g.below(5) : g.below(6000);
      // Up to 19 columns: full 8-lane groups and a remainder at the AVX-512 level.
      const int64_t ncols = 1 + g.below(seed % 2 ? 9 : 19);
      arrow::FieldVector fields;
      std::vector<std::shared_ptr<arrow::Array>> cols;
      for (int64_t c = 0; c < ncols; ++c) {
        auto type = types[g.below(std::size(types))];
        fields.push_back(field("c" + std::to_string(c), type));
        cols.push_back(g.array(type, rows));
      }
      Table t;
      t.schema = arrow::schema(fields);
      auto whole = arrow::RecordBatch::Make(t.schema, rows, cols);
      const int64_t cut = g.below(rows + 1);
      t.batches = {whole->Slice(0, cut), whole->Slice(cut)};
      const auto serial = hash_with(t, options(1, MultiLane::kOff));
      ASSERT_TRUE(serial.is_ok());
      for (unsigned threads : {1u, 2u}) {
        expect_same(
            serial, hash_with(t, options(threads, MultiLane::kOn)),
            std::string(keccak_level_name(level)) + " " + label(seed, threads, MultiLane::kOn));
      }
      ++checked;
    }
  }
  reset_multi_lane_level();
  EXPECT_GE(checked, 20);
}

}  // namespace
}  // namespace odf_hash::test
