// SHA3-256 absorption rates: OpenSSL single stream (the peer), Sha3_256 (what the library runs
// for one stream: OpenSSL or our BMI2 / AVX-512 single state, whichever is faster here), our
// single-state Keccak, Sha3_256x4 on 4 x 1 MiB and Sha3_256x8 on 8 x 1 MiB, each at every
// dispatch level. Levels this CPU lacks report an error row ("not supported").
//
// Every row reports bytes_per_second (per CPU second, Google Benchmark's default) and
// `vs_openssl`: that rate divided by the rate of the BM_OpenSsl_1Stream row of the same run
// (repetition by repetition, median by median), so the ratio is printed next to the rates.
// For the multi-lane rows the rate is the aggregate of the lanes on one core. bench/keccak.sh
// reads this binary's JSON output for the summary table (x8 against the AVX2 x4 rate).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "odf_hash/core/sha3.h"
#include "odf_hash/internal/core/sha3_multi.h"

namespace {

using odf_hash::KeccakLevel;
using odf_hash::Sha3_256;
using odf_hash::Sha3_256OpenSsl;
using odf_hash::Sha3_256Scalar;
using odf_hash::Sha3_256x4;
using odf_hash::Sha3_256x8;

constexpr size_t kMiB = 1 << 20;

const std::vector<uint8_t>& input() {
  static const std::vector<uint8_t> data = [] {
    std::vector<uint8_t> d(8 * kMiB);
    std::mt19937_64 rng(42);
    for (auto& b : d) b = static_cast<uint8_t>(rng());
    return d;
  }();
  return data;
}

void report(benchmark::State& state, double bytes_per_iteration) {
  state.SetBytesProcessed(
      static_cast<int64_t>(bytes_per_iteration * static_cast<double>(state.iterations())));
}

void BM_OpenSsl_1Stream(benchmark::State& state) {
  const auto& d = input();
  for (auto _ : state) benchmark::DoNotOptimize(Sha3_256OpenSsl::digest({d.data(), kMiB}));
  report(state, kMiB);
}
BENCHMARK(BM_OpenSsl_1Stream)->Unit(benchmark::kMillisecond);

// Sha3_256: the library's single stream (its label says what it runs).
void BM_Sha3_256_1Stream(benchmark::State& state) {
  const auto& d = input();
  odf_hash::Sha3_256 h;
  state.SetLabel(h.implementation());
  for (auto _ : state) {
    h.update(d.data(), kMiB);
    benchmark::DoNotOptimize(h.finalize());
  }
  report(state, kMiB);
}
BENCHMARK(BM_Sha3_256_1Stream)->Unit(benchmark::kMillisecond);

// Our scalar Keccak, one stream of 1 MiB, at the level given by the argument.
void BM_Scalar_1Stream(benchmark::State& state) {
  const auto level = static_cast<KeccakLevel>(state.range(0));
  state.SetLabel(odf_hash::keccak_level_name(level));
  auto made = Sha3_256Scalar::create(level);
  if (!made.is_ok()) {
    state.SkipWithError(made.status().to_string().c_str());
    return;
  }
  Sha3_256Scalar h = std::move(made).value();
  const auto& d = input();
  for (auto _ : state) {
    h.update(d.data(), kMiB);
    benchmark::DoNotOptimize(h.finalize());
  }
  report(state, kMiB);
}
BENCHMARK(BM_Scalar_1Stream)
    ->Arg(static_cast<int>(KeccakLevel::kPortable))
    ->Arg(static_cast<int>(KeccakLevel::kBmi2))
    ->Arg(static_cast<int>(KeccakLevel::kAvx512))
    ->Unit(benchmark::kMillisecond);

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
  for (auto _ : state) {
    h.update_all(data, size);
    benchmark::DoNotOptimize(h.finalize());
  }
  report(state, 4.0 * kMiB);
}
BENCHMARK(BM_X4_UpdateAll)
    ->Arg(static_cast<int>(KeccakLevel::kPortable))
    ->Arg(static_cast<int>(KeccakLevel::kBmi2))
    ->Arg(static_cast<int>(KeccakLevel::kAvx2))
    ->Arg(static_cast<int>(KeccakLevel::kAvx512))
    ->Unit(benchmark::kMillisecond);

// Eight 1 MiB lanes through update_all, at the level given by the argument (at kAvx2 the
// lanes go through the 4-lane kernel as two groups).
void BM_X8_UpdateAll(benchmark::State& state) {
  const auto level = static_cast<KeccakLevel>(state.range(0));
  state.SetLabel(odf_hash::keccak_level_name(level));
  auto made = Sha3_256x8::create(level);
  if (!made.is_ok()) {
    state.SkipWithError(made.status().to_string().c_str());
    return;
  }
  Sha3_256x8 h = std::move(made).value();
  const auto& d = input();
  const uint8_t* data[8];
  size_t size[8];
  for (size_t l = 0; l < 8; ++l) {
    data[l] = d.data() + l * kMiB;
    size[l] = kMiB;
  }
  for (auto _ : state) {
    h.update_all(data, size);
    benchmark::DoNotOptimize(h.finalize());
  }
  report(state, 8.0 * kMiB);
}
BENCHMARK(BM_X8_UpdateAll)
    ->Arg(static_cast<int>(KeccakLevel::kAvx2))
    ->Arg(static_cast<int>(KeccakLevel::kAvx512))
    ->Unit(benchmark::kMillisecond);

