#!/usr/bin/env bash
# Runs every libFuzzer binary of a fuzz build for SECONDS each, starting from its committed
# corpus (tests/fuzz/corpus/<name>/).
#
#   scripts/run-fuzzers.sh [BUILD_DIR [SECONDS]]
#
# `make fuzz` runs them 30 s each to look for bugs; `make test` runs them a few seconds each
# (FUZZ_TEST_SECONDS) so that every untrusted surface is fuzzed in CI, bounded in time. New
# interesting inputs go to a scratch folder (BUILD_DIR/fuzz-new/<name>), never into the
# corpus: look at them, and commit the ones worth keeping. A crash, a leak, an input slower
# than 10 s, a single allocation over 1 GiB or more than 2.5 GiB of RSS stops the run with the
# fuzzer's report (the input is written to BUILD_DIR/fuzz-crashes/). The inputs are small:
# the readers' pool refuses buffers beyond 64 MiB + 64 bytes per input byte
# (src/io/memory_pool.h), so a larger allocation is one that escapes that bound.
set -euo pipefail
build=${1:-build-fuzz}
seconds=${2:-30}
cd "$(dirname "$0")/.."
found=0
crashes="$build/fuzz-crashes"
mkdir -p "$crashes"
for fuzzer in "$build"/tests/fuzz/*_fuzzer; do
  [ -x "$fuzzer" ] || continue
  found=1
  name=$(basename "$fuzzer" _fuzzer)
  scratch="$build/fuzz-new/$name"
  mkdir -p "$scratch"
  echo "== $name: ${seconds}s from tests/fuzz/corpus/$name"
  log="$build/fuzz-new/$name.log"
  set +e
  "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -malloc_limit_mb=1024 \
    -print_final_stats=1 -artifact_prefix="$crashes/$name-" \
    "$scratch" "tests/fuzz/corpus/$name" >"$log" 2>&1
  status=$?
  set -e
  if [ "$status" -ne 0 ]; then
    cat "$log" >&2
    echo "run-fuzzers: $name failed (exit $status); the input is in $crashes/" >&2
    exit 1
  fi
  grep -E '^(INFO: seed corpus|#[0-9]+[[:space:]]+DONE|stat::(number_of_executed_units|new_units_added|peak_rss_mb))' "$log" || true
done
if [ "$found" = 0 ]; then
  echo "run-fuzzers: no *_fuzzer binaries in $build/tests/fuzz (configure with the fuzz preset)" >&2
  exit 2
fi
