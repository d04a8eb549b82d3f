// odf-hash's in-memory logical hashing speed, the counterpart of
// `odf-hash-conformance bench` (the reference, arrow-digest) in bench/logical.sh.
//
//   logical_compare [--runs N] [--warmup N] [--threads N] FILE...
//   logical_compare --sha3 [--runs N] [--mib N]
//
// Each FILE (Arrow IPC file) is read whole into memory with Arrow C++ and every batch is
// exported once through the C Data Interface; then odf_hash::LogicalHasher hashes all
// batches, --warmup times untimed (default 1) and --runs times timed (default 5). One JSON
// line per file, the same shape as the reference's: median and per-run seconds (wall, and
// CPU time of the process), rows, the
// Arrow bytes of the batches (arrow::util::TotalBufferSize), the bytes fed to SHA3 (every
// column's ColumnDigest::hashed_bytes), MB/s and the logical hash.
// --sha3 instead times odf_hash::Sha3_256 over one buffer: the single-stream ceiling (median
// and best of the runs, and what Sha3_256 runs here: OpenSSL or one of our single-state kernels).
#include <arrow/api.h>
#include <arrow/c/bridge.h>
#include <arrow/io/file.h>
#include <arrow/ipc/reader.h>
#include <arrow/util/byte_size.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "odf_hash/core/sha3.h"
#include "odf_hash/logical/logical.h"

namespace {

struct Options {
  int runs = 5;
  int warmup = 1;
  int threads = 1;
  bool sha3 = false;
  int sha3_mib = 256;
  std::vector<std::string> files;
};

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "logical_compare: %s\n", message.c_str());
  std::exit(2);
}

int parse_int(const char* name, const char* value) {
  char* end = nullptr;
  const long v = value ? std::strtol(value, &end, 10) : 0;
  if (!value || *end != '\0' || v < 0 || v > 1 << 20) {
    fail(std::string(name) + ": not a count: " + (value ? value : "(missing)"));
  }
  return static_cast<int>(v);
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--runs") {
      o.runs = std::max(1, parse_int("--runs", next)), ++i;
    } else if (a == "--warmup") {
      o.warmup = parse_int("--warmup", next), ++i;
    } else if (a == "--threads") {
      o.threads = std::max(1, parse_int("--threads", next)), ++i;
    } else if (a == "--mib") {
      o.sha3_mib = std::max(1, parse_int("--mib", next)), ++i;
    } else if (a == "--sha3") {
      o.sha3 = true;
    } else if (a.rfind("--", 0) == 0) {
      fail("unknown option " + a);
    } else {
      o.files.push_back(a);
    }
  }
  if (!o.sha3 && o.files.empty()) {
    fail(
        "usage: logical_compare [--runs N] [--warmup N] [--threads N] FILE...\n"
        "       logical_compare --sha3 [--runs N] [--mib N]");
  }
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// CPU time of the whole process (all hashing threads); on a loaded machine it still
// measures the work when wall time measures the run queue.
double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string json_list(const std::vector<double>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.6f", i ? "," : "", v[i]);
    s += buf;
  }
  return s + "]";
}

// A file's batches, exported once; the hasher only reads them, so every run reuses them.
struct LoadedTable {
  ArrowSchema schema{};
  std::vector<ArrowArray> batches;
  int64_t rows = 0;
  int64_t arrow_bytes = 0;

  LoadedTable() = default;
  LoadedTable(const LoadedTable&) = delete;
  LoadedTable& operator=(const LoadedTable&) = delete;
  ~LoadedTable() {
    for (auto& b : batches) b.release(&b);
    if (schema.release) schema.release(&schema);
  }
};

void load_ipc(const std::string& path, LoadedTable& table) {
  auto check = [&](const arrow::Status& st) {
    if (!st.ok()) fail(path + ": " + st.ToString());
  };
  auto file = arrow::io::ReadableFile::Open(path);
  check(file.status());
  auto reader = arrow::ipc::RecordBatchFileReader::Open(*file);
  check(reader.status());
  check(arrow::ExportSchema(*(*reader)->schema(), &table.schema));
  for (int i = 0; i < (*reader)->num_record_batches(); ++i) {
    auto batch = (*reader)->ReadRecordBatch(i);
    check(batch.status());
    check((*batch)->ValidateFull());
    table.rows += (*batch)->num_rows();
    table.arrow_bytes += arrow::util::TotalBufferSize(**batch);
    ArrowArray array{};
    check(arrow::ExportRecordBatch(**batch, &array));
    table.batches.push_back(array);
  }
}

