"""`odf-hash compare` says where two data files differ: the differing rows of each column.

Each test writes an original and a reproduced file with one writer (pyarrow, polars, DuckDB,
pandas), changing values it chooses: the expected rows, offsets and values come from that
construction, never from odf-hash's output.
"""
import json

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
feather = pytest.importorskip("pyarrow.feather")

N = 30_000  # three 10,000-row batches and a bit


def columns(n=N):
    return {
        "offset": list(range(n)),
        "i32": [i * 3 for i in range(n)],
        "s": [f"v{i}" for i in range(n)],
    }


def write(writer, cols, path):
    """Writes `cols` (offset int64, i32 int32, s string) as Parquet with `writer`."""
    if writer == "pyarrow":
        pq.write_table(pa.table({"offset": pa.array(cols["offset"], pa.int64()),
                                 "i32": pa.array(cols["i32"], pa.int32()),
                                 "s": pa.array(cols["s"], pa.string())}), path)
    elif writer == "polars":
        pl = pytest.importorskip("polars")
        pl.DataFrame({"offset": pl.Series(cols["offset"], dtype=pl.Int64),
                      "i32": pl.Series(cols["i32"], dtype=pl.Int32),
                      "s": pl.Series(cols["s"], dtype=pl.Utf8)}).write_parquet(path)
    elif writer == "duckdb":
        duckdb = pytest.importorskip("duckdb")
        con = duckdb.connect()
        t = pa.table({"offset": pa.array(cols["offset"], pa.int64()),  # noqa: F841 (read by SQL)
                      "i32": pa.array(cols["i32"], pa.int32()),
                      "s": pa.array(cols["s"], pa.string())})
        con.execute(f"COPY (SELECT * FROM t) TO '{path}' (FORMAT parquet)")
        con.close()
    elif writer == "pandas":
        pd = pytest.importorskip("pandas")
        pd.DataFrame({"offset": pd.Series(cols["offset"], dtype="int64"),
                      "i32": pd.Series(cols["i32"], dtype="int32"),
                      "s": pd.Series(cols["s"], dtype="object")}).to_parquet(path, index=False)
    else:
        raise ValueError(writer)


def compare_json(run, a, b, *extra):
    r = run("compare", "--json", *extra, a, b)
    assert r.rc == 1, r
    return json.loads(r.out)


def by_column(doc):
    return {d["column"]: d for d in doc["differences"]}


