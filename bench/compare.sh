#!/usr/bin/env bash
# compare beyond the verdict, next to its baselines in the same run, on the Parquet file of
# bench/endtoend.sh (~1 GiB; BENCH_QUICK: 128 MiB) and two copies (bench/make_compare_pair.py):
#   - one value changed: `compare` (physical, logical, then the rows located) against
#     `logical` of both files; the goal is at most 1.5x;
#   - rows shuffled: `compare --ignore-order` against `logical` of both files, and against
#     DuckDB doing the same job (EXCEPT ALL both ways), with peak RSS (goal: under 256 MiB);
#   - the order-independent digest of one file (`logical --unordered`) against `logical` of it.
# Wall time and peak RSS of whole processes (/usr/bin/time), medians of alternating runs.
# Knobs: see bench/lib.sh; BENCH_PARQUET_MIB, BENCH_COMPARE_RUNS (default 3, quick 1).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  MIB="${BENCH_PARQUET_MIB:-128}"
  RUNS="${BENCH_COMPARE_RUNS:-1}"
else
  MIB="${BENCH_PARQUET_MIB:-1024}"
  RUNS="${BENCH_COMPARE_RUNS:-3}"
fi
[ -x /usr/bin/time ] || { echo "compare.sh: /usr/bin/time missing" >&2; exit 2; }
mkdir -p "$DATA"
file="$DATA/endtoend-${MIB}MiB.parquet"
changed="$DATA/compare-${MIB}MiB-changed.parquet"
shuffled="$DATA/compare-${MIB}MiB-shuffled.parquet"
"$PYTHON" bench/make_tables.py parquet --mib "$MIB" "$file"
[ -f "$shuffled" ] || "$PYTHON" bench/make_compare_pair.py "$file" "$changed" "$shuffled"
cat "$file" "$changed" "$shuffled" >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# timed NAME CMD...: "wall rss_kb" of CMD appended to $out/NAME.times; exit status 0 or 1
# (a verdict) is fine, anything else fails the script.
timed() {
  local name="$1"
  shift
  local rc=0
  /usr/bin/time -o "$out/time" -f '%e %M' "$@" >"$out/$name.out" || rc=$?
  if [ "$rc" -gt 1 ]; then
    cat "$out/$name.out" >&2
    exit 1
  fi
  cat "$out/time" >>"$out/$name.times"
}
for ((i = 0; i < RUNS; i++)); do
  timed logical_changed "$BIN" logical "$file" "$changed"
  timed locate "$BIN" compare "$file" "$changed"
  timed logical_shuffled "$BIN" logical "$file" "$shuffled"
  timed unordered "$BIN" compare --ignore-order "$file" "$shuffled"
  timed duckdb "$PYTHON" bench/duckdb_except.py "$file" "$shuffled"
  timed logical_one "$BIN" logical "$file"
  timed unordered_one "$BIN" logical --unordered "$file"
done
grep -q "1 of .* rows differ" "$out/locate.out" || { echo "compare.sh: the change was not located" >&2; cat "$out/locate.out" >&2; exit 1; }
grep -q "same records" "$out/unordered.out" || { echo "compare.sh: --ignore-order disagrees" >&2; exit 1; }
[ "$(cat "$out/duckdb.out")" = "0 0" ] || { echo "compare.sh: DuckDB found differences" >&2; exit 1; }

t() { median $(cut -d' ' -f1 "$out/$1.times"); }
m() { ratio "$(median $(cut -d' ' -f2 "$out/$1.times"))" 1024; }
echo "compare on a $(mbps "$(stat -c %s "$file")" 1) MB Parquet file and a copy, median of $RUNS runs:"
printf '  %-52s %8s %13s %8s\n' "command" "wall s" "peak RSS MiB" "ratio"
printf '  %-52s %8.2f %13.1f %8s\n' "odf-hash logical ORIGINAL CHANGED" "$(t logical_changed)" "$(m logical_changed)" "1"
printf '  %-52s %8.2f %13.1f %8.2f\n' "odf-hash compare ORIGINAL CHANGED (locates the row)" "$(t locate)" "$(m locate)" "$(ratio "$(t locate)" "$(t logical_changed)")"
printf '  %-52s %8.2f %13.1f %8s\n' "odf-hash logical ORIGINAL SHUFFLED" "$(t logical_shuffled)" "$(m logical_shuffled)" "1"
printf '  %-52s %8.2f %13.1f %8.2f\n' "odf-hash compare --ignore-order ORIGINAL SHUFFLED" "$(t unordered)" "$(m unordered)" "$(ratio "$(t unordered)" "$(t logical_shuffled)")"
printf '  %-52s %8.2f %13.1f %8.2f\n' "DuckDB EXCEPT ALL both ways (1 thread)" "$(t duckdb)" "$(m duckdb)" "$(ratio "$(t duckdb)" "$(t logical_shuffled)")"
printf '  %-52s %8.2f %13.1f %8s\n' "odf-hash logical ORIGINAL" "$(t logical_one)" "$(m logical_one)" "1"
printf '  %-52s %8.2f %13.1f %8.2f\n' "odf-hash logical --unordered ORIGINAL" "$(t unordered_one)" "$(m unordered_one)" "$(ratio "$(t unordered_one)" "$(t logical_one)")"
