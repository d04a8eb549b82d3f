#!/usr/bin/env python3
"""Runs examples/c/odf_hash_verify_query.c (built against libodf_hash) on the answers recorded
from kamu nodes (tests/data/query/) and checks what the C ABI says against independent
sources: the hashes the node committed to, the same hashes recomputed by
tests/cli/kamu_answers.py (hashlib) for a changed answer, and the datasets' copies as the
node's workspace held them (mix) and after its history was rewritten (mix-rewritten)."""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--program", required=True)
    ap.add_argument("--source-dir", required=True)
    args = ap.parse_args()
    src = pathlib.Path(args.source_dir)
    sys.path.insert(0, str(src / "tests" / "cli"))
    import kamu_answers as ka
    data = src / "tests" / "data" / "query"
    manifest = json.loads((data / "vectors.json").read_text())
    did_a = manifest["keys"]["A"]["did"]
    ds = {name: str(data / d["folder"]) for name, d in manifest["datasets"].items()}
    failures = []

    def run(answer: pathlib.Path, *extra: str):
        p = subprocess.run([args.program, str(answer), *extra], capture_output=True, text=True,
                           timeout=100)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        lines = dict(line.partition(": ")[::2] for line in p.stdout.splitlines())
        report = json.loads(lines["json"]) if "json" in lines else None
        if lines.get("wrong struct_size") != "invalid argument":
            failures.append(f"{answer.name}: wrong struct_size gave "
                            f"{lines.get('wrong struct_size')!r}")
        return p.returncode, lines, report

    def expect(what, got, want):
        if got != want:
            failures.append(f"{what}: got {got!r}, want {want!r}")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        join = data / "answers" / "join.json"
        committed = json.loads(join.read_bytes())["commitment"]
        # Trusted and tied to both copies: valid, the node's hashes recomputed.
        rc, lines, report = run(join, "--trust", did_a, "--dataset", f"mix={ds['mix']}",
                                "--dataset", f"cities={ds['cities']}")
        expect("join trusted: exit", rc, 0)
        expect("join trusted: verdict", lines.get("verdict"), "0")
        if report:
            q = report["queries"][0]
            expect("join: input hash", q["input"]["computed"], committed["inputHash"])
            expect("join: output hash", q["output"]["computed"], committed["outputHash"])
            expect("join: sub-queries hash", q["sub_queries"]["computed"],
                   committed["subQueriesHash"])
            expect("join: ties", [d["tie"] for d in q["datasets"]], ["on-chain", "on-chain"])
        # No key trusted: valid, but untrusted.
        rc, lines, report = run(join)
        expect("join untrusted: exit", rc, 3)
        expect("join untrusted: summary names the key", did_a in lines.get("summary", ""), True)
        # One value changed: the output hash fails, and is what hashlib computes.
        changed = tmp / "changed.json"
        changed.write_bytes((data / "answers" / "aos.json").read_bytes()
                            .replace('"Bé"'.encode(), b'"Be"', 1))
        rc, lines, report = run(changed, "--trust", did_a)
        expect("changed value: exit", rc, 1)
        if report:
            want = ka.multihash(ka.canonical(ka.load(changed.read_bytes())["output"]))
            expect("changed value: findings", report["findings"], ["output hash"])
            expect("changed value: computed output hash",
                   report["queries"][0]["output"]["computed"], want)
        # Tied to a copy whose history was rewritten.
        rc, lines, report = run(data / "answers" / "aos.json", "--trust", did_a, "--dataset",
                                f"mix={ds['mix-rewritten']}")
        expect("rewritten: exit", rc, 1)
        if report:
            expect("rewritten: tie", report["queries"][0]["datasets"][0]["tie"], "not-on-chain")
        # Malformed and hostile: an error with a message, never a crash.
        for name, text in (("truncated", b'{"input":'), ("deep", b"[" * 100000),
                           ("not utf-8", b'{"input":"\xff"}')):
            bad = tmp / "bad.json"
            bad.write_bytes(text)
            rc, lines, _ = run(bad)
            expect(f"{name}: exit", rc, 4)
            expect(f"{name}: error", lines.get("error", "").startswith("parse error: "), True)
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
