#!/usr/bin/env bash
# The main job on the bundled examples (examples/datasets/, made by
# scripts/generate_example_datasets.py): verify the two ODF datasets, show that data files
# are named by their physical hash, then break a copy of the root dataset and verify it.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=build/odf-hash
root_dir=$(pwd)

echo "== odf-hash verify examples/datasets/root examples/datasets/derivative"
./$BIN verify examples/datasets/root examples/datasets/derivative
echo
echo "== odf-hash physical examples/datasets/root/data/*   (each file is named by its hash)"
./$BIN physical examples/datasets/root/data/*
echo

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r examples/datasets/root "$tmp/root-broken"
data=$(ls "$tmp/root-broken/data" | head -n 1)
checkpoint=$(ls "$tmp/root-broken/checkpoints" | head -n 1)
# Flip one byte in a data file and truncate a checkpoint.
python3 - "$tmp/root-broken/data/$data" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[len(b) // 2] ^= 0x01
open(p, "wb").write(bytes(b))
PY
truncate -s 20 "$tmp/root-broken/checkpoints/$checkpoint"
echo "== a copy of the root dataset with one flipped byte in data/$data"
echo "   and checkpoints/$checkpoint truncated to 20 bytes (exit status 1 expected)"
(cd "$tmp" && "$root_dir/$BIN" verify root-broken) || echo "(exit status $?)"
