"""odf_hash.compare says where and why files differ, as data; ignore_order and
unordered_digest answer the order-insensitive question. Expected rows and values come from
the changes each test makes; the unordered digest of a table is checked against the same
file's (the files themselves are checked against docs/unordered-digest.md with hashlib in
tests/cli/test_compare_unordered.py)."""
import random

import pytest

import odf_hash

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def table(n=20_000, change=None):
    v = [i * 2 for i in range(n)]
    s = [f"s{i}" for i in range(n)]
    if change:
        change(v, s)
    return pa.table({"offset": pa.array(range(n), pa.int64()), "v": pa.array(v, pa.int64()),
                     "s": pa.array(s, pa.string())})


def test_different_values_as_records_and_arrow_table(tmp_path):
    def change(v, s):
        v[15_000] = -1
        s[3] = "tab\there"

    pq.write_table(table(), tmp_path / "a.parquet")
    pq.write_table(table(change=change), tmp_path / "b.parquet")
    c = odf_hash.compare(tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert not c and c.verdict == "different" and c.records == "different"
    by_col = {d.column: d for d in c.differences}
    assert by_col["v"].differing_rows == 1
    assert by_col["v"].rows == [odf_hash.RowDifference("v", 15_000, 15_000, "30000", "-1")]
    assert by_col["s"].rows == [odf_hash.RowDifference("s", 3, 3, '"s3"', '"tab\\there"')]
    t = c.to_arrow()
    assert t.column_names == ["column", "row", "offset", "original", "reproduced"]
    assert sorted(t.column("row").to_pylist()) == [3, 15_000]
    assert c.schema_differences == [] and c.causes == []


def test_rows_zero_skips_the_rows(tmp_path):
    pq.write_table(table(100), tmp_path / "a.parquet")
    pq.write_table(table(100, change=lambda v, s: v.__setitem__(1, 0)), tmp_path / "b.parquet")
    c = odf_hash.compare(tmp_path / "a.parquet", tmp_path / "b.parquet", rows=0)
    assert c.differing_columns == ["v"] and c.differences == [] and c.records == "unknown"
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.compare(tmp_path / "a.parquet", tmp_path / "b.parquet", rows=-1)


def test_why_column_order_and_schema(tmp_path):
    t = table(500)
    pq.write_table(t, tmp_path / "a.parquet")
    pq.write_table(t.select(["s", "v", "offset"]), tmp_path / "b.parquet")
    c = odf_hash.compare(tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert c.verdict == "different" and c.records == "equal"
    assert c.causes[0].kind == "column-order"
    # The records are equal and arrow0 differs: the order is what changes the hash.
    assert odf_hash.SchemaDifference("s", "position", "3", "1",
                                     changes_hash=True) in c.schema_differences
    pq.write_table(t.set_column(1, "v", t.column("v").cast(pa.int32())), tmp_path / "c.parquet")
    c = odf_hash.compare(tmp_path / "a.parquet", tmp_path / "c.parquet")
    assert c.records == "different"
    # The same values (pyarrow cast them) under another type, and arrow0 differs: the type
    # changes the hash, and the values are equal once cast back.
    assert c.verdict == "different"
    assert c.schema_differences == [odf_hash.SchemaDifference("v", "type", "int64", "int32",
                                                              changes_hash=True)]
    assert c.casts == [odf_hash.CastCheck("v", True, "reproduced", "int32", "int64",
                                          values_equal=True, changes_hash=True)]
    # One value changed as well: where, once cast.
    v = t.column("v").cast(pa.int32()).to_pylist()
    v[42] = -7
    pq.write_table(t.set_column(1, "v", pa.array(v, pa.int32())), tmp_path / "d.parquet")
    c = odf_hash.compare(tmp_path / "a.parquet", tmp_path / "d.parquet")
    (cast,) = c.casts
    assert cast.cast and not cast.values_equal and cast.changes_hash
    (where,) = cast.differences
    assert where.column == "v" and where.differing_rows == 1
    assert [(r.row, r.reproduced) for r in where.rows] == [(42, "-7")]


def test_ignore_order(tmp_path):
    t = table(5000)
    idx = list(range(t.num_rows))
    random.Random(1).shuffle(idx)
    pq.write_table(t, tmp_path / "a.parquet")
    pq.write_table(t.take(idx), tmp_path / "b.parquet")
    u = odf_hash.compare(tmp_path / "a.parquet", tmp_path / "b.parquet", ignore_order=True)
    assert isinstance(u, odf_hash.UnorderedComparison) and u
    assert u.original["unordered"] == u.reproduced["unordered"]
    assert u.original["unordered"].startswith("unordered-sha3-256:")
    # The ODF comparison still differs: arrow0 depends on the order.
    assert not odf_hash.compare(tmp_path / "a.parquet", tmp_path / "b.parquet", rows=0)

    t2 = t.take(idx[:-1])  # one record missing
    pq.write_table(t2, tmp_path / "c.parquet")
    u = odf_hash.compare(tmp_path / "a.parquet", tmp_path / "c.parquet", ignore_order=True)
    assert not u and u.original["only_here"] == 1 and u.reproduced["only_here"] == 0
    missing = idx[-1]
    assert u.only_in_original == [odf_hash.UnorderedRecord(
        missing, missing, f'offset={missing}, v={missing * 2}, s="s{missing}"')]
    assert u.to_arrow().column("side").to_pylist() == ["original"]


def test_unordered_digest_of_tables_and_files(tmp_path):
    pl = pytest.importorskip("polars")
    t = table(3000)
    pq.write_table(t, tmp_path / "a.parquet")
    d = odf_hash.unordered_digest(tmp_path / "a.parquet")
    idx = list(range(t.num_rows))
    random.Random(2).shuffle(idx)
    shuffled = t.take(idx).select(["v", "s", "offset"])
    assert odf_hash.unordered_digest(t) == d
    assert odf_hash.unordered_digest(shuffled) == d
    assert odf_hash.unordered_digest(pl.from_arrow(shuffled)) == d  # polars: large strings
    assert odf_hash.unordered_digest(t.slice(1)) != d


def test_compare_datasets_on_the_example_datasets(root):
    """The example datasets (examples/datasets/README.md): root has slices 0-3, 4-7, 8-10
    after Seed and SetInfo; derivative has 0-2 and 3-4 after Seed and SetTransform."""
    ds = root / "examples" / "datasets"
    same = odf_hash.compare_datasets(ds / "root", ds / "root")
    assert same and same.divergence is None
    assert [(s.start, s.end, s.verdict) for s in same.slices] == [
        (0, 3, "identical"), (4, 7, "identical"), (8, 10, "identical")]
    other = odf_hash.compare_datasets(ds / "root", ds / "derivative", rows=0)
    assert not other and other.divergence == (1, "SetInfo", "SetTransform")
    assert (other.original_blocks, other.reproduced_blocks) == (5, 4)
    # The Seeds, whose kinds differ (a root, a derivative).
    assert other.chain_differences == [odf_hash.ChainDifference(
        0, 0, "Seed", "Seed.datasetKind", "root", "derivative", False)]
    assert same.chain_differences == []
    # From offset 0 the slices of both sides run on (0-3, 4-7 against 0-2, 3-4) until the
    # derivative's end at 4, where the root's go on to 7: offsets 0-4 compared (the root's
    # second file up to offset 4, its row 0), 5-7 and 8-10 the root's alone.
    assert [(s.start, s.end, s.verdict) for s in other.slices] == [
        (0, 4, "different"), (5, 7, "only-in-original"), (8, 10, "only-in-original")]
    assert [(f.start, f.end, f.window) for f in other.slices[0].original_files] == [
        (0, 3, None), (4, 7, (4, 4))]
    assert [(f.start, f.end, f.window) for f in other.slices[0].reproduced_files] == [
        (0, 2, None), (3, 4, None)]
    assert [(f.start, f.end, f.window, f.rows) for f in other.slices[1].original_files] == [
        (4, 7, (5, 7), (1, 3))]
    assert (other.only_in_original, other.only_in_reproduced) == (6, 0)


def test_dask_compares_the_slices_on_workers_as_locally(root):
    """The Dask adapter without a client (a local bag: one task per slice pair) gives the
    result compare_datasets gives in one process; a dataset of changed slices is written
    with the CLI tests' writer."""
    pytest.importorskip("dask")
    import sys

    import odf_hash.dask

    ds = root / "examples" / "datasets"
    local = odf_hash.compare_datasets(ds / "root", ds / "root")
    assert odf_hash.dask.compare_datasets(ds / "root", ds / "root") == local
    other = odf_hash.dask.compare_datasets(ds / "root", ds / "derivative")
    assert other == odf_hash.compare_datasets(ds / "root", ds / "derivative")


def test_dask_locates_rows_in_a_changed_slice(dataset_writer, tmp_path):
    pytest.importorskip("dask")
    import odf_hash.dask

    w = dataset_writer
    w.write_dataset(tmp_path / "a", [w.table(0, 100), w.table(100, 50)])
    w.write_dataset(tmp_path / "b", [w.table(0, 100), w.table(100, 50, change=130)])
    d = odf_hash.dask.compare_datasets(tmp_path / "a", tmp_path / "b")
    assert not d and [s.verdict for s in d.slices] == ["identical", "different"]
    (col,) = d.slices[1].comparison.differences
    assert col.rows == [odf_hash.RowDifference("v", 30, 130, "1300", "-1")]
    assert d == odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b")


def test_chain_differences_as_records_and_arrow_table(root, tmp_path):
    """Two derivatives written with the CLI tests' writer (tests/cli/test_compare_chains.py):
    another query and another input id; the values expected are the ones written."""
    pytest.importorskip("flatbuffers")
    import sys

    sys.path.insert(0, str(root / "tests" / "cli"))
    try:
        import test_compare_chains as w
    finally:
        sys.path.pop(0)
    ref_a = w.write_derivative(tmp_path / "a", input_name="src-1")
    ref_b = w.write_derivative(tmp_path / "b", input_name="src-2", query="SELECT 1 AS v")
    d = odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b")
    assert d.chain_differences == [
        odf_hash.ChainDifference(1, 1, "SetTransform", "SetTransform.inputs[src].datasetRef",
                                 ref_a, ref_b, True),
        odf_hash.ChainDifference(1, 1, "SetTransform",
                                 "SetTransform.transform.queries[0].query",
                                 w.QUERY, "SELECT 1 AS v", False),
        odf_hash.ChainDifference(3, 3, "ExecuteTransform",
                                 "ExecuteTransform.queryInputs[0].datasetId", ref_a, ref_b,
                                 True),
    ]
    assert d  # the same records: chain differences do not change the verdict
    t = d.chain_differences_to_arrow()
    assert t.num_rows == 3 and t.column("field").to_pylist()[1] == \
        "SetTransform.transform.queries[0].query"
    assert t.column("identity_only").to_pylist() == [True, False, True]


def test_a_dropped_row_is_one_run_with_its_values(tmp_path):
    """Row 7,000 dropped in the reproduction: one run of one row only in the original, every
    other row the same record at its place (the expected values are the table's)."""
    t = table()
    pq.write_table(t, tmp_path / "a.parquet")
    pq.write_table(pa.concat_tables([t.slice(0, 7_000), t.slice(7_001)]), tmp_path / "b.parquet")
    c = odf_hash.compare(tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert c.verdict == "different" and not c
    assert c.row_block == {"side": "original", "row": 7_000, "rows": 1, "at_end": False,
                           "first": [{"row": 7_000, "offset": 7_000,
                                      "values": 'offset=7000, v=14000, s="s7000"'}]}
    same = odf_hash.compare(tmp_path / "a.parquet", tmp_path / "a.parquet")
    assert same.row_block is None


def test_ignore_time_columns_verifies_a_reproduction_at_another_time(tmp_path):
    import datetime as dt

    for name, hours in (("a", 0), ("b", 5)):
        t = table(1000).append_column("system_time", pa.array(
            [dt.datetime(2026, 1, 1, hours, tzinfo=dt.timezone.utc)] * 1000,
            pa.timestamp("us", tz="UTC")))
        pq.write_table(t, tmp_path / f"{name}.parquet")
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    assert not odf_hash.compare(a, b)
    c = odf_hash.compare(a, b, ignore_time_columns=True)
    assert c and c.verdict == "different" and c.records == "equal"
    assert c.ignored_columns == ["system_time"]
    assert odf_hash.compare(a, b, ignore_columns=["system_time"]).verified
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.compare(a, b, ignore_columns=[""])
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.compare(a, b, ignore_order=True, ignore_time_columns=True)
