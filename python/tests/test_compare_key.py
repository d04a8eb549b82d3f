"""odf_hash.compare(..., key=...): rows matched by key in any order. Expected values come from
how each test builds its data (which keys it drops, adds, duplicates or changes, and where
they land after a shuffle computed here), never from odf-hash; the command's own --json of the
same pair is checked to say the same as the Python result (one vocabulary)."""
import json
import random
import subprocess
import sys

import pytest

import odf_hash

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

N = 4000


def table(ids, v):
    return pa.table({"id": pa.array(ids, pa.int64()), "v": pa.array(v, pa.float64()),
                     "event_time": pa.array([0] * len(ids), pa.timestamp("ms", tz="UTC"))})


def pair(tmp_path):
    """An original, and a shuffled reproduction with key 7 dropped, key 9 changed, key N
    added and key 3 held twice; returns the paths and the reproduction's row of each id."""
    ids = list(range(N))
    v = [i / 4 for i in ids]
    rows = [(i, x) for i, x in zip(ids, v) if i != 7]
    rows = [(i, -1.0 if i == 9 else x) for i, x in rows] + [(N, 5.0), (3, 0.75)]
    random.Random(1).shuffle(rows)
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(table(ids, v), a)
    pq.write_table(table([i for i, _ in rows], [x for _, x in rows]), b)
    where = {}
    for r, (i, _) in enumerate(rows):
        where.setdefault(i, []).append(r)
    return a, b, where


def test_keys_added_dropped_changed_and_duplicated(tmp_path):
    a, b, where = pair(tmp_path)
    c = odf_hash.compare(a, b, key="id")
    assert isinstance(c, odf_hash.KeyedComparison) and not c and not c.same_records
    assert c.key == ["id"] and c.compared_columns == ["v", "event_time"]
    assert (c.original["only_here"], c.reproduced["only_here"]) == (1, 1)
    assert [r.row for r in c.only_in_original] == [7]
    assert [r.row for r in c.only_in_reproduced] == where[N]
    assert c.only_in_original[0].values.startswith("id=7, v=1.75")
    assert (c.reproduced["duplicate_keys"], c.reproduced["duplicate_rows"]) == (1, 2)
    assert sorted(r.row for r in c.duplicates_in_reproduced) == sorted(where[3])
    assert c.matched_keys == N - 1
    assert c.changed_keys == 2  # 9 changed; 3 held by two rows of other values
    [change] = c.changes
    assert (change.key, change.original_row, change.reproduced_row) == ("id=9", 9, where[9][0])
    assert change.values == [odf_hash.ValueChange("v", "2.25", "-1")]
    t = c.to_arrow()
    assert t.column("column").to_pylist() == ["v"] and t.column("key").to_pylist() == ["id=9"]
    doc = json.loads(subprocess.run([sys.executable, "-m", "odf_hash", "compare", "--json",
                                     "--key", "id", str(a), str(b)],
                                    capture_output=True, text=True).stdout)
    assert doc["changed_keys"] == c.changed_keys
    assert doc["changes"][0]["values"][0] == {"column": "v", "original": "2.25",
                                             "reproduced": "-1"}


def test_in_memory_data_by_key(tmp_path):
    a, _, _ = pair(tmp_path)
    shuffled = pq.read_table(a).take(list(reversed(range(N))))
    assert odf_hash.compare(a, shuffled, key=["id"]).same_records
    pl = pytest.importorskip("polars")
    c = odf_hash.compare(pl.from_arrow(shuffled).with_columns(pl.col("v") * 2), a, key="id")
    assert c.changed_keys == N - 1  # every v but 0 doubled
    assert c.original["path"].startswith("<in memory: polars.")


def test_ignored_time_columns_and_refusals(tmp_path):
    a, _, _ = pair(tmp_path)
    t = pq.read_table(a)
    later = t.set_column(2, "event_time", pa.array([1] * N, pa.timestamp("ms", tz="UTC")))
    assert odf_hash.compare(a, later, key="id").changed_keys == N
    c = odf_hash.compare(a, later, key="id", ignore_time_columns=True)
    assert c and c.ignored_columns == ["event_time"] and c.compared_columns == ["v"]
    with pytest.raises(odf_hash.InvalidInputError, match="no key column \"nope\""):
        odf_hash.compare(a, a, key="nope")
    for bad in ([], [""], 3):
        with pytest.raises(odf_hash.InvalidInputError, match="key: one or more column names"):
            odf_hash.compare(a, a, key=bad)
    for extra in ({"ignore_order": True}, {"rtol": 1e-9}):
        with pytest.raises(odf_hash.InvalidInputError, match="key= matches rows by key"):
            odf_hash.compare(a, a, key="id", **extra)
    with pytest.raises(odf_hash.InvalidInputError, match="not lists of files"):
        odf_hash.compare([a], [a], key="id")
