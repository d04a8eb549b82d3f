#!/usr/bin/env bash
# The main job on the bundled example: physical hashes of the bundled example files,
# checked against their committed check list.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== odf-hash physical examples/files/*"
./build/odf-hash physical examples/files/*
echo
echo "== odf-hash physical --check examples/files.sha3"
./build/odf-hash physical --check examples/files.sha3
