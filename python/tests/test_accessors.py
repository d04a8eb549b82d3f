"""``.odf`` on polars and pandas frames (issue 36, item 5), and reprs that show the verdict.
Each accessor's answer is checked against the module function on the same data (a separate
path: odf_hash.logical of a pyarrow table built from the same columns)."""
import subprocess
import sys

import pytest

import odf_hash

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def table():
    return pa.table({"id": pa.array([1, 2, 3], pa.int64()), "s": pa.array(["a", "b", None])})


def test_polars_frames_lazy_frames_and_series():
    pl = pytest.importorskip("polars")
    odf_hash.register_accessors()
    want = odf_hash.logical(table())
    df = pl.from_arrow(table())
    assert df.odf.logical() == want
    assert df.lazy().odf.logical() == want  # collected first
    assert df.odf.unordered_digest() == odf_hash.unordered_digest(table())
    assert df["id"].odf.logical() == odf_hash.logical(table().column("id"))
    c = df.odf.compare(df.reverse(), key="id")
    assert c.same_records and repr(c).startswith("<odf_hash.KeyedComparison by id: same records")


def test_pandas_frames():
    pd = pytest.importorskip("pandas")
    odf_hash.register_accessors()
    frame = pd.DataFrame({"id": [1, 2, 3], "s": ["a", "b", None]})
    want = odf_hash.logical(pa.Table.from_pandas(frame, preserve_index=False))
    assert frame.odf.logical() == want
    assert frame.iloc[[2, 0, 1]].odf.unordered_digest() == frame.odf.unordered_digest()


def test_accessors_are_registered_on_import_after_polars():
    code = ("import polars as pl, odf_hash; "
            "print(pl.DataFrame({'a': [1]}).odf.logical())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == odf_hash.logical(pa.table({"a": pa.array([1], pa.int64())}))
    # Not imported by odf_hash itself (import time stays short).
    code = "import sys, odf_hash; print('polars' in sys.modules, 'pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.split() == ["False", "False"], out


def test_reprs_show_the_verdict(tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(table(), a)
    pq.write_table(table().set_column(0, "id", pa.array([1, 2, 4], pa.int64())), b)
    assert repr(odf_hash.compare(a, a)) == (
        "<odf_hash.Comparison identical, records equal: verified>")
    r = repr(odf_hash.compare(a, b))
    assert r.startswith("<odf_hash.Comparison different, records different") and "NOT" in r
    assert repr(odf_hash.compare(a, b, ignore_order=True)) == (
        "<odf_hash.UnorderedComparison different records: 1 only in the original, 1 only in "
        "the reproduction (row order ignored)>")
