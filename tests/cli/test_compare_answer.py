"""`odf-hash compare` says the answer first: rows dropped, inserted or appended are named as one
run of rows (with its first rows), not as a wall of differences shifted by it; a shuffled copy
says "another order" before the rows.

Each test writes an original with pyarrow and a reproduction with one writer (pyarrow, polars,
DuckDB, pandas) from the same columns with a run of rows removed or added where the test
chooses: the expected side, row, count and values come from that construction, never from
odf-hash's output.
"""
import json
import random

import pytest

from test_compare_rows import N, columns, write

pytest.importorskip("pyarrow")

WRITERS = ["pyarrow", "polars", "duckdb", "pandas"]


def without(cols, start, count):
    return {k: v[:start] + v[start + count:] for k, v in cols.items()}


def with_rows(cols, start, new):
    """`cols` with the rows of `new` (a dict of lists) inserted before row `start`."""
    return {k: v[:start] + new[k] + v[start:] for k, v in cols.items()}


def new_rows(count, first_offset):
    return {"offset": [first_offset + i for i in range(count)],
            "i32": [-7 - i for i in range(count)],
            "s": [f"new{i}" for i in range(count)]}


def pair(tmp_path, original, reproduced, writer):
    a, b = tmp_path / "original.parquet", tmp_path / f"reproduced-{writer}.parquet"
    write("pyarrow", original, a)
    write(writer, reproduced, b)
    return a, b


def compared(run, a, b):
    r = run("compare", "--json", a, b)
    assert r.rc == 1, r
    text = run("compare", a, b)
    assert text.rc == 1, text
    return json.loads(r.out), text.out


@pytest.mark.parametrize("writer", WRITERS)
def test_a_dropped_row_is_named_with_its_values(run, tmp_path, writer):
    cols = columns()
    a, b = pair(tmp_path, cols, without(cols, 12_345, 1), writer)
    doc, text = compared(run, a, b)
    assert doc["verdict"] == "different"
    block = doc["row_block"]
    assert {k: block[k] for k in ("side", "row", "rows", "at_end")} == {
        "side": "original", "row": 12_345, "rows": 1, "at_end": False}
    (first,) = block["first"]
    assert (first["row"], first["offset"]) == (12_345, 12_345)
    assert first["values"] == 'offset=12345, i32=37035, s="v12345"'
    assert "1 row only in the original (row 12345); the other rows are the same records" in text
    assert 'row 12345 (offset 12345)' in text and 's="v12345"' in text
    assert "rows differ" not in text  # no wall of rows shifted by the dropped one


@pytest.mark.parametrize("writer", WRITERS)
def test_inserted_rows_are_one_run_in_the_reproduction(run, tmp_path, writer):
    cols = columns()
    a, b = pair(tmp_path, cols, with_rows(cols, 20_000, new_rows(4, 90_000)), writer)
    doc, text = compared(run, a, b)
    block = doc["row_block"]
    assert {k: block[k] for k in ("side", "row", "rows", "at_end")} == {
        "side": "reproduced", "row": 20_000, "rows": 4, "at_end": False}
    assert [(f["row"], f["offset"]) for f in block["first"]] == [
        (20_000, 90_000), (20_001, 90_001), (20_002, 90_002)]  # the first three shown
    assert block["first"][1]["values"] == 'offset=90001, i32=-8, s="new1"'
    assert "4 rows only in the reproduced (rows 20000-20003)" in text
    assert "... and 1 more" in text


@pytest.mark.parametrize("writer", WRITERS)
def test_appended_rows_are_said_to_be_appended(run, tmp_path, writer):
    cols = columns()
    a, b = pair(tmp_path, cols, with_rows(cols, N, new_rows(10, N)), writer)
    doc, text = compared(run, a, b)
    block = doc["row_block"]
    assert {k: block[k] for k in ("side", "row", "rows", "at_end")} == {
        "side": "reproduced", "row": N, "rows": 10, "at_end": True}
    assert (f"10 rows appended at the end of the reproduced (rows {N}-{N + 9}); the rows both "
            "have are the same records, in order") in text
    assert "0 of" not in text


def test_a_shorter_reproduction_is_rows_only_in_the_original_at_the_end(run, tmp_path):
    cols = columns(1000)
    a, b = pair(tmp_path, cols, without(cols, 990, 10), "pyarrow")
    doc, text = compared(run, a, b)
    assert {k: doc["row_block"][k] for k in ("side", "row", "rows", "at_end")} == {
        "side": "original", "row": 990, "rows": 10, "at_end": True}
    assert "10 rows appended at the end of the original (rows 990-999)" in text


def test_the_first_row_dropped(run, tmp_path):
    cols = columns(1000)
    a, b = pair(tmp_path, cols, without(cols, 0, 1), "pyarrow")
    doc, _ = compared(run, a, b)
    assert (doc["row_block"]["side"], doc["row_block"]["row"]) == ("original", 0)
    assert doc["row_block"]["first"][0]["values"] == 'offset=0, i32=0, s="v0"'


def test_two_changes_are_not_one_run(run, tmp_path):
    """A dropped row and a changed value elsewhere: no single run explains them; the
    differences are shown as before."""
    cols = columns(1000)
    changed = without(cols, 100, 1)
    changed["s"][800] = "changed"
    a, b = pair(tmp_path, cols, changed, "pyarrow")
    doc, text = compared(run, a, b)
    assert doc["row_block"] is None
    assert "columns     " in text and "only in the" not in text


def test_a_run_and_a_schema_change_are_not_one_run(run, tmp_path):
    """A reproduction with a column more has no record in common with the original."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    cols = columns(100)
    a = tmp_path / "a.parquet"
    b = tmp_path / "b.parquet"
    write("pyarrow", cols, a)
    rest = without(cols, 5, 1)
    pq.write_table(pa.table({**{k: pa.array(v) for k, v in rest.items()},
                             "extra": pa.array([1] * 99)}), b)
    doc, _ = compared(run, a, b)
    assert doc["row_block"] is None


def test_a_shuffled_copy_says_another_order_before_the_rows(run, tmp_path):
    cols = columns(1000)
    order = list(range(1000))
    random.Random(7).shuffle(order)
    shuffled = {k: [v[i] for i in order] for k, v in cols.items()}
    a, b = pair(tmp_path, cols, shuffled, "pyarrow")
    doc, text = compared(run, a, b)
    assert doc["records"] == "same-other-order" and doc["row_block"] is None
    lines = text.splitlines()
    records = next(i for i, line in enumerate(lines) if line.startswith("records"))
    columns_line = next(i for i, line in enumerate(lines) if line.startswith("columns"))
    assert records < columns_line, text
    assert "in another order" in lines[records]


def test_rows_against_an_empty_table(run, tmp_path):
    cols = columns(10)
    a, b = pair(tmp_path, without(cols, 0, 10), cols, "pyarrow")
    doc, text = compared(run, a, b)
    assert {k: doc["row_block"][k] for k in ("side", "row", "rows", "at_end")} == {
        "side": "reproduced", "row": 0, "rows": 10, "at_end": True}
    assert "10 rows only in the reproduced (rows 0-9); the original has none" in text
