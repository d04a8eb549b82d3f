// Logical hashing throughput on in-memory record batches, beside the single-stream SHA3-256
// rate of the same machine (Sha3_256 over a large buffer: the ceiling for one column).
//
// bytes_per_second counts the Arrow in-memory size of the batch (all buffers it references);
// for the fixed-width and string cases `sha3_in` also gives the rate of bytes actually fed to
// SHA3 (type bytes aside), comparable with the Sha3Raw case.
#include <arrow/api.h>
#include <arrow/c/bridge.h>
#include <arrow/util/byte_size.h>
#include <benchmark/benchmark.h>

#include <random>

#include "odf_hash/core/sha3.h"
#include "odf_hash/logical/logical.h"

namespace {

constexpr int64_t kRows = 1 << 20;

std::shared_ptr<arrow::Buffer> validity(int64_t n, int null_percent, std::mt19937_64& rng,
                                        int64_t& nulls) {
  nulls = 0;
  if (null_percent == 0) return nullptr;
  auto bits = arrow::AllocateBitmap(n).ValueOrDie();
  for (int64_t i = 0; i < n; ++i) {
    const bool valid = static_cast<int>(rng() % 100) >= null_percent;
    arrow::bit_util::SetBitTo(bits->mutable_data(), i, valid);
    nulls += !valid;
  }
  return bits;
}

std::shared_ptr<arrow::Array> int64s(int64_t n, int null_percent, std::mt19937_64& rng) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<int64_t>(rng());
  int64_t nulls = 0;
  auto bits = validity(n, null_percent, rng, nulls);
  return std::make_shared<arrow::Int64Array>(n, arrow::Buffer::FromVector(v), bits, nulls);
}

std::shared_ptr<arrow::Array> strings(int64_t n, size_t len, int null_percent,
                                      std::mt19937_64& rng) {
  arrow::StringBuilder b;
  std::string s(len, 'x');
  for (int64_t i = 0; i < n; ++i) {
    if (static_cast<int>(rng() % 100) < null_percent) {
      (void)b.AppendNull();
    } else {
      s[0] = static_cast<char>('a' + rng() % 26);
      (void)b.Append(s);
    }
  }
  return b.Finish().ValueOrDie();
}

std::shared_ptr<arrow::RecordBatch> one_column(std::shared_ptr<arrow::Array> a) {
  return arrow::RecordBatch::Make(arrow::schema({arrow::field("c", a->type())}), a->length(), {a});
}

void hash_batch(benchmark::State& state, const std::shared_ptr<arrow::RecordBatch>& batch,
                int64_t sha3_bytes, const odf_hash::LogicalHashOptions& options = {}) {
  ArrowSchema schema{};
  if (!arrow::ExportSchema(*batch->schema(), &schema).ok()) state.SkipWithError("export");
  for (auto _ : state) {
    ArrowArray array{};
    if (!arrow::ExportRecordBatch(*batch, &array).ok()) state.SkipWithError("export");
    auto hasher = odf_hash::LogicalHasher::create(schema, options);
    if (!hasher.is_ok() || !hasher->update(array).is_ok()) state.SkipWithError("hash failed");
    auto digest = std::move(*hasher).finalize();
    benchmark::DoNotOptimize(digest);
    array.release(&array);
  }
  schema.release(&schema);
  const int64_t arrow_bytes = arrow::util::TotalBufferSize(*batch);
  state.SetBytesProcessed(state.iterations() * arrow_bytes);
  state.counters["rows"] = benchmark::Counter(
      static_cast<double>(state.iterations() * batch->num_rows()), benchmark::Counter::kIsRate);
  if (sha3_bytes > 0) {
    state.counters["sha3_in"] =
        benchmark::Counter(static_cast<double>(state.iterations() * sha3_bytes),
                           benchmark::Counter::kIsRate, benchmark::Counter::OneK::kIs1024);
  }
}

int64_t string_stream_bytes(const arrow::StringArray& a) {
  int64_t total = 0;
  for (int64_t i = 0; i < a.length(); ++i) total += a.IsNull(i) ? 1 : 8 + a.value_length(i);
  return total;
}

void BM_Int64NonNull(benchmark::State& state) {
  std::mt19937_64 rng(1);
  hash_batch(state, one_column(int64s(kRows, 0, rng)), kRows * 8);
}

void BM_Int64HalfNull(benchmark::State& state) {
  std::mt19937_64 rng(2);
  auto a = int64s(kRows, 50, rng);
  hash_batch(state, one_column(a), (kRows - a->null_count()) * 8 + a->null_count());
}

void BM_Utf8Short(benchmark::State& state) {
  std::mt19937_64 rng(3);
  auto a = strings(kRows, 8, 10, rng);
  hash_batch(state, one_column(a), string_stream_bytes(static_cast<arrow::StringArray&>(*a)));
}

