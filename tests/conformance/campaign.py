#!/usr/bin/env python3
"""Differential conformance campaign: odf-hash logical vs the reference on fresh random tables.

    campaign.py --tool conformance/target/release/odf-hash-conformance \
                --odf-hash build/odf-hash --count 3000 --work /tmp/campaign [--seed S]

1. `odf-hash-conformance gen` writes COUNT seeded random tables as Arrow IPC and Parquet, and
   for each a Parquet file of other writers' shapes (legacy lists, INT96, encodings, codecs,
   see conformance/src/gen/shapes.rs), with manifest.jsonl holding the reference logical
   hash of each file (arrow-rs + arrow-digest). With --pyarrow-python every --pyarrow-every'th
   table is also written by pyarrow with random writer options. The seed comes from --seed,
   else $ODF_HASH_CAMPAIGN_SEED, else the clock; it is printed.
2. `odf-hash logical --json` hashes every file, once as one stream and once with its Parquet
   columns in groups (--threads 2 --column-streams on), which must agree exactly.
3. Every difference (hash, row count, an error where the reference succeeded, or a hash where
   arrow-rs refuses the file) is printed with its seed, table index and file, and the command
   that regenerates that one table; the files are kept under WORK/mismatches/. Exit status 1
   when anything differs, except mismatches matching a known bug of --known
   (tests/conformance/known_failures.json), which are counted per bug (the first three of each
   shown); files pyarrow cannot read back itself are no exception. Files arrow-digest cannot
   hash (it panics on types it does not support) are not compared: odf-hash's decisions
   there are docs/divergences.md's.
4. With --tool58, every file is also hashed by the reference at kamu's versions
   (arrow-digest 58.0.0, arrow-rs 58.4.0) and compared with the 60 leg; differences are
   printed and fail the run (reference_versions.py).
"""
import argparse
import json
import os
import re
import shutil
import random
import subprocess
import sys
import time

import reference_versions


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


def run_odf_hash(odf_hash, files, chunk=400, flags=()):
    results = {}
    for i in range(0, len(files), chunk):
        part = files[i:i + chunk]
        proc = subprocess.run([odf_hash, "logical", "--json", *flags, *part], capture_output=True, text=True)
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


def pyarrow_options(rng):
    """Random pyarrow.parquet.write_table options: Arrow C++'s writer annotates Parquet
    differently from arrow-rs (legacy types, no embedded schema, INT96, legacy list names,
    decimals as integers, its own dictionary, page and encoding layout), and the hash must be
    what arrow-rs reads from it. "column_encoding": {"random": S} is resolved per column by
    pyarrow_rewrite.py (an encoding the column's type takes)."""
    o = {
        "row_group_size": rng.choice([1, 2, 3, 7, 16, 50, 200, 10_000]),
        "use_dictionary": rng.random() < 0.5,
        "store_schema": rng.random() < 0.7,
        "version": rng.choice(["1.0", "2.4", "2.6"]),
        "compression": rng.choice(["NONE", "SNAPPY", "ZSTD", "LZ4", "GZIP", "BROTLI"]),
        "data_page_version": rng.choice(["1.0", "2.0"]),
        "write_statistics": rng.random() < 0.5,
    }
    if rng.random() < 0.5:
        o["data_page_size"] = rng.choice([64, 512, 4096])
    if rng.random() < 0.2:
        o["use_deprecated_int96_timestamps"] = True
    elif rng.random() < 0.15:
        o["coerce_timestamps"] = rng.choice(["ms", "us"])
        o["allow_truncated_timestamps"] = True
    if rng.random() < 0.2:
        o["use_compliant_nested_type"] = False
    if rng.random() < 0.15:
        o["store_decimal_as_integer"] = True
    if rng.random() < 0.15:
        o["write_batch_size"] = rng.choice([1, 3])
        o["max_rows_per_page"] = rng.choice([1, 2, 5])
    if o["use_dictionary"] and rng.random() < 0.2:
        o["dictionary_pagesize_limit"] = rng.choice([32, 256])
    if not o["use_dictionary"]:
        if rng.random() < 0.3:
            o["column_encoding"] = {"random": rng.randrange(1 << 30)}
        elif rng.random() < 0.2:
            o["use_byte_stream_split"] = True
    if rng.random() < 0.1:
        o["write_page_index"] = True
    return o


