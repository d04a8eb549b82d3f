#!/usr/bin/env bash
# Runs the benchmarks (what `make bench` runs), each comparing odf-hash with its peers
# measured side by side in the same run:
#   1. every bench/<part>.sh script: physical.sh, logical.sh, endtoend.sh, then any other in
#      name order (keccak.sh: the kernels per core; build/odf-hash and bench helpers against
#      their peers: `openssl dgst`, the Rust reference odf-hash-conformance); lib.sh holds
#      their shared helpers;
#   2. every Google Benchmark binary build/bench/<name>_bench (bench/<name>_bench.cpp).
# Arguments select parts by name: `bench/run.sh physical` runs bench/physical.sh only.
# Every part adds its rows to one summary table printed at the end. A part that fails (a
# hash mismatch between odf-hash and a peer) fails the whole run, after the others ran.
# BENCH_QUICK=1 makes a few-minute smoke run; bench/lib.sh lists the other knobs.
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
# One Keccak rate for every table, so the "of Keccak" columns share a denominator.
source bench/lib.sh
ssl_rate="$(openssl_sha3_rate)"
odf_rate="$(odf_sha3_rate)"
BENCH_SHA3_MBPS="${BENCH_SHA3_MBPS:-$(printf '%s\n' "$ssl_rate" $odf_rate | sort -g | tail -1)}"
export BENCH_SHA3_MBPS
echo "cpu flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|bmi2|avx512f|avx512vl|sha_ni)$' | tr '\n' ' ')"
echo "single-stream SHA3-256 (best of 3): openssl speed $ssl_rate MB/s, odf-hash Sha3_256 ${odf_rate:-?} MB/s;"
echo "  the Keccak rate of the 'of Keccak' columns: $BENCH_SHA3_MBPS MB/s"

# Scripts: the issue's order first (physical, logical in memory, end to end), then any other.
parts=()
for p in bench/physical.sh bench/logical.sh bench/endtoend.sh bench/*.sh; do
  name="$(basename "$p" .sh)"
  { [ "$name" = "run" ] || [ "$name" = "lib" ]; } && continue
  [[ " ${parts[*]} " == *" $p "* ]] || parts+=("$p")
done

BENCH_SUMMARY="$(mktemp)"
export BENCH_SUMMARY
trap 'rm -f "$BENCH_SUMMARY"' EXIT
failed=()
for part in "${parts[@]}"; do
  name="$(basename "$part" .sh)"
  selected "$name" "$@" || continue
  echo
  echo "=== $name ($part)"
  bash "$part" || failed+=("$name")
done

for exe in build/bench/*_bench; do
  [ -x "$exe" ] || continue
  name="$(basename "$exe" _bench)"
  selected "$name" "$@" || continue
  echo
  echo "=== $name ($exe)"
  if [ "${BENCH_QUICK:-0}" = 1 ]; then
    "$exe" --benchmark_counters_tabular=true --benchmark_min_time=0.05 || failed+=("$name")
  else
    "$exe" --benchmark_counters_tabular=true || failed+=("$name")
  fi
done

if [ -s "$BENCH_SUMMARY" ]; then
  echo
  echo "=== summary: medians; ratio = odf-hash / peer (wall clock; 'cpu ratio' from CPU time,"
  echo "    steadier on a loaded machine); 'of Keccak' = bytes odf-hash fed to SHA3 per second"
  echo "    (file bytes for physical and end to end; SHA3 input per CPU second for logical, one"
  echo "    thread) over the single-stream Keccak rate, $BENCH_SHA3_MBPS MB/s"
  printf '%-16s %-22s %8s %10s %10s %8s %9s %9s  %s\n' "part" "case" "MB" "peer MB/s" \
    "odf MB/s" "ratio" "cpu ratio" "of Keccak" "goal"
  while IFS=$'\t' read -r part case mb peer odf r cpu sha3 goal; do
    if [ "$part" = "note" ]; then
      printf '  %s\n' "$case"
    else
      # "-" where a column means nothing for the row (CPU time of several processes, bytes
      # of a start-up, SHA3 share of a binding's overhead).
      [ "$cpu" = "-" ] || cpu=$(printf '%.2fx' "$cpu")
      [ "$sha3" = "-" ] || sha3=$(printf '%.2f' "$sha3")
      [ "$mb" = "-" ] || mb=$(printf '%.1f' "$mb")
      printf '%-16s %-22s %8s %10.1f %10.1f %7.2fx %9s %9s  %s\n' "$part" "$case" "$mb" "$peer" \
        "$odf" "$r" "$cpu" "$sha3" "$goal"
    fi
  done < <(grep -v '^note' "$BENCH_SUMMARY"; grep '^note' "$BENCH_SUMMARY" || true)
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "bench: FAILED: ${failed[*]}" >&2
  exit 1
fi
