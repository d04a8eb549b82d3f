#!/usr/bin/env python3
"""Differential conformance campaign: odf-hash logical vs the reference on fresh random tables.

    campaign.py --tool conformance/target/release/odf-hash-conformance \
                --odf-hash build/odf-hash --count 3000 --work /tmp/campaign [--seed S]

1. `odf-hash-conformance gen` writes COUNT seeded random tables as Arrow IPC and Parquet, with
   manifest.jsonl holding the reference logical hash of each file (arrow-rs + arrow-digest).
   The seed comes from --seed, else $ODF_HASH_CAMPAIGN_SEED, else the clock; it is printed.
2. `odf-hash logical --json` hashes every file.
3. Every difference (hash, row count, or an error where the reference succeeded) is printed
   with its seed, table index and file, and the command that regenerates that one table; the
   files are kept under WORK/mismatches/. Exit status 1 when anything differs.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time


def parse_cli_output(text):
    """Maps path -> entry from `odf-hash logical --json` output: one document with a list of
    files (as `physical --json` prints), a bare list, or one JSON object per line."""
    text = text.strip()
    if not text:
        return {}
    try:
        docs = [json.loads(text)]
    except json.JSONDecodeError:
        docs = [json.loads(line) for line in text.splitlines() if line.strip()]
    entries = []
    for doc in docs:
        if isinstance(doc, list):
            entries.extend(doc)
        elif isinstance(doc, dict) and isinstance(doc.get("files"), list):
            entries.extend(doc["files"])
        elif isinstance(doc, dict):
            entries.append(doc)
    return {e.get("path"): e for e in entries if isinstance(e, dict)}


def hash_of(entry):
    for key in ("logical", "hash", "multihash"):
        if isinstance(entry.get(key), str):
            return entry[key]
    return None


def rows_of(entry):
    for key in ("rows", "num_rows"):
        if isinstance(entry.get(key), int):
            return entry[key]
    return None


def run_odf_hash(odf_hash, files, chunk=400):
    results = {}
    for i in range(0, len(files), chunk):
        part = files[i:i + chunk]
        proc = subprocess.run([odf_hash, "logical", "--json", *part], capture_output=True, text=True)
        if proc.returncode not in (0, 1, 2):
            sys.exit(f"campaign: odf-hash crashed (exit {proc.returncode}) on files {part[0]}..{part[-1]}\n"
                     f"{proc.stderr[-4000:]}")
        try:
            parsed = parse_cli_output(proc.stdout)
        except json.JSONDecodeError as e:
            sys.exit(f"campaign: cannot parse odf-hash --json output ({e}); stderr:\n{proc.stderr[-4000:]}")
        for f in part:
            results[f] = parsed.get(f, {"error": f"no result printed (exit {proc.returncode}): "
                                                 f"{proc.stderr.strip()[-300:]}"})
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True, help="odf-hash-conformance binary")
    ap.add_argument("--odf-hash", required=True, help="odf-hash CLI binary")
    ap.add_argument("--count", type=int, default=3000, help="random tables to generate")
    ap.add_argument("--work", required=True, help="scratch directory (emptied first)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--keep", action="store_true", help="keep the generated files")
    args = ap.parse_args()

    seed = args.seed
    if seed is None and os.environ.get("ODF_HASH_CAMPAIGN_SEED"):
        seed = int(os.environ["ODF_HASH_CAMPAIGN_SEED"])
    if seed is None:
        seed = int(time.time() * 1000) % 1_000_000_000
    print(f"campaign: seed {seed}, {args.count} tables "
          f"(reproduce with ODF_HASH_CAMPAIGN_SEED={seed})", flush=True)

    data = os.path.join(args.work, "data")
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(data)

    t0 = time.monotonic()
    gen = subprocess.run([args.tool, "gen", "--seed", str(seed), "--count", str(args.count),
                          "--out", data, "--require-coverage"], capture_output=True, text=True)
    sys.stdout.write(gen.stderr)
    if gen.returncode != 0:
        sys.exit(f"campaign: gen failed (exit {gen.returncode})")
    t_gen = time.monotonic() - t0

    with open(os.path.join(data, "manifest.jsonl")) as fh:
        manifest = [json.loads(line) for line in fh if line.strip()]
    files = [os.path.join(data, m["file"]) for m in manifest]

    t1 = time.monotonic()
    ours = run_odf_hash(args.odf_hash, files)
    t_hash = time.monotonic() - t1

    mismatches, compared, ref_errors = [], 0, 0
    for m, path in zip(manifest, files):
        if "reference_error" in m:
            ref_errors += 1
            continue
        compared += 1
        got = ours.get(path, {})
        problem = None
        if hash_of(got) is None:
            problem = f"odf-hash error: {got.get('error', got)}"
        elif hash_of(got) != m["logical"]:
            problem = f"logical hash differs: reference {m['logical']} odf-hash {hash_of(got)}"
        elif rows_of(got) is not None and rows_of(got) != m["rows"]:
            problem = f"row count differs: reference {m['rows']} odf-hash {rows_of(got)}"
        if problem:
            mismatches.append((m, path, problem))

    keep = os.path.join(args.work, "mismatches")
    for m, path, problem in mismatches:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(path, keep)
        print(f"MISMATCH seed={m['seed']} index={m['index']} file={m['file']} types={m.get('types')}\n"
              f"  {problem}\n"
              f"  regenerate: {args.tool} gen --seed {m['seed']} --start {m['index']} --count 1 --out DIR",
              flush=True)

    print(f"campaign: seed {seed}: {args.count} tables, {len(files)} files, {compared} compared, "
          f"{ref_errors} not hashable by the reference, {len(mismatches)} mismatch(es); "
          f"gen {t_gen:.1f}s, odf-hash {t_hash:.1f}s")
    if not args.keep and not mismatches:
        shutil.rmtree(data, ignore_errors=True)
    if compared == 0:
        sys.exit("campaign: nothing compared")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
