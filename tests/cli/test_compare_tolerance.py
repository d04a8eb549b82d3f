"""`odf-hash compare --rtol/--atol`: a recomputation whose floating-point values are a few ulps
apart (another engine, a sum in another order) is "equal within tolerance" and exits 0 when a
tolerance is asked for, never otherwise; arrow0's verdict stays "different". Every expected
value (which values differ, which are beyond the tolerance, the largest deviation and its row)
comes from numpy reading the files back through pyarrow (numpy.isclose is the rule the
option documents), never from odf-hash. Files are written by pyarrow, polars, DuckDB and
pandas."""
import json

import pytest

from test_compare_datasets import write_dataset

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
np = pytest.importorskip("numpy")

WRITERS = ["pyarrow", "polars", "duckdb", "pandas"]
N = 20_000


def write(writer, cols, path):
    """Writes `cols` (offset int64, x float64, s string) as Parquet with `writer`."""
    t = pa.table({"offset": pa.array(cols["offset"], pa.int64()),
                  "x": pa.array(cols["x"], pa.float64()),
                  "s": pa.array(cols["s"], pa.string())})
    write_any(writer, t, path)


def write_any(writer, t, path):
    """Writes the pyarrow table `t` as Parquet with `writer`."""
    if writer == "pyarrow":
        pq.write_table(t, path)
    elif writer == "polars":
        pl = pytest.importorskip("polars")
        pl.from_arrow(t).write_parquet(path)
    elif writer == "duckdb":
        duckdb = pytest.importorskip("duckdb")
        con = duckdb.connect()
        con.register("t", t)
        con.execute(f"COPY (SELECT * FROM t) TO '{path}' (FORMAT parquet)")
        con.close()
    elif writer == "pandas":
        pytest.importorskip("pandas")
        t.to_pandas().to_parquet(path, index=False)
    else:
        raise ValueError(writer)


def columns(n=N, seed=7):
    rng = np.random.default_rng(seed)
    return {"offset": list(range(n)), "x": rng.normal(1000.0, 300.0, n).tolist(),
            "s": [f"v{i}" for i in range(n)]}


def nudged(cols, rel, every=97):
    """A copy whose x is nudged by a relative `rel` (times 1..3) in every `every`-th row."""
    out = {k: list(v) for k, v in cols.items()}
    for i in range(0, len(out["x"]), every):
        out["x"][i] = out["x"][i] * (1.0 + rel * (1 + i % 3))
    return out


def expected(a_path, b_path, column, rtol, atol):
    """What numpy says of a float column of two files: the rows whose values differ, those not
    numpy.isclose (the original the reference), the largest |b - a| and its first row."""
    a = pq.read_table(a_path).column(column).to_numpy(zero_copy_only=False).astype(np.float64)
    b = pq.read_table(b_path).column(column).to_numpy(zero_copy_only=False).astype(np.float64)
    differ = ~((a == b) | (np.isnan(a) & np.isnan(b)))
    close = np.isclose(b, a, rtol=rtol, atol=atol, equal_nan=True)
    dev = np.where(differ, np.abs(b - a), -1.0)
    return {"differing_rows": int(differ.sum()), "outside_rows": int((differ & ~close).sum()),
            "max_deviation": float(dev.max()), "row": int(np.argmax(dev))}


def nudged_pair(tmp_path, writer, rel):
    """The original (pyarrow) and a reproduction (`writer`) whose x is nudged by `rel`."""
    cols = columns()
    a, b = tmp_path / "a.parquet", tmp_path / f"b-{writer}.parquet"
    write("pyarrow", cols, a)
    write(writer, nudged(cols, rel), b)
    return a, b


def tolerance_doc(run, a, b, *flags, rc):
    r = run("compare", "--json", *flags, a, b)
    assert r.rc == rc, r
    doc = json.loads(r.out)
    assert doc["verdict"] == "different"  # arrow0 differs, whatever the tolerance says
    return doc


@pytest.mark.parametrize("writer", WRITERS)
def test_values_a_few_ulps_apart_are_equal_within_tolerance(run, tmp_path, writer):
    a, b = nudged_pair(tmp_path, writer, 1e-13)
    plain = run("compare", a, b)
    assert plain.rc == 1, plain  # no tolerance asked for: the records differ
    assert "tolerance" not in json.loads(run("compare", "--json", a, b).out)
    doc = tolerance_doc(run, a, b, "--rtol", "1e-9", rc=0)
    t = doc["tolerance"]
    assert (t["rtol"], t["atol"], t["within"], doc["verified"]) == (1e-9, 0.0, True, True)
    assert (t["original_rows"], t["reproduced_rows"], t["differing_records"]) == (N, N, 0)
    assert t["differences"] == []
    want = expected(a, b, "x", 1e-9, 0.0)
    assert want["differing_rows"] > 100 and want["outside_rows"] == 0
    [d] = t["deviations"]
    assert d["column"] == "x"
    assert (d["differing_rows"], d["outside_rows"]) == (want["differing_rows"], 0)
    assert d["max_deviation"] == want["max_deviation"]
    assert (d["at"]["row"], d["at"]["offset"]) == (want["row"], want["row"])
    text = run("compare", "--rtol", "1e-9", a, b)
    assert text.rc == 0, text
    assert "verdict     different" in text.out
    assert "tolerance   rtol 1e-09, atol 0: EQUAL WITHIN TOLERANCE" in text.out
    assert f"x: {want['differing_rows']} values differ, all within the tolerance" in text.out
    assert f"at row {want['row']} (offset {want['row']})" in text.out


