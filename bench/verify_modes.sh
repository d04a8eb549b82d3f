#!/usr/bin/env bash
# The verify modes (issue 26) next to what they save or cost: --since on a long chain grown by
# one block vs a full verify; --deep vs `odf-hash logical` of the same files; --sample 1% over
# S3 (moto on 127.0.0.1) vs a full remote verify. See bench/verify_modes_bench.py.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
echo "== verify modes: --since, --deep, --sample"
"$PYTHON" bench/verify_modes_bench.py
