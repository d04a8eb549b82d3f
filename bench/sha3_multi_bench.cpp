// SHA3-256 absorption rates: OpenSSL single stream (the peer), our portable Keccak single
// stream, and Sha3_256x4 at each dispatch level on 4 x 1 MiB.
//
// Every row reports bytes_per_second and `vs_openssl`: its rate divided by the OpenSSL
// single-stream rate measured in the same process at start-up (median of 7 timed runs), so
// the ratio is visible next to the rates. Both are per CPU second of the calling thread (as
// Google Benchmark's own rates are), so other load on the machine skews them less. For the
// 4-lane rows the rate is the aggregate of the four lanes on one core.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <random>
#include <vector>

#include "odf_hash/sha3.h"
#include "odf_hash/sha3_multi.h"

namespace {

using odf_hash::KeccakLevel;
using odf_hash::Sha3_256;
using odf_hash::Sha3_256Portable;
using odf_hash::Sha3_256x4;

constexpr size_t kMiB = 1 << 20;

const std::vector<uint8_t>& input() {
  static const std::vector<uint8_t> data = [] {
    std::vector<uint8_t> d(4 * kMiB);
    std::mt19937_64 rng(42);
    for (auto& b : d) b = static_cast<uint8_t>(rng());
    return d;
  }();
  return data;
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// OpenSSL single-stream bytes per CPU second on 1 MiB, measured once.
double openssl_rate() {
  static const double rate = [] {
    const auto& d = input();
    std::vector<double> rates;
    for (int run = 0; run < 7; ++run) {
      const double t0 = thread_cpu_seconds();
      for (int i = 0; i < 16; ++i) benchmark::DoNotOptimize(Sha3_256::digest({d.data(), kMiB}));
      rates.push_back(16.0 * kMiB / (thread_cpu_seconds() - t0));
    }
    std::sort(rates.begin(), rates.end());
    std::fprintf(stderr, "OpenSSL SHA3-256 single stream (reference): %.1f MiB/s per CPU second\n",
                 rates[3] / kMiB);
    return rates[3];
  }();
  return rate;
}

// Sets the byte rate and the ratio to OpenSSL; `cpu_start` is thread_cpu_seconds() taken
// just before the timing loop.
void report(benchmark::State& state, double bytes_per_iteration, double cpu_start) {
  const double seconds = thread_cpu_seconds() - cpu_start;
  const double bytes = bytes_per_iteration * static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  state.counters["vs_openssl"] = bytes / seconds / openssl_rate();
}

void BM_OpenSsl_1Stream(benchmark::State& state) {
  const auto& d = input();
  const double cpu_start = thread_cpu_seconds();
  for (auto _ : state) benchmark::DoNotOptimize(Sha3_256::digest({d.data(), kMiB}));
  report(state, kMiB, cpu_start);
}
BENCHMARK(BM_OpenSsl_1Stream)->Unit(benchmark::kMillisecond);

void BM_Portable_1Stream(benchmark::State& state) {
  const auto& d = input();
  const double cpu_start = thread_cpu_seconds();
  for (auto _ : state) benchmark::DoNotOptimize(Sha3_256Portable::digest({d.data(), kMiB}));
  report(state, kMiB, cpu_start);
}
BENCHMARK(BM_Portable_1Stream)->Unit(benchmark::kMillisecond);

// Four 1 MiB lanes through update_all (the bulk path), at the level given by the argument.
void BM_X4_UpdateAll(benchmark::State& state) {
  const auto level = static_cast<KeccakLevel>(state.range(0));
  state.SetLabel(odf_hash::keccak_level_name(level));
  auto made = Sha3_256x4::create(level);
  if (!made.is_ok()) {
    state.SkipWithError(made.status().to_string().c_str());
    return;
  }
  Sha3_256x4 h = std::move(made).value();
  const auto& d = input();
  const uint8_t* data[4] = {d.data(), d.data() + kMiB, d.data() + 2 * kMiB, d.data() + 3 * kMiB};
  const size_t size[4] = {kMiB, kMiB, kMiB, kMiB};
  const double cpu_start = thread_cpu_seconds();
  for (auto _ : state) {
    h.update_all(data, size);
    benchmark::DoNotOptimize(h.finalize());
  }
  report(state, 4.0 * kMiB, cpu_start);
}
BENCHMARK(BM_X4_UpdateAll)
    ->Arg(static_cast<int>(KeccakLevel::kPortable))
    ->Arg(static_cast<int>(KeccakLevel::kAvx2))
    ->Unit(benchmark::kMillisecond);

// Small per-lane updates in round robin (how a column hasher may feed values): `chunk` bytes
// per call, 1 MiB per lane in total.
void BM_X4_SmallUpdates(benchmark::State& state) {
  const size_t chunk = static_cast<size_t>(state.range(0));
  Sha3_256x4 h;
  state.SetLabel(odf_hash::keccak_level_name(h.level()));
  const auto& d = input();
  const double cpu_start = thread_cpu_seconds();
  for (auto _ : state) {
    for (size_t off = 0; off + chunk <= kMiB; off += chunk) {
      for (size_t l = 0; l < 4; ++l) h.update(l, d.data() + l * kMiB + off, chunk);
    }
    benchmark::DoNotOptimize(h.finalize());
  }
  report(state, 4.0 * static_cast<double>(kMiB / chunk * chunk), cpu_start);
}
BENCHMARK(BM_X4_SmallUpdates)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond);

// The same small updates into four OpenSSL hashers (what the x4 path replaces).
void BM_OpenSsl_4Streams_SmallUpdates(benchmark::State& state) {
  const size_t chunk = static_cast<size_t>(state.range(0));
  Sha3_256 h[4];
  const auto& d = input();
  const double cpu_start = thread_cpu_seconds();
  for (auto _ : state) {
    for (size_t off = 0; off + chunk <= kMiB; off += chunk) {
      for (size_t l = 0; l < 4; ++l) h[l].update(d.data() + l * kMiB + off, chunk);
    }
    for (auto& one : h) benchmark::DoNotOptimize(one.finalize());
  }
  report(state, 4.0 * static_cast<double>(kMiB / chunk * chunk), cpu_start);
}
BENCHMARK(BM_OpenSsl_4Streams_SmallUpdates)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
