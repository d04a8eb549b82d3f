"""`odf-hash compare` names as changing the hash only the schema differences that do
(issue 32, part 2): a recomputation through polars, pandas or DuckDB differs from the pyarrow
original in several ways (large_utf8 strings, nullable columns, another timestamp unit), and
only some of them change arrow0.

The oracle is the hash itself, one difference at a time: for each field the comparison
names, the original is written again with that field alone given the reproduction's type or
nullability (the same values, cast by pyarrow), and whether arrow0 then differs (`compare`'s
verdict "different", the arrow0 of both files, checked against the reference by the
conformance suite) says whether that difference changes the hash. Never odf-hash's own
classification.
"""
import datetime
import json

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

N = 500


def original_table():
    t0 = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    return pa.table({
        "id": pa.array(range(N), pa.int64()),
        "city": pa.array([f"c{i % 7}" for i in range(N)], pa.string()),
        "t": pa.array([t0 + datetime.timedelta(seconds=i) for i in range(N)],
                      pa.timestamp("ms", tz="UTC")),
        "v": pa.array([i * 0.5 for i in range(N)], pa.float64()),
    }, schema=pa.schema([pa.field("id", pa.int64(), nullable=False),
                         pa.field("city", pa.string()),
                         pa.field("t", pa.timestamp("ms", tz="UTC")),
                         pa.field("v", pa.float64())]))


def compare(run, a, b, *flags):
    r = run("compare", "--json", *flags, a, b)
    assert r.rc in (0, 1), r
    return r, json.loads(r.out)


def one_difference(tmp_path, original, field, reproduced_field, kind="type"):
    """The original with `field` given the reproduction's type (the same values, cast by
    pyarrow) or nullability alone: one difference."""
    i = original.schema.get_field_index(field)
    own = original.schema.field(i)
    if kind == "type":
        to = pa.field(field, reproduced_field.type, nullable=own.nullable)
    else:
        to = pa.field(field, own.type, nullable=reproduced_field.nullable)
    column = original.column(i).cast(to.type)
    path = tmp_path / f"only_{field}_{kind}.parquet"
    pq.write_table(pa.table(original.columns[:i] + [column] + original.columns[i + 1:],
                            schema=original.schema.set(i, to)), path)
    return path


def check_causes(run, tmp_path, reproduced_path):
    original = original_table()
    a = tmp_path / "original.parquet"
    pq.write_table(original, a)
    reproduced_schema = pq.read_schema(reproduced_path)
    r, doc = compare(run, a, reproduced_path)
    assert r.rc == 1 and doc["verdict"] == "different", doc
    diffs = doc["schema_differences"]
    assert diffs, doc
    expected = {}
    for d in diffs:
        assert d["kind"] in ("type", "nullability"), d
        _, single = compare(run, a, one_difference(tmp_path, original, d["field"],
                                                   reproduced_schema.field(d["field"]),
                                                   d["kind"]))
        expected[(d["field"], d["kind"])] = single["verdict"] == "different"
        assert d["changes_hash"] == expected[(d["field"], d["kind"])], (d, single["verdict"])
    # A column whose digest is the same on both sides is not a differing column.
    named = {c.split(" ")[0] for c in doc["differing_columns"]}
    assert named == {f for (f, _), changes in expected.items() if changes}, (named, expected)
    # The text lists the others apart.
    text = run("compare", a, reproduced_path)
    assert text.rc == 1, text
    if any(expected.values()) and not all(expected.values()):
        head, _, rest = text.out.partition("does not change the hash")
        assert rest, text.out
        head = head.split("schema", 1)[1]
        for d in diffs:
            line = (f"  {d['field']}: " + ("type " if d["kind"] == "type" else "") +
                    f"{d['original']} vs {d['reproduced']}")
            assert (line in head) == expected[(d["field"], d["kind"])], (d, text.out)
            assert (line in rest) != expected[(d["field"], d["kind"])], (d, text.out)
    return doc, expected


def test_polars_recomputation(run, tmp_path):
    pl = pytest.importorskip("polars")
    df = pl.from_arrow(original_table()).with_columns(
        pl.col("t").dt.cast_time_unit("us"))
    b = tmp_path / "polars.parquet"
    df.write_parquet(b)
    doc, expected = check_causes(run, tmp_path, b)
    # polars writes large strings, nullable columns and microseconds: the unit is the one
    # difference the hash sees (the expectation above came from the hash, one at a time).
    assert expected == {("id", "nullability"): False, ("city", "type"): False,
                        ("t", "type"): True}, expected
    assert doc["causes"] == []


def test_pandas_recomputation(run, tmp_path):
    pd = pytest.importorskip("pandas")
    df = original_table().to_pandas()
    df["v"] = df["v"].astype("float32")
    b = tmp_path / "pandas.parquet"
    df.to_parquet(b, index=False, engine="pyarrow")
    assert isinstance(df, pd.DataFrame)
    check_causes(run, tmp_path, b)


