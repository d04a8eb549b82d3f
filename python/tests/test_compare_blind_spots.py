"""odf_hash.compare keeps two verdicts apart: what ODF checks (``verdict``, arrow0) and what
the records are (``records``). The pairs of tests/conformance/blind_spots.json (pyarrow,
polars and DuckDB files whose records differ while the reference, arrow-digest, gives them
one hash; what their records are comes from their construction, written there) must never be
verified, in a file pair, a run of files, a dataset, nor through the adapters' slice
comparison."""
import json

import pytest

import odf_hash
from odf_hash import _datasets

from conftest import CONFORMANCE

PAIRS = json.loads((CONFORMANCE / "blind_spots.json").read_text())["pairs"]
FILE_PAIRS = [p for p in PAIRS if "original_files" not in p]
RUNS = [p for p in PAIRS if "original_files" in p]


def check(c, pair):
    assert c.verdict == "equivalent"
    assert c.original["logical"] == c.reproduced["logical"] == pair["reference_logical"]
    assert c.records == pair["records"]
    assert not c.verified and not c.same_records and not c
    shown = {(r.column, r.row): r for r in c.differing_rows}
    assert sum(d.differing_rows for d in c.differences) == len(pair["differing"])
    for d in pair["differing"]:
        r = shown[(d["field"], d["row"])]
        if d["null"] is not None:
            other = "reproduced" if d["null"] == "original" else "original"
            assert getattr(r, d["null"]) == "null" and getattr(r, other) != "null"
    assert pair["blind_spot"] in [k.kind for k in c.causes]


@pytest.mark.parametrize("pair", FILE_PAIRS, ids=[p["name"] for p in FILE_PAIRS])
def test_file_pairs(pair):
    check(odf_hash.compare(str(CONFORMANCE / pair["original"]),
                           str(CONFORMANCE / pair["reproduced"])), pair)


@pytest.mark.parametrize("pair", RUNS, ids=[p["name"] for p in RUNS])
def test_runs_of_files(pair):
    c = odf_hash.compare([str(CONFORMANCE / f) for f in pair["original_files"]],
                         [str(CONFORMANCE / f) for f in pair["reproduced_files"]])
    assert c.original["physical"] is None
    check(c, pair)
    assert [c.original["rows"], c.reproduced["rows"]] == pair["rows"]


def test_struct_field_shown_whole_in_to_arrow():
    pair = next(p for p in PAIRS if p["name"] == "struct_null_duckdb")
    c = odf_hash.compare(str(CONFORMANCE / pair["original"]), str(CONFORMANCE / pair["reproduced"]))
    t = c.to_arrow().to_pylist()
    assert [(r["column"], r["row"], r["original"]) for r in t] == [("s", 0, "null")]
    assert t[0]["reproduced"].startswith("{")
    (d,) = c.differences
    assert d.null_on_one_side == 1


def test_equal_records_are_verified():
    a = CONFORMANCE / "data/pyarrow/base_default.parquet"
    b = CONFORMANCE / "data/pyarrow/base_zstd_small_groups.parquet"
    c = odf_hash.compare(str(a), str(b))
    assert (c.verdict, c.records) == ("equivalent", "equal")
    assert c.verified and c.same_records and c and c.causes == []
    same = odf_hash.compare(str(a), str(a))
    assert (same.verdict, same.records, same.verified) == ("identical", "equal", True)


def test_a_dataset_of_a_blind_spot_is_not_the_same_records(tmp_path):
    pytest.importorskip("flatbuffers")
    import sys

    sys.path.insert(0, str(CONFORMANCE.parent / "cli"))
    try:
        import forged_dataset
    finally:
        sys.path.pop(0)

    pair = next(p for p in PAIRS if p["name"] == "null_shift_pyarrow")
    logical = forged_dataset.multihash(pair["reference_logical"])
    for side in ("original", "reproduced"):
        forged_dataset.forge(tmp_path / side,
                             [((CONFORMANCE / pair[side]).read_bytes(), (0, 1), logical)])
    d = odf_hash.compare_datasets(str(tmp_path / "original"), str(tmp_path / "reproduced"))
    assert not d and not d.same_records
    (s,) = d.slices
    assert s.verdict == "equivalent" and s.comparison.records == "different"
    # The adapters' path (Dask, Ray): each run compared by odf_hash.compare, then merged.
    paired = _datasets._pair_dataset_slices(str(tmp_path / "original"),
                                            str(tmp_path / "reproduced"))
    merged = _datasets._compare_slices(
        paired, lambda runs: [_datasets._compare_run(r, rows=5, store={}, allow=paired[2])
                              for r in runs])
    assert not merged.same_records
    assert merged.slices[0].comparison.records == "different"


def test_ignore_order_names_a_zone_difference(tmp_path):
    """The same instants, the zone written UTC on one side and Etc/UTC on the other (DuckDB
    and polars cannot: they write no zone name, or the same one, for TIMESTAMPTZ)."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    millis = [1_600_000_000_000 + i * 1000 for i in range(50)]
    a, b = str(tmp_path / "utc.parquet"), str(tmp_path / "etc.parquet")
    for path, tz in ((a, "UTC"), (b, "Etc/UTC")):
        pq.write_table(pa.table({"ts": pa.array(millis, pa.timestamp("ms", tz=tz))}), path)
    u = odf_hash.compare(a, b, ignore_order=True)
    assert not u.same_records and u.same_values
    assert u.only_in_original == [] and u.only_in_reproduced == []
    assert [(d.field, d.kind, d.original, d.reproduced) for d in u.schema_differences] == [
        ("ts", "type", "timestamp[ms, tz=UTC]", "timestamp[ms, tz=Etc/UTC]")]


def test_ignore_order_of_a_blind_spot_names_the_records():
    pair = next(p for p in PAIRS if p["name"] == "row_count_polars")
    u = odf_hash.compare(str(CONFORMANCE / pair["original"]),
                         str(CONFORMANCE / pair["reproduced"]), ignore_order=True)
    assert not u.same_records and not u.same_values
    assert (u.original["rows"], u.reproduced["rows"]) == (8, 1)
    assert (u.original["only_here"], u.reproduced["only_here"]) == (8, 1)
