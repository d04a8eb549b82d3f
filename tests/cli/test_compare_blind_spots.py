"""`odf-hash compare` keeps two verdicts apart: what ODF checks (arrow0) and what the records
are. Pairs of files whose records differ while arrow0 hashes them alike (its blind spots)
must never be called the same records, nor exit 0.

The pairs are tests/conformance/blind_spots.json: files written by pyarrow, polars and
DuckDB, each with the reference's hash (arrow-digest through the conformance tool, checked
again by the ctest conformance_blind_spots) and, from their construction, what the records
are and which rows differ. Every "different" must name what differs: the pairs written here
(a time zone, records on one side) come from the tables each test writes.
"""
import json
import pathlib

import pytest

pytest.importorskip("flatbuffers")
import forged_dataset  # noqa: E402  (tests/cli: datasets over given data files)

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "tests" / "conformance"
PAIRS = json.loads((CONFORMANCE / "blind_spots.json").read_text())["pairs"]
FILE_PAIRS = [p for p in PAIRS if "original_files" not in p]


def compare_json(run, a, b, *flags):
    r = run("compare", "--json", *flags, a, b)
    assert r.rc in (0, 1), r
    return r, json.loads(r.out)


@pytest.mark.parametrize("pair", FILE_PAIRS, ids=[p["name"] for p in FILE_PAIRS])
def test_a_blind_spot_of_arrow0_is_not_the_same_records(run, pair):
    a, b = CONFORMANCE / pair["original"], CONFORMANCE / pair["reproduced"]
    r, doc = compare_json(run, a, b)
    assert r.rc == 1
    # What ODF checks: the reference's hash, on both sides.
    assert doc["verdict"] == "equivalent"
    assert doc["original"]["logical"] == doc["reproduced"]["logical"] == pair["reference_logical"]
    # What the records are: the construction's answer, and where.
    assert doc["records"] == pair["records"] and doc["verified"] is False
    assert [doc["original"]["rows"], doc["reproduced"]["rows"]] == pair["rows"]
    shown = {(d["column"], x["row"]): x for d in doc["differences"] for x in d["rows"]}
    assert sum(d["differing_rows"] for d in doc["differences"]) == len(pair["differing"])
    for d in pair["differing"]:
        x = shown[(d["field"], d["row"])]
        if d["null"] is not None:
            assert x[d["null"]] == "null"
            assert x["reproduced" if d["null"] == "original" else "original"] != "null"
        else:
            assert x["original"] != x["reproduced"]
    assert pair["blind_spot"] in [c["kind"] for c in doc["causes"]]
    text = run("compare", a, b)
    assert text.rc == 1
    assert "verdict     equivalent (different bytes, the same arrow0 hash)" in text.out
    assert "arrow0 (what ODF and kamu check) accepts this reproduction" in text.out
    assert "same records, different encoding" not in text.out
    first = pair["differing"][0]
    assert f"row {first['row']}" in text.out and "why arrow0 is equal:" in text.out


def test_struct_null_is_shown_whole(run):
    pair = next(p for p in PAIRS if p["name"] == "struct_null_pyarrow")
    r = run("compare", CONFORMANCE / pair["original"], CONFORMANCE / pair["reproduced"])
    assert "records     DIFFERENT" in r.out
    line = next(x for x in r.out.splitlines() if x.strip().startswith("row 0"))
    assert "original null, reproduced {" in line  # the struct, not its member's null
    assert "a null struct on one side and a struct on the other" in r.out


def test_row_count_blind_spot_names_both_counts(run):
    pair = next(p for p in PAIRS if p["name"] == "row_count_duckdb")
    r = run("compare", CONFORMANCE / pair["original"], CONFORMANCE / pair["reproduced"])
    assert r.rc == 1
    assert "rows        original 8, reproduced 1" in r.out
    assert "arrow0 does not hash the number of rows" in r.out


def test_rows_zero_still_compares_the_records(run):
    """--rows 0 skips locating rows, never the records' verdict."""
    pair = FILE_PAIRS[0]
    r, doc = compare_json(run, CONFORMANCE / pair["original"], CONFORMANCE / pair["reproduced"],
                          "--rows", "0")
    assert r.rc == 1 and doc["verdict"] == "equivalent"
    assert doc["records"] == pair["records"] and "differences" not in doc
    assert doc["causes"]


def test_reencoded_records_are_equal(run):
    """The same table with other codecs and row groups (make_pyarrow_fixtures.py writes both
    from one table; vectors.json gives them the reference's same hash)."""
    a = CONFORMANCE / "data/pyarrow/base_default.parquet"
    b = CONFORMANCE / "data/pyarrow/base_zstd_small_groups.parquet"
    r, doc = compare_json(run, a, b)
    assert r.rc == 0
    assert (doc["verdict"], doc["records"], doc["verified"]) == ("equivalent", "equal", True)
    assert doc["causes"] == [] and doc["schema_differences"] == []
    text = run("compare", a, b).out
    assert "records     equal (compared value by value, in order)" in text