def test_duckdb_recomputation(run, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    a = tmp_path / "for_duckdb.parquet"
    pq.write_table(original_table(), a)
    b = tmp_path / "duckdb.parquet"
    duckdb.sql(f"COPY (SELECT * FROM read_parquet('{a}')) TO '{b}' (FORMAT PARQUET)")
    check_causes(run, tmp_path, b)


def test_only_nullability_is_no_cause(run, tmp_path):
    """Records equal, arrow0 different only through another column: a nullability difference
    whose column hashes alike is listed apart and never named as a cause."""
    original = original_table()
    a = tmp_path / "a.parquet"
    pq.write_table(original, a)
    # id nullable (hashes alike) and the columns in another order (changes arrow0).
    swapped = original.select(["city", "id", "t", "v"])
    swapped = swapped.cast(pa.schema([pa.field("city", pa.string()), pa.field("id", pa.int64()),
                                      swapped.schema.field("t"), swapped.schema.field("v")]))
    b = tmp_path / "b.parquet"
    pq.write_table(swapped, b)
    _, single = compare(run, a, one_difference(tmp_path, original, "id",
                                               pa.field("id", pa.int64()), "nullability"))
    assert single["verdict"] in ("identical", "equivalent")  # nullability: the same hash
    r, doc = compare(run, a, b)
    assert r.rc == 1 and doc["verdict"] == "different" and doc["records"] == "equal", doc
    kinds = {c["kind"] for c in doc["causes"]}
    assert "column-order" in kinds and "nullability" not in kinds, doc["causes"]
    by_field = {(d["field"], d["kind"]): d["changes_hash"] for d in doc["schema_differences"]}
    assert by_field[("id", "nullability")] is False, by_field


def casts_by_field(doc):
    return {k["field"]: k for k in doc["casts"]}


def test_values_after_casting(run, tmp_path):
    """A type difference gets a value verdict: the reproduction's field cast to the original's
    type (or back, when that would lose values), and whether the values are then equal.
    The oracle is pyarrow's own cast and Table.equals."""
    original = original_table()
    a = tmp_path / "a.parquet"
    pq.write_table(original, a)
    us = pa.timestamp("us", tz="UTC")
    t_us = original.column("t").cast(us)

    same = original.set_column(2, pa.field("t", us), t_us)
    b = tmp_path / "same_values.parquet"
    pq.write_table(same, b)
    assert pq.read_table(b).column("t").cast(original.schema.field("t").type).equals(
        original.column("t"))
    r, doc = compare(run, a, b)
    assert r.rc == 1 and doc["verdict"] == "different"
    t = casts_by_field(doc)["t"]
    assert (t["cast"], t["side_cast"], t["values_equal"], t["changes_hash"]) == (
        True, "reproduced", True, True), t
    assert (t["from"], t["to"]) == (str(us), str(original.schema.field("t").type))
    text = run("compare", a, b)
    assert (f"the values are equal after casting the reproduction's {us} to "
            f"{original.schema.field('t').type}") in text.out, text.out

    # One value 1 microsecond later: the safe cast to milliseconds would lose it, so the
    # original's milliseconds are cast to microseconds, and the values differ.
    shifted = t_us.to_pylist()
    shifted[7] = shifted[7] + __import__("datetime").timedelta(microseconds=1)
    moved = original.set_column(2, pa.field("t", us), pa.array(shifted, us))
    c = tmp_path / "moved_value.parquet"
    pq.write_table(moved, c)
    assert not original.column("t").cast(us).equals(pq.read_table(c).column("t"))
    r, doc = compare(run, a, c)
    t = casts_by_field(doc)["t"]
    assert (t["cast"], t["side_cast"], t["values_equal"]) == (True, "original", False), t
    # Where: the one row the test moved, with both values.
    (col,) = t["differences"]
    assert (col["column"], col["differing_rows"]) == ("t", 1), col
    assert [r["row"] for r in col["rows"]] == [7], col
    assert col["rows"][0]["original"] != col["rows"][0]["reproduced"]
    text = run("compare", a, c).out
    assert "the values differ after casting the original's" in text, text
    assert "t: 1 of 500 rows differ" in text and "row 7 " in text, text

    # A struct where the original has an integer: neither type casts to the other.
    structs = original.set_column(
        3, pa.field("v", pa.struct([("x", pa.float64())])),
        pa.array([{"x": x} for x in original.column("v").to_pylist()],
                 pa.struct([("x", pa.float64())])))
    d = tmp_path / "struct.parquet"
    pq.write_table(structs, d)
    r, doc = compare(run, a, d)
    assert r.rc == 1, r
    v = casts_by_field(doc)["v"]
    assert v["cast"] is False and v["error"] and v["changes_hash"] is True, v
    assert "neither type casts to the other" in run("compare", a, d).out
