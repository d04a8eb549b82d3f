"""`odf-hash compare --key COLS`: rows matched by key in any order, as data-diff tools do. Every
expected value (the keys only one side holds, the keys several rows hold, the changed keys, the
columns that changed and the first rows of each) comes from Python reading both files back
through pyarrow (`to_pylist`) and matching them in dictionaries, never from odf-hash. Files are
written by pyarrow, polars, DuckDB and pandas, in shuffled row orders."""
import json
import random
from collections import Counter, defaultdict

import pytest

from test_compare_tolerance import WRITERS, write_any

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

N = 5_000


def rows(n=N, seed=3):
    rng = random.Random(seed)
    return [{"id": i, "city": f"c{rng.randrange(40)}", "v": round(rng.uniform(0, 1000), 3),
             "system_time": 1_700_000_000_000 + i} for i in range(n)]


def table(recs, time=True):
    """The records as a table; `time=False` leaves system_time out (DuckDB and pandas write a
    timestamp[ms] back in another unit: another type, whose values compare otherwise)."""
    cols = {"id": pa.array([r["id"] for r in recs], pa.int64()),
            "city": pa.array([r["city"] for r in recs], pa.string()),
            "v": pa.array([r["v"] for r in recs], pa.float64())}
    if time:
        cols["system_time"] = pa.array([r["system_time"] for r in recs],
                                       pa.timestamp("ms", tz="UTC"))
    return pa.table(cols)


def oracle(a_path, b_path, key):
    """What Python says of two files matched by `key`: per side the rows whose key the other
    lacks and the rows of duplicated keys (by row), the keys whose rows differ, and for the
    one-row-a-side changed keys (by original row) the columns that differ."""
    a, b = (pq.read_table(p).to_pylist() for p in (a_path, b_path))
    ka, kb = ([tuple(r[k] for k in key) for r in t] for t in (a, b))
    ca, cb = Counter(ka), Counter(kb)
    only_a = [i for i, k in enumerate(ka) if k not in cb]
    only_b = [i for i, k in enumerate(kb) if k not in ca]
    dup_a = [i for i, k in enumerate(ka) if ca[k] > 1 and k in cb]
    dup_b = [i for i, k in enumerate(kb) if cb[k] > 1 and k in ca]
    ga, gb = defaultdict(list), defaultdict(list)
    for i, k in enumerate(ka):
        ga[k].append(i)
    for i, k in enumerate(kb):
        gb[k].append(i)
    value_cols = [c for c in a[0] if c not in key]

    def values(t, i):
        return tuple(t[i][c] for c in value_cols)

    changed, pairs = 0, []
    for k in set(ga) & set(gb):
        va = sorted(map(repr, (values(a, i) for i in ga[k])))
        vb = sorted(map(repr, (values(b, i) for i in gb[k])))
        if va != vb:
            changed += 1
            if len(ga[k]) == 1 and len(gb[k]) == 1:
                i, j = ga[k][0], gb[k][0]
                pairs.append((i, j, [c for c in value_cols if a[i][c] != b[j][c]]))
    pairs.sort()
    return {"only_a": only_a, "only_b": only_b, "dup_a": dup_a, "dup_b": dup_b,
            "matched": len(set(ga) & set(gb)), "changed": changed, "pairs": pairs,
            "dup_keys_a": sum(1 for k, n in ca.items() if n > 1 and k in cb),
            "dup_keys_b": sum(1 for k, n in cb.items() if n > 1 and k in ca)}


def keyed(run, a, b, *flags, rc):
    r = run("compare", "--json", *flags, a, b)
    assert r.rc == rc, r
    doc = json.loads(r.out)
    assert doc["mode"] == "key"
    return doc


def check_against_oracle(doc, want, shown=5):
    o, r = doc["original"], doc["reproduced"]
    assert o["only_here"] == len(want["only_a"]) and r["only_here"] == len(want["only_b"])
    assert [e["row"] for e in o["only_examples"]] == want["only_a"][:shown]
    assert [e["row"] for e in r["only_examples"]] == want["only_b"][:shown]
    assert (o["duplicate_keys"], r["duplicate_keys"]) == (want["dup_keys_a"], want["dup_keys_b"])
    assert [e["row"] for e in o["duplicate_examples"]] == want["dup_a"][:shown]
    assert [e["row"] for e in r["duplicate_examples"]] == want["dup_b"][:shown]
    assert doc["matched_keys"] == want["matched"]
    assert doc["changed_keys"] == want["changed"]
    got = [(c["original_row"], c["reproduced_row"], [v["column"] for v in c["values"]])
           for c in doc["changes"]]
    assert got == want["pairs"][:shown]


