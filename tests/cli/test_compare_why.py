"""`odf-hash compare` says why two files differ when the records do not: column order, bytes
under null struct slots, rows in another order; and shows schema differences field by field.

The verdict stays arrow0's (what ODF metadata records); the expected record equality comes
from the writers' own tables (pyarrow's Table.equals, the rows the test moved), never from
odf-hash.
"""
import json

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def compare(run, a, b):
    r = run("compare", "--json", a, b)
    assert r.rc in (0, 1), r
    return r, json.loads(r.out)


def nested_table(n=30_000):
    """A nullable struct with a nullable member: the reference hashes the bytes arrow-rs
    leaves under the member's null slots, which depend on the row groups."""
    st = pa.struct([("a", pa.int64()), ("b", pa.string())])
    return pa.table({
        "offset": pa.array(range(n), pa.int64()),
        "st": pa.array([None if i % 5 == 0 else {"a": (i if i % 3 else None), "b": str(i)}
                        for i in range(n)], st),
    })


def test_same_records_other_row_groups_are_equal_records(run, tmp_path):
    t = nested_table()
    pq.write_table(t, tmp_path / "a.parquet", row_group_size=1000)
    pq.write_table(t, tmp_path / "b.parquet", row_group_size=7000)
    assert pq.read_table(tmp_path / "a.parquet").equals(pq.read_table(tmp_path / "b.parquet"))
    r, doc = compare(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert r.rc == 1 and doc["verdict"] == "different"  # arrow0 decides
    assert doc["differing_columns"] == ["st.a"]
    assert doc["records"] == "equal"
    assert [(c["kind"], c["column"]) for c in doc["causes"]] == [("null-slots", "st.a")]
    (d,) = doc["differences"]
    assert d["differing_rows"] == 0 and d["hidden_segments"] > 0
    assert doc["schema_differences"] == []
    text = run("compare", tmp_path / "a.parquet", tmp_path / "b.parquet").out
    assert "the records are equal" in text
    assert 'null slots of struct "st"' in text


def test_column_order(run, tmp_path):
    pl = pytest.importorskip("polars")
    df = pl.DataFrame({"offset": list(range(1000)), "x": [i * 2 for i in range(1000)],
                       "s": [str(i) for i in range(1000)]})
    df.write_parquet(tmp_path / "a.parquet")
    df.select(["s", "offset", "x"]).write_parquet(tmp_path / "b.parquet")
    r, doc = compare(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert r.rc == 1 and doc["verdict"] == "different"
    assert doc["records"] == "equal"
    assert doc["causes"][0]["kind"] == "column-order"
    assert {(d["field"], d["kind"], d["original"], d["reproduced"])
            for d in doc["schema_differences"]} == {
        ("offset", "position", "1", "2"), ("x", "position", "2", "3"), ("s", "position", "3", "1")}
    assert "the records are equal" in run("compare", tmp_path / "a.parquet",
                                          tmp_path / "b.parquet").out


def test_swapped_rows_are_the_same_records_in_another_order(run, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT i::BIGINT AS \"offset\", i * 7 AS v, 'r' || i AS s "
                "FROM range(20000) r(i)")
    con.execute(f"COPY (SELECT * FROM t ORDER BY \"offset\") TO '{tmp_path / 'a.parquet'}' "
                "(FORMAT parquet)")
    # Rows 10 and 15000 swapped.
    con.execute(f"COPY (SELECT * FROM t ORDER BY CASE \"offset\" WHEN 10 THEN 15000 WHEN 15000 "
                f"THEN 10 ELSE \"offset\" END) TO '{tmp_path / 'b.parquet'}' (FORMAT parquet)")
    con.close()
    r, doc = compare(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert r.rc == 1 and doc["verdict"] == "different"
    assert sorted(doc["differing_columns"]) == ["offset", "s", "v"]
    assert doc["records"] == "same-other-order"
    assert doc["causes"][0]["kind"] == "row-order" and "2 rows" in doc["causes"][0]["text"]
    rows = {d["column"]: d for d in doc["differences"]}
    assert [(x["row"], x["original"], x["reproduced"]) for x in rows["v"]["rows"]] == [
        (10, "70", "105000"), (15000, "105000", "70")]
    text = run("compare", tmp_path / "a.parquet", tmp_path / "b.parquet").out
    assert "the records are the same, in another order" in text


def test_a_moved_value_is_not_the_same_records(run, tmp_path):
    """Only one column permuted: its values are the same multiset, the records are not."""
    n = 1000
    x = list(range(n))
    pq.write_table(pa.table({"k": list(range(n)), "x": x}), tmp_path / "a.parquet")
    x[1], x[2] = x[2], x[1]
    pq.write_table(pa.table({"k": list(range(n)), "x": x}), tmp_path / "b.parquet")
    r, doc = compare(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert doc["records"] == "different" and doc["causes"] == []


def test_schema_differences_field_by_field(run, tmp_path):
    pd = pytest.importorskip("pandas")
    n = 100
    a = pd.DataFrame({"offset": pd.Series(range(n), dtype="int64"),
                      "i": pd.Series(range(n), dtype="int32"),
                      "t": pd.to_datetime(list(range(n)), unit="s", utc=True),
                      "gone": pd.Series(range(n), dtype="int64")})
    b = pd.DataFrame({"offset": pd.Series(range(n), dtype="int64"),
                      "i": pd.Series(range(n), dtype="int64"),
                      "t": pd.to_datetime(list(range(n)), unit="s"),
                      "new": pd.Series(["x"] * n)})
    a.to_parquet(tmp_path / "a.parquet", index=False)
    b.to_parquet(tmp_path / "b.parquet", index=False)
    r, doc = compare(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert r.rc == 1 and doc["records"] == "different"
    diffs = {(d["field"], d["kind"]): (d["original"], d["reproduced"])
             for d in doc["schema_differences"]}
    assert diffs[("i", "type")] == ("int32", "int64")
    unit = str(a["t"].dtype).split("[")[1].split(",")[0]  # pandas' unit: "ns" (or "us")
    assert diffs[("t", "type")] == (f"timestamp[{unit}, tz=UTC]",
                                    f"timestamp[{unit}, no time zone]")
    assert diffs[("gone", "only-in-original")] == ("int64", "")
    assert diffs[("new", "only-in-reproduced")][0] == ""
    text = run("compare", tmp_path / "a.parquet", tmp_path / "b.parquet").out
    assert "i: type int32 vs int64" in text
    assert "gone: only in original (int64)" in text


def test_swapped_rows_with_a_column_that_does_not_change(run, tmp_path):
    """The constant column's digest is equal, so the rows are located on the others only;
    whether the whole records are the same multiset is then checked on every column."""
    n = 3000
    t = pa.table({"k": list(range(n)), "const": ["same"] * n, "v": [i * 5 for i in range(n)]})
    pq.write_table(t, tmp_path / "a.parquet")
    idx = list(range(n))
    idx[7], idx[2500] = idx[2500], idx[7]
    pq.write_table(t.take(idx), tmp_path / "b.parquet")
    r, doc = compare(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert r.rc == 1 and doc["differing_columns"] == ["k", "v"]
    assert doc["records"] == "same-other-order"
    # One value of the constant column changed as well: no longer the same records.
    const = ["same"] * n
    const[2500] = "other"
    t2 = t.take(idx).set_column(1, "const", pa.array(const))
    pq.write_table(t2, tmp_path / "c.parquet")
    r, doc = compare(run, tmp_path / "a.parquet", tmp_path / "c.parquet")
    assert doc["records"] == "different"


def test_two_encodings_of_one_type_are_compared_by_value(run, tmp_path):
    """pyarrow writes utf8, polars large_utf8 (and a dictionary where asked): arrow0 hashes
    them alike, so one changed value is located across the two, and the records differ."""
    pl = pytest.importorskip("polars")
    n = 2000
    s = [f"s{i}" for i in range(n)]
    pq.write_table(pa.table({"k": list(range(n)), "s": pa.array(s, pa.string())}),
                   tmp_path / "a.parquet")
    s2 = list(s)
    s2[1234] = "changed"
    pl.DataFrame({"k": list(range(n)), "s": s2}).write_parquet(tmp_path / "b.parquet")
    r, doc = compare(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert r.rc == 1 and doc["records"] == "different"
    rows = {d["column"]: d for d in doc["differences"]}
    assert [(x["row"], x["original"], x["reproduced"]) for x in rows["s"]["rows"]] == [
        (1234, '"s1234"', '"changed"')]
    # The type does not change the hash (the value does): the unchanged copy below has the
    # same arrow0 hash.
    assert doc["schema_differences"] == [{"field": "s", "kind": "type", "original": "utf8",
                                          "reproduced": "large_utf8", "encoding_only": True,
                                          "changes_hash": False}]
    # Unchanged, the two writers' files hold the same records (arrow0 says so too).
    pl.DataFrame({"k": list(range(n)), "s": s}).write_parquet(tmp_path / "c.parquet")
    r, doc = compare(run, tmp_path / "a.parquet", tmp_path / "c.parquet")
    assert r.rc == 0 and doc["verdict"] == "equivalent"


def test_differing_columns_name_types_as_pyarrow_writes_them(run, tmp_path):
    """A column whose type differs is listed with its types as people read them (pyarrow's
    names: timestamp[ms, tz=UTC], int64), in the text and the JSON, never as the Arrow C
    format strings the hash is computed from (tsm:UTC, l)."""
    ms, us = pa.timestamp("ms", tz="UTC"), pa.timestamp("us", tz="UTC")
    pq.write_table(pa.table({"ts": pa.array([1, 2], ms), "n": pa.array([1, 2], pa.int64())}),
                   tmp_path / "a.parquet")
    pq.write_table(pa.table({"ts": pa.array([1000, 2000], us),
                             "n": pa.array([1, 2], pa.int32())}), tmp_path / "b.parquet")
    r, doc = compare(run, tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert r.rc == 1 and doc["verdict"] == "different"
    assert sorted(doc["differing_columns"]) == [
        f"n (type {pa.int64()} vs {pa.int32()})", f"ts (type {ms} vs {us})"]
    text = run("compare", tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert f"ts (type {ms} vs {us})" in text.out, text
    for fmt in ("tsm:UTC", "tsu:UTC", " l ", " i)"):
        assert fmt not in text.out and fmt not in r.out, fmt
