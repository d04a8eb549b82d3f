#!/usr/bin/env python3
"""The two reference legs side by side: arrow-digest 60 / arrow-rs 60 (odf-hash-conformance,
what the committed vectors record) and arrow-digest 58.0.0 / arrow-rs 58.4.0
(odf-hash-conformance-58, the versions kamu pins).

    reference_versions.py --tool58 conformance/target/release/odf-hash-conformance-58 \\
                          --vectors tests/conformance

hashes every committed vector file with the 58 leg and compares it with the vector's 60
result (logical hash and row count, or both refusing). Any difference is printed; the run
fails unless the file is listed in known_failures.json "reference_version_differences"
(with the reason, and the matching note in docs/divergences.md). campaign.py --tool58 makes
the same comparison on the campaign's fresh files through compare().
"""
import argparse
import json
import os
import subprocess
import sys


def hash_files(tool, paths, chunk=400):
    """path -> the tool's JSON line (logical, rows / error)."""
    out = {}
    for i in range(0, len(paths), chunk):
        r = subprocess.run([tool, "hash", *paths[i:i + chunk]], capture_output=True, text=True)
        if r.returncode not in (0, 1):
            sys.exit(f"reference_versions: {tool} failed (exit {r.returncode}): {r.stderr[-2000:]}")
        for line in r.stdout.splitlines():
            if line.strip():
                doc = json.loads(line)
                out[doc["path"]] = doc
    return out


def compare(tool58, items):
    """items: (path, logical or None, rows or None, error or None) as the 60 leg gave them.
    Returns a list of (path, text) differences."""
    got = hash_files(tool58, [p for p, *_ in items])
    diffs = []
    for path, logical, rows, error in items:
        g = got.get(path, {"error": "the 58 leg printed nothing"})
        if logical is None and "error" in g:
            continue  # both refuse (the messages may differ between versions)
        if logical is None:
            diffs.append((path, f"60 refuses ({error}), 58 hashes it: {g.get('logical')}"))
        elif "error" in g:
            diffs.append((path, f"60 hashes it ({logical}), 58 refuses: {g['error']}"))
        elif g.get("logical") != logical or g.get("rows") != rows:
            diffs.append((path, f"60 {logical} ({rows} rows), 58 {g.get('logical')} ({g.get('rows')} rows)"))
    return diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool58", required=True)
    ap.add_argument("--vectors", required=True, help="directory of vectors.json")
    args = ap.parse_args()
    with open(os.path.join(args.vectors, "vectors.json")) as fh:
        vectors = json.load(fh)["vectors"]
    known = {}
    known_path = os.path.join(args.vectors, "known_failures.json")
    if os.path.exists(known_path):
        with open(known_path) as fh:
            known = json.load(fh).get("reference_version_differences", {})
    items = [(os.path.join(args.vectors, v["file"]), v.get("logical"), v.get("rows"), v.get("reference_error"))
             for v in vectors]
    diffs = compare(args.tool58, items)
    unexpected = 0
    for path, text in diffs:
        rel = os.path.relpath(path, args.vectors)
        reason = known.get(rel)
        print(f"{'KNOWN ' if reason else ''}REFERENCE VERSIONS DIFFER {rel}: {text}"
              + (f" ({reason})" if reason else ""))
        unexpected += reason is None
    stale = [f for f in known if f not in {os.path.relpath(p, args.vectors) for p, _ in diffs}]
    for f in stale:
        print(f"listed as differing but now equal: {f} (remove it from known_failures.json)")
    print(f"reference_versions: {len(items)} vectors through arrow-digest 58.0.0 / arrow-rs 58.4.0: "
          f"{len(diffs)} differ from the 60 leg ({unexpected} not listed)")
    sys.exit(1 if unexpected or stale else 0)


if __name__ == "__main__":
    main()