@pytest.mark.parametrize("writer", WRITERS)
def test_a_tolerance_too_small_fails_naming_the_values_beyond_it(run, tmp_path, writer):
    a, b = nudged_pair(tmp_path, writer, 1e-7)
    rtol = 1.5e-7  # nudges of 1e-7 pass, 2e-7 and 3e-7 do not
    doc = tolerance_doc(run, a, b, "--rtol", str(rtol), "--rows", "3", rc=1)
    t = doc["tolerance"]
    want = expected(a, b, "x", rtol, 0.0)
    assert 0 < want["outside_rows"] < want["differing_rows"]
    assert not t["within"] and not doc["verified"]
    assert t["differing_records"] == want["outside_rows"]
    [d] = t["deviations"]
    assert (d["differing_rows"], d["outside_rows"]) == (want["differing_rows"],
                                                         want["outside_rows"])
    assert d["max_deviation"] == want["max_deviation"] and d["at"]["row"] == want["row"]
    [beyond] = t["differences"]
    assert beyond["column"] == "x" and beyond["differing_rows"] == want["outside_rows"]
    assert len(beyond["rows"]) == 3
    # An absolute tolerance larger than every deviation lets them all through.
    doc = tolerance_doc(run, a, b, "--atol", str(want["max_deviation"] * 2), rc=0)
    assert doc["tolerance"]["within"] and doc["tolerance"]["rtol"] == 0.0


@pytest.mark.parametrize("writer", WRITERS)
def test_another_column_that_differs_is_never_within(run, tmp_path, writer):
    cols = nudged(columns(), 1e-13)
    cols["s"][4321] = "changed"
    a, b = tmp_path / "a.parquet", tmp_path / f"b-{writer}.parquet"
    write("pyarrow", columns(), a)
    write(writer, cols, b)
    doc = tolerance_doc(run, a, b, "--rtol", "0.5", rc=1)
    t = doc["tolerance"]
    assert not t["within"] and t["differing_records"] == 1
    [s] = t["differences"]
    assert (s["column"], s["differing_rows"], s["rows"][0]["row"]) == ("s", 1, 4321)
    assert (s["rows"][0]["original"], s["rows"][0]["reproduced"]) == ('"v4321"', '"changed"')
    assert t["deviations"][0]["outside_rows"] == 0


def test_nan_infinity_and_null_as_numpy_isclose_has_them(run, tmp_path):
    nan, inf = float("nan"), float("inf")
    a_vals = [1.0, nan, nan, inf, inf, -inf, 0.0, 5.0, None, None, 2.0, -0.0, 1e300]
    b_vals = [1.0 + 1e-12, nan, 3.0, inf, -inf, -inf, 1e-300, 5.5, None, 4.0, None, 0.0, inf]
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    for path, vals in ((a, a_vals), (b, b_vals)):
        pq.write_table(pa.table({"x": pa.array(vals, pa.float64())}), path)
    doc = tolerance_doc(run, a, b, "--rtol", "1e-9", rc=1)
    t = doc["tolerance"]
    # numpy, value by value; a null against a value is beyond any tolerance, two nulls equal.
    differ = beyond = 0
    for x, y in zip(a_vals, b_vals):
        if x is None or y is None:
            differ += (x is None) != (y is None)
            beyond += (x is None) != (y is None)
            continue
        same = x == y and np.signbit(x) == np.signbit(y) or (np.isnan(x) and np.isnan(y))
        differ += not same
        beyond += not bool(np.isclose(y, x, rtol=1e-9, atol=0.0, equal_nan=True))
    [d] = t["deviations"]
    assert (d["differing_rows"], d["outside_rows"]) == (differ, beyond)
    assert d["max_deviation"] is None  # infinite: JSON has no infinity
    assert t["differing_records"] == beyond
    # -0.0 against 0.0 differs by 0, within any tolerance; 0.0 against 1e-300 needs an atol.
    doc = tolerance_doc(run, a, b, "--rtol", "1e-9", "--atol", "1e-299", rc=1)
    assert doc["tolerance"]["deviations"][0]["outside_rows"] == beyond - 1


