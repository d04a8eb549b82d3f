"""odf_hash.compare of Arrow data in memory (a pyarrow Table or RecordBatchReader, a polars or
pandas DataFrame, a DuckDB relation: the Arrow PyCapsule stream interface) against a file or
other data in memory. Expected verdicts and rows come from how each test builds its data (the
same records, or one value changed at a known row), and each in-memory side's arrow0 hash is
checked against odf_hash.logical of the same object, a separate path through the library."""
import pytest

import odf_hash

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

N = 3000
ROW = 1234


def table(change=False):
    v = [i * 3 for i in range(N)]
    if change:
        v[ROW] = -7
    return pa.table({"offset": pa.array(range(N), pa.int64()), "v": pa.array(v, pa.int64()),
                     "s": pa.array([f"s{i}" for i in range(N)], pa.string())})


def as_kind(t, kind):
    if kind == "pyarrow":
        return t
    if kind == "reader":
        return pa.RecordBatchReader.from_batches(t.schema, t.to_batches(max_chunksize=700))
    if kind == "polars":
        return pytest.importorskip("polars").from_arrow(t)
    if kind == "pandas":
        pytest.importorskip("pandas")
        return t.to_pandas()
    if kind == "duckdb":
        duckdb = pytest.importorskip("duckdb")
        con = duckdb.connect()
        con.register("t", t)
        return con.sql("SELECT * FROM t")
    raise ValueError(kind)


KINDS = ["pyarrow", "reader", "polars", "pandas", "duckdb"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_records_in_memory_and_in_a_file(tmp_path, kind):
    path = tmp_path / "a.parquet"
    pq.write_table(table(), path)
    data = as_kind(table(), kind)
    want = odf_hash.logical(as_kind(table(), kind))
    c = odf_hash.compare(path, data)
    assert c and c.verified, c
    assert (c.verdict, c.records) == ("equivalent", "equal")
    assert c.reproduced["path"] == f"<in memory: {type(data).__module__}.{type(data).__qualname__}>"
    assert c.reproduced["physical"] is None and c.reproduced["size"] is None
    assert c.reproduced["logical"] == want and c.reproduced["rows"] == N
    assert c.original["path"] == str(path) and c.original["physical"] is None


@pytest.mark.parametrize("kind", KINDS)
def test_one_changed_value_is_located(tmp_path, kind):
    path = tmp_path / "a.parquet"
    pq.write_table(table(), path)
    c = odf_hash.compare(path, as_kind(table(change=True), kind))
    assert not c and (c.verdict, c.records) == ("different", "different")
    assert c.differing_columns == ["v"]
    [d] = c.differences
    assert d.differing_rows == 1
    assert d.rows == [odf_hash.RowDifference("v", ROW, ROW, str(ROW * 3), "-7")]
    # The other way round, and two sides in memory.
    c = odf_hash.compare(as_kind(table(change=True), kind), as_kind(table(), "pyarrow"))
    assert not c and c.differences[0].rows[0].row == ROW
    assert c.original["path"].startswith("<in memory: ")


def test_in_memory_sides_take_the_other_options(tmp_path):
    shuffled = table().take(pa.array(list(range(N))[::-1]))
    u = odf_hash.compare(table(), shuffled, ignore_order=True)
    assert u and u.same_records and u.original["path"] == "<in memory: pyarrow.lib.Table>"
    assert odf_hash.compare(table(), shuffled).records == "same-other-order"
    x = pa.table({"x": pa.array([1.0, 2.0, 3.0])})
    y = pa.table({"x": pa.array([1.0, 2.0 * (1 + 1e-12), 3.0])})
    assert not odf_hash.compare(x, y)
    c = odf_hash.compare(x, y, rtol=1e-9)
    assert c and c.tolerance.within and c.tolerance.deviations[0].row == 1
    assert odf_hash.compare(table(), table(change=True), ignore_columns=["v"])


def test_what_is_not_records_is_refused(tmp_path):
    path = tmp_path / "a.parquet"
    pq.write_table(table(), path)
    with pytest.raises(odf_hash.InvalidInputError, match="no records"):
        odf_hash.compare(path, pa.chunked_array([[1, 2, 3]]))
    with pytest.raises(odf_hash.InvalidInputError, match="lists of files or windows"):
        odf_hash.compare([path], table())
    with pytest.raises(odf_hash.InvalidInputError, match="lists of files or windows"):
        odf_hash.compare(table(), path, original_window=(0, 10))