@pytest.mark.parametrize("writer", ["pyarrow", "polars", "duckdb", "pandas"])
def test_one_changed_value_is_located(run, tmp_path, writer):
    row = 23_456
    cols = columns()
    write(writer, cols, tmp_path / "a.parquet")
    cols["i32"][row] = -7
    write(writer, cols, tmp_path / "b.parquet")
    doc = compare_json(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert doc["verdict"] == "different"
    assert doc["differing_columns"] == ["i32"]
    (d,) = doc["differences"]
    assert d["column"] == "i32" and d["differing_rows"] == 1
    assert d["rows"] == [{"row": row, "offset": row, "original": str(row * 3), "reproduced": "-7"}]

    text = run("compare", tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert text.rc == 1
    assert f"i32: 1 of {N} rows differ" in text.out
    assert f"row {row} (offset {row})" in text.out
    assert f"original {row * 3}, reproduced -7" in text.out


@pytest.mark.parametrize("writer", ["pyarrow", "polars", "duckdb", "pandas"])
def test_many_changed_values_are_counted_and_the_first_shown(run, tmp_path, writer):
    cols = columns()
    write(writer, cols, tmp_path / "a.parquet")
    changed = [i for i in range(N) if i % 997 == 5]
    for i in changed:
        cols["s"][i] = f"w{i}"
    write(writer, cols, tmp_path / "b.parquet")
    doc = compare_json(run, tmp_path / "a.parquet", tmp_path / "b.parquet", "--rows", "3")
    d = by_column(doc)["s"]
    assert d["differing_rows"] == len(changed)
    assert [r["row"] for r in d["rows"]] == changed[:3]
    assert [(r["original"], r["reproduced"]) for r in d["rows"]] == [
        (f'"v{i}"', f'"w{i}"') for i in changed[:3]]
    text = run("compare", "--rows", "3", tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert f"... and {len(changed) - 3} more" in text.out


def test_values_are_escaped_and_cut(run, tmp_path):
    cols = columns(100)
    write("pyarrow", cols, tmp_path / "a.parquet")
    cols["s"][3] = "x\n\x1b[31mred"
    cols["s"][4] = "y" * 500
    write("pyarrow", cols, tmp_path / "b.parquet")
    doc = compare_json(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    rows = by_column(doc)["s"]["rows"]
    assert rows[0]["reproduced"] == '"x\\n\\x1b[31mred"'
    assert rows[1]["reproduced"] == '"' + "y" * 59 + "..."  # 60 characters, then the cut
    text = run("compare", tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert "\x1b" not in text.out and "x\\n\\x1b[31mred" in text.out


def test_extra_rows_change_the_row_counts_not_the_common_rows(run, tmp_path):
    cols = columns(1000)
    write("pyarrow", cols, tmp_path / "a.parquet")
    write("pyarrow", columns(1010), tmp_path / "b.parquet")
    doc = compare_json(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert (doc["original"]["rows"], doc["reproduced"]["rows"]) == (1000, 1010)
    assert all(d["differing_rows"] == 0 and d["rows"] == [] for d in doc["differences"])
    assert {d["column"] for d in doc["differences"]} == {"offset", "i32", "s"}
    # The answer (issue 32: "10 rows appended at the end; the common rows are identical", not
    # "0 of N rows differ"): one run of 10 rows only the reproduction has, after the others.
    assert {k: doc["row_block"][k] for k in ("side", "row", "rows", "at_end")} == {
        "side": "reproduced", "row": 1000, "rows": 10, "at_end": True}
    text = run("compare", tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert "rows        original 1000, reproduced 1010" in text.out
    assert ("10 rows appended at the end of the reproduced (rows 1000-1009); the rows both have "
            "are the same records, in order") in text.out


def test_nested_struct_field_and_null(run, tmp_path):
    st = pa.struct([("a", pa.int64()), ("b", pa.string())])
    vals = [{"a": i, "b": f"b{i}"} for i in range(5000)]
    pq.write_table(pa.table({"st": pa.array(vals, st)}), tmp_path / "a.parquet")
    vals[4321] = {"a": None, "b": "b4321"}
    pq.write_table(pa.table({"st": pa.array(vals, st)}), tmp_path / "b.parquet")
    doc = compare_json(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert doc["differing_columns"] == ["st.a"]
    (d,) = doc["differences"]
    assert d["rows"] == [{"row": 4321, "offset": None, "original": "4321", "reproduced": "null"}]


def test_ipc_files_with_other_batch_boundaries(run, tmp_path):
    """Batches of 3,000 rows against batches of 7,000: rows are paired by index."""
    n = 21_000
    t = pa.table({"offset": pa.array(range(n), pa.int64()),
                  "x": pa.array([float(i) for i in range(n)], pa.float64())})
    with pa.ipc.new_file(tmp_path / "a.arrow", t.schema) as w:
        for b in t.to_batches(max_chunksize=3000):
            w.write_batch(b)
    x = [float(i) for i in range(n)]
    x[6999], x[7000], x[20999] = 0.5, 1.5, 2.5
    t2 = t.set_column(1, "x", pa.array(x, pa.float64()))
    with pa.ipc.new_file(tmp_path / "b.arrow", t2.schema) as w:
        for b in t2.to_batches(max_chunksize=7000):
            w.write_batch(b)
    doc = compare_json(run, tmp_path / "a.arrow", tmp_path / "b.arrow")
    (d,) = doc["differences"]
    assert d["differing_rows"] == 3
    assert [(r["row"], r["offset"], r["original"], r["reproduced"]) for r in d["rows"]] == [
        (6999, 6999, "6999", "0.5"), (7000, 7000, "7000", "1.5"), (20999, 20999, "20999", "2.5")]


def test_rows_zero_does_not_look_for_rows(run, tmp_path):
    cols = columns(100)
    write("pyarrow", cols, tmp_path / "a.parquet")
    cols["i32"][1] = 5
    write("pyarrow", cols, tmp_path / "b.parquet")
    doc = compare_json(run, tmp_path / "a.parquet", tmp_path / "b.parquet", "--rows", "0")
    assert doc["differing_columns"] == ["i32"] and "differences" not in doc


def test_every_row_changed_is_counted(run, tmp_path):
    """Dense differences (every value of a column, e.g. a float computed another way)."""
    n = 25_000
    pq.write_table(pa.table({"offset": pa.array(range(n), pa.int64()),
                             "f": pa.array([i / 3 for i in range(n)], pa.float64())}),
                   tmp_path / "a.parquet")
    pq.write_table(pa.table({"offset": pa.array(range(n), pa.int64()),
                             "f": pa.array([i / 3 + 1e-9 for i in range(n)], pa.float64())}),
                   tmp_path / "b.parquet")
    doc = compare_json(run, tmp_path / "a.parquet", tmp_path / "b.parquet", "--rows", "2")
    (d,) = doc["differences"]
    assert d["column"] == "f" and d["differing_rows"] == n
    assert [r["row"] for r in d["rows"]] == [0, 1]
    assert d["rows"][0]["original"] == "0" and float(d["rows"][0]["reproduced"]) == 1e-9
    assert doc["records"] == "different"


def test_lists_structs_and_dictionaries_are_shown_as_values(run, tmp_path):
    st = pa.struct([("a", pa.int64()), ("b", pa.string())])
    t1 = pa.table({"l": pa.array([[1, 2], [3], None], pa.list_(pa.int64())),
                   "st": pa.array([{"a": 1, "b": "q\"uote"}, None, {"a": 2, "b": "z"}], st),
                   "d": pa.array(["a", "b", "a"]).dictionary_encode()})
    t2 = pa.table({"l": pa.array([[1, 2], [3, 4], None], pa.list_(pa.int64())),
                   "st": pa.array([{"a": 1, "b": "q\"uote!"}, None, {"a": 2, "b": "z"}], st),
                   "d": pa.array(["a", "b", "c"]).dictionary_encode()})
    pq.write_table(t1, tmp_path / "a.parquet")
    pq.write_table(t2, tmp_path / "b.parquet")
    doc = compare_json(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    rows = {d["column"]: [(r["row"], r["original"], r["reproduced"]) for r in d["rows"]]
            for d in doc["differences"]}
    assert rows["l"] == [(1, "[3]", "[3, 4]")]
    assert rows["st.b"] == [(0, '"q\\"uote"', '"q\\"uote!"')]
    assert rows["d"] == [(2, '"a"', '"c"')]
    u = run("compare", "--ignore-order", "--json", tmp_path / "a.parquet", tmp_path / "b.parquet")
    examples = json.loads(u.out)["original"]["examples"]
    assert examples[0]["values"] == 'l=[1, 2], st={a: 1, b: "q\\"uote"}, d="a"'


def test_rows_over_http_range_reads(run, tmp_path):
    """Both files served by an HTTP server on 127.0.0.1 (range reads): the rows located are
    the ones pyarrow sees differ."""
    from remote_servers import http_server

    cols = columns(20_000)
    write("pyarrow", cols, tmp_path / "a.parquet")
    cols["s"][17_777] = "remote"
    write("pyarrow", cols, tmp_path / "b.parquet")
    with http_server(tmp_path) as server:
        doc = compare_json(run, f"{server.url}/a.parquet", f"{server.url}/b.parquet")
        u = run("compare", "--ignore-order", "--json", f"{server.url}/a.parquet",
                f"{server.url}/b.parquet")
    (d,) = doc["differences"]
    assert d["rows"] == [{"row": 17_777, "offset": 17_777, "original": '"v17777"',
                          "reproduced": '"remote"'}]
    assert u.rc == 1
    assert [e["row"] for e in json.loads(u.out)["reproduced"]["examples"]] == [17_777]