def test_float32_against_float64_and_float16(run, tmp_path):
    x = np.random.default_rng(3).random(1000)
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(pa.table({"x": pa.array(x.astype(np.float32))}), a)
    pq.write_table(pa.table({"x": pa.array(x)}), b)
    dev = np.abs(x - x.astype(np.float32).astype(np.float64))
    doc = tolerance_doc(run, a, b, "--rtol", "1e-6", rc=0)
    [d] = doc["tolerance"]["deviations"]
    assert d["max_deviation"] == float(dev.max()) and d["at"]["row"] == int(np.argmax(dev))
    tolerance_doc(run, a, b, "--rtol", "1e-9", rc=1)
    # float16 (Arrow IPC files) against float64.
    import pyarrow.feather as feather
    h = x.astype(np.float16)
    ha, hb = tmp_path / "h.arrow", tmp_path / "d.arrow"
    feather.write_feather(pa.table({"x": pa.array(h)}), ha, compression="uncompressed")
    feather.write_feather(pa.table({"x": pa.array(x)}), hb, compression="uncompressed")
    dev = np.abs(x - h.astype(np.float64))
    doc = tolerance_doc(run, ha, hb, "--atol", "1e-3", rc=0)
    [d] = doc["tolerance"]["deviations"]
    assert d["max_deviation"] == float(dev.max()) and d["at"]["row"] == int(np.argmax(dev))


def test_row_counts_that_differ_are_not_within(run, tmp_path):
    cols = columns(1000)
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    write("pyarrow", cols, a)
    write("pyarrow", {k: v[:-1] for k, v in nudged(cols, 1e-13).items()}, b)
    doc = tolerance_doc(run, a, b, "--rtol", "1e-6", rc=1)
    t = doc["tolerance"]
    assert (t["within"], t["original_rows"], t["reproduced_rows"]) == (False, 1000, 999)
    text = run("compare", "--rtol", "1e-6", a, b)
    assert "not within it: the row counts differ (original 1000, reproduced 999)" in text.out


def test_columns_that_differ_in_name_are_not_compared(run, tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(pa.table({"x": pa.array([1.0, 2.0])}), a)
    pq.write_table(pa.table({"y": pa.array([1.0, 2.0])}), b)
    doc = tolerance_doc(run, a, b, "--rtol", "1e-6", rc=1)
    t = doc["tolerance"]
    assert t["within"] is False and t["error"] == f'{b}: no column "x"'
    assert t["deviations"] == [] and "differences" not in t
    text = run("compare", "--rtol", "1e-6", a, b)
    assert f'tolerance   rtol 1e-06, atol 0: not applied: {b}: no column "x"' in text.out


def test_with_ignored_columns(run, tmp_path):
    cols = columns(1000)
    other = nudged(cols, 1e-13)
    other["s"] = ["elsewhere"] * 1000
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    write("pyarrow", cols, a)
    write("pyarrow", other, b)
    tolerance_doc(run, a, b, "--rtol", "1e-9", rc=1)
    doc = tolerance_doc(run, a, b, "--rtol", "1e-9", "--ignore-columns", "s", rc=0)
    assert doc["tolerance"]["within"] and doc["ignored_columns"] == ["s"]


@pytest.mark.parametrize("flags", [["--rtol", "-1"], ["--atol", "-0.5"], ["--rtol", "nan"],
                                   ["--rtol", "inf"], ["--rtol", "x"],
                                   ["--ignore-order", "--rtol", "1e-9"]])
def test_bad_tolerances_are_refused(run, tmp_path, flags):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    write("pyarrow", columns(10), a)
    write("pyarrow", nudged(columns(10), 1e-13, every=2), b)
    r = run("compare", *flags, a, b)
    assert r.rc == 2, r
    assert r.err.strip() and "Traceback" not in r.err


def test_datasets_count_the_runs_within_tolerance(run, tmp_path):
    def tables(rel):
        out = []
        for start in (0, 100):
            x = [1.0 + i / 7 for i in range(start, start + 100)]
            if rel and start == 100:
                x = [v * (1 + rel) for v in x]
            out.append(pa.table({"offset": pa.array(range(start, start + 100), pa.int64()),
                                 "x": pa.array(x, pa.float64())}))
        return out

    write_dataset(tmp_path / "a", tables(0))
    write_dataset(tmp_path / "b", tables(1e-12))
    plain = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    assert plain.rc == 1, plain
    r = run("compare", "--json", "--rtol", "1e-9", tmp_path / "a", tmp_path / "b")
    assert r.rc == 0, r
    summary = json.loads(r.out)["summary"]
    assert (summary["same"], summary["within_tolerance"], summary["different"]) == (2, 1, 0)
    text = run("compare", "--rtol", "1e-9", tmp_path / "a", tmp_path / "b")
    assert text.rc == 0, text
    assert "2 runs of slices both hold: 2 the same records (1 of them within the tolerance)" \
        in text.out
    assert "EQUAL WITHIN TOLERANCE" in text.out