@pytest.mark.parametrize("writer", WRITERS)
def test_a_shuffled_copy_has_the_same_records(run, tmp_path, writer):
    recs = rows()
    shuffled = list(recs)
    random.Random(11).shuffle(shuffled)
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(table(recs, time=False), a)
    write_any(writer, table(shuffled, time=False), b)
    doc = keyed(run, a, b, "--key", "id", rc=0)
    assert doc["same_records"] and doc["matched_keys"] == N and doc["changed_keys"] == 0
    text = run("compare", "--key", "id", a, b)
    assert text.rc == 0, text
    assert text.out.splitlines()[2].startswith("verdict     same records (rows matched by key")


@pytest.mark.parametrize("writer", WRITERS)
def test_dropped_inserted_changed_and_duplicated_rows_are_named(run, tmp_path, writer):
    recs = rows()
    edited = [dict(r) for r in recs]
    edited[17]["v"] += 1.5                       # one value changed
    edited[40]["city"] = "elsewhere"             # another
    edited[41]["city"], edited[41]["v"] = "x", 0.25  # two columns of one row
    del edited[2500]                             # a row dropped
    edited.append({"id": 10**6, "city": "new", "v": 1.0, "system_time": 0})  # inserted
    edited.append(dict(edited[100]))             # a key held twice, same values
    edited.append(dict(edited[200], v=-1.0))     # a key held twice, other values
    random.Random(5).shuffle(edited)
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(table(recs, time=False), a)
    write_any(writer, table(edited, time=False), b)
    want = oracle(a, b, ["id"])
    assert want["changed"] == 5 and len(want["only_a"]) == 1 and len(want["only_b"]) == 1
    doc = keyed(run, a, b, "--key", "id", rc=1)
    check_against_oracle(doc, want)
    assert not doc["same_records"]
    [only] = doc["original"]["only_examples"]
    assert only["values"].startswith("id=2500, city=")
    first = doc["changes"][0]
    assert first["key"] == "id=17"
    assert [v["column"] for v in first["values"]] == ["v"]
    assert float(first["values"][0]["reproduced"]) == pytest.approx(recs[17]["v"] + 1.5)
    text = run("compare", "--key", "id", a, b)
    assert text.rc == 1
    lines = text.out.splitlines()
    assert lines[2] == ("verdict     different records: 5 keys changed, 1 row only in the "
                        "original, 1 row only in the reproduction (rows matched by key, in any "
                        "order; not the ODF hash)")
    assert "    id=17 (original row 17, reproduced row " in text.out
    assert "duplicates  reproduced: 2 keys held by 4 rows" in text.out


def test_a_composite_key_with_nulls(run, tmp_path):
    t = pa.table({"a": pa.array([1, 1, None, 2, None], pa.int32()),
                  "b": pa.array(["x", "y", "x", None, None]),
                  "v": pa.array([1, 2, 3, 4, 5], pa.int64())})
    order = [4, 2, 0, 3, 1]
    u = t.take(order).set_column(2, "v", pa.array([5, 3, 1, 40, 2], pa.int64()))
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(t, a)
    pq.write_table(u, b)
    want = oracle(a, b, ["a", "b"])
    doc = keyed(run, a, b, "--key", "a,b", rc=1)
    check_against_oracle(doc, want)
    assert want["changed"] == 1 and doc["changes"][0]["key"] == "a=2, b=null"
    assert doc["changes"][0]["values"] == [{"column": "v", "original": "4", "reproduced": "40"}]
    assert keyed(run, a, a, "--key", "b", "--key", "a", rc=0)["key"] == ["b", "a"]


def test_time_columns_and_named_columns_can_be_left_out(run, tmp_path):
    recs = rows(500)
    later = [dict(r, system_time=r["system_time"] + 86_400_000) for r in reversed(recs)]
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(table(recs), a)
    pq.write_table(table(later), b)
    doc = keyed(run, a, b, "--key", "id", rc=1)
    assert doc["changed_keys"] == 500
    assert {v["column"] for c in doc["changes"] for v in c["values"]} == {"system_time"}
    doc = keyed(run, a, b, "--key", "id", "--ignore-time-columns", rc=0)
    assert doc["ignored_columns"] == ["system_time"] and doc["same_records"]
    assert doc["compared_columns"] == ["city", "v"]
    assert keyed(run, a, b, "--key", "id", "--ignore-columns", "system_time", rc=0)["same_records"]
    text = run("compare", "--key", "id", "--ignore-time-columns", a, b)
    assert "ignored     system_time (not compared)" in text.out


