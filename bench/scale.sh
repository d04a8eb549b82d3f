#!/usr/bin/env bash
# Verification at cluster scale: odf_hash.dask.verify on a local Dask cluster of 2 one-thread
# worker processes against `odf-hash verify --jobs 1` (one core), on the same generated root
# dataset of 200 Parquet data files (bench/scale_bench.py), in the same run, alternating,
# files in the page cache. Prints the scaling ratio (goal >= 1.7x on 2 cores) from the best and
# the median runs, the machine's own ceiling (openssl speed -multi) and the per-core rate;
# both reports must be valid and equal, or the script fails.
# Knobs: see bench/lib.sh; BENCH_SCALE_FILES (default 200), BENCH_SCALE_MIB (MiB per file,
# default 8, quick 1), BENCH_SCALE_WORKERS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
FILES="${BENCH_SCALE_FILES:-200}"
if [ "${BENCH_QUICK:-0}" = 1 ]; then MIB="${BENCH_SCALE_MIB:-1}"; else MIB="${BENCH_SCALE_MIB:-8}"; fi
WORKERS="${BENCH_SCALE_WORKERS:-2}"
"$PYTHON" -c "import odf_hash.dask" 2>/dev/null || {
  echo "scale.sh: odf_hash.dask cannot be imported from $PYTHON (run 'make python'; dask and" \
    "distributed come from scripts/bootstrap.sh)" >&2
  exit 2
}
ds="$DATA/scale-${FILES}x${MIB}MiB"
"$PYTHON" bench/scale_bench.py dataset "$ds" --files "$FILES" --mib "$MIB"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
"$PYTHON" bench/scale_bench.py run "$ds" --bin "$BIN" --runs "$RUNS" --workers "$WORKERS" >"$out"
f() { json_field "$out" "$1"; }
files=$(f files)
bytes=$(f bytes)
echo "verify a root dataset of $files data files, $(mbps "$bytes" 1) MB, $RUNS alternating runs;"
echo "load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '  %-34s %9s %9s %11s\n' "" "median s" "best s" "best MB/s"
row() {
  printf '  %-34s %9.2f %9.2f %11.1f%s\n' "$1" "$(f "$2_seconds")" "$(f "best_$2_seconds")" \
    "$(mbps "$bytes" "$(f "best_$2_seconds")")" "${3:-}"
}
row "odf-hash verify --jobs 1 (1 core)" local
row "odf_hash.dask.verify, $WORKERS workers" dask
row "odf-hash verify --jobs $WORKERS" threads "  (for reference: threads in one process)"
printf '  scaling %.2fx from the best runs, %.2fx from the medians, on %s workers (goal >= 1.7x on 2 cores)\n' \
  "$(f best_scaling)" "$(f scaling)" "$WORKERS"
printf '  this machine gives %s independent processes %.2fx one (best; median %.2fx): openssl speed\n' \
  "$WORKERS" "$(f machine_ceiling)" "$(f machine_ceiling_median)"
printf '    -multi %s of SHA3-256, the ceiling of any scaling here\n' "$WORKERS"
printf '  Dask against %s threads in one process: %.2fx (best runs: what the engine costs)\n' \
  "$WORKERS" "$(ratio "$(f best_threads_seconds)" "$(f best_dask_seconds)")"
per_core=$(f best_per_core_mb_per_s)
scaling=$(f best_scaling)
printf '  cluster start-up %.1f s (not timed); 10 TB at the per-core rate %.1f MB/s and this efficiency:\n' \
  "$(f cluster_startup_seconds)" "$per_core"
for n in 1 10 100 1000; do
  awk -v r="$per_core" -v s="$scaling" -v w="$WORKERS" -v n="$n" 'BEGIN {
    e = (n == 1) ? 1 : s / w; t = 10e12 / (r * 1e6 * n * e)
    printf "    %5d worker%s %8.1f min (arithmetic from the measured rate, not measured)\n",
      n, (n == 1) ? ": " : "s:", t / 60 }'
done
summary_row "scale (dask)" "${files} files x${WORKERS}w, best" "$(mbps "$bytes" 1)" \
  "$(mbps "$bytes" "$(f best_local_seconds)")" "$(mbps "$bytes" "$(f best_dask_seconds)")" "-" \
  "-" ">= 1.7x on 2 cores"
summary_note "scale (dask): medians give $(printf %.2f "$(f scaling)")x; openssl speed -multi $WORKERS gives $(printf %.2f "$(f machine_ceiling)")x one process on this machine (the ceiling)"
