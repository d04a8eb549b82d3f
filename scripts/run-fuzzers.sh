#!/usr/bin/env bash
# Runs every libFuzzer binary of a fuzz build (make fuzz) for SECONDS each, starting from its
# committed corpus. New interesting inputs go to a scratch folder, not into the corpus: look at
# them, and commit the ones worth keeping. A crash stops the run with the fuzzer's report.
set -euo pipefail
build=${1:-build-fuzz}
seconds=${2:-30}
cd "$(dirname "$0")/.."
found=0
for fuzzer in "$build"/tests/fuzz/*_fuzzer; do
  [ -x "$fuzzer" ] || continue
  found=1
  name=$(basename "$fuzzer" _fuzzer)
  scratch="$build/fuzz-new/$name"
  mkdir -p "$scratch"
  echo "== $name: ${seconds}s from tests/fuzz/corpus/$name"
  "$fuzzer" -max_total_time="$seconds" -print_final_stats=1 "$scratch" "tests/fuzz/corpus/$name"
done
if [ "$found" = 0 ]; then
  echo "run-fuzzers: no *_fuzzer binaries in $build/tests/fuzz (configure with the fuzz preset)" >&2
  exit 2
fi
