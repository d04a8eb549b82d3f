#!/usr/bin/env python3
"""Runs examples/c/odf_hash_tour.c (built against libodf_hash) and checks every value it
prints against an independent source: the spec's known multihash, the reference's digests
(tests/conformance/vectors.json for the file, logical_unit_vectors.json for the records the
tour builds by hand: those are the test case 'rec_mixed' and 'rec_two_batches' of
tests/unit/logical/reference_vectors_test.cpp, printed by arrow-digest), and the example
dataset (valid; with --broken, a copy with one flipped byte in a data file). With --http the
tour gets URLs instead of paths: the file and the dataset are served by the static HTTP
server of tests/cli/remote_servers.py on 127.0.0.1, started and stopped here."""
import argparse
import contextlib
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

KNOWN = "f162008c3792b2a4deed1bd7ea2328fb5de5531eccf0fbfa04a7d800cdc267137c635"
KNOWN_Z = "zW1a3CNT52HXiJNniLkWMeev3CPRy9QiNRMWGyTrVNg4hY8"
DATA_FILE = "data/gen/mixed_1.arrow"
LOGICAL_PREFIX = "f9680c00120"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tour", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--broken", action="store_true")
    ap.add_argument("--http", action="store_true")
    args = ap.parse_args()
    src = pathlib.Path(args.source_dir)
    sys.path.insert(0, str(src / "tests" / "cli"))
    from remote_servers import http_server
    conf = src / "tests" / "conformance"
    vector = next(v for v in json.loads((conf / "vectors.json").read_text())["vectors"]
                  if v["file"] == DATA_FILE)
    units = json.loads((conf / "logical_unit_vectors.json").read_text())

    with tempfile.TemporaryDirectory() as tmp:
        dataset = src / "examples" / "datasets" / "root"
        broken_file = None
        if args.broken:
            dataset = pathlib.Path(tmp) / "root"
            shutil.copytree(src / "examples" / "datasets" / "root", dataset)
            broken_file = sorted((dataset / "data").iterdir())[0]
            raw = bytearray(broken_file.read_bytes())
            raw[len(raw) // 2] ^= 0x01
            broken_file.write_bytes(bytes(raw))
            # A second data file three bytes longer: a size-mismatch, whose sizes the C ABI
            # gives as numbers (expected_number, actual_number, unit "bytes").
            cut_file = sorted((dataset / "data").iterdir())[1]
            cut_size = cut_file.stat().st_size
            with open(cut_file, "ab") as f:
                f.write(b"abc")
            (dataset / "data" / "stray.txt").write_bytes(b"12345")  # unreferenced
        file = conf / DATA_FILE
        with contextlib.ExitStack() as stack:
            if args.http:
                served = pathlib.Path(tmp) / "served"
                (served / "files").mkdir(parents=True)
                shutil.copyfile(file, served / "files" / file.name)
                shutil.copytree(dataset, served / "datasets" / "root")
                server = stack.enter_context(http_server(served))
                file, dataset = f"{server.url}/files/{file.name}", f"{server.url}/datasets/root"
            # A dataset's blocks/ folder: not a dataset (a local folder only).
            extra = [] if args.http else [str(pathlib.Path(dataset) / "blocks")]
            p = subprocess.run([args.tour, str(file), str(dataset), *extra],
                               capture_output=True, text=True, timeout=100)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    lines = {}
    problems, unreferenced = [], []
    for line in p.stdout.splitlines():
        key, _, value = line.partition(": ")
        if key == "problem":
            problems.append(value)
        elif key == "unreferenced entry":
            unreferenced.append(value)
        else:
            lines[key] = value

    failures = []

    def expect(key, want):
        if lines.get(key) != want:
            failures.append(f"{key}: got {lines.get(key)!r}, want {want!r}")

    expect("sha3 of 'multihash'", KNOWN)
    expect("parsed base58btc equals", "yes")
    expect("as base58btc", KNOWN_Z)
    expect("bad hash", "invalid argument")
    expect("file physical", vector["physical"])
    expect("file size", str((conf / DATA_FILE).stat().st_size))
    expect("file logical", vector["logical"])
    expect("file logical rows", str(vector["rows"]))
    # The same bytes on both sides: identical, whatever the library computes.
    expect("compare itself", "identical")
    expect("compare itself records", "equal, verified")
    expect("compare json has the verdict", "yes")
    expect("one batch", LOGICAL_PREFIX + units["rec_mixed"])
    expect("one batch rows", "3")
    expect("two batches", LOGICAL_PREFIX + units["rec_two_batches"])
    expect("two batches rows", "5")
    expect("stream released", "yes")
    expect("malformed batch", "invalid argument")
    # A column's digest alone equals its digest inside the record batch.
    expect("column a column  (i)", lines.get("one batch column a (i)", "missing"))
    expect("json names the dataset", "yes")
    # A made-up trusted head cannot be on the chain; one file of the sample is read.
    expect("modes complete", "0")
    expect("modes verdict says sampled", "yes")
    expect("sample of all bytes reads every file", "yes")
    expect("untrusted head", "history-rewritten")
    if not args.http:
        expect("not a dataset", "not found")
        expect("not a dataset says so", "yes")
    if args.broken:
        expect("dataset", "INVALID")
        want = sorted([f"physical-hash-mismatch data/{broken_file.name}",
                       f"size-mismatch data/{cut_file.name} expected {cut_size} "
                       f"actual {cut_size + 3} bytes"])
        if sorted(problems) != want:
            failures.append(f"problems: got {problems}, want {want}")
        if not args.http:  # a server cannot be listed: nothing unreferenced there
            expect("unreferenced", "1 (5 bytes)")
            if unreferenced != ["data/stray.txt file 5"]:
                failures.append(f"unreferenced: got {unreferenced}")
            expect("strict adds problems", "1")
        want_rc = 1
    else:
        expect("unreferenced", "0 (0 bytes)")
        expect("strict adds problems", "0")
        expect("dataset", "VALID")
        if problems:
            failures.append(f"problems on a valid dataset: {problems}")
        want_rc = 0
    if p.returncode != want_rc:
        failures.append(f"exit status {p.returncode}, want {want_rc}")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    print(f"{len(lines) + len(problems)} values checked, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
