#!/usr/bin/env bash
# End to end: `odf-hash logical FILE` next to the main ODF implementation's path,
# `odf-hash-conformance hash FILE` (arrow-rs ParquetRecordBatchReader in 10,000-row batches
# feeding arrow-digest), on one Parquet file of about 1 GiB (bench/make_tables.py parquet:
# eight flat columns with strings and nulls, snappy, row groups of 2^20 rows, ~105 MB of
# Arrow data each). Wall time, CPU time and peak RSS (/usr/bin/time) of whole processes, alternating
# runs from the page cache, medians. Both must print the same hash; a mismatch fails.
#
# Knobs (environment): see bench/lib.sh; BENCH_PARQUET_MIB (default 1024, quick 128),
# BENCH_E2E_RUNS (default 3, quick 1).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  MIB="${BENCH_PARQUET_MIB:-128}"
  E2E_RUNS="${BENCH_E2E_RUNS:-1}"
else
  MIB="${BENCH_PARQUET_MIB:-1024}"
  E2E_RUNS="${BENCH_E2E_RUNS:-3}"
fi
[ -x /usr/bin/time ] || { echo "endtoend.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
ensure_conformance

file="$DATA/endtoend-${MIB}MiB.parquet"
"$PYTHON" bench/make_tables.py parquet --mib "$MIB" "$file"
bytes=$(stat -c %s "$file")
cat "$file" >/dev/null
sha3=$(sha3_rate)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# timed NAME CMD...: runs CMD under /usr/bin/time; output to $out/NAME.out, "wall
# rss_kb user_s sys_s" appended to $out/NAME.times. A failing command fails the script.
timed() {
  local name="$1"
  shift
  /usr/bin/time -o "$out/time" -f '%e %M %U %S' "$@" >"$out/$name.out"
  cat "$out/time" >>"$out/$name.times"
}
for ((i = 0; i < E2E_RUNS; i++)); do
  timed ours "$BIN" logical "$file"
  timed ref "$CONFORMANCE_BIN" hash "$file"
done
ours_hash=$(cut -d' ' -f1 "$out/ours.out")
ref_hash=$(json_field "$out/ref.out" logical)
rows=$(json_field "$out/ref.out" rows)

ours_t=$(median $(cut -d' ' -f1 "$out/ours.times"))
ref_t=$(median $(cut -d' ' -f1 "$out/ref.times"))
ours_m=$(median $(cut -d' ' -f2 "$out/ours.times"))
ref_m=$(median $(cut -d' ' -f2 "$out/ref.times"))
ours_c=$(median $(awk '{ print $3 + $4 }' "$out/ours.times"))
ref_c=$(median $(awk '{ print $3 + $4 }' "$out/ref.times"))
ours_mbps=$(mbps "$bytes" "$ours_t")
ref_mbps=$(mbps "$bytes" "$ref_t")

echo "Parquet file of $(mbps "$bytes" 1) MB ($rows rows), whole process, median of $E2E_RUNS alternating runs:"
printf '  %-46s %8s %8s %10s %13s\n' "command" "wall s" "cpu s" "MB/s" "peak RSS MiB"
printf '  %-46s %8.2f %8.2f %10.1f %13.1f\n' "odf-hash logical" "$ours_t" "$ours_c" "$ours_mbps" \
  "$(ratio "$ours_m" 1024)"
printf '  %-46s %8.2f %8.2f %10.1f %13.1f\n' "reference (arrow-rs 10k batches + arrow-digest)" "$ref_t" \
  "$ref_c" "$ref_mbps" "$(ratio "$ref_m" 1024)"
printf '  speed: %.2fx the reference wall-clock, %.2fx CPU time (goal >= 2x);\n' \
  "$(ratio "$ref_t" "$ours_t")" "$(ratio "$ref_c" "$ours_c")"
# Issue 12's memory goal: peak RSS <= 48 MiB with Arrow C++ and Parquet C++ loaded.
rss_met=$(awk -v m="$ours_m" 'BEGIN { print (m <= 48 * 1024) ? "met" : "NOT met" }')
printf '  peak memory: %.1f MiB (goal <= 48 MiB: %s), %.2fx the reference\n' "$(ratio "$ours_m" 1024)" \
  "$rss_met" "$(ratio "$ours_m" "$ref_m")"
printf '  odf-hash at %.2f of the single-stream SHA3 rate (%s MB/s), counting file bytes\n' \
  "$(ratio "$ours_mbps" "$sha3")" "$sha3"
summary_row "end to end" "Parquet $MIB MiB" "$(mbps "$bytes" 1)" "$ref_mbps" "$ours_mbps" \
  "$(ratio "$ref_c" "$ours_c")" "$(ratio "$ours_mbps" "$sha3")" ">= 2x, RSS <= 48 MiB"
summary_note "$(printf 'end to end peak RSS: odf-hash %.1f MiB (goal <= 48 MiB: %s), reference %.1f MiB' \
  "$(ratio "$ours_m" 1024)" "$rss_met" "$(ratio "$ref_m" 1024)")"
if [ "$ours_hash" != "$ref_hash" ]; then
  echo "  !!! HASH MISMATCH on $file: odf-hash $ours_hash, reference $ref_hash" >&2
  summary_note "!!! end to end HASH MISMATCH: odf-hash $ours_hash, reference $ref_hash"
  exit 1
fi
echo "  hashes equal: $ours_hash"
