#!/usr/bin/env bash
# Start-up of a short command (issue 12 item 2): `odf-hash physical` of a tiny file next to
# `openssl dgst -sha3-256` and `sha256sum`, whole processes, alternating runs, medians of
# wall and CPU time and the peak RSS of each (bench/startup.py). Goal: odf-hash within 1.5x
# openssl's wall time and at most 16 MiB of RSS: hashing bytes must not load Arrow, which
# the odf-hash program only loads (libodf_hash_arrow.so) when a command reads records.
#
# Knobs (environment): see bench/lib.sh; BENCH_STARTUP_RUNS (200, quick 50).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  runs="${BENCH_STARTUP_RUNS:-50}"
else
  runs="${BENCH_STARTUP_RUNS:-200}"
fi
tiny="$DATA/tiny.txt"
printf 'a tiny file\n' >"$tiny"

ours=$("$BIN" physical "$tiny" | cut -d' ' -f1)
theirs=$(openssl dgst -sha3-256 -r "$tiny" | cut -d' ' -f1)
if [ "$ours" != "f1620$theirs" ]; then
  echo "startup.sh: odf-hash and openssl disagree on $tiny" >&2
  exit 1
fi

echo "physical hash of a 12-byte file, median of $runs alternating runs:"
out="$("$PYTHON" bench/startup.py --runs "$runs" \
  --tool odf "$BIN physical $tiny" \
  --tool openssl "openssl dgst -sha3-256 $tiny" \
  --tool sha256sum "sha256sum $tiny")"
grep -v '^JSON ' <<<"$out"
field() { grep "^JSON {\"name\": \"$1\"" <<<"$out" | sed 's/^JSON //' |
  "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$2"; }
odf_ms=$(field odf wall_ms)
ssl_ms=$(field openssl wall_ms)
odf_rss=$(field odf rss_mib)
ssl_rss=$(field openssl rss_mib)
odf_cpu=$(field odf cpu_ms)
ssl_cpu=$(field openssl cpu_ms)
loaded=$(if grep -q libarrow <(ldd "$BIN"); then echo yes; else echo no; fi)
echo "  odf-hash links libarrow: $loaded"
# The summary's rate columns hold runs per second here (1000 / median ms).
summary_row "startup" "physical tiny (runs/s)" - "$(awk -v t="$ssl_ms" 'BEGIN{print 1000/t}')" \
  "$(awk -v t="$odf_ms" 'BEGIN{print 1000/t}')" "$(ratio "$ssl_cpu" "$odf_cpu")" - \
  ">= 0.67x openssl (<= 1.5x its time)"
summary_note "$(printf 'start-up: odf-hash physical of a tiny file %.2f ms, %.1f MiB peak RSS; openssl %.2f ms, %.1f MiB (goal: <= 1.5x its time, <= 16 MiB)' \
  "$odf_ms" "$odf_rss" "$ssl_ms" "$ssl_rss")"
