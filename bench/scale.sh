#!/usr/bin/env bash
# Verification at cluster scale: odf_hash.dask.verify on a local Dask cluster of 2 one-thread
# worker processes against `odf-hash verify --jobs 1` (one core), on the same generated root
# dataset of 200 Parquet data files (bench/scale_bench.py), in the same run, alternating,
# files in the page cache. Prints the scaling ratio (goal >= 1.7x on 2 cores) and the per-core
# rate of the local run; both reports must be valid and equal, or the script fails.
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
files=$(json_field "$out" files)
bytes=$(json_field "$out" bytes)
local_s=$(json_field "$out" local_seconds)
dask_s=$(json_field "$out" dask_seconds)
scaling=$(json_field "$out" scaling)
per_core=$(json_field "$out" per_core_mb_per_s)
startup=$(json_field "$out" cluster_startup_seconds)
echo "verify a root dataset of $files data files, $(mbps "$bytes" 1) MB, median of $RUNS runs;"
echo "load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '  %-34s %9.2f s %9.1f MB/s\n' "odf-hash verify --jobs 1 (1 core)" "$local_s" \
  "$(mbps "$bytes" "$local_s")"
printf '  %-34s %9.2f s %9.1f MB/s\n' "odf_hash.dask.verify, $WORKERS workers" "$dask_s" \
  "$(mbps "$bytes" "$dask_s")"
threads_s=$(json_field "$out" threads_seconds)
printf '  %-34s %9.2f s %9.1f MB/s  (for reference: one process)\n' \
  "odf-hash verify --jobs $WORKERS" "$threads_s" "$(mbps "$bytes" "$threads_s")"
printf '  scaling %.2fx on %s workers (goal >= 1.7x on 2 cores); per-core rate %.1f MB/s;\n' \
  "$scaling" "$WORKERS" "$per_core"
printf '  Dask against %s threads in one process: %.2fx (what the engine costs, whatever the load)\n' \
  "$WORKERS" "$(ratio "$threads_s" "$dask_s")"
printf '  cluster start-up %.1f s (not timed); 10 TB at this per-core rate and this efficiency:\n' \
  "$startup"
for n in 1 10 100 1000; do
  awk -v r="$per_core" -v s="$scaling" -v w="$WORKERS" -v n="$n" 'BEGIN {
    e = (n == 1) ? 1 : s / w; t = 10e12 / (r * 1e6 * n * e)
    printf "    %5d worker%s %8.1f min (arithmetic from the measured rate, not measured)\n",
      n, (n == 1) ? ": " : "s:", t / 60 }'
done
summary_row "scale (dask)" "${files} files x${WORKERS}w" "$(mbps "$bytes" 1)" \
  "$(mbps "$bytes" "$local_s")" "$(mbps "$bytes" "$dask_s")" "-" "-" ">= 1.7x on 2 cores"
