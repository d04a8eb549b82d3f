#!/usr/bin/env python3
"""Runs examples/c/odf_hash_fetch.c (built against libodf_hash): the example root dataset
fetched into a temporary folder (every file under a final name re-hashed with hashlib, the
copy equal to the source), fetched again (up to date), a tampered copy rejected with its
head not moved, a wrong head refused."""
import argparse
import hashlib
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--program", required=True)
    ap.add_argument("--source-dir", required=True)
    args = ap.parse_args()
    root = pathlib.Path(args.source_dir) / "examples" / "datasets" / "root"
    failures = []

    def run(*argv):
        p = subprocess.run([args.program, *map(str, argv)], capture_output=True, text=True,
                           timeout=100)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        lines = dict(line.partition(": ")[::2] for line in p.stdout.splitlines())
        return p.returncode, lines

    def expect(what, got, want):
        if got != want:
            failures.append(f"{what}: got {got!r}, want {want!r}")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        dest = tmp / "copy"
        rc, lines = run(root, dest)
        expect("fetch: exit", rc, 0)
        expect("fetch: verdict", lines.get("verdict"), "0")
        doc = json.loads(lines.get("json", "{}"))
        expect("fetch: head", doc.get("head"), (root / "refs" / "head").read_text().strip())
        for folder in ("blocks", "data", "checkpoints"):
            names = sorted(p.name for p in (root / folder).iterdir())
            expect(f"fetch: {folder}", sorted(p.name for p in (dest / folder).iterdir()), names)
            for name in names:
                data = (dest / folder / name).read_bytes()
                expect(f"fetch: {folder}/{name}", "f1620" + hashlib.sha3_256(data).hexdigest(),
                       name)
        rc, lines = run(root, dest)
        expect("again: summary", lines.get("summary"), "UP TO DATE")

        source = tmp / "source"
        shutil.copytree(root, source)
        f = sorted((source / "data").iterdir())[0]
        b = bytearray(f.read_bytes())
        b[len(b) // 2] ^= 1
        f.write_bytes(bytes(b))
        rc, lines = run(source, tmp / "c2")
        expect("tampered: exit", rc, 1)
        expect("tampered: summary", lines.get("summary"), "REJECTED (1 problem)")
        expect("tampered: head", (tmp / "c2" / "refs").exists(), False)

        rc, lines = run(root, tmp / "c3", "--expect-head", "nothex")
        expect("bad head: exit", rc, 4)
        expect("bad head: error", lines.get("error", "").split(":")[0], "1")  # invalid argument
    for f in failures:
        print("FAIL", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