def test_identical_bytes(run):
    a = CONFORMANCE / "data/pyarrow/base_default.parquet"
    r, doc = compare_json(run, a, a)
    assert r.rc == 0 and (doc["verdict"], doc["records"], doc["verified"]) == (
        "identical", "equal", True)


def test_a_dataset_slice_arrow0_accepts_is_not_the_same_records(run, tmp_path):
    """Two datasets whose one slice is a blind-spot pair, the chain recording the reference's
    hash (as kamu would): the slice is equivalent, its records differ, the datasets too."""
    pair = next(p for p in PAIRS if p["name"] == "struct_null_polars")
    logical = forged_dataset.multihash(pair["reference_logical"])
    for side in ("original", "reproduced"):
        data = (CONFORMANCE / pair[side]).read_bytes()
        forged_dataset.forge(tmp_path / side, [(data, (0, 1), logical)])
    r, doc = compare_json(run, tmp_path / "original", tmp_path / "reproduced")
    assert r.rc == 1 and doc["verdict"] == "different"
    (s,) = doc["slices"]
    assert s["verdict"] == "equivalent"
    assert s["comparison"]["records"] == "different" and s["comparison"]["verified"] is False
    text = run("compare", tmp_path / "original", tmp_path / "reproduced").out
    assert "records     DIFFERENT" in text and "row 0" in text


# Every "different" names what differs.

def zone_pair(tmp_path, writer):
    """The same instants, the time zone written as UTC on one side and Etc/UTC on the other."""
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    millis = [1_600_000_000_000 + i * 1000 for i in range(100)]
    if writer == "pyarrow":
        pa = pytest.importorskip("pyarrow")
        pq = pytest.importorskip("pyarrow.parquet")
        for path, tz in ((a, "UTC"), (b, "Etc/UTC")):
            pq.write_table(pa.table({"offset": pa.array(range(100), pa.int64()),
                                     "ts": pa.array(millis, pa.timestamp("ms", tz=tz))}), path)
    else:
        pl = pytest.importorskip("polars")
        for path, tz in ((a, "UTC"), (b, "Etc/UTC")):
            pl.DataFrame({"offset": list(range(100)), "ts": millis}).with_columns(
                pl.col("ts").cast(pl.Datetime("ms", time_zone=tz))).write_parquet(path)
    return a, b


@pytest.mark.parametrize("writer", ["pyarrow", "polars"])
def test_ignore_order_names_a_zone_difference(run, tmp_path, writer):
    a, b = zone_pair(tmp_path, writer)
    r, doc = compare_json(run, a, b, "--ignore-order")
    assert r.rc == 1
    assert doc["same_records"] is False and doc["same_values"] is True
    assert doc["original"]["only_here"] == doc["reproduced"]["only_here"] == 0
    assert [(d["field"], d["kind"], d["original"], d["reproduced"])
            for d in doc["schema_differences"]] == [
        ("ts", "type", "timestamp[ms, tz=UTC]", "timestamp[ms, tz=Etc/UTC]")]
    text = run("compare", "--ignore-order", a, b).out
    assert "different schemas, the same values in every record" in text
    assert "ts: type timestamp[ms, tz=UTC] vs timestamp[ms, tz=Etc/UTC]" in text
    assert "only in original" not in text and "0 records" not in text


def test_file_compare_names_a_zone_difference(run, tmp_path):
    a, b = zone_pair(tmp_path, "pyarrow")
    r, doc = compare_json(run, a, b)
    assert r.rc == 1 and doc["verdict"] == "different" and doc["records"] == "different"
    assert [d["field"] for d in doc["schema_differences"]] == ["ts"]
    text = run("compare", a, b).out
    assert "ts: type timestamp[ms, tz=UTC] vs timestamp[ms, tz=Etc/UTC]" in text
    assert "records     different (the schemas differ: above)" in text


def test_ignore_order_names_the_rows_only_one_side_has(run, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    con = duckdb.connect()
    try:
        con.execute(f"COPY (SELECT i::BIGINT AS v FROM range(10) r(i)) TO '{a}' (FORMAT parquet)")
        con.execute(f"COPY (SELECT i::BIGINT AS v FROM range(12) r(i) ORDER BY i DESC) TO '{b}' "
                    "(FORMAT parquet)")
    finally:
        con.close()
    r, doc = compare_json(run, a, b, "--ignore-order")
    assert r.rc == 1 and doc["same_values"] is False
    assert (doc["original"]["only_here"], doc["reproduced"]["only_here"]) == (0, 2)
    text = run("compare", "--ignore-order", a, b).out
    assert "rows        original 10, reproduced 12" in text
    assert "only in reproduced  2 records" in text
