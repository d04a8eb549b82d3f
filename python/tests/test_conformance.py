"""Every committed conformance vector the reference hashed (tests/conformance/vectors.json),
hashed from Python: the records come from pyarrow, then go through polars and DuckDB, which
re-encode them (string views, large offsets, other chunking). Same records and logical types,
same hash: the expected value is always the reference's digest from the vector file.

A producer that changes a logical type (polars stores times as nanoseconds, DuckDB has no
float16...) holds other records, whose hash must differ; those cases are counted and listed,
and the test requires that most vectors are checked through each producer."""
import collections
import json
import os
import pathlib
import subprocess
import sys

import pyarrow as pa
import pyarrow.ipc
import pytest

import odf_hash

from conftest import CONFORMANCE, ROOT, known_failures, load_vectors

REFERENCE_TOOL = ROOT / "conformance" / "target" / "release" / "odf-hash-conformance"
VECTORS = [v for v in load_vectors() if v.get("logical") and v["file"] not in known_failures()]


def vector_id(v):
    return v["file"].replace("data/", "")


def read_records(v) -> pa.Table:
    """The vector's records with the Arrow types the reference hashed: IPC files through
    pyarrow's own IPC reader (their schema is explicit), Parquet files through odf_hash's
    arrow-rs-compatible reader (pyarrow maps some Parquet types differently)."""
    path = CONFORMANCE / v["file"]
    if v["format"] == "arrow-ipc-file":
        with pa.ipc.open_file(path) as f:
            return f.read_all()
    if v["format"] == "arrow-ipc-stream":
        with pa.ipc.open_stream(path) as f:
            return f.read_all()
    return pa.RecordBatchReader.from_stream(odf_hash.open_records(path)).read_all()


def hash_class(t: pa.DataType):
    """The part of a type the logical hash sees: encodings of one type hash alike."""
    if pa.types.is_dictionary(t):
        return hash_class(t.value_type)
    if pa.types.is_run_end_encoded(t):
        return hash_class(t.value_type)
    if (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)):
        return "utf8"
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t)
            or pa.types.is_fixed_size_binary(t)):
        return "binary"
    if (pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t)
            or pa.types.is_list_view(t) or pa.types.is_large_list_view(t)):
        return ("list", hash_class(t.value_type))
    if pa.types.is_struct(t):
        return ("struct", tuple((f.name, hash_class(f.type)) for f in t))
    return str(t)


def schema_class(schema: pa.Schema):
    return tuple((f.name, hash_class(f.type)) for f in schema)


def any_type(schema: pa.Schema, pred) -> bool:
    def walk(t):
        if pred(t):
            return True
        return any(walk(t.field(i).type) for i in range(t.num_fields))

    return any(walk(f.type) for f in schema)


def has_struct(schema: pa.Schema) -> bool:
    return any(pa.types.is_struct(f.type) for f in schema)


def batch_lengths(table: pa.Table):
    return [b.num_rows for b in table.to_batches()]


@pytest.mark.parametrize("v", VECTORS, ids=vector_id)
def test_pyarrow(v):
    table = read_records(v)
    assert odf_hash.logical(table) == v["logical"]
    # Streamed batch by batch through a reader, and on one thread: the same.
    assert odf_hash.logical(pa.RecordBatchReader.from_batches(table.schema, table.to_batches()),
                            threads=1) == v["logical"]
    # Every batch split the reference is split-invariant for (no struct with nulls at two
    # levels; docs/divergences.md section 1): one batch.
    if not has_struct(table.schema):
        assert odf_hash.logical(table.combine_chunks()) == v["logical"]


def test_open_records_equals_logical_file():
    for v in VECTORS:
        path = CONFORMANCE / v["file"]
        assert odf_hash.logical(odf_hash.open_records(path)) == v["logical"], v["file"]
        assert odf_hash.logical_file(path) == v["logical"], v["file"]