def pyarrow_leg(args, seed, manifest, data):
    """Every --pyarrow-every'th table's IPC file rewritten by pyarrow as Parquet, then hashed
    by the reference; returns manifest-like entries for those files."""
    rng = random.Random(seed)
    jobs, entries = [], []
    for m in manifest:
        if not m["format"].startswith("arrow-ipc") or m["index"] % args.pyarrow_every:
            continue
        options = pyarrow_options(rng)
        dst = os.path.join(data, f"{m['seed']}_{m['index']}.pyarrow.parquet")
        jobs.append({"src": os.path.join(data, m["file"]), "dst": dst, "options": options})
        entries.append(dict(m, file=os.path.basename(dst), format="parquet (pyarrow)",
                            pyarrow_options=options))
    if not jobs:
        return [], 0
    jobs_path = os.path.join(data, "pyarrow_jobs.json")
    with open(jobs_path, "w") as fh:
        json.dump(jobs, fh)
    w = subprocess.run([args.pyarrow_python, os.path.join(os.path.dirname(__file__), "pyarrow_rewrite.py"),
                        jobs_path], capture_output=True, text=True)
    if w.returncode != 0:
        sys.exit(f"campaign: pyarrow_rewrite.py failed (exit {w.returncode}):\n{w.stderr[-3000:]}")
    reports = [json.loads(line) for line in w.stdout.splitlines() if line.strip()]
    unwritable = {r["dst"] for r in reports if not r.get("read_back")}
    unreadable = {r["dst"]: r["error"] for r in reports if r.get("read_back")}
    entries = [e for e in entries if os.path.join(data, e["file"]) not in unwritable]
    for e in entries:
        if os.path.join(data, e["file"]) in unreadable:
            e["pyarrow_read_back_error"] = unreadable[os.path.join(data, e["file"])]
    paths = [os.path.join(data, e["file"]) for e in entries]
    reference = {}
    for i in range(0, len(paths), 400):
        r = subprocess.run([args.tool, "hash", *paths[i:i + 400]], capture_output=True, text=True)
        reference.update(parse_cli_output(r.stdout))
    for e, path in zip(entries, paths):
        ref = reference.get(path, {"error": "the reference printed nothing"})
        for k in ("logical", "rows", "reference_error"):  # the IPC file's, not this file's
            e.pop(k, None)
        if hash_of(ref) is None:
            e["reference_error"] = ref.get("error", str(ref))
        else:
            e["logical"], e["rows"] = hash_of(ref), rows_of(ref)
    return entries, (len(unwritable), len(unreadable))