void BM_Utf8Long(benchmark::State& state) {
  std::mt19937_64 rng(4);
  auto a = strings(kRows / 8, 300, 10, rng);
  hash_batch(state, one_column(a), string_stream_bytes(static_cast<arrow::StringArray&>(*a)));
}

void BM_Boolean(benchmark::State& state) {
  std::mt19937_64 rng(5);
  arrow::BooleanBuilder b;
  for (int64_t i = 0; i < kRows; ++i) {
    (void)(rng() % 10 == 0 ? b.AppendNull() : b.Append((rng() & 1) != 0));
  }
  hash_batch(state, one_column(b.Finish().ValueOrDie()), kRows);
}

void BM_NestedNullableStruct(benchmark::State& state) {
  std::mt19937_64 rng(6);
  int64_t nulls = 0;
  auto inner_bits = validity(kRows, 10, rng, nulls);
  auto inner = std::make_shared<arrow::StructArray>(
      arrow::struct_({arrow::field("x", arrow::int64()), arrow::field("s", arrow::utf8())}), kRows,
      arrow::ArrayVector{int64s(kRows, 10, rng), strings(kRows, 8, 10, rng)}, inner_bits, nulls);
  int64_t outer_nulls = 0;
  auto outer_bits = validity(kRows, 5, rng, outer_nulls);
  auto outer = std::make_shared<arrow::StructArray>(
      arrow::struct_({arrow::field("in", inner->type()), arrow::field("y", arrow::float64())}),
      kRows, arrow::ArrayVector{inner, int64s(kRows, 0, rng)->View(arrow::float64()).ValueOrDie()},
      outer_bits, outer_nulls);
  hash_batch(state, one_column(outer), 0);
}

void BM_ListInt32(benchmark::State& state) {
  std::mt19937_64 rng(7);
  std::vector<int32_t> offsets{0};
  for (int64_t i = 0; i < kRows / 4; ++i)
    offsets.push_back(offsets.back() + static_cast<int32_t>(rng() % 8));
  std::vector<int32_t> values(static_cast<size_t>(offsets.back()));
  for (auto& v : values) v = static_cast<int32_t>(rng());
  auto items = std::make_shared<arrow::Int32Array>(static_cast<int64_t>(values.size()),
                                                   arrow::Buffer::FromVector(values));
  int64_t nulls = 0;
  auto bits = validity(kRows / 4, 10, rng, nulls);
  auto list =
      std::make_shared<arrow::ListArray>(arrow::list(arrow::int32()), kRows / 4,
                                         arrow::Buffer::FromVector(offsets), items, bits, nulls);
  hash_batch(state, one_column(list), 0);
}

void BM_Sha3Raw(benchmark::State& state) {
  std::vector<uint8_t> data(static_cast<size_t>(kRows * 8), 0xab);
  for (auto _ : state) {
    odf_hash::Sha3_256 h;
    h.update(data.data(), data.size());
    benchmark::DoNotOptimize(h.finalize());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(data.size()));
}

// Tables of non-null Int64 columns (the wide table of issue 5 has 20), 256 Ki rows.
// Arguments: columns, threads, multi-lane Keccak (0 off: OpenSSL per column; 1 on: groups of
// up to four columns through Sha3_256x4).
void BM_WideInt64(benchmark::State& state) {
  std::mt19937_64 rng(8);
  arrow::FieldVector fields;
  arrow::ArrayVector cols;
  const int64_t columns = state.range(0);
  for (int c = 0; c < columns; ++c) {
    std::string name = "c";  // (not "c" + ...: GCC 12's -Wrestrict false positive at -O3)
    name += std::to_string(c);
    fields.push_back(arrow::field(name, arrow::int64()));
    cols.push_back(int64s(kRows / 4, 0, rng));
  }
  odf_hash::LogicalHashOptions options;
  options.threads = static_cast<unsigned>(state.range(1));
  options.multi_lane = state.range(2) != 0 ? odf_hash::LogicalHashOptions::MultiLane::kOn
                                           : odf_hash::LogicalHashOptions::MultiLane::kOff;
  hash_batch(state, arrow::RecordBatch::Make(arrow::schema(fields), kRows / 4, cols),
             columns * (kRows / 4) * 8, options);
}

BENCHMARK(BM_Sha3Raw)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Int64NonNull)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Int64HalfNull)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Utf8Short)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Utf8Long)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Boolean)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NestedNullableStruct)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ListInt32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WideInt64)
    ->ArgNames({"columns", "threads", "multi_lane"})
    ->Args({20, 1, 0})
    ->Args({20, 1, 1})
    ->Args({20, 2, 0})
    ->Args({20, 2, 1})
    ->Args({2, 1, 0})
    ->Args({2, 1, 1})
    ->Args({3, 1, 0})
    ->Args({3, 1, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
