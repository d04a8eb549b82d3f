"""The odf_hash Python API beyond logical hashes of tables: single columns, physical hashes,
multihashes, slices, comparisons, dataset verification, the bundled CLI. Expected values come
from hashlib, the reference's vectors and the ODF spec's known hash."""
import hashlib
import io
import json
import pickle
import shutil
import subprocess
import sys
import threading

import pyarrow as pa
import pyarrow.ipc
import pytest

import odf_hash
from odf_hash import Multihash

from conftest import CONFORMANCE, load_vectors

KNOWN = "f162008c3792b2a4deed1bd7ea2328fb5de5531eccf0fbfa04a7d800cdc267137c635"
KNOWN_Z = "zW1a3CNT52HXiJNniLkWMeev3CPRy9QiNRMWGyTrVNg4hY8"


def sha3_multihash(data: bytes) -> str:
    return "f1620" + hashlib.sha3_256(data).hexdigest()


def vector(file):
    return next(v for v in load_vectors() if v["file"] == file)


def ipc_table(file):
    with pa.ipc.open_file(CONFORMANCE / file) as f:
        return f.read_all()


# ---- Multihash -----------------------------------------------------------------------------

def test_multihash_parse_format():
    h = Multihash.parse(KNOWN_Z)
    assert str(h) == KNOWN and h.to_string() == KNOWN
    assert h.to_string("base58btc") == KNOWN_Z and h.to_string("z") == KNOWN_Z
    assert h == Multihash.parse(KNOWN) and hash(h) == hash(Multihash.parse(KNOWN))
    assert h.short == KNOWN[-8:]
    assert h.codec == "sha3-256" and h.code == 0x16
    assert h.digest == hashlib.sha3_256(b"multihash").digest()
    assert Multihash.from_bytes(h.to_bytes()) == h
    assert pickle.loads(pickle.dumps(h)) == h
    assert h == KNOWN and h == KNOWN_Z  # a str is parsed (test_first_hour.py)
    assert h != KNOWN[:-1] and h != "nonsense"
    assert repr(h) == f"Multihash('{KNOWN}')"
    assert len({h, Multihash.parse(KNOWN), Multihash.parse(KNOWN.upper().replace("F", "F", 1))}) == 1


@pytest.mark.parametrize("bad", ["", "f", "f16", "q1234", "f1620" + "00" * 31, "zzzz0OIl"])
def test_multihash_invalid(bad):
    with pytest.raises(odf_hash.InvalidInputError) as e:
        Multihash.parse(bad)
    assert isinstance(e.value, ValueError) and isinstance(e.value, odf_hash.Error)
    assert str(e.value)


def test_multihash_unknown_base():
    with pytest.raises(odf_hash.InvalidInputError, match="unknown multibase 'base99'"):
        Multihash.parse(KNOWN).to_string("base99")


# ---- physical ------------------------------------------------------------------------------

def test_physical_sources(tmp_path):
    data = bytes(range(256)) * 5000 + b"tail"
    p = tmp_path / "f.bin"
    p.write_bytes(data)
    want = sha3_multihash(data)
    assert odf_hash.physical(str(p)) == want
    assert odf_hash.physical(p) == want  # os.PathLike
    assert odf_hash.physical(data) == want
    assert odf_hash.physical(bytearray(data)) == want
    assert odf_hash.physical(memoryview(data)[0:len(data)]) == want
    with open(p, "rb") as f:
        assert odf_hash.physical(f) == want
    assert odf_hash.physical(io.BytesIO(data)) == want
    assert odf_hash.physical(b"multihash") == KNOWN
    assert odf_hash.physical(b"") == sha3_multihash(b"")


def test_physical_errors(tmp_path):
    with pytest.raises(odf_hash.NotFoundError, match="nope"):
        odf_hash.physical(tmp_path / "nope")
    with pytest.raises(odf_hash.IoError, match="directory"):
        odf_hash.physical(tmp_path)
    with pytest.raises(odf_hash.InvalidInputError, match="text mode"):
        odf_hash.physical(io.StringIO("abc"))
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.physical(42)
    assert issubclass(odf_hash.NotFoundError, FileNotFoundError)


# ---- logical: shapes -----------------------------------------------------------------------

