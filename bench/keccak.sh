#!/usr/bin/env bash
# Keccak kernels per core (build/bench/sha3_multi_bench, CPU time, median of repetitions):
#   - Sha3_256x8 at the AVX-512 level against Sha3_256x4 at the AVX2 level, both over 1 MiB
#     lanes (the issue's goal: x8 >= 1.8x the x4 rate per core on AVX-512 machines);
#   - the single stream: Sha3_256 (what physical hashes and single columns run: OpenSSL, or
#     our BMI2 or AVX-512 single state where a measurement at first use finds it faster) and
#     our two single-state kernels themselves, against OpenSSL's SHA3-256.
# A CPU without AVX-512 prints that instead of the x8 row.
#
# Knobs (environment): see bench/lib.sh (BENCH_RUNS: repetitions, BENCH_QUICK).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
EXE="${ODF_HASH_SHA3_MULTI_BENCH:-build/bench/sha3_multi_bench}"
[ -x "$EXE" ] || { echo "keccak.sh: $EXE not found; run 'make build' first" >&2; exit 2; }
sha3=$(sha3_rate)
min_time=0.5
[ "${BENCH_QUICK:-0}" = 1 ] && min_time=0.1

json=$(mktemp)
trap 'rm -f "$json"' EXIT
# (--benchmark_out: the binary's console reporter is its own, so --benchmark_format is not it.)
"$EXE" --benchmark_filter='^BM_(OpenSsl_1Stream|Sha3_256_1Stream|Scalar_1Stream/(1|3)|X4_UpdateAll/2|X8_UpdateAll/3)$' \
  --benchmark_repetitions="$RUNS" --benchmark_report_aggregates_only=true \
  --benchmark_min_time="$min_time" --benchmark_out="$json" --benchmark_out_format=json >/dev/null 2>&1

# name -> "MB/s label" of the median rows (nothing for rows that failed, e.g. no AVX-512).
rates=$("$PYTHON" - "$json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for b in doc["benchmarks"]:
    if b.get("error_occurred") or b.get("aggregate_name") != "median":
        continue
    print(b["run_name"], b["bytes_per_second"] / 1e6, b.get("label", "") or "-")
EOF
)
rate() { awk -v n="$1" '$1 == n { print $2 }' <<<"$rates"; }
label() { awk -v n="$1" '$1 == n { print $3 }' <<<"$rates"; }

openssl_mbps=$(rate BM_OpenSsl_1Stream)
sha3_256_mbps=$(rate BM_Sha3_256_1Stream)
bmi2_mbps=$(rate BM_Scalar_1Stream/1)
avx512_mbps=$(rate BM_Scalar_1Stream/3)
x4_mbps=$(rate BM_X4_UpdateAll/2)
x8_mbps=$(rate BM_X8_UpdateAll/3)

echo "Keccak per core (CPU time), median of $RUNS repetitions; MB/s of input, all lanes together:"
printf '  %-44s %10s %9s\n' "kernel" "MB/s" "ratio"
printf '  %-44s %10.1f %9s\n' "OpenSSL SHA3-256 (peer)" "$openssl_mbps" "1.00x"
printf '  %-44s %10.1f %8.2fx\n' "Sha3_256 (runs $(label BM_Sha3_256_1Stream))" "$sha3_256_mbps" \
  "$(ratio "$sha3_256_mbps" "$openssl_mbps")"
[ -n "$bmi2_mbps" ] && printf '  %-44s %10.1f %8.2fx\n' "single state, scalar BMI2" "$bmi2_mbps" \
  "$(ratio "$bmi2_mbps" "$openssl_mbps")"
summary_row "keccak" "1 stream: Sha3_256" 1.048576 "$openssl_mbps" "$sha3_256_mbps" - \
  "$(ratio "$sha3_256_mbps" "$sha3")" "uses $(label BM_Sha3_256_1Stream); >= 1.3x openssl w/ AVX-512"
if [ -n "$avx512_mbps" ]; then
  printf '  %-44s %10.1f %8.2fx\n' "single state, AVX-512" "$avx512_mbps" \
    "$(ratio "$avx512_mbps" "$openssl_mbps")"
  summary_row "keccak" "1 stream: AVX-512" 1.048576 "$openssl_mbps" "$avx512_mbps" - \
    "$(ratio "$avx512_mbps" "$sha3")" "(the single-state kernel)"
fi
printf '  %-44s %10.1f %9s\n' "Sha3_256x4, AVX2 (4 x 1 MiB)" "$x4_mbps" ""
if [ -n "$x8_mbps" ]; then
  printf '  %-44s %10.1f %8.2fx  (vs the AVX2 x4 rate; goal >= 1.8x)\n' \
    "Sha3_256x8, AVX-512 (8 x 1 MiB)" "$x8_mbps" "$(ratio "$x8_mbps" "$x4_mbps")"
  summary_row "keccak" "x8 vs AVX2 x4, 1 core" 8.388608 "$x4_mbps" "$x8_mbps" - \
    "$(ratio "$x8_mbps" "$sha3")" ">= 1.8x x4"
else
  echo "  Sha3_256x8 at AVX-512: skipped, this CPU has no AVX-512"
  summary_note "keccak: no AVX-512 on this CPU, so no Sha3_256x8 row"
fi
summary_note "keccak rows: MB/s per CPU second of SHA3 input (the x-lane rows: all lanes together)"
