"""Bad input of every kind is a Python exception with a clear message: never a crash, a hang
or a hash. (The C ABI test runs the same library under LeakSanitizer.)"""
import gc
import pathlib

from conftest import CONFORMANCE

import pyarrow as pa
import pytest

import odf_hash


def test_not_arrow():
    for obj in ([1, 2, 3], {"a": [1]}, None, object()):  # a str: test_first_hour.py
        with pytest.raises(odf_hash.UnsupportedTypeError, match="is not Arrow data") as e:
            odf_hash.logical(obj)
        assert isinstance(e.value, TypeError)


def test_unsupported_type_names_the_column():
    t = pa.table({"ok": [1, 2], "m": pa.array([[("k", 1)], []], pa.map_(pa.string(), pa.int64()))})
    with pytest.raises(odf_hash.UnsupportedTypeError, match="column 'm'") as e:
        odf_hash.logical(t)
    assert "map" in str(e.value).lower()
    dur = pa.table({"d": pa.array([1, 2], pa.duration("s"))})
    with pytest.raises(odf_hash.UnsupportedTypeError, match="column 'd'"):
        odf_hash.logical(dur)
    st = pa.table({"l": pa.array([[{"x": 1}]], pa.list_(pa.struct([("x", pa.int64())])))})
    with pytest.raises(odf_hash.UnsupportedTypeError, match="l"):
        odf_hash.logical(st)


def failing_reader(fail_after, exc=ValueError("the source went away")):
    schema = pa.schema([("a", pa.int64()), ("s", pa.string())])

    def batches():
        for i in range(10):
            if i == fail_after:
                raise exc
            yield pa.record_batch([pa.array([i, i + 1]), pa.array(["x", None])], schema=schema)

    return pa.RecordBatchReader.from_batches(schema, batches())


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("fail_after", [0, 1, 5])
def test_stream_failing_midway(threads, fail_after):
    with pytest.raises(odf_hash.IoError, match="the source went away") as e:
        odf_hash.logical(failing_reader(fail_after), threads=threads)
    assert "next record batch" in str(e.value)


def test_consumed_and_closed_readers(vectors):
    t = pa.table({"a": [1, 2, 3]})
    reader = pa.RecordBatchReader.from_batches(t.schema, t.to_batches())
    capsule = reader.__arrow_c_stream__()
    odf_hash._odf_hash.logical_stream_capsule(capsule, 1)
    # A released (consumed) C stream is an error, never the hash of nothing.
    with pytest.raises(odf_hash.InvalidInputError, match="already consumed"):
        odf_hash._odf_hash.logical_stream_capsule(capsule, 1)
    path = CONFORMANCE / "data/gen/ints_0.arrow"
    stream = odf_hash.open_records(path)
    odf_hash.logical(stream)
    with pytest.raises(odf_hash.InvalidInputError, match="already consumed"):
        odf_hash.logical(stream)
    # pyarrow 26's close() does not stop a reader from delivering its batches through the C
    # stream interface: the hash is then that of every batch, the reference's.
    v = next(x for x in vectors if x["file"] == "data/gen/ints_1.arrows")
    r = pa.ipc.open_stream(CONFORMANCE / v["file"])
    r.close()
    assert odf_hash.logical(r) == v["logical"]


def test_wrong_capsules():
    import pyarrow as pa

    arr = pa.array([1, 2])
    schema_capsule, array_capsule = arr.__arrow_c_array__()
    with pytest.raises(ValueError):
        odf_hash._odf_hash.logical_stream_capsule(schema_capsule, 1)
    with pytest.raises(ValueError):
        odf_hash._odf_hash.logical_array_capsules(array_capsule, schema_capsule, 1)


def test_bad_files(tmp_path):
    (tmp_path / "garbage.parquet").write_bytes(b"PAR1" + b"\x00" * 100 + b"PAR1")
    # Arrow reports an unreadable footer as an I/O error (pyarrow raises OSError too).
    with pytest.raises(odf_hash.Error) as e:
        odf_hash.logical_file(tmp_path / "garbage.parquet")
    assert "garbage.parquet" in str(e.value)
    (tmp_path / "empty").write_bytes(b"")
    with pytest.raises(odf_hash.Error, match="empty"):
        odf_hash.logical_file(tmp_path / "empty")
    with pytest.raises(odf_hash.NotFoundError, match="missing.parquet"):
        odf_hash.logical_file(tmp_path / "missing.parquet")
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.logical_file(12)


def test_bad_options():
    t = pa.table({"a": [1]})
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(odf_hash.InvalidInputError, match="threads"):
            odf_hash.logical(t, threads=bad)
    with pytest.raises(odf_hash.InvalidInputError, match="offset"):
        odf_hash.slice("x", offset=-1)


def test_no_leak_of_python_objects():
    # Capsules and arrays are released on every path: hashing many failing and succeeding
    # streams leaves no growing set of Arrow objects behind (pyarrow counts its allocations).
    t = pa.table({"a": list(range(1000)), "s": ["v"] * 1000})
    gc.collect()
    before = pa.total_allocated_bytes()
    for i in range(200):
        odf_hash.logical(t.to_reader(max_chunksize=100))
        with pytest.raises(odf_hash.IoError):
            odf_hash.logical(failing_reader(i % 5))
    gc.collect()
    assert pa.total_allocated_bytes() <= before