// The hasher for one run, with `threads` workers when the API takes a thread count; the
// JSON reports the count actually used, so a figure is never labelled with threads it lacked.
constexpr bool kHasherTakesThreads = true;

odf_hash::Result<odf_hash::LogicalHasher> create_hasher(const ArrowSchema& schema, int threads) {
  odf_hash::LogicalHashOptions options;
  options.threads = static_cast<unsigned>(threads);
  return odf_hash::LogicalHasher::create(schema, options);
}

struct Hashed {
  std::string logical;
  uint64_t sha3_bytes = 0;
};

Hashed hash_once(const LoadedTable& table, int threads, const std::string& path) {
  auto hasher = create_hasher(table.schema, threads);
  if (!hasher.is_ok()) fail(path + ": " + hasher.status().to_string());
  for (const auto& batch : table.batches) {
    if (auto st = hasher->update(batch); !st.is_ok()) fail(path + ": " + st.to_string());
  }
  auto digest = std::move(*hasher).finalize();
  if (!digest.is_ok()) fail(path + ": " + digest.status().to_string());
  Hashed out{digest->multihash().to_string()};
  for (const auto& c : digest->columns) out.sha3_bytes += c.hashed_bytes;
  return out;
}

void bench_file(const std::string& path, const Options& o) {
  const int threads_used = kHasherTakesThreads ? o.threads : 1;
  if (threads_used != o.threads) {
    std::fprintf(stderr, "logical_compare: --threads %d not wired yet; hashing with 1 thread\n",
                 o.threads);
  }
  LoadedTable table;
  load_ipc(path, table);
  Hashed logical;
  for (int i = 0; i < o.warmup; ++i) logical = hash_once(table, o.threads, path);
  std::vector<double> runs;
  std::vector<double> cpu_runs;
  for (int i = 0; i < o.runs; ++i) {
    const double cpu_start = process_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    logical = hash_once(table, o.threads, path);
    runs.push_back(seconds_since(start));
    cpu_runs.push_back(process_cpu_seconds() - cpu_start);
  }
  const double t = median(runs);
  std::printf(
      "{\"case\":\"%s\",\"impl\":\"odf-hash\",\"rows\":%lld,\"arrow_bytes\":%lld,"
      "\"batches\":%zu,\"threads\":%d,\"seconds\":%.6f,\"runs\":%s,\"cpu_seconds\":%.6f,"
      "\"cpu_runs\":%s,\"mb_per_s\":%.3f,\"sha3_bytes\":%llu,"
      "\"logical\":\"%s\"}\n",
      std::filesystem::path(path).stem().string().c_str(), static_cast<long long>(table.rows),
      static_cast<long long>(table.arrow_bytes), table.batches.size(), threads_used, t,
      json_list(runs).c_str(), median(cpu_runs), json_list(cpu_runs).c_str(),
      static_cast<double>(table.arrow_bytes) / 1e6 / t,
      static_cast<unsigned long long>(logical.sha3_bytes), logical.logical.c_str());
  std::fflush(stdout);
}

void bench_sha3(const Options& o) {
  std::vector<uint8_t> data(static_cast<size_t>(o.sha3_mib) << 20);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
  std::vector<double> runs;
  for (int i = 0; i < o.warmup + o.runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    odf_hash::Sha3_256 h;
    h.update(data.data(), data.size());
    volatile uint8_t sink = h.finalize()[0];
    (void)sink;
    if (i >= o.warmup) runs.push_back(seconds_since(start));
  }
  const double t = median(runs);
  const double best = *std::min_element(runs.begin(), runs.end());
  std::printf(
      "{\"case\":\"sha3-256\",\"impl\":\"odf-hash\",\"runs_with\":\"%s\",\"bytes\":%zu,"
      "\"seconds\":%.6f,\"runs\":%s,\"mb_per_s\":%.3f,\"best_mb_per_s\":%.3f}\n",
      odf_hash::Sha3_256::default_implementation(), data.size(), t, json_list(runs).c_str(),
      static_cast<double>(data.size()) / 1e6 / t, static_cast<double>(data.size()) / 1e6 / best);
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  if (o.sha3) {
    bench_sha3(o);
    return 0;
  }
  for (const auto& f : o.files) bench_file(f, o);
  return 0;
}
