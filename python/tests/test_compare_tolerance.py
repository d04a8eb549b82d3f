"""odf_hash.compare(rtol=, atol=): floating-point values a few ulps apart are equal within the
tolerance (Comparison.tolerance, verified) when one is asked for, never otherwise; arrow0's
verdict stays "different". Expected deviations come from numpy on the values the test wrote
(numpy.isclose is the documented rule); the command's side is tests/cli/test_compare_tolerance.py."""
import math

import pytest

import odf_hash

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
np = pytest.importorskip("numpy")

N = 5000


def write_pair(tmp_path, rel, every=50, change_s=False):
    x = np.random.default_rng(11).normal(50.0, 20.0, N)
    y = x.copy()
    y[::every] *= 1.0 + rel
    s = [f"s{i}" for i in range(N)]
    t = [f"s{i}" if not (change_s and i == 77) else "other" for i in range(N)]
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(pa.table({"offset": pa.array(range(N), pa.int64()), "x": x, "s": s}), a)
    pq.write_table(pa.table({"offset": pa.array(range(N), pa.int64()), "x": y, "s": t}), b)
    dev = np.where(x != y, np.abs(y - x), -1.0)
    return a, b, int((x != y).sum()), float(dev.max()), int(np.argmax(dev))


def test_within_tolerance_is_verified_and_says_where(tmp_path):
    a, b, differing, largest, row = write_pair(tmp_path, 1e-12)
    plain = odf_hash.compare(a, b)
    assert not plain and plain.tolerance is None
    c = odf_hash.compare(a, b, rtol=1e-9)
    assert c and c.verified and c.verdict == "different"
    t = c.tolerance
    assert isinstance(t, odf_hash.ToleranceCheck)
    assert (t.rtol, t.atol, t.within, t.differing_records, t.differences) == (1e-9, 0.0, True, 0,
                                                                              [])
    [d] = t.deviations
    assert isinstance(d, odf_hash.Deviation)
    assert (d.column, d.differing_rows, d.outside_rows) == ("x", differing, 0)
    assert (d.max_deviation, d.row, d.offset) == (largest, row, row)
    # Lists of files read as one table take a tolerance too.
    g = odf_hash.compare([a], [b, b], rtol=1e-9)
    assert not g  # twice the rows
    assert g.tolerance.original_rows == N and g.tolerance.reproduced_rows == 2 * N


def test_beyond_the_tolerance_or_another_column(tmp_path):
    a, b, differing, largest, row = write_pair(tmp_path, 1e-3, change_s=True)
    c = odf_hash.compare(a, b, atol=largest / 2, rows=2)
    assert not c and not c.tolerance.within
    [d] = c.tolerance.deviations
    assert d.differing_rows == differing and 0 < d.outside_rows <= differing
    assert d.max_deviation == largest and d.row == row
    by_col = {x.column: x for x in c.tolerance.differences}
    assert by_col["x"].differing_rows == d.outside_rows and len(by_col["x"].rows) == 2
    assert by_col["s"].differing_rows == 1 and by_col["s"].rows[0].row == 77
    wide = odf_hash.compare(a, b, atol=largest * 2)
    assert not wide and list({x.column for x in wide.tolerance.differences}) == ["s"]
    # Ignoring the other column: within.
    assert odf_hash.compare(a, b, atol=largest * 2, ignore_columns=["s"])


def test_infinite_deviation_is_inf(tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(pa.table({"x": pa.array([1.0, float("nan"), None])}), a)
    pq.write_table(pa.table({"x": pa.array([1.0, 2.0, None])}), b)
    c = odf_hash.compare(a, b, rtol=0.5)
    [d] = c.tolerance.deviations
    assert math.isinf(d.max_deviation) and (d.row, d.outside_rows) == (1, 1)


@pytest.mark.parametrize("kwargs", [{"rtol": -1}, {"atol": float("nan")}, {"rtol": "1e-9"},
                                    {"atol": True}, {"rtol": float("inf")},
                                    {"rtol": 1e-9, "ignore_order": True}])
def test_bad_tolerances(tmp_path, kwargs):
    a, b, *_ = write_pair(tmp_path, 1e-12)
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.compare(a, b, **kwargs)