def through(producer, table):
    """(the producer's object holding the records, its records as it exports them), or
    (None, the reason it cannot hold them)."""
    try:
        if producer == "polars":
            import polars as pl

            obj = pl.from_arrow(table, rechunk=False)
            if isinstance(obj, pl.Series):
                obj = obj.to_frame()
            exported = pa.RecordBatchReader.from_stream(obj).read_all()
        else:
            import duckdb

            con = duckdb.connect()
            # One DuckDB thread: two runs of the query export the same batches (with its
            # parallel scan, batch boundaries can differ from run to run, and the reference's
            # hash of nested nullable structs depends on them).
            con.execute("SET threads = 1")
            con.register("t", table)
            obj = con.sql("select * from t")
            exported = pa.RecordBatchReader.from_stream(obj).read_all()
            obj = con.sql("select * from t")  # a fresh relation for the hash
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - a type the producer cannot hold (polars
        # reports some by a pyo3 panic, a BaseException)
        return None, f"{producer} cannot hold it ({type(e).__name__})"
    return obj, exported


def producer_results(producer, out_dir, files):
    """Runs in a child process (producers abort the process on some types: polars 2.1 on
    some decimals, a Rust panic it cannot unwind). Prints a "start" line before each vector
    and one JSON result after it; writes the records as the producer exported them to an IPC
    file in out_dir, for the reference to hash."""
    by_file = {v["file"]: v for v in VECTORS}
    for f in files:
        v = by_file[f]
        print(json.dumps({"start": f}), flush=True)
        table = read_records(v)
        obj, exported = through(producer, table)
        if obj is None:
            print(json.dumps({"file": f, "skip": exported}), flush=True)
            continue
        ipc = os.path.join(out_dir, producer + "_" + f.replace("/", "_") + ".arrow")
        with pa.ipc.new_file(ipc, exported.schema) as w:
            for b in exported.to_batches():
                w.write_batch(b)
        r = {"file": f, "hash": odf_hash.logical(obj), "exported": odf_hash.logical(exported),
             "ipc": ipc,
             "same_types": schema_class(exported.schema) == schema_class(table.schema),
             "same_batches": batch_lengths(exported) == batch_lengths(table),
             "has_struct": has_struct(table.schema)}
        print(json.dumps(r), flush=True)


def reference_hashes(files):
    """The reference tool's logical hash of each file (conformance/, arrow-digest)."""
    p = subprocess.run([str(REFERENCE_TOOL), "hash", *files], capture_output=True, text=True,
                       timeout=600, check=True)
    out = {}
    for line in p.stdout.splitlines():
        r = json.loads(line)
        out[r["path"]] = r.get("logical") or ("error: " + r.get("error", "?"))
    return out


@pytest.mark.parametrize("producer", ["polars", "duckdb"])
def test_other_producers(producer, tmp_path):
    """For every vector, the records go through the producer and come back in its own
    encoding (views, large offsets, chunking, the bytes it leaves under nulls). Two
    independent expectations:
    - the reference's hash of exactly what the producer exported (written to IPC);
    - where the producer kept the logical types, the vector's own reference hash, unless
      the table has structs and the producer cut other batches (the reference's hash of
      nested nullable structs depends on batch boundaries and on the values under null
      slots: docs/divergences.md section 1)."""
    if not REFERENCE_TOOL.exists():
        pytest.skip(f"the reference tool is not built ({REFERENCE_TOOL}); make test builds it")
    remaining = [v["file"] for v in VECTORS]
    results, crashed = {}, []
    while remaining:
        p = subprocess.run(
            [sys.executable, "-c", "import sys, test_conformance as t; "
             "t.producer_results(sys.argv[1], sys.argv[2], sys.argv[3:])", producer,
             str(tmp_path), *remaining],
            cwd=pathlib.Path(__file__).parent, capture_output=True, text=True, timeout=600,
            env={**os.environ, "RUST_BACKTRACE": "0"})
        started = None
        for line in p.stdout.splitlines():
            r = json.loads(line)
            if "start" in r:
                started = r["start"]
            else:
                results[r["file"]] = r
                started = None
        if p.returncode == 0:
            break
        assert started is not None, p.stderr[-2000:]
        crashed.append(started)
        results[started] = {"skip": f"{producer} aborts the process"}
        remaining = remaining[remaining.index(started) + 1:]
    hashed = [r for r in results.values() if "hash" in r]
    reference = reference_hashes([r["ipc"] for r in hashed])
    invariant = 0
    skipped = collections.Counter()
    for v in VECTORS:
        r = results[v["file"]]
        if "hash" not in r:
            skipped[r["skip"]] += 1
            continue
        assert r["hash"] == r["exported"] == reference[r["ipc"]], (producer, v["file"], r,
                                                                   reference[r["ipc"]])
        if not r["same_types"]:
            skipped["the producer changes a logical type"] += 1
            assert r["hash"] != v["logical"], (producer, v["file"])
        elif r["has_struct"] and (not r["same_batches"] or r["hash"] != v["logical"]):
            skipped["structs: other batches or other values under null slots"] += 1
        else:
            assert r["hash"] == v["logical"], (producer, v["file"])
            invariant += 1
    print(f"{producer}: {len(hashed)} of {len(VECTORS)} vectors hashed as the producer encodes "
          f"them, all equal to the reference's hash of the same arrays; {invariant} equal to the "
          f"vector's own hash; not compared with it: {dict(skipped)}; aborted on: {crashed}")
    assert len(hashed) >= len(VECTORS) * 2 // 3, (len(hashed), dict(skipped))
    assert invariant >= len(VECTORS) // 3, (invariant, dict(skipped))