def test_columns_and_single_columns():
    v = vector("data/gen/mixed_1.arrow")
    table = ipc_table(v["file"])
    d = odf_hash.logical(table, columns=True)
    assert isinstance(d, odf_hash.LogicalDigest) and str(d) == d.hash == v["logical"]
    assert d.num_rows == v["rows"] == table.num_rows
    assert [c.path for c in d.columns] == table.column_names
    for c in d.columns:
        col = table.column(c.path)
        # A column alone hashes to its digest inside the table: as a ChunkedArray (a stream
        # of arrays), as one Array, and as a polars Series.
        single = odf_hash.logical(col, columns=True)
        assert single.columns[0].digest == c.digest and single.num_rows == table.num_rows
        assert single.hash == "f9680c00120" + c.digest.hex()
        assert odf_hash.logical(col.combine_chunks()) == single.hash
        import polars as pl

        series = pl.from_arrow(col)
        if pa.types.is_large_binary(col.type) or pa.types.is_integer(col.type):
            assert odf_hash.logical(series) == single.hash


def test_reference_unit_vectors(unit_vectors):
    # The hand-made records of tests/unit/logical/reference_vectors_test.cpp, rebuilt with
    # pyarrow: digests printed by the reference.
    prefix = "f9680c00120"
    assert odf_hash.logical(pa.array([1, -1, 1099511627776], pa.int64())) == prefix + unit_vectors["int64"]
    strs = ["foo", None, "", "a string longer than twelve", "x" * 1000]
    for name, t in [("utf8", pa.string()), ("large_utf8", pa.large_string()),
                    ("utf8_view", pa.string_view())]:
        assert odf_hash.logical(pa.array(strs, t)) == prefix + unit_vectors[name], name
    l = [[1, 2, 3], None, [], [4, None, 5]]
    assert odf_hash.logical(pa.array(l, pa.list_(pa.int32()))) == prefix + unit_vectors["list_int32"]
    b1 = pa.record_batch([pa.array([1, 2, 3], pa.int32()), pa.array(["x", "y", "z"])], names=["a", "b"])
    b2 = pa.record_batch([pa.array([4, None], pa.int32()), pa.array([None, "w"])], names=["a", "b"])
    assert odf_hash.logical(b1) == prefix + unit_vectors["rec_mixed"]
    assert odf_hash.logical(pa.Table.from_batches([b1, b2])) == prefix + unit_vectors["rec_two_batches"]
    assert odf_hash.logical(b1.slice(0, 0)) == prefix + unit_vectors["rec_empty"]


def test_nanoarrow_and_pandas(unit_vectors):
    import nanoarrow as na
    import pandas as pd

    prefix = "f9680c00120"
    assert odf_hash.logical(na.c_array([1, -1, 1099511627776], na.int64())) == prefix + unit_vectors["int64"]
    b1 = pa.record_batch([pa.array([1, 2, 3], pa.int32()), pa.array(["x", "y", "z"])], names=["a", "b"])
    assert odf_hash.logical(na.c_array_stream(b1)) == prefix + unit_vectors["rec_mixed"]
    df = pd.DataFrame({"a": pd.array([1, 2, 3], dtype="int32"), "b": ["x", "y", "z"]})
    assert odf_hash.logical(pa.Table.from_pandas(df, preserve_index=False)) == prefix + unit_vectors["rec_mixed"]
    if hasattr(df, "__arrow_c_stream__"):
        assert odf_hash.logical(df.reset_index(drop=True)) in (
            prefix + unit_vectors["rec_mixed"],
            # pandas exports its index as a column unless it is a default range index
            odf_hash.logical(pa.Table.from_pandas(df)),
        )


def test_threads_give_identical_results():
    table = ipc_table("data/gen/strings_0.arrow")
    want = odf_hash.logical(table, threads=1)
    assert all(odf_hash.logical(table, threads=n) == want for n in (1, 2, 3, 8))
    assert odf_hash.logical(table) == want
    results = [None] * 8

    def work(i):
        results[i] = odf_hash.logical(table, threads=1 + i % 2)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [want] * 8


# ---- files: slice, compare -----------------------------------------------------------------

def test_slice():
    v = vector("data/gen/strings_1.parquet")
    path = CONFORMANCE / v["file"]
    s = odf_hash.slice(path, offset=100)
    assert s == {
        "logicalHash": v["logical"],
        "physicalHash": sha3_multihash(path.read_bytes()),
        "offsetInterval": {"start": 100, "end": 100 + v["rows"] - 1},
        "size": path.stat().st_size,
    }
    empty = next(x for x in load_vectors() if x["rows"] == 0 and x["file"].endswith(".parquet"))
    with pytest.raises(odf_hash.InvalidInputError, match="holds no records"):
        odf_hash.slice(CONFORMANCE / empty["file"])


