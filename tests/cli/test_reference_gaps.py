"""Hashes the reference cannot compute, said aloud (issue 25): a Dictionary or an all-null
(Null type) column hashes, but arrow-digest (and so kamu) panics on it (docs/divergences.md
section 5), so `logical` and `slice` warn, mark it in --json, and refuse it with
--require-reference-compatible."""
import json

import subprocess

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.fixture
def files(tmp_path):
    t = pa.table({
        "id": pa.array([1, 2, 3], pa.int64()),
        "cat": pa.array(["a", "b", "a"]).dictionary_encode(),  # as pandas writes a Categorical
        "nothing": pa.nulls(3),
    })
    pq.write_table(t, tmp_path / "gaps.parquet")
    pq.write_table(t.select(["id"]), tmp_path / "plain.parquet")
    with pa.ipc.new_file(tmp_path / "gaps.arrow", t.schema) as w:
        w.write_table(t)
    return tmp_path


def test_logical_warns_and_still_hashes(run, files):
    r = run("logical", "gaps.parquet", "plain.parquet", cwd=files)
    assert r.rc == 0
    assert [line.split("  ")[1] for line in r.out.splitlines()] == ["gaps.parquet", "plain.parquet"]
    assert r.err == (
        "odf-hash: warning: gaps.parquet: the reference arrow-digest (and so kamu) cannot hash "
        "columns 'cat' (dictionary-encoded, as a pandas or polars Categorical), 'nothing' (Null "
        "type, an all-null column): this hash cannot be checked by kamu (cast such columns to a "
        "plain type to record one it can check; --require-reference-compatible makes this an "
        "error)\n"
    )


def test_plain_file_says_nothing(run, files):
    r = run("logical", "--require-reference-compatible", "plain.parquet", cwd=files)
    assert (r.rc, r.err) == (0, "")


def test_json_marks_the_file_and_the_columns(run, files):
    r = run("logical", "--json", "--columns", "gaps.parquet", "plain.parquet", cwd=files)
    assert r.rc == 0
    gaps, plain = json.loads(r.out)["files"]
    assert gaps["reference_compatible"] is False
    assert [(g["column"], g["reason"].split(",")[0]) for g in gaps["reference_gaps"]] == [
        ("cat", "dictionary-encoded"), ("nothing", "Null type")]
    assert [("reference_gap" in c) for c in gaps["columns"]] == [False, True, True]
    assert plain["reference_compatible"] is True and "reference_gaps" not in plain


def test_ipc_files_too(run, files):
    r = run("logical", "gaps.arrow", cwd=files)
    assert r.rc == 0
    assert "cannot hash columns 'cat'" in r.err


def test_require_reference_compatible_exits_2(run, files):
    r = run("logical", "--require-reference-compatible", "gaps.parquet", "plain.parquet",
            cwd=files)
    assert r.rc == 2
    assert r.out.endswith("  plain.parquet\n") and "gaps.parquet" not in r.out
    assert r.err.startswith("odf-hash: gaps.parquet: the reference arrow-digest (and so kamu) "
                            "cannot hash columns 'cat'")
    assert r.err.endswith("(--require-reference-compatible)\n")
    r = run("logical", "--require-reference-compatible", "--json", "gaps.parquet", cwd=files)
    assert r.rc == 2
    assert "cannot hash columns" in json.loads(r.out)["files"][0]["error"]


def test_slice_warns_marks_and_refuses(run, files):
    r = run("slice", "gaps.parquet", cwd=files)
    assert r.rc == 0
    assert r.out.startswith("logicalHash: f9680c0012")
    assert r.err.startswith("odf-hash slice: warning: gaps.parquet: the reference")
    doc = json.loads(run("slice", "--json", "gaps.parquet", cwd=files).out)
    assert doc["referenceCompatible"] is False
    assert [g["column"] for g in doc["referenceGaps"]] == ["cat", "nothing"]
    assert json.loads(run("slice", "--json", "plain.parquet", cwd=files).out)[
        "referenceCompatible"] is True
    r = run("slice", "--require-reference-compatible", "gaps.parquet", cwd=files)
    assert (r.rc, r.out) == (2, "")
    assert "(--require-reference-compatible)" in r.err


def test_c_abi_names_the_gap_of_each_column(odf_hash_bin, files):
    """odf_hash_logical_result_column_reference_gap, through ctypes on the build's library."""
    import ctypes
    import pathlib

    libs = sorted(pathlib.Path(odf_hash_bin).resolve().parent.glob("libodf_hash.so*"))
    if not libs:
        pytest.skip("libodf_hash.so is not beside the binary")
    # A sanitized library cannot be loaded into an uninstrumented Python (the ASan runtime
    # must come first and aborts the process otherwise): the release run covers this test.
    needed = subprocess.run(["readelf", "-d", str(libs[0])], capture_output=True, text=True).stdout
    if "libasan" in needed or "libubsan" in needed:
        pytest.skip("ASan/UBSan build: its library cannot be loaded into this Python")
    lib = ctypes.CDLL(str(libs[0]))
    lib.odf_hash_logical_file.argtypes = [ctypes.c_char_p, ctypes.c_uint32,
                                          ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
    lib.odf_hash_logical_result_column_count.argtypes = [ctypes.c_void_p]
    lib.odf_hash_logical_result_column_count.restype = ctypes.c_size_t
    lib.odf_hash_logical_result_column_reference_gap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    lib.odf_hash_logical_result_column_reference_gap.restype = ctypes.c_char_p
    lib.odf_hash_logical_result_free.argtypes = [ctypes.c_void_p]
    err = ctypes.create_string_buffer(4 + 1024)
    result = ctypes.c_void_p()
    rc = lib.odf_hash_logical_file(str(files / "gaps.parquet").encode(), 1, ctypes.byref(result),
                                   err)
    assert rc == 0, err.raw[4:].split(b"\0")[0]
    try:
        n = lib.odf_hash_logical_result_column_count(result)
        gaps = [lib.odf_hash_logical_result_column_reference_gap(result, i) for i in range(n)]
        assert [g.split(b",")[0] for g in gaps] == [b"", b"dictionary-encoded", b"Null type"]
        assert lib.odf_hash_logical_result_column_reference_gap(result, n) is None
    finally:
        lib.odf_hash_logical_result_free(result)
