#!/usr/bin/env bash
# compare beyond the verdict, next to its baselines in the same run, on the Parquet file of
# bench/endtoend.sh (~1 GiB; BENCH_QUICK: 128 MiB) and two copies (bench/make_compare_pair.py):
#   - one value changed: `compare` (physical, logical, then the rows located) against
#     `logical` of both files; the goal is at most 1.5x;
#   - rows shuffled: `compare --ignore-order` against `logical` of both files, and against
#     DuckDB doing the same job (EXCEPT ALL both ways), with peak RSS (goal: under 256 MiB);
#   - rows matched by key (`compare --key offset`) on the shuffled copy and on the changed one,
#     against `logical` of both files (goal: at most 1.5x, peak RSS under 256 MiB) and against
#     DuckDB doing the same job (a FULL OUTER JOIN on the key, every other column compared);
#   - the order-independent digest of one file (`logical --unordered`) against `logical` of it;
#   - floating-point values a few ulps apart (bench/make_compare_pair.py --nudge): `compare
#     --rtol 1e-9` (physical, logical, the rows located, then the records read again with the
#     tolerance) against `logical` of both files;
#   - the same records re-encoded: `compare` (physical, logical, then both files' records
#     compared in order, since an equal arrow0 hash does not make equal records) against
#     `logical` of both files.
# Wall time, CPU time (user + sys) and peak RSS of whole processes (/usr/bin/time), medians
# of alternating runs (CPU ratios are the ones to read on a machine other work shares).
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
reencoded="$DATA/compare-${MIB}MiB-reencoded.parquet"
"$PYTHON" bench/make_tables.py parquet --mib "$MIB" "$file"
nudged="$DATA/compare-${MIB}MiB-nudged.parquet"
[ -f "$reencoded" ] || "$PYTHON" bench/make_compare_pair.py "$file" "$changed" "$shuffled" "$reencoded"
[ -f "$nudged" ] || "$PYTHON" bench/make_compare_pair.py --nudge "$file" "$nudged"
cat "$file" "$changed" "$shuffled" "$reencoded" "$nudged" >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# timed NAME CMD...: "wall rss_kb cpu" of CMD appended to $out/NAME.times; exit status 0 or
# 1 (a verdict) is fine, anything else fails the script.
timed() {
  local name="$1"
  shift
  local rc=0
  /usr/bin/time -o "$out/time" -f '%e %M %U %S' "$@" >"$out/$name.out" || rc=$?
  if [ "$rc" -gt 1 ]; then
    cat "$out/$name.out" >&2
    exit 1
  fi
  # The last line: GNU time writes "Command exited with non-zero status 1" before the
  # numbers when the command exits 1 (a verdict), which once went into the medians.
  tail -n 1 "$out/time" | awk '{ print $1, $2, $3 + $4 }' >>"$out/$name.times"
}
for ((i = 0; i < RUNS; i++)); do
  timed logical_changed "$BIN" logical "$file" "$changed"
  timed locate "$BIN" compare "$file" "$changed"
  timed logical_shuffled "$BIN" logical "$file" "$shuffled"
  timed unordered "$BIN" compare --ignore-order "$file" "$shuffled"
  timed duckdb "$PYTHON" bench/duckdb_except.py "$file" "$shuffled"
  timed keyed "$BIN" compare --key offset "$file" "$shuffled"
  timed duckdb_keyed "$PYTHON" bench/duckdb_keyed.py "$file" "$shuffled" offset
  timed keyed_changed "$BIN" compare --key offset "$file" "$changed"
  timed logical_one "$BIN" logical "$file"
  timed unordered_one "$BIN" logical --unordered "$file"
  timed logical_reencoded "$BIN" logical "$file" "$reencoded"
  timed equivalent "$BIN" compare "$file" "$reencoded"
  timed logical_nudged "$BIN" logical "$file" "$nudged"
  timed tolerance "$BIN" compare --rtol 1e-9 "$file" "$nudged"