def test_compare(tmp_path):
    a = CONFORMANCE / "data/gen/strings_1.arrow"
    b = CONFORMANCE / "data/gen/strings_1.arrows"
    assert vector("data/gen/strings_1.arrow")["logical"] == vector("data/gen/strings_1.arrows")["logical"]
    same = odf_hash.compare(a, a)
    assert same.verdict == "identical" and same and same.original["logical"] is None
    eq = odf_hash.compare(a, b)
    assert eq.verdict == "equivalent" and eq.same_records
    assert eq.original["logical"] == eq.reproduced["logical"] == vector("data/gen/strings_1.arrow")["logical"]
    diff = odf_hash.compare(a, CONFORMANCE / "data/gen/strings_0.arrow")
    assert diff.verdict == "different" and not diff
    assert diff.differing_columns


# ---- verify --------------------------------------------------------------------------------

def cli_json(*args):
    p = subprocess.run([sys.executable, "-m", "odf_hash", *args], capture_output=True, text=True,
                       timeout=120)
    return p.returncode, json.loads(p.stdout)


def test_verify_valid(root):
    ds = root / "examples" / "datasets" / "root"
    r = odf_hash.verify(ds)
    assert r.ok and bool(r) and list(r) == [] and r.kind == "root" and r.chain_complete
    assert r.head == (ds / "refs" / "head").read_text().strip()
    assert {f.outcome for f in r.files} == {"physical-match"}
    rc, out = cli_json("verify", "--json", str(ds))
    assert rc == 0 and out["datasets"][0] == r.to_dict()


def test_verify_broken(root, tmp_path):
    ds = tmp_path / "root"
    shutil.copytree(root / "examples" / "datasets" / "root", ds)
    data = sorted((ds / "data").iterdir())[0]
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 2] ^= 1
    data.write_bytes(bytes(raw))
    (ds / "data" / "stray.txt").write_text("not part of the dataset")
    r = odf_hash.verify(ds, jobs=2)
    assert not r.ok
    kinds = [(p.kind, p.file) for p in r]
    assert (odf_hash.ProblemKind.PHYSICAL_HASH_MISMATCH, f"data/{data.name}") in kinds
    mismatch = next(p for p in r if p.kind is odf_hash.ProblemKind.PHYSICAL_HASH_MISMATCH)
    assert mismatch.actual == sha3_multihash(bytes(raw))
    assert mismatch.expected == data.name and mismatch.block.startswith("f1620")
    assert isinstance(mismatch.sequence_number, int)
    rc, out = cli_json("verify", "--json", str(ds))
    assert rc == 1 and out["datasets"][0] == r.to_dict()
    assert [p["kind"] for p in r.to_dict()["problems"]] == [p.kind.value for p in r]
    # The stray file is listed, not a problem; strict=True makes it one (as --strict).
    stray = odf_hash.Unreferenced("data/stray.txt", "file", len("not part of the dataset"))
    assert r.unreferenced == [stray] and r.unreferenced_bytes == stray.size and not r.strict
    assert odf_hash.ProblemKind.UNEXPECTED_FILE not in [p.kind for p in r]
    s = odf_hash.verify(ds, strict=True)
    assert s.strict and s.unreferenced == [stray]
    assert [(p.kind, p.file) for p in s][-1] == (odf_hash.ProblemKind.UNEXPECTED_FILE,
                                                 "data/stray.txt")
    rc, out = cli_json("verify", "--json", "--strict", str(ds))
    assert rc == 1 and out["datasets"][0] == s.to_dict()
    planned = odf_hash.plan(ds, strict=True)
    assert planned.strict and planned.unreferenced == [stray]
    assert odf_hash.merge(planned, [odf_hash.check(t) for t in planned]) == s
    # A data file under the upper-case spelling of its hash is missing; the task names the
    # other file, so the split report says so too.
    other = sorted((ds / "data").iterdir())[1]
    upper = other.with_name("F" + other.name[1:].upper())
    other.rename(upper)
    r = odf_hash.verify(ds)
    missing = [p for p in r if p.kind is odf_hash.ProblemKind.FILE_MISSING]
    assert [p.file for p in missing] == [f"data/{other.name}"]
    assert f"data/{upper.name} holds the same hash under another spelling" in missing[0].message
    planned = odf_hash.plan(ds)
    assert [t.misnamed for t in planned if t.known_missing] == [f"data/{upper.name}"]
    tasks = [odf_hash.Task.from_json(t.to_json()) for t in planned]
    assert odf_hash.merge(planned, [odf_hash.check(t) for t in tasks]) == r


