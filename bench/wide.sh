#!/usr/bin/env bash
# compare on wide tables: two 3-row Parquet files of 1,000 and of 5,000 int64 columns, one
# value changed (`one`) or a value of every column (`all`), compared in order (`compare`, the
# rows located) and in any order (`compare --ignore-order`), next to DuckDB's EXCEPT ALL both
# ways on the same pair in the same run. The goal is linear cost in the column count: the
# 5,000-column time about 5x the 1,000-column one (a quadratic step makes it ~25x), where
# DuckDB's ratio shows what reading 5x the columns costs a peer. Median wall time and peak
# RSS of RUNS alternating runs (/usr/bin/time). Knobs: see bench/lib.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
[ -x /usr/bin/time ] || { echo "wide.sh: /usr/bin/time missing" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for n in 1000 5000; do
  for kind in one all; do
    [ -f "$DATA/wide-$n-$kind-b.parquet" ] ||
      "$PYTHON" bench/make_wide_pair.py "$n" "$kind" "$DATA/wide-$n-$kind-a.parquet" \
        "$DATA/wide-$n-$kind-b.parquet"
  done
done
# timed NAME CMD...: "wall rss_kb" appended to $out/NAME.times; exit status 0 or 1 (a verdict).
timed() {
  local name="$1" rc=0
  shift
  /usr/bin/time -o "$out/time" -f '%e %M' "$@" >"$out/$name.out" || rc=$?
  if [ "$rc" -gt 1 ]; then
    cat "$out/$name.out" >&2
    exit 1
  fi
  tail -n 1 "$out/time" >>"$out/$name.times"  # not GNU time's "Command exited with ..." line
}
for ((i = 0; i < RUNS; i++)); do
  for n in 1000 5000; do
    for kind in one all; do
      a="$DATA/wide-$n-$kind-a.parquet" b="$DATA/wide-$n-$kind-b.parquet"
      timed "ordered-$n-$kind" "$BIN" compare "$a" "$b"
      timed "unordered-$n-$kind" "$BIN" compare --ignore-order "$a" "$b"
      timed "duckdb-$n-$kind" "$PYTHON" bench/duckdb_except.py "$a" "$b"
    done
  done
done
for kind in one all; do
  [ "$(cat "$out/duckdb-5000-$kind.out")" = "1 1" ] || { echo "wide.sh: DuckDB disagrees" >&2; exit 1; }
  grep -Eq "only in original +1 record" "$out/unordered-5000-$kind.out" ||
    { echo "wide.sh: --ignore-order disagrees" >&2; cat "$out/unordered-5000-$kind.out" >&2; exit 1; }
done
grep -q "c7: 1 of 3 rows differ" "$out/ordered-5000-one.out" || { echo "wide.sh: change not located" >&2; exit 1; }
grep -q "c4999: 1 of 3 rows differ" "$out/ordered-5000-all.out" || { echo "wide.sh: changes not located" >&2; exit 1; }
t() { median $(cut -d' ' -f1 "$out/$1.times"); }
m() { ratio "$(median $(cut -d' ' -f2 "$out/$1.times"))" 1024; }
echo "compare of 3-row tables of 1,000 and 5,000 columns, median of $RUNS alternating runs:"
printf '  %-40s %10s %10s %13s %13s\n' "command (changed values)" "1,000 s" "5,000 s" "5,000/1,000" "RSS MiB 5,000"
for kind in one all; do
  for mode in ordered unordered duckdb; do
    case "$mode" in
      ordered) label="odf-hash compare" ;;
      unordered) label="odf-hash compare --ignore-order" ;;
      duckdb) label="DuckDB EXCEPT ALL both ways" ;;
    esac
    printf '  %-40s %10.2f %10.2f %12.1fx %13.0f\n' "$label ($kind)" "$(t "$mode-1000-$kind")" \
      "$(t "$mode-5000-$kind")" "$(ratio "$(t "$mode-5000-$kind")" "$(t "$mode-1000-$kind")")" \
      "$(m "$mode-5000-$kind")"
  done
done
echo "  goal: linear in the column count (5,000/1,000 near 5x; quadratic would be ~25x)"
summary_note "wide.sh: compare of 5,000 vs 1,000 columns (all differ): $(printf '%.1f' "$(ratio "$(t ordered-5000-all)" "$(t ordered-1000-all)")")x ordered, $(printf '%.1f' "$(ratio "$(t unordered-5000-all)" "$(t unordered-1000-all)")")x --ignore-order (linear: ~5x)"