def test_nul_in_a_path_is_refused_everywhere(tmp_path):
    """'/etc/passwd\\x00.txt' used to hash /etc/passwd: the C++ side read the name up to the
    NUL. Every function taking a path or URL refuses it, and so does a task's JSON."""
    from datasets import EXAMPLES
    good = next((EXAMPLES / "root" / "data").iterdir())
    bad = str(good) + "\x00.txt"
    for call in (lambda: odf_hash.physical(bad), lambda: odf_hash.logical_file(bad),
                 lambda: odf_hash.slice(bad), lambda: odf_hash.compare(bad, str(good)),
                 lambda: odf_hash.verify(str(EXAMPLES / "root") + "\x00x"),
                 lambda: odf_hash.plan(str(EXAMPLES / "root") + "\x00x"),
                 lambda: odf_hash.physical("http://127.0.0.1:9/x\x00y")):
        with pytest.raises(odf_hash.InvalidInputError, match="NUL byte"):
            call()
    task = odf_hash.plan(EXAMPLES / "root")[0]
    d = task.to_json()
    import json
    j = json.loads(d)
    j["dataset"] = j["dataset"] + "\x00/../etc"
    with pytest.raises(odf_hash.InvalidInputError, match="NUL byte"):
        odf_hash.Task.from_json(json.dumps(j))


def test_huge_jobs_and_threads_are_capped_not_crashing():
    """verify(ds, jobs=50000) aborted when the kernel refused a thread; 2**32 and more raised
    nanobind's "incompatible function arguments". Jobs are bounded by the library (256)."""
    from datasets import EXAMPLES
    ref = odf_hash.verify(EXAMPLES / "root", jobs=1)
    for jobs in (50_000, 2**32, 2**70):
        assert odf_hash.verify(EXAMPLES / "root", jobs=jobs) == ref
    data = next((EXAMPLES / "root" / "data").iterdir())
    one = odf_hash.logical_file(data, threads=1)
    for threads in (2**32, 2**64 + 1):
        assert odf_hash.logical_file(data, threads=threads) == one
    for bad in (0, -1, True, 1.5, "2"):
        with pytest.raises(odf_hash.InvalidInputError, match="jobs must be"):
            odf_hash.verify(EXAMPLES / "root", jobs=bad)
    for offset in (2**64, -1):
        with pytest.raises(odf_hash.InvalidInputError, match="offset must be"):
            odf_hash.slice(data, offset=offset)


def test_names_that_are_not_utf8_are_reported_not_raised(tmp_path):
    """A file name that is not UTF-8 in a dataset made verify() (and the Dask/Ray adapters)
    raise UnicodeDecodeError; a str path with surrogates (os.fsdecode of such a name), or
    bytes, raised nanobind's "incompatible function arguments". Names cross as os.fsdecode /
    os.fsencode do, so they round-trip."""
    import os
    import shutil
    from datasets import EXAMPLES
    base = os.fsencode(str(tmp_path))
    ds_bytes = base + b"/ds-\xff\xfe"
    shutil.copytree(EXAMPLES / "root", os.fsdecode(ds_bytes))
    stray = ds_bytes + b"/data/stray-\xe9\xff"
    with open(stray, "wb") as f:
        f.write(b"x")
    expected = odf_hash.verify(EXAMPLES / "root")
    for path in (ds_bytes, os.fsdecode(ds_bytes), pathlib.Path(os.fsdecode(ds_bytes))):
        report = odf_hash.verify(path)
        assert report.ok and len(report.files) == len(expected.files), report
        strict = odf_hash.verify(path, strict=True)
        assert not strict.ok
        [p] = [p for p in strict.problems if "stray" in p.file]
        assert os.fsencode(p.file) == b"data/stray-\xe9\xff", p.file
        # Tasks are JSON (text): a dataset location that is not UTF-8 is refused clearly
        # by plan() (and so by the Dask / Ray adapters), never sent as another name.
        with pytest.raises(odf_hash.InvalidInputError, match="is not UTF-8"):
            odf_hash.plan(path)
    # A UTF-8 folder holding a name that is not: split verification reports it too.
    utf8 = tmp_path / "plain"
    shutil.copytree(os.fsdecode(ds_bytes), utf8)
    plan = odf_hash.plan(utf8, strict=True)
    merged = odf_hash.merge(plan, [odf_hash.check(t) for t in plan])
    direct = odf_hash.verify(utf8, strict=True)
    # The same report; through JSON (text) the name's undecodable bytes become U+FFFD.
    assert merged.to_dict() == direct.to_dict()
    assert [p.kind for p in merged.problems] == [p.kind for p in direct.problems]
    assert [p.file for p in merged.problems] == ["data/stray-\ufffd\ufffd"]
    data = next(iter(sorted(os.listdir(ds_bytes + b"/data"))))
    named = ds_bytes + b"/data/" + data
    # (physical() takes bytes as the content to hash: the path as str or os.PathLike here.)
    for path in (os.fsdecode(named), pathlib.Path(os.fsdecode(named))):
        assert odf_hash.physical(path) == odf_hash.physical(EXAMPLES / "root" / "data" /
                                                            os.fsdecode(data))
    with pytest.raises(odf_hash.NotFoundError) as e:
        odf_hash.logical_file(base + b"/missing-\xff")
    assert "\\xff" in str(e.value)  # the message shows the byte, escaped
