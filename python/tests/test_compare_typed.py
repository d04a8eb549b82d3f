"""Comparison.to_arrow(typed=True): the rows shown with their values typed, read back from the
files. The expected values are pyarrow's own reading of the same rows (Table.take on the whole
file), and the rows are the ones each test changed; odf-hash only chooses which rows to show."""
import datetime as dt

import pytest

import odf_hash

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

N = 10_000
CHANGED = {"n": [5, 7_777], "ts": [123], "st.b": [9_000]}


def table(change):
    n = list(range(N))
    ts = [dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(seconds=i)
          for i in range(N)]
    b = [f"b{i}" for i in range(N)]
    if change:
        for r in CHANGED["n"]:
            n[r] = -r
        ts[123] = ts[123] + dt.timedelta(days=1)
        b[9_000] = "changed"
    st = pa.StructArray.from_arrays([pa.array(range(N), pa.int32()), pa.array(b)], ["a", "b"])
    return pa.table({"offset": pa.array(range(N), pa.int64()), "n": pa.array(n, pa.int64()),
                     "ts": pa.array(ts, pa.timestamp("us", tz="UTC")), "st": st})


@pytest.mark.parametrize("fmt", ["parquet", "ipc-file", "ipc-stream"])
def test_typed_values_are_the_files_own(tmp_path, fmt):
    a, b = tmp_path / "a", tmp_path / "b"
    for path, t in ((a, table(False)), (b, table(True))):
        if fmt == "parquet":
            pq.write_table(t, path, row_group_size=3_000)
        else:
            new = pa.ipc.new_file if fmt == "ipc-file" else pa.ipc.new_stream
            with pa.OSFile(str(path), "wb") as sink, new(sink, t.schema) as w:
                w.write_table(t, max_chunksize=2_500)
    c = odf_hash.compare(a, b)
    assert c.verdict == "different"
    got = c.to_arrow(typed=True)
    rows = sorted({r for rs in CHANGED.values() for r in rs})
    assert got.column("row").to_pylist() == rows
    assert got.column("offset").to_pylist() == rows
    ta, tb = (table(x).take(rows) for x in (False, True))
    for col in CHANGED:
        top, *member = col.split(".")
        for label, t in (("original", ta), ("reproduced", tb)):
            want = t.column(top).combine_chunks()
            if member:
                want = want.field(member[0])
            assert got.column(f"{label}.{col}").to_pylist() == want.to_pylist(), (label, col)
            assert got.schema.field(f"{label}.{col}").type == want.type
    # Joinable with the data: the original's rows by offset.
    joined = got.join(table(False).select(["offset", "n"]), "offset")
    assert joined.num_rows == len(rows)


def test_typed_values_need_two_local_files(tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(table(False), a)
    pq.write_table(table(True), b)
    in_memory = odf_hash.compare(a, table(True))
    assert in_memory.to_arrow().num_rows > 0  # as text: always
    for c in (in_memory, odf_hash.compare([a], [b, a]),
              odf_hash.compare(a, b, reproduced_window=(0, 9_999))):
        with pytest.raises(odf_hash.InvalidInputError, match="two local files compared whole"):
            c.to_arrow(typed=True)