def test_verify_workspace(root, tmp_path):
    """A folder laid out as kamu lays out a workspace: .kamu/datasets/<id>/ with info/alias."""
    datasets = tmp_path / "ws" / ".kamu" / "datasets"
    shutil.copytree(root / "examples" / "datasets" / "root", datasets / "fed01aa")
    (datasets / "fed01aa" / "info").mkdir()
    (datasets / "fed01aa" / "info" / "alias").write_text("acme/root")
    shutil.copytree(root / "examples" / "datasets" / "derivative", datasets / "fed01bb")
    (datasets / "fed01bb" / "data" / "old").write_bytes(b"12345")
    with pytest.raises(odf_hash.NotFoundError, match="it is a kamu workspace.*verify_workspace"):
        odf_hash.verify(tmp_path / "ws")
    reports = odf_hash.verify_workspace(tmp_path / "ws")
    assert list(reports) == ["acme/root", "fed01bb"]  # no info/alias: the folder's name
    assert all(r.ok for r in reports.values())
    assert reports["fed01bb"].unreferenced == [odf_hash.Unreferenced("data/old", "file", 5)]
    assert reports["acme/root"] == odf_hash.verify(datasets / "fed01aa")
    assert list(odf_hash.verify_workspace(datasets, datasets=["acme/root"])) == ["acme/root"]
    strict = odf_hash.verify_workspace(tmp_path / "ws", datasets="fed01bb", strict=True)
    assert not strict["fed01bb"].ok
    with pytest.raises(odf_hash.NotFoundError, match='no dataset aliased "nope"'):
        odf_hash.verify_workspace(tmp_path / "ws", datasets=["nope"])
    with pytest.raises(odf_hash.NotFoundError, match="not a kamu workspace"):
        odf_hash.verify_workspace(datasets / "fed01aa")
    with pytest.raises(odf_hash.NotFoundError, match="blocks/ folder of a dataset"):
        odf_hash.verify(datasets / "fed01aa" / "blocks")


def test_verify_missing(tmp_path):
    with pytest.raises(odf_hash.NotFoundError):
        odf_hash.verify(tmp_path / "nope")


def test_problem_kinds_are_the_cli_names():
    names = [k.value for k in odf_hash.ProblemKind]
    assert "physical-hash-mismatch" in names and "unexpected-file" in names
    assert odf_hash.ProblemKind("size-mismatch") is odf_hash.ProblemKind.SIZE_MISMATCH


# ---- the bundled CLI -----------------------------------------------------------------------

def test_python_m_odf_hash(tmp_path):
    (tmp_path / "m").write_bytes(b"multihash")
    p = subprocess.run([sys.executable, "-m", "odf_hash", "physical", str(tmp_path / "m")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout == f"{KNOWN}  {tmp_path / 'm'}\n"
    p = subprocess.run([sys.executable, "-m", "odf_hash", "--version"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0 and odf_hash.__version__ in p.stdout
    p = subprocess.run([sys.executable, "-m", "odf_hash", "physical", str(tmp_path / "nope")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "nope" in p.stderr


def test_help_reads_well():
    for f in (odf_hash.logical, odf_hash.logical_file, odf_hash.physical, odf_hash.slice,
              odf_hash.compare, odf_hash.verify, odf_hash.verify_workspace,
              odf_hash.open_records):
        assert f.__doc__ and len(f.__doc__) > 80, f.__name__
    assert "multibase" in odf_hash.Multihash.__doc__


def test_problem_values_are_numbers_with_a_unit(root, tmp_path):
    """Sizes are ints with their unit, in Problem, its to_dict and the CLI's --json alike (one
    vocabulary); hashes stay str."""
    ds = tmp_path / "root"
    shutil.copytree(root / "examples" / "datasets" / "root", ds)
    data = sorted((ds / "data").iterdir())[0]
    size = data.stat().st_size
    with open(data, "ab") as f:
        f.write(b"xyz")
    r = odf_hash.verify(ds)
    (p,) = list(r)
    assert p.kind is odf_hash.ProblemKind.SIZE_MISMATCH
    assert (p.expected, p.actual, p.unit) == (size, size + 3, "bytes")
    assert type(p.expected) is int and type(p.actual) is int
    assert p.to_dict()["expected"] == size and p.to_dict()["unit"] == "bytes"
    rc, out = cli_json("verify", "--json", str(ds))
    assert rc == 1 and out["schema"] == "odf-hash/verify/2"
    assert out["datasets"][0]["problems"] == [p.to_dict()]
