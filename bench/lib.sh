# Helpers shared by the bench/*.sh scripts (sourced, not run; bench/run.sh skips it).
#
# Environment every script honours:
#   BENCH_QUICK=1     a few-minute smoke run: smaller data, fewer runs
#   BENCH_RUNS        timed runs per measurement (default 5, quick 3); medians are reported
#   BENCH_ROUNDS      fresh processes per side where two programs alternate (bench_rounds:
#                     default 5, quick 2)
#   BENCH_SHA3_MBPS   the machine's single-stream SHA3-256 (Keccak) rate in MB/s: the faster of
#                     OpenSSL (openssl speed) and odf-hash's Sha3_256; measured once by
#                     bench/run.sh and exported, measured here when unset

BIN="${ODF_HASH_BIN:-build/odf-hash}"
DATA="${ODF_HASH_BENCH_DATA:-build/bench-data}"
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  RUNS="${BENCH_RUNS:-3}"
else
  RUNS="${BENCH_RUNS:-5}"
fi
PYTHON="${ODF_HASH_PYTHON:-.venv/bin/python}"
CONFORMANCE_BIN="${ODF_HASH_CONFORMANCE_BIN:-conformance/target/release/odf-hash-conformance}"
mkdir -p "$DATA"

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
mbps() { awk -v b="$1" -v t="$2" 'BEGIN { print b / 1000000 / t }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print a / b }'; }

# openssl_sha3_rate: MB/s of one OpenSSL SHA3-256 stream (openssl speed, 16 KiB blocks, the
# best of three one-second runs: on a shared machine the best is the closest to an idle
# core). openssl speed divides by user CPU time.
openssl_sha3_rate() {
  local r=()
  for _ in 1 2 3; do
    r+=("$(openssl speed -evp sha3-256 -bytes 16384 -seconds 1 2>/dev/null |
      awk '$1 == "sha3-256" { sub(/k$/, "", $2); print $2 * 1000 / 1000000 }')")
  done
  printf '%s\n' "${r[@]}" | sort -g | tail -1
}

# odf_sha3_rate: MB/s of odf-hash's Sha3_256 over 64 MiB, the best of three runs
# (build/bench/logical_compare --sha3); empty when that program is missing.
odf_sha3_rate() {
  local exe="${ODF_HASH_LOGICAL_COMPARE:-build/bench/logical_compare}"
  [ -x "$exe" ] || return 0
  "$exe" --sha3 --mib 64 --runs 3 | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["best_mb_per_s"])'
}

# sha3_rate: the machine's single-stream Keccak rate, the denominator of every "of Keccak"
# column: the faster of OpenSSL and odf-hash's own single stream, or $BENCH_SHA3_MBPS when set.
sha3_rate() {
  if [ -n "${BENCH_SHA3_MBPS:-}" ]; then
    echo "$BENCH_SHA3_MBPS"
    return
  fi
  { openssl_sha3_rate; odf_sha3_rate; } | sort -g | tail -1
}

# json_field FILE KEY: the value of KEY in the single JSON object of FILE.
json_field() { "$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

# Comparing two programs by alternating fresh processes. The speed of one process's hashing
# depends on where its buffers landed in memory and on what the machine runs meanwhile (runs
# of the same program differ by up to ~20%, and by 40% on a loaded machine), so one process
# per side says little. A script runs each side in ROUNDS fresh processes, alternating them;
# each process times several runs (JSON lists "runs" and "cpu_runs", seconds) and
# record_best keeps its best wall and CPU times (the runs least disturbed by other work);
# median_of then gives the median over the processes of those bests.
bench_rounds() {
  if [ "${BENCH_QUICK:-0}" = 1 ]; then echo "${BENCH_ROUNDS:-2}"; else echo "${BENCH_ROUNDS:-5}"; fi
}
# record_best FILE LOG: appends "<best wall> <best cpu>" of the JSON object in FILE to LOG.
record_best() {
  "$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(min(d["runs"]), min(d["cpu_runs"]))' \
    "$1" >>"$2"
}
# median_of LOG COLUMN: the median of column COLUMN (1 wall, 2 CPU) of a record_best LOG.
median_of() {
  # shellcheck disable=SC2046
  median $(awk -v c="$2" '{ print $c }' "$1")
}

# ensure_conformance: the Rust reference tool, built in the release profile (a no-op when
# up to date; the crates are fetched by scripts/bootstrap.sh).
ensure_conformance() {
  if [ -z "${ODF_HASH_CONFORMANCE_BIN:-}" ]; then
    cargo build --quiet --release --locked --offline --manifest-path conformance/Cargo.toml >&2
  fi
  [ -x "$CONFORMANCE_BIN" ] || { echo "bench: $CONFORMANCE_BIN not found" >&2; exit 2; }
}

# summary_row SECTION CASE MB PEER_MBPS ODF_MBPS CPU_RATIO OF_SHA3 GOAL: one row of the
# summary table bench/run.sh prints at the end (when it set BENCH_SUMMARY). The ratio is
# ODF / PEER in wall-clock rates; CPU_RATIO the same from CPU time ("-" if not meaningful).
summary_row() {
  [ -n "${BENCH_SUMMARY:-}" ] || return 0
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$(ratio "$5" "$4")" \
    "$6" "$7" "$8" >>"$BENCH_SUMMARY"
}
# summary_note TEXT: a line printed under the summary table.
summary_note() {
  [ -n "${BENCH_SUMMARY:-}" ] || return 0
  printf 'note\t%s\n' "$1" >>"$BENCH_SUMMARY"
}
