#!/usr/bin/env bash
# Runs the benchmarks (what `make bench` runs), each comparing odf-hash with its peers
# measured side by side in the same run:
#   1. every bench/<part>.sh script, in name order (shell-driven end-to-end timings of
#      build/odf-hash against command-line peers such as `openssl dgst`);
#   2. every Google Benchmark binary build/bench/<name>_bench (bench/<name>_bench.cpp).
# Arguments select parts by name: `bench/run.sh physical` runs bench/physical.sh only.
# To add a benchmark, drop a bench/<part>.sh (executable, prints its own table) or a
# bench/<name>_bench.cpp; nothing else needs registering.
set -euo pipefail
cd "$(dirname "$0")/.."
export ODF_HASH_BIN="${ODF_HASH_BIN:-build/odf-hash}"
export ODF_HASH_BENCH_DATA="${ODF_HASH_BENCH_DATA:-build/bench-data}"

selected() {
  [ $# -eq 1 ] && return 0
  local name="$1"
  shift
  for want in "$@"; do
    [ "$name" = "$want" ] && return 0
  done
  return 1
}

if [ ! -x "$ODF_HASH_BIN" ]; then
  echo "bench: $ODF_HASH_BIN not found; run 'make build' first" >&2
  exit 2
fi
mkdir -p "$ODF_HASH_BENCH_DATA"
echo "odf-hash benchmarks on $(nproc) cores ($(uname -m)), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (high load makes the numbers noisy)"
[ "${BENCH_QUICK:-0}" = 1 ] && echo "quick mode (BENCH_QUICK=1): small data, few runs; not for the record"
# One SHA3 rate for every table, so the "of SHA3" columns share a denominator.
source bench/lib.sh
BENCH_SHA3_MBPS="$(sha3_rate)"
export BENCH_SHA3_MBPS
echo "single-stream SHA3-256 (openssl speed -evp sha3-256, 16 KiB, median of 3): $BENCH_SHA3_MBPS MB/s"

for part in bench/*.sh; do
  name="$(basename "$part" .sh)"
  [ "$name" = "run" ] || [ "$name" = "lib" ] && continue
  selected "$name" "$@" || continue
  echo
  echo "=== $name ($part)"
  bash "$part"
done

for exe in build/bench/*_bench; do
  [ -x "$exe" ] || continue
  name="$(basename "$exe" _bench)"
  selected "$name" "$@" || continue
  echo
  echo "=== $name ($exe)"
  "$exe" --benchmark_counters_tabular=true
done