def known_bug(patterns, m, problem):
    """The id of the known bug (known_failures.json campaign_patterns) a mismatch matches."""
    for p in patterns:
        if "error_regex" in p and problem.startswith("odf-hash error") and re.search(p["error_regex"], problem):
            return p["bug"]
        if p.get("hash_mismatch") and problem.startswith("logical hash differs") \
                and re.search(p.get("file_regex", ""), m["file"]) \
                and re.search(p.get("types_regex", ""), json.dumps(m.get("types", []), ensure_ascii=False)):
            return p["bug"]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True, help="odf-hash-conformance binary")
    ap.add_argument("--odf-hash", required=True, help="odf-hash CLI binary")
    ap.add_argument("--count", type=int, default=3000, help="random tables to generate")
    ap.add_argument("--work", required=True, help="scratch directory (emptied first)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--keep", action="store_true", help="keep the generated files")
    ap.add_argument("--pyarrow-python", help="a Python with pyarrow: also rewrite tables as Parquet "
                                             "with pyarrow (random writer options) and compare those")
    ap.add_argument("--pyarrow-every", type=int, default=3,
                    help="rewrite every N-th table with pyarrow (default 3)")
    ap.add_argument("--known", help="known_failures.json: mismatches matching its campaign_patterns "
                                    "are reported as known bugs and do not fail the run")
    ap.add_argument("--tool58", help="odf-hash-conformance-58: also hash every file with the reference "
                                     "at kamu's versions and compare it with the 60 leg")
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
    pyarrow_skipped = (0, 0)
    if args.pyarrow_python:
        t_pa = time.monotonic()
        extra, pyarrow_skipped = pyarrow_leg(args, seed, manifest, data)
        manifest += extra
        t_gen += time.monotonic() - t_pa
    files = [os.path.join(data, m["file"]) for m in manifest]

    t1 = time.monotonic()
    ours = run_odf_hash(args.odf_hash, files)
    # Every file again with its Parquet columns read in groups, each by its own reader on its
    # own thread (--column-streams on): the same hash, rows and error as one stream.
    groups = run_odf_hash(args.odf_hash, files, flags=("--threads", "2", "--column-streams", "on"))
    t_hash = time.monotonic() - t1

    mismatches, compared, ref_errors, refusals = [], 0, 0, 0
    for m, path in zip(manifest, files):
        one, split = ours.get(path, {}), groups.get(path, {})
        if (hash_of(one), rows_of(one), one.get("error")) != \
                (hash_of(split), rows_of(split), split.get("error")):
            mismatches.append((m, path, f"column groups differ from one stream: one stream "
                                        f"{hash_of(one) or one.get('error')}, column groups "
                                        f"{hash_of(split) or split.get('error')}"))
        if "reference_error" in m:
            ref_errors += 1
            if not m["reference_error"].startswith("reference panicked"):
                # arrow-rs refuses the file (kamu cannot have hashed it): so must odf-hash.
                refusals += 1
                got = ours.get(path, {})
                if hash_of(got) is not None:
                    mismatches.append((m, path, f"odf-hash hashed a file arrow-rs refuses "
                                                f"({m['reference_error'][:200]}): {hash_of(got)}"))
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

    version_diffs, t_58 = [], 0.0
    if args.tool58:
        t58 = time.monotonic()
        items = [(path, m.get("logical"), m.get("rows"), m.get("reference_error"))
                 for m, path in zip(manifest, files)]
        version_diffs = reference_versions.compare(args.tool58, items)
        for path, text in version_diffs:
            m = manifest[files.index(path)]
            print(f"REFERENCE VERSIONS DIFFER seed={m['seed']} index={m['index']} file={m['file']} "
                  f"types={m.get('types')}\n  {text}", flush=True)
            os.makedirs(os.path.join(args.work, "mismatches"), exist_ok=True)
            shutil.copy(path, os.path.join(args.work, "mismatches"))
        t_58 = time.monotonic() - t58

    patterns = []
    if args.known:
        with open(args.known) as fh:
            patterns = json.load(fh).get("campaign_patterns", [])
    keep = os.path.join(args.work, "mismatches")
    known, new, arrow_cpp_own = {}, 0, 0
    for m, path, problem in mismatches:
        if "pyarrow_read_back_error" in m:
            # pyarrow wrote the file and its own reader rejects it (data pages with no values:
            # odf-hash skips them, src/io/arrow/empty_pages.h). Still a mismatch, labelled.
            arrow_cpp_own += 1
            problem += f" (pyarrow cannot read this file back itself: {m['pyarrow_read_back_error']})"
        bug = known_bug(patterns, m, problem)
        if bug:
            known[bug] = known.get(bug, 0) + 1
            if known[bug] > 3:
                continue  # the first three of each known bug are shown
        else:
            new += 1
            os.makedirs(keep, exist_ok=True)
            shutil.copy(path, keep)
        written = (f"\n  written by pyarrow with {m['pyarrow_options']} from the table's IPC file"
                   if "pyarrow_options" in m else "")
        print(f"{'KNOWN BUG ' + bug if bug else 'MISMATCH'} seed={m['seed']} index={m['index']} "
              f"file={m['file']} types={m.get('types')}{written}\n"
              f"  {problem}\n"
              f"  regenerate: {args.tool} gen --seed {m['seed']} --start {m['index']} --count 1 --out DIR",
              flush=True)

    print(f"campaign: seed {seed}: {args.count} tables, {len(files)} files, {compared} compared, "
          f"{ref_errors} not hashable by the reference ({refusals} refused by arrow-rs, which "
          f"odf-hash must refuse too), {len(mismatches)} mismatch(es) "
          f"({new} new, known bugs: {known or 'none'}; {arrow_cpp_own} in files pyarrow cannot read back); "
          f"gen {t_gen:.1f}s, odf-hash {t_hash:.1f}s" + (f", reference 58 {t_58:.1f}s" if args.tool58 else "")
          + (f"; pyarrow wrote {sum('pyarrow_options' in m for m in manifest)} Parquet files "
             f"({pyarrow_skipped[0]} tables it cannot write skipped; {pyarrow_skipped[1]} it cannot "
             f"read back itself)" if args.pyarrow_python else "")
          + (f"; arrow-digest 58 / arrow-rs 58.4 differ from the 60 leg on {len(version_diffs)} file(s)"
             if args.tool58 else ""))
    if not args.keep and not new and not version_diffs:
        shutil.rmtree(data, ignore_errors=True)
    if compared == 0:
        sys.exit("campaign: nothing compared")
    sys.exit(1 if new or version_diffs else 0)


if __name__ == "__main__":
    main()
