#!/usr/bin/env python3
"""Pairs of Parquet files whose records differ while the reference gives them the same
arrow0 hash: arrow0's blind spots (docs/divergences.md, "What arrow0 cannot see").

    .venv/bin/python tests/conformance/blind_spots.py --write --tool T   # regenerate
    python3 tests/conformance/blind_spots.py --check --tool T            # ctest

T is the reference tool (conformance/target/release/odf-hash-conformance: arrow-digest over
arrow-rs's readers). --write writes tests/conformance/data/blind_spots/*.parquet with pyarrow,
polars and DuckDB (the venv has them) and blind_spots.json: each pair, what its records are
(from the construction below, never from odf-hash) and the reference's hash of each file.
--check (no Python packages needed) hashes the committed files with the reference again and
fails unless each pair's two hashes are equal and equal to the recorded ones. A run (an
entry with "original_files" / "reproduced_files") is a table read from several files; its
"original" / "reproduced" are the same table written whole, which the reference hashes.
odf-hash's own tests (tests/unit/compare/compare_test.cpp, tests/cli/test_compare_blind_spots.py,
python/tests/test_compare_blind_spots.py) read the files and the JSON.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "blind_spots")
MANIFEST = os.path.join(HERE, "blind_spots.json")

# Each shape: what the two tables hold, as Python rows of one column (or two), the records'
# relation and, for each row that differs, the field and which side holds a null there.
SHAPES = {
    "struct_null": {
        "blind_spot": "struct-null",
        "text": "a null struct against a struct whose member is null (combined nullability)",
        "types": {"s": "struct<a: int64>"},
        "original": {"s": [None, {"a": 1}]},
        "reproduced": {"s": [{"a": None}, {"a": 1}]},
        "records": "different",
        "differing": [{"field": "s", "row": 0, "null": "original"}],
    },
    "row_count": {
        "blind_spot": "row-count",
        "text": "8 nulls of a nullable int64 column against one row holding 0: a null is "
                "hashed as one 0 byte, a 0 as eight, and the row count is not hashed",
        "types": {"x": "int64"},
        "original": {"x": [None] * 8},
        "reproduced": {"x": [0]},
        "records": "different",
        "differing": [{"field": "x", "row": 0, "null": "original"}],
    },
    "row_count_strings": {
        "blind_spot": "row-count",
        "text": "8 null strings against one empty string (its length, eight 0 bytes)",
        "types": {"s": "utf8"},
        "original": {"s": [None] * 8},
        "reproduced": {"s": [""]},
        "records": "different",
        "differing": [{"field": "s", "row": 0, "null": "original"}],
    },
    "null_shift": {
        "blind_spot": "null-or-value",
        "text": "a null and a 0 moved between rows while the other column stays: the "
                "records differ, the column's bytes do not",
        "types": {"x": "int64", "y": "int64"},
        "original": {"x": [None, 0], "y": [1, 2]},
        "reproduced": {"x": [0, None], "y": [1, 2]},
        "records": "different",
        "differing": [{"field": "x", "row": 0, "null": "original"},
                      {"field": "x", "row": 1, "null": "reproduced"}],
    },
    "null_order": {
        "blind_spot": "row-order",
        "text": "a null and a 0 in another order: the same records, another order, the "
                "same bytes",
        "types": {"x": "int64"},
        "original": {"x": [None, 0]},
        "reproduced": {"x": [0, None]},
        "records": "same-other-order",
        "differing": [{"field": "x", "row": 0, "null": "original"},
                      {"field": "x", "row": 1, "null": "reproduced"}],
    },
    "row_count_lists": {
        "blind_spot": "row-count",
        "text": "8 null lists against one empty list (its item count, eight 0 bytes)",
        "types": {"l": "list<int64>"},
        "original": {"l": [None] * 8},
        "reproduced": {"l": [[]]},
        "records": "different",
        "differing": [{"field": "l", "row": 0, "null": "original"}],
    },
    "list_items": {
        "blind_spot": "values",
        "text": "a null item and a 0 item swapped inside a list: the same item count, the same "
                "bytes",
        "types": {"l": "list<int64>"},
        "original": {"l": [[None, 0]]},
        "reproduced": {"l": [[0, None]]},
        "records": "different",
        "differing": [{"field": "l", "row": 0, "null": None}],
    },
    "member_null_as_zero": {
        "blind_spot": "values",
        "text": "a null member of a valid struct, when the struct has nulls too, is hashed as "
                "the value under it (0): the same hash as a member holding 0",
        "types": {"s": "struct<a: int64>"},
        "original": {"s": [None, {"a": None}, {"a": 1}]},
        "reproduced": {"s": [None, {"a": 0}, {"a": 1}]},
        "records": "different",
        "differing": [{"field": "s", "row": 1, "null": None}],
    },
}

# Which writers write which shapes (each writer's own encoding: pyarrow writes every shape,
# polars and DuckDB those their types can hold).
WRITERS = {
    "pyarrow": list(SHAPES),
    "polars": ["struct_null", "row_count", "null_shift", "list_items", "member_null_as_zero"],
    "duckdb": ["struct_null", "row_count", "row_count_strings", "row_count_lists", "null_order",
               "list_items"],
}


# Runs of files read as one table (compare() of two tables of several files: a dataset's slices split at other
# boundaries on each side): the pyarrow files of two shapes, one after the other. Their
# tables are also written whole, one file a side, for the reference to hash (arrow0 of an
# int64 column does not depend on how the rows are split into files or batches).
RUNS = {
    "row_count_run": {
        "blind_spot": "row-count",
        "text": "8 nulls then [null, 0] against [0] then [0, null]: 10 rows against 3",
        "parts": ["row_count", "null_order"],
        "records": "different",
        "differing": [{"field": "x", "row": 0, "null": "original"},
                      {"field": "x", "row": 1, "null": "original"}],
    },
}


def arrow_type(pa, text):
    return {"int64": pa.int64(), "utf8": pa.string(), "list<int64>": pa.list_(pa.int64()),
            "struct<a: int64>": pa.struct([("a", pa.int64())])}[text]


def write_pyarrow(shape, side, path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    t = pa.table({name: pa.array(v, arrow_type(pa, shape["types"][name]))
                  for name, v in shape[side].items()})
    pq.write_table(t, path)


def write_polars(shape, side, path):
    import polars as pl

    types = {"int64": pl.Int64, "utf8": pl.String, "list<int64>": pl.List(pl.Int64),
             "struct<a: int64>": pl.Struct({"a": pl.Int64})}
    df = pl.DataFrame({name: pl.Series(name, v, dtype=types[shape["types"][name]])
                       for name, v in shape[side].items()})
    df.write_parquet(path)


def duckdb_value(v, type_text):
    sql_type = {"int64": "BIGINT", "utf8": "VARCHAR", "list<int64>": "BIGINT[]",
                "struct<a: int64>": "STRUCT(a BIGINT)"}[type_text]
    if v is None:
        return "NULL::" + sql_type
    if isinstance(v, list):
        return "[" + ", ".join("NULL" if x is None else str(x) for x in v) + "]::" + sql_type
    if isinstance(v, dict):
        a = v["a"]
        return "{'a': " + ("NULL::BIGINT" if a is None else f"{a}::BIGINT") + "}"
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return f"{v}::BIGINT"


def write_duckdb(shape, side, path):
    import duckdb

    cols = shape[side]
    names = list(cols)
    n = len(cols[names[0]])
    rows = ", ".join(
        "(" + ", ".join(duckdb_value(cols[c][i], shape["types"][c]) for c in names) + ")"
        for i in range(n))
    con = duckdb.connect()
    try:
        select = ", ".join(f'"{c}"' for c in names)
        con.execute(f"COPY (SELECT {select} FROM (VALUES {rows}) v({select})) TO '{path}' "
                    "(FORMAT parquet)")
    finally:
        con.close()


def write_runs():
    """The RUNS: their files (the pyarrow pairs' files) and their tables written whole."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = []
    for name, run in RUNS.items():
        entry = {"name": name, "shape": name, "writer": "pyarrow",
                 "blind_spot": run["blind_spot"], "description": run["text"],
                 "records": run["records"], "differing": run["differing"]}
        for side in ("original", "reproduced"):
            files = [f"data/blind_spots/{part}_pyarrow_{side}.parquet" for part in run["parts"]]
            table = pa.concat_tables([pq.read_table(os.path.join(HERE, f)) for f in files])
            whole = f"data/blind_spots/{name}_{side}_whole.parquet"
            pq.write_table(table, os.path.join(HERE, whole))
            entry[side + "_files"] = files
            entry[side] = whole
        entry["rows"] = [pq.read_metadata(os.path.join(HERE, entry[s])).num_rows
                         for s in ("original", "reproduced")]
        out.append(entry)
    return out


def reference_hashes(tool, files):
    p = subprocess.run([tool, "hash", *files], capture_output=True, text=True, timeout=600,
                       check=True)
    out = {}
    for line in p.stdout.splitlines():
        r = json.loads(line)
        out[r["path"]] = (r.get("logical"), r.get("rows"), r.get("error"))
    return out


def write(tool):
    os.makedirs(DATA, exist_ok=True)
    writers = {"pyarrow": write_pyarrow, "polars": write_polars, "duckdb": write_duckdb}
    pairs = []
    for writer, names in WRITERS.items():
        for name in names:
            shape = SHAPES[name]
            files = {}
            for side in ("original", "reproduced"):
                rel = f"data/blind_spots/{name}_{writer}_{side}.parquet"
                writers[writer](shape, side, os.path.join(HERE, rel))
                files[side] = rel
            pairs.append({"name": f"{name}_{writer}", "shape": name, "writer": writer,
                          "blind_spot": shape["blind_spot"], "description": shape["text"],
                          "original": files["original"], "reproduced": files["reproduced"],
                          "rows": [len(next(iter(shape[s].values())))
                                   for s in ("original", "reproduced")],
                          "records": shape["records"], "differing": shape["differing"]})
    pairs += write_runs()
    ref = reference_hashes(tool, [os.path.join(HERE, p[s]) for p in pairs
                                  for s in ("original", "reproduced")])
    for p in pairs:
        hashes = [ref[os.path.join(HERE, p[s])] for s in ("original", "reproduced")]
        for (logical, rows, err), want in zip(hashes, p["rows"]):
            if err or rows != want:
                sys.exit(f"{p['name']}: the reference says {err or rows} (want {want} rows)")
        if hashes[0][0] != hashes[1][0]:
            sys.exit(f"{p['name']}: the reference hashes differ: not a blind spot "
                     f"({hashes[0][0]} vs {hashes[1][0]})")
        p["reference_logical"] = hashes[0][0]
    with open(MANIFEST, "w") as f:
        json.dump({"reference": "odf-hash-conformance hash (arrow-digest 60.0.0, arrow-rs 60)",
                   "generator": "tests/conformance/blind_spots.py", "pairs": pairs}, f, indent=1)
        f.write("\n")
    print(f"{len(pairs)} pairs written, each confirmed by the reference")


def check(tool):
    with open(MANIFEST) as f:
        pairs = json.load(f)["pairs"]
    ref = reference_hashes(tool, [os.path.join(HERE, p[s]) for p in pairs
                                  for s in ("original", "reproduced")])
    failures = []
    for p in pairs:
        for s, rows in zip(("original", "reproduced"), p["rows"]):
            logical, got_rows, err = ref[os.path.join(HERE, p[s])]
            if err or logical != p["reference_logical"] or got_rows != rows:
                failures.append(f"{p['name']} {s}: reference {err or logical} ({got_rows} rows), "
                                f"recorded {p['reference_logical']} ({rows} rows)")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{len(pairs) - len({x.split()[0] for x in failures})} of {len(pairs)} pairs: "
          "the reference gives both files the recorded hash")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True, help="the reference tool (odf-hash-conformance)")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if args.write:
        write(args.tool)
        return 0
    return check(args.tool)


if __name__ == "__main__":
    sys.exit(main())
