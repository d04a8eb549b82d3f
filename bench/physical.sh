#!/usr/bin/env bash
# Physical hashing throughput: `odf-hash physical` next to `openssl dgst -sha3-256` on the
# same large file (alternating runs, median of each), then many files with --jobs 1
# against the default (all cores). Test data is made once in $ODF_HASH_BENCH_DATA and
# reused; every file is read once before timing so both tools hash from the page cache.
#
# Knobs (environment): see bench/lib.sh (BENCH_RUNS, BENCH_QUICK); BENCH_SINGLE_MIB (1024,
# quick 256), BENCH_MANY_FILES (8), BENCH_MANY_MIB (256, quick 32).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  SINGLE_MIB="${BENCH_SINGLE_MIB:-256}"
  MANY_MIB="${BENCH_MANY_MIB:-32}"
else
  SINGLE_MIB="${BENCH_SINGLE_MIB:-1024}"
  MANY_MIB="${BENCH_MANY_MIB:-256}"
fi
MANY_FILES="${BENCH_MANY_FILES:-8}"
sha3=$(sha3_rate)

# make_file PATH MIB: random bytes, made only if PATH is missing or of another size.
make_file() {
  local path="$1" mib="$2"
  if [ "$(stat -c %s "$path" 2>/dev/null || echo 0)" != "$((mib * 1024 * 1024))" ]; then
    echo "  making $path ($mib MiB)..." >&2
    head -c "$((mib * 1024 * 1024))" /dev/urandom >"$path.tmp"
    mv "$path.tmp" "$path"
  fi
}

# seconds CMD...: "<wall> <cpu>" seconds of one run (cpu = user + system), output discarded.
# On a loaded machine the wall time mostly measures the scheduler; the CPU time still
# measures the work.
seconds() {
  local TIMEFORMAT='%R %U %S' t
  t=$({ time "$@" >/dev/null; } 2>&1)
  awk -v t="$t" 'BEGIN { split(t, a, " "); print a[1], a[2] + a[3] }'
}
wall() { for x in "$@"; do echo "${x% *}"; done; }
cpu() { for x in "$@"; do echo "${x#* }"; done; }

# --- one large file -----------------------------------------------------------------
single="$DATA/single-${SINGLE_MIB}MiB.bin"
make_file "$single" "$SINGLE_MIB"
bytes=$(stat -c %s "$single")
cat "$single" >/dev/null

# Both tools must agree before their speed means anything.
ours=$("$BIN" physical "$single" | cut -d' ' -f1)
theirs=$(openssl dgst -sha3-256 -r "$single" | cut -d' ' -f1)
if [ "$ours" != "f1620$theirs" ]; then
  echo "physical.sh: odf-hash and openssl disagree on $single" >&2
  exit 1
fi

odf_times=()
ssl_times=()
for ((i = 0; i < RUNS; i++)); do
  odf_times+=("$(seconds "$BIN" physical "$single")")
  ssl_times+=("$(seconds openssl dgst -sha3-256 "$single")")
done
odf_t=$(median $(wall "${odf_times[@]}"))
ssl_t=$(median $(wall "${ssl_times[@]}"))
odf_c=$(median $(cpu "${odf_times[@]}"))
ssl_c=$(median $(cpu "${ssl_times[@]}"))
odf_mbps=$(mbps "$bytes" "$odf_t")
ssl_mbps=$(mbps "$bytes" "$ssl_t")

echo "One file of $SINGLE_MIB MiB, median of $RUNS alternating runs:"
printf '  %-26s %9s %9s %10s %14s\n' "tool" "wall s" "cpu s" "MB/s" "MB/s per cpu-s"
printf '  %-26s %9.3f %9.3f %10.1f %14.1f\n' "odf-hash physical" "$odf_t" "$odf_c" "$odf_mbps" \
  "$(mbps "$bytes" "$odf_c")"
printf '  %-26s %9.3f %9.3f %10.1f %14.1f\n' "openssl dgst -sha3-256" "$ssl_t" "$ssl_c" "$ssl_mbps" \
  "$(mbps "$bytes" "$ssl_c")"
# Issue 12: >= 1.3x openssl where AVX-512 is present, >= 1.0x elsewhere.
if grep -qw avx512f /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo; then
  goal=">= 1.3x openssl (AVX-512)"
else
  goal=">= 1.0x openssl"
fi
printf '  ratio odf-hash / openssl: %.3f wall-clock, %.3f CPU time (goal %s)\n' \
  "$(ratio "$odf_mbps" "$ssl_mbps")" "$(ratio "$ssl_c" "$odf_c")" "${goal#>= }"
summary_row "physical" "one file, $SINGLE_MIB MiB" "$(mbps "$bytes" 1)" "$ssl_mbps" "$odf_mbps" \
  "$(ratio "$ssl_c" "$odf_c")" "$(ratio "$odf_mbps" "$sha3")" "$goal"

# --- many files -----------------------------------------------------------------------
many=()
for ((i = 0; i < MANY_FILES; i++)); do
  f="$DATA/many-${MANY_MIB}MiB-$i.bin"
  make_file "$f" "$MANY_MIB"
  cat "$f" >/dev/null
  many+=("$f")
done
many_bytes=$((MANY_FILES * MANY_MIB * 1024 * 1024))
cores=$(nproc)

one_times=()
all_times=()
for ((i = 0; i < RUNS; i++)); do
  one_times+=("$(seconds "$BIN" physical --jobs 1 "${many[@]}")")
  all_times+=("$(seconds "$BIN" physical "${many[@]}")")
done
one_t=$(median $(wall "${one_times[@]}"))
all_t=$(median $(wall "${all_times[@]}"))

echo
echo "$MANY_FILES files of $MANY_MIB MiB, median of $RUNS alternating runs:"
printf '  %-26s %9s %10s\n' "odf-hash physical" "wall s" "MB/s"
printf '  %-26s %9.3f %10.1f\n' "--jobs 1" "$one_t" "$(mbps "$many_bytes" "$one_t")"
printf '  %-26s %9.3f %10.1f\n' "default (--jobs $cores)" "$all_t" "$(mbps "$many_bytes" "$all_t")"
printf '  speed-up: %.2fx on %d cores (ideal %d.00x)\n' "$(ratio "$one_t" "$all_t")" "$cores" "$cores"
printf '  default against the one-file rate above: %.2fx (goal >= 1.8x)\n' \
  "$(ratio "$(mbps "$many_bytes" "$all_t")" "$odf_mbps")"
summary_row "physical" "$MANY_FILES files, --jobs $cores" "$(mbps "$many_bytes" 1)" "$odf_mbps" \
  "$(mbps "$many_bytes" "$all_t")" - "$(ratio "$(mbps "$many_bytes" "$all_t")" "$sha3")" \
  ">= 1.8x one-file rate"
summary_note "physical 'N files' row: the peer is odf-hash's own one-file rate (the issue's ratio)"
