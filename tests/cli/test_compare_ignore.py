"""`odf-hash compare --ignore-columns` / `--ignore-time-columns`: a faithful reproduction run at
another time (its records differ in the time columns ODF stamps, nowhere else) exits 0, the
verdict still saying that arrow0 differs and which columns were left out; any other difference
still fails. Files are written by pyarrow, polars, DuckDB and pandas from columns the test
builds; datasets by the CLI tests' writer with a SetVocab naming its own time column."""
import datetime as dt
import json

import pytest

from test_compare_datasets import set_vocab, stamped, write_dataset
from test_compare_rows import columns, write

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

WRITERS = ["pyarrow", "polars", "duckdb", "pandas"]


def timed_pair(tmp_path, writer, change=None):
    """An original (pyarrow) and a reproduction (`writer`) of the same columns, the
    reproduction's system_time five hours later; `change(cols)` edits the reproduction."""
    cols = columns(2000)
    a, b = tmp_path / "a.parquet", tmp_path / f"b-{writer}.parquet"
    write("pyarrow", cols, a)
    write(writer, cols if change is None else change(cols), b)
    for path, hours in ((a, 0), (b, 5)):
        t = pq.read_table(path)
        t = t.append_column("system_time", pa.array(
            [dt.datetime(2026, 1, 1, hours, tzinfo=dt.timezone.utc)] * t.num_rows,
            pa.timestamp("us", tz="UTC")))
        pq.write_table(t, path)
    return a, b


@pytest.mark.parametrize("writer", WRITERS)
def test_a_reproduction_at_another_time_exits_0(run, tmp_path, writer):
    a, b = timed_pair(tmp_path, writer)
    plain = run("compare", "--json", a, b)
    assert plain.rc == 1, plain  # the time column differs: arrow0 and the records say so
    for flags in (["--ignore-time-columns"], ["--ignore-columns", "system_time"],
                  ["--ignore-columns", "event_time,system_time"]):
        r = run("compare", "--json", *flags, a, b)
        assert r.rc == 0, (flags, r)
        doc = json.loads(r.out)
        assert (doc["verdict"], doc["records"], doc["verified"]) == ("different", "equal", True)
        assert doc["ignored_columns"] == ["system_time"]  # event_time: in neither file
        assert "ignored-columns" in [c["kind"] for c in doc["causes"]]
    text = run("compare", "--ignore-time-columns", a, b)
    assert text.rc == 0, text
    assert "ignored     system_time (left out of the records, as asked)" in text.out
    assert "verdict     different (arrow0, which covers the ignored columns too)" in text.out


@pytest.mark.parametrize("writer", WRITERS)
def test_another_difference_still_fails(run, tmp_path, writer):
    def change(cols):
        cols = {k: list(v) for k, v in cols.items()}
        cols["s"][1234] = "changed"
        return cols

    a, b = timed_pair(tmp_path, writer, change)
    r = run("compare", "--json", "--ignore-time-columns", a, b)
    assert r.rc == 1, r
    doc = json.loads(r.out)
    assert (doc["records"], doc["verified"]) == ("different", False)
    (d,) = doc["differences"]  # the changed column alone, the time column left out
    assert d["column"] == "s"
    assert [(x["row"], x["original"], x["reproduced"]) for x in d["rows"]] == [
        (1234, '"v1234"', '"changed"')]


def test_an_ignored_column_on_one_side_only(run, tmp_path):
    cols = columns(100)
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    write("pyarrow", cols, a)
    t = pq.read_table(a).append_column("run_id", pa.array(["r1"] * 100))
    pq.write_table(t, b)
    assert run("compare", a, b).rc == 1
    r = run("compare", "--json", "--ignore-columns", "run_id", a, b)
    assert r.rc == 0, r
    doc = json.loads(r.out)
    assert (doc["records"], doc["ignored_columns"]) == ("equal", ["run_id"])
    assert doc["schema_differences"] == []  # the ignored column's does not count


def test_ignoring_every_column_or_with_ignore_order_is_a_usage_error(run, tmp_path):
    cols = columns(10)
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    write("pyarrow", cols, a)
    cols["s"][3] = "x"
    write("pyarrow", cols, b)
    r = run("compare", "--ignore-columns", "offset,i32,s", a, b)
    assert r.rc == 2 and "every column is ignored" in r.err, r
    r = run("compare", "--ignore-order", "--ignore-columns", "s", a, b)
    assert r.rc == 2 and "--ignore-order compares whole records" in r.err, r


def test_datasets_ignore_their_own_time_columns(run, tmp_path):
    """A dataset whose SetVocab names its system time column "sys", reproduced three hours
    later: --ignore-time-columns leaves out "sys" (not the default name)."""
    write_dataset(tmp_path / "a", [stamped(0, 40, column="sys")], extra_event=set_vocab("sys"))
    write_dataset(tmp_path / "b", [stamped(0, 40, column="sys", hours=3)],
                  extra_event=set_vocab("sys"))
    assert run("compare", tmp_path / "a", tmp_path / "b").rc == 1
    r = run("compare", "--json", "--ignore-time-columns", tmp_path / "a", tmp_path / "b")
    assert r.rc == 0, r
    doc = json.loads(r.out)
    (s,) = doc["slices"]
    assert s["comparison"]["ignored_columns"] == ["sys"], s
    assert s["comparison"]["records"] == "equal"
