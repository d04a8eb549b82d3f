#!/usr/bin/env bash
# The Python package: odf_hash.logical(pyarrow_table) against the C++ in-memory path
# (build/bench/logical_compare) on the same tables, one thread each: the binding's overhead
# (goal <= 5%); and as many Python threads as cores hashing that many tables at once against
# the same work done serially (the GIL is released while hashing), with identical results.
# Both sides must give the same digests, or the script fails.
#
# How the overhead is measured (bench/lib.sh, bench_rounds): each side runs in
# BENCH_PYTHON_ROUNDS fresh processes, alternating C++ and Python; each process times
# BENCH_RUNS runs and keeps its best; the overhead compares the medians over the rounds of
# those bests, wall and CPU.
# Knobs: see bench/lib.sh; BENCH_PYTHON_CASES (default: int64 utf8_short wide20),
# BENCH_PYTHON_ROUNDS (default BENCH_ROUNDS: 5, quick 2).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
if [ "${BENCH_QUICK:-0}" = 1 ]; then SCALE="${BENCH_SCALE:-0.1}"; else SCALE="${BENCH_SCALE:-1}"; fi
ROUNDS="${BENCH_PYTHON_ROUNDS:-$(bench_rounds)}"
OURS="${ODF_HASH_LOGICAL_COMPARE:-build/bench/logical_compare}"
[ -x "$OURS" ] || { echo "python.sh: $OURS not found; run 'make build' first" >&2; exit 2; }
"$PYTHON" -c "import odf_hash" 2>/dev/null || {
  echo "python.sh: the odf_hash package is not installed in $PYTHON; run 'make python'" >&2
  exit 2
}
tables="$DATA/logical-scale$SCALE"
read -r -a cases <<<"${BENCH_PYTHON_CASES:-int64 utf8_short wide20}"
"$PYTHON" bench/make_tables.py logical --scale "$SCALE" "$tables" "${cases[@]}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "odf_hash.logical(pyarrow.Table, threads=1) vs the C++ in-memory path: $ROUNDS alternating"
echo "processes per side, each the best of $RUNS runs; medians over the processes"
printf '  %-13s %7s %10s %10s %9s %9s\n' "case" "MB" "C++ MB/s" "Py MB/s" "overhead" "cpu ovh"
failed=0
files=()
for c in "${cases[@]}"; do
  file="$tables/$c.arrow"
  mismatch=0
  files+=("$file")
  rm -f "$out/cpp.bests" "$out/py.bests"
  for ((r = 0; r < ROUNDS; r++)); do
    "$OURS" --runs "$RUNS" --threads 1 "$file" >"$out/cpp.json"
    "$PYTHON" bench/python_bench.py overhead --runs "$RUNS" "$file" >"$out/py.json"
    record_best "$out/cpp.json" "$out/cpp.bests"
    record_best "$out/py.json" "$out/py.bests"
    if [ "$(json_field "$out/cpp.json" logical)" != "$(json_field "$out/py.json" logical)" ]; then
      mismatch=1
    fi
  done
  bytes=$(json_field "$out/cpp.json" arrow_bytes)
  cpp_s=$(median_of "$out/cpp.bests" 1)
  py_s=$(median_of "$out/py.bests" 1)
  cpp_cpu=$(median_of "$out/cpp.bests" 2)
  py_cpu=$(median_of "$out/py.bests" 2)
  ovh=$(awk -v p="$py_s" -v c="$cpp_s" 'BEGIN { printf "%+.1f%%", (p / c - 1) * 100 }')
  covh=$(awk -v p="$py_cpu" -v c="$cpp_cpu" 'BEGIN { printf "%+.1f%%", (p / c - 1) * 100 }')
  printf '  %-13s %7.1f %10.1f %10.1f %9s %9s\n' "$c" "$(mbps "$bytes" 1)" \
    "$(mbps "$bytes" "$cpp_s")" "$(mbps "$bytes" "$py_s")" "$ovh" "$covh"
  summary_row "python binding" "$c" "$(mbps "$bytes" 1)" "$(mbps "$bytes" "$cpp_s")" \
    "$(mbps "$bytes" "$py_s")" "$(ratio "$cpp_cpu" "$py_cpu")" "-" ">= 0.95x C++"
  if [ "$mismatch" = 1 ]; then
    echo "  !!! DIGEST MISMATCH on $file between the C++ path and the Python package" >&2
    summary_note "!!! python $c DIGEST MISMATCH"
    failed=1
  fi
done

cores=$(nproc)
if [ "$cores" -gt 1 ]; then
  # As many tables as cores: copies of the first case's file.
  many=()
  for _ in $(seq "$cores"); do many+=("${files[0]}"); done
  "$PYTHON" bench/python_bench.py threads --runs "$RUNS" "${many[@]}" >"$out/threads.json"
  serial=$(json_field "$out/threads.json" serial_seconds)
  par=$(json_field "$out/threads.json" threads_seconds)
  identical=$(json_field "$out/threads.json" identical)
  bytes=$(json_field "$out/cpp.json" arrow_bytes)
  printf '  %d Python threads, one table each (%s): %.3f s, serially %.3f s: %.2fx; identical: %s\n' \
    "$cores" "${cases[0]}" "$par" "$serial" "$(ratio "$serial" "$par")" "$identical"
  summary_row "python threads" "$cores x ${cases[0]}" "$(mbps "$((bytes * cores))" 1)" \
    "$(mbps "$((bytes * cores))" "$serial")" "$(mbps "$((bytes * cores))" "$par")" - - \
    "> 1x serial"
  [ "$identical" = "True" ] || { echo "  !!! threads gave other digests" >&2; failed=1; }
fi
exit "$failed"