// Eight lanes of unequal length: 1, 1, 1, 1, 1/2, 1/2, 1/4 and 1/8 MiB.
void BM_X8_UnequalLanes(benchmark::State& state) {
  const auto level = static_cast<KeccakLevel>(state.range(0));
  state.SetLabel(odf_hash::keccak_level_name(level));
  auto made = Sha3_256x8::create(level);
  if (!made.is_ok()) {
    state.SkipWithError(made.status().to_string().c_str());
    return;
  }
  Sha3_256x8 h = std::move(made).value();
  const auto& d = input();
  const uint8_t* data[8];
  const size_t size[8] = {kMiB, kMiB, kMiB, kMiB, kMiB / 2, kMiB / 2, kMiB / 4, kMiB / 8};
  double total = 0;
  for (size_t l = 0; l < 8; ++l) {
    data[l] = d.data() + l * kMiB;
    total += static_cast<double>(size[l]);
  }
  for (auto _ : state) {
    h.update_all(data, size);
    benchmark::DoNotOptimize(h.finalize());
  }
  report(state, total);
}
BENCHMARK(BM_X8_UnequalLanes)
    ->Arg(static_cast<int>(KeccakLevel::kAvx2))
    ->Arg(static_cast<int>(KeccakLevel::kAvx512))
    ->Unit(benchmark::kMillisecond);

// Lanes of unequal length (columns of different widths): 1 MiB, 1 MiB, 512 KiB and 128 KiB
// in one update_all. Past the common run, lanes that still have data go on together (the
// 4-lane kernel with idle lanes masked) rather than one at a time.
void BM_X4_UnequalLanes(benchmark::State& state) {
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
  const size_t size[4] = {kMiB, kMiB, kMiB / 2, kMiB / 8};
  for (auto _ : state) {
    h.update_all(data, size);
    benchmark::DoNotOptimize(h.finalize());
  }
  report(state, static_cast<double>(size[0] + size[1] + size[2] + size[3]));
}
BENCHMARK(BM_X4_UnequalLanes)
    ->Arg(static_cast<int>(KeccakLevel::kBmi2))
    ->Arg(static_cast<int>(KeccakLevel::kAvx2))
    ->Unit(benchmark::kMillisecond);

// Small per-lane updates in round robin (how a column hasher may feed values): `chunk` bytes
// per call, 1 MiB per lane in total.
void BM_X4_SmallUpdates(benchmark::State& state) {
  const size_t chunk = static_cast<size_t>(state.range(0));
  Sha3_256x4 h;
  state.SetLabel(odf_hash::keccak_level_name(h.level()));
  const auto& d = input();
  for (auto _ : state) {
    for (size_t off = 0; off + chunk <= kMiB; off += chunk) {
      for (size_t l = 0; l < 4; ++l) h.update(l, d.data() + l * kMiB + off, chunk);
    }
    benchmark::DoNotOptimize(h.finalize());
  }
  report(state, 4.0 * static_cast<double>(kMiB / chunk * chunk));
}
BENCHMARK(BM_X4_SmallUpdates)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond);

// The same small updates into four OpenSSL hashers (what the x4 path replaces).
void BM_OpenSsl_4Streams_SmallUpdates(benchmark::State& state) {
  const size_t chunk = static_cast<size_t>(state.range(0));
  Sha3_256OpenSsl h[4];
  const auto& d = input();
  for (auto _ : state) {
    for (size_t off = 0; off + chunk <= kMiB; off += chunk) {
      for (size_t l = 0; l < 4; ++l) h[l].update(d.data() + l * kMiB + off, chunk);
    }
    for (auto& one : h) benchmark::DoNotOptimize(one.finalize());
  }
  report(state, 4.0 * static_cast<double>(kMiB / chunk * chunk));
}
BENCHMARK(BM_OpenSsl_4Streams_SmallUpdates)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond);

// The console table with a vs_openssl column computed from the reference row's rate. Rows are
// held back until the end so that the reference is known whatever the order of the runs
// (e.g. with --benchmark_enable_random_interleaving).
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  RatioReporter() : ConsoleReporter(OO_Tabular) {}  // no colour codes: output goes to files

  void ReportRuns(const std::vector<Run>& runs) override {
    pending_.insert(pending_.end(), runs.begin(), runs.end());
  }

  void Finalize() override {
    std::map<std::string, double> reference;
    for (const Run& run : pending_) {
      const auto rate = run.counters.find("bytes_per_second");
      if (rate != run.counters.end() && run.run_name.function_name == "BM_OpenSsl_1Stream") {
        reference[key(run)] = rate->second.value;
      }
    }
    for (Run& run : pending_) {
      const auto rate = run.counters.find("bytes_per_second");
      const auto ref = reference.find(key(run));
      if (rate != run.counters.end() && ref != reference.end() && ref->second > 0) {
        run.counters["vs_openssl"] = benchmark::Counter(rate->second.value / ref->second);
      }
    }
    ConsoleReporter::ReportRuns(pending_);
    ConsoleReporter::Finalize();
  }

 private:
  // Rows are compared repetition by repetition, aggregate by aggregate.
  static std::string key(const Run& run) {
    return run.aggregate_name + "#" + std::to_string(run.repetition_index);
  }
  std::vector<Run> pending_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