def test_a_utf8_key_matches_a_large_utf8_key_and_another_type_is_refused(run, tmp_path):
    t = pa.table({"k": pa.array(["a", "b", "c"]), "v": pa.array([1, 2, 3], pa.int64())})
    large = t.cast(pa.schema([("k", pa.large_string()), ("v", pa.int64())]))
    a, b, c = tmp_path / "a.parquet", tmp_path / "b.arrow", tmp_path / "c.parquet"
    pq.write_table(t, a)
    with pa.OSFile(str(b), "wb") as sink, pa.ipc.new_file(sink, large.schema) as w:
        w.write_table(large.take([2, 0, 1]))
    assert keyed(run, a, b, "--key", "k", rc=0)["same_records"]
    pq.write_table(t.cast(pa.schema([("k", pa.string()), ("v", pa.int32())])), c)
    doc = keyed(run, a, c, "--key", "k", rc=1)  # a value column of another type: every row
    assert doc["changed_keys"] == 3 and doc["schema_differences"][0]["field"] == "v"
    r = run("compare", "--key", "v", a, c)
    assert r.rc == 2
    assert "key column \"v\" is int64 in the original and int32 in the reproduction" in r.err


def test_usage_errors(run, tmp_path):
    t = pa.table({"id": [1, 2], "v": [3, 4]})
    a, b, c = tmp_path / "a.parquet", tmp_path / "b.parquet", tmp_path / "c.parquet"
    pq.write_table(t, a)
    pq.write_table(t.append_column("extra", pa.array([0, 0])), b)
    pq.write_table(t.drop_columns(["v"]), c)
    cases = [(["--key", "nope"], a, a, "no key column \"nope\""),
             (["--key", "id"], a, b, "no column \"extra\" (leave it out with --ignore-columns)"),
             (["--key", "id"], a, c, "no column \"v\" (leave it out with --ignore-columns)"),
             (["--key", "id", "--ignore-columns", "id"], a, a, "key column \"id\" is also ignored"),
             (["--key", "id", "--ignore-order"], a, a, "--key already ignores the row order"),
             (["--key", "id", "--rtol", "1e-9"], a, a, "--key compares values exactly"),
             (["--key", "id", "--datasets"], a, a, "--key compares two data files")]
    for flags, x, y, message in cases:
        r = run("compare", *flags, x, y)
        assert r.rc == 2 and message in r.err, (flags, r)
    assert keyed(run, a, b, "--key", "id", "--ignore-columns", "extra", rc=0)["same_records"]


def test_many_differences_are_counted_and_the_first_shown(run, tmp_path):
    recs = rows(60_000, seed=9)
    rng = random.Random(2)
    edited = [dict(r, v=r["v"] + 1) if rng.random() < 0.1 else dict(r) for r in recs]
    edited = [r for r in edited if rng.random() > 0.01]
    rng.shuffle(edited)
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(table(recs), a, row_group_size=7_000)
    pq.write_table(table(edited), b, row_group_size=5_000)
    want = oracle(a, b, ["id"])
    check_against_oracle(keyed(run, a, b, "--key", "id", "--rows", "7", rc=1), want, shown=7)
    doc = keyed(run, a, b, "--key", "id", "--rows", "0", rc=1)
    assert doc["changed_keys"] == want["changed"] and doc["changes"] == []


def test_changed_rows_far_apart_are_each_read_again_at_their_own_place(run, tmp_path):
    """Changed rows more than 2^20 rows apart are read again from streams of their own, each
    opened at the row group holding its row (keyed.cpp: kReopenGap): both are shown with their
    own values, as Python reads them back."""
    n = (1 << 21) + 200
    far = [5, (1 << 20) + 77, n - 3]
    assert all(y - x > 1 << 20 for x, y in zip(far, far[1:]))  # three runs, three streams
    ids = pa.array(range(n), pa.int64())
    v = list(range(n))
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(pa.table({"id": ids, "v": pa.array(v, pa.int64())}), a, row_group_size=1 << 16)
    for r in far:
        v[r] = -v[r] - 1
    pq.write_table(pa.table({"id": ids, "v": pa.array(v, pa.int64())}), b, row_group_size=1 << 16)
    r = run("compare", "--json", "--key", "id", a, b)
    assert r.rc == 1, r
    doc = json.loads(r.out)
    assert doc["changed_keys"] == len(far) and doc["matched_keys"] == n
    ta, tb = pq.read_table(a), pq.read_table(b)
    got = [(c["key"], c["original_row"], c["reproduced_row"],
            [(x["column"], x["original"], x["reproduced"]) for x in c["values"]])
           for c in doc["changes"]]
    want = [(f"id={i}", i, i, [("v", str(ta["v"][i].as_py()), str(tb["v"][i].as_py()))])
            for i in far]
    assert got == want