done
grep -q "EQUAL WITHIN TOLERANCE" "$out/tolerance.out" || { echo "compare.sh: the nudged values are not within the tolerance" >&2; cat "$out/tolerance.out" >&2; exit 1; }
grep -q "records     equal" "$out/equivalent.out" || { echo "compare.sh: the re-encoded records differ" >&2; cat "$out/equivalent.out" >&2; exit 1; }
grep -q "1 of .* rows differ" "$out/locate.out" || { echo "compare.sh: the change was not located" >&2; cat "$out/locate.out" >&2; exit 1; }
grep -q "same records" "$out/unordered.out" || { echo "compare.sh: --ignore-order disagrees" >&2; exit 1; }
grep -q "verdict     same records" "$out/keyed.out" || { echo "compare.sh: --key disagrees" >&2; cat "$out/keyed.out" >&2; exit 1; }
# The changed copy's change is in the first integer column, `offset` itself: keyed by it, the
# row is one key only in each side.
grep -q "verdict     different records: 1 row only in the original, 1 row only in the reproduction (" "$out/keyed_changed.out" || { echo "compare.sh: --key missed the change" >&2; cat "$out/keyed_changed.out" >&2; exit 1; }
[ "$(cat "$out/duckdb_keyed.out")" = "0 0 0" ] || { echo "compare.sh: DuckDB's join found differences" >&2; exit 1; }
[ "$(cat "$out/duckdb.out")" = "0 0" ] || { echo "compare.sh: DuckDB found differences" >&2; exit 1; }

t() { median $(cut -d' ' -f1 "$out/$1.times"); }
m() { ratio "$(median $(cut -d' ' -f2 "$out/$1.times"))" 1024; }
c() { median $(cut -d' ' -f3 "$out/$1.times"); }
echo "compare on a $(mbps "$(stat -c %s "$file")" 1) MB Parquet file and a copy, median of $RUNS runs:"
printf '  %-52s %8s %8s %13s %8s %9s\n' "command" "wall s" "cpu s" "peak RSS MiB" "ratio" "cpu ratio"
# row LABEL NAME BASELINE: a line of the table, its ratios to BASELINE's ("" for a baseline).
row() {
  local r="1" rc="1"
  if [ -n "$3" ]; then
    r=$(printf '%.2f' "$(ratio "$(t "$2")" "$(t "$3")")")
    rc=$(printf '%.2f' "$(ratio "$(c "$2")" "$(c "$3")")")
  fi
  printf '  %-52s %8.2f %8.2f %13.1f %8s %9s\n' "$1" "$(t "$2")" "$(c "$2")" "$(m "$2")" "$r" "$rc"
}
row "odf-hash logical ORIGINAL CHANGED" logical_changed ""
row "odf-hash compare ORIGINAL CHANGED (locates the row)" locate logical_changed
row "odf-hash logical ORIGINAL SHUFFLED" logical_shuffled ""
row "odf-hash compare --ignore-order ORIGINAL SHUFFLED" unordered logical_shuffled
row "DuckDB EXCEPT ALL both ways (1 thread)" duckdb logical_shuffled
row "odf-hash compare --key offset ORIGINAL SHUFFLED" keyed logical_shuffled
row "DuckDB FULL OUTER JOIN on the key (1 thread)" duckdb_keyed logical_shuffled
row "odf-hash logical ORIGINAL CHANGED" logical_changed ""
row "odf-hash compare --key offset ORIGINAL CHANGED" keyed_changed logical_changed
row "odf-hash logical ORIGINAL" logical_one ""
row "odf-hash logical --unordered ORIGINAL" unordered_one logical_one
row "odf-hash logical ORIGINAL REENCODED" logical_reencoded ""
row "odf-hash compare ORIGINAL REENCODED (records checked)" equivalent logical_reencoded
row "odf-hash logical ORIGINAL NUDGED" logical_nudged ""
row "odf-hash compare --rtol 1e-9 ORIGINAL NUDGED" tolerance logical_nudged
