"""`odf-hash compare --ignore-order` and `logical --unordered`: the order-independent record
digest of docs/unordered-digest.md (not the ODF hash).

The expected digest is computed here from that document with hashlib and pyarrow's Python
values; the expected differing records come from the rows each test changed.
"""
import os
import hashlib
import json
import random
import struct

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def u64(x):
    return struct.pack("<Q", x)


# Type bytes of the ODF logical hash ("Data Type Encoding") for the types used here.
TYPE_BYTES = {
    pa.int64(): bytes([1, 0, 1]) + u64(64),
    pa.int32(): bytes([1, 0, 1]) + u64(32),
    pa.string(): bytes([4, 0]),
    pa.large_string(): bytes([4, 0]),
}


def field_bytes(field):
    name = field.name.encode()
    out = u64(len(name)) + name
    if pa.types.is_struct(field.type):
        members = [field.type.field(i) for i in range(field.type.num_fields)]
        return out + b"\x01" + u64(len(members)) + b"".join(field_bytes(m) for m in members)
    t = TYPE_BYTES[field.type]
    return out + b"\x00" + u64(len(t)) + t


def value_bytes(typ, v):
    if v is None:
        return b"\x00"
    if pa.types.is_struct(typ):
        return b"\x01" + b"".join(value_bytes(typ.field(i).type, v[typ.field(i).name])
                                  for i in range(typ.num_fields))
    if typ == pa.int64():
        return b"\x01" + struct.pack("<q", v)
    if typ == pa.int32():
        return b"\x01" + struct.pack("<i", v)
    if typ in (pa.string(), pa.large_string()):
        b = v.encode()
        return b"\x01" + u64(len(b)) + b
    raise ValueError(typ)


def expected_digest(table):
    """docs/unordered-digest.md, step by step."""
    fields = sorted(table.schema, key=lambda f: f.name.encode())
    schema = u64(len(fields)) + b"".join(field_bytes(f) for f in fields)
    rows = table.to_pylist()
    total = 0
    for row in rows:
        rec = b"".join(value_bytes(f.type, row[f.name]) for f in fields)
        total += int.from_bytes(hashlib.sha3_256(rec).digest(), "little")
    total %= 1 << 256
    d = hashlib.sha3_256(b"odf-hash-unordered-v1\n" + schema + u64(len(rows)) +
                         total.to_bytes(32, "little")).hexdigest()
    return "unordered-sha3-256:" + d


def sample_table(n=12_000):
    st = pa.struct([("a", pa.int64()), ("b", pa.string())])
    return pa.table({
        "offset": pa.array(range(n), pa.int64()),
        "v": pa.array([(i * 7919) % 1000 if i % 11 else None for i in range(n)], pa.int32()),
        "s": pa.array([f"s{i % 97}" for i in range(n)], pa.string()),
        "st": pa.array([None if i % 5 == 0 else {"a": (i if i % 3 else None), "b": str(i)}
                        for i in range(n)], st),
    })


def test_digest_follows_the_document(run, tmp_path):
    t = sample_table()
    pq.write_table(t, tmp_path / "a.parquet", row_group_size=3000)
    r = run("logical", "--unordered", "--json", tmp_path / "a.parquet")
    assert r.rc == 0, r
    (f,) = json.loads(r.out)["files"]
    assert f["unordered"] == expected_digest(t) and f["rows"] == t.num_rows
    text = run("logical", "--unordered", tmp_path / "a.parquet").out
    assert text.startswith(expected_digest(t) + "  ")


def test_shuffled_rows_and_columns_other_writers_same_digest(run, tmp_path):
    pl = pytest.importorskip("polars")
    t = sample_table().drop(["st"])
    pq.write_table(t, tmp_path / "a.parquet")
    idx = list(range(t.num_rows))
    random.Random(7).shuffle(idx)
    shuffled = t.take(idx).select(["s", "v", "offset"])
    pl.from_arrow(shuffled).write_parquet(tmp_path / "b.parquet")  # large_string
    ra = run("logical", "--unordered", tmp_path / "a.parquet")
    rb = run("logical", "--unordered", tmp_path / "b.parquet")
    assert ra.out.split()[0] == rb.out.split()[0] == expected_digest(t)
    r = run("compare", "--ignore-order", tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert r.rc == 0, r
    assert "same records (row order ignored; not the ODF hash)" in r.out
    # The ODF comparison still says different: the order is part of arrow0.
    assert run("compare", "--rows", "0", tmp_path / "a.parquet", tmp_path / "b.parquet").rc == 1


def test_duckdb_shuffle_with_changed_and_duplicated_records(run, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT i::BIGINT AS \"offset\", (i * 3)::INTEGER AS v "
                "FROM range(50000) r(i)")
    con.execute(f"COPY (SELECT * FROM t) TO '{tmp_path / 'a.parquet'}' (FORMAT parquet)")
    # Reproduction: shuffled; row 777 changed; row 4242 duplicated (and row 4243 dropped).
    con.execute("CREATE TABLE u AS SELECT \"offset\", CASE WHEN \"offset\" = 777 THEN -1 "
                "ELSE v END AS v FROM t WHERE \"offset\" <> 4243 "
                "UNION ALL SELECT * FROM t WHERE \"offset\" = 4242")
    con.execute(f"COPY (SELECT * FROM u ORDER BY hash(\"offset\" * 31 + v)) "
                f"TO '{tmp_path / 'b.parquet'}' (FORMAT parquet)")
    b_rows = [r[0] for r in con.execute(
        "SELECT \"offset\" FROM u ORDER BY hash(\"offset\" * 31 + v)").fetchall()]
    con.close()
    r = run("compare", "--ignore-order", "--json", tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert r.rc == 1, r
    doc = json.loads(r.out)
    assert doc["mode"] == "ignore-order" and doc["same_records"] is False
    assert "not the ODF" in doc["note"]
    o, p = doc["original"], doc["reproduced"]
    assert (o["rows"], p["rows"]) == (50000, 50000)
    assert o["only_here"] == 2 and p["only_here"] == 2
    assert [(e["row"], e["offset"]) for e in o["examples"]] == [(777, 777), (4243, 4243)]
    assert o["examples"][0]["values"] == "offset=777, v=2331"
    # The reproduced side: the changed record and the second copy of 4242, at their rows.
    rows_777 = b_rows.index(777)
    rows_4242 = sorted(i for i, x in enumerate(b_rows) if x == 4242)
    got = {(e["row"], e["offset"]) for e in p["examples"]}
    assert (rows_777, 777) in got and len(got & {(i, 4242) for i in rows_4242}) == 1
    assert {"offset=777, v=-1"} <= {e["values"] for e in p["examples"]}


def test_pandas_written_pair_text_report(run, tmp_path):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"offset": pd.Series(range(300), dtype="int64"),
                       "name": [f"n{i}" for i in range(300)]})
    df.to_parquet(tmp_path / "a.parquet", index=False)
    df2 = df.sample(frac=1, random_state=3).reset_index(drop=True)
    df2.loc[df2["offset"] == 5, "name"] = "changed\x07"
    df2.to_parquet(tmp_path / "b.parquet", index=False)
    r = run("compare", "--ignore-order", tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert r.rc == 1
    assert "different records (row order ignored; not the ODF hash)" in r.out
    assert "only in original    1 record" in r.out
    assert 'row 5 (offset 5)' in r.out and 'name="n5"' in r.out
    assert 'name="changed\\x07"' in r.out and "\x07" not in r.out


def test_spill_goes_to_tmpdir(run, tmp_path):
    """The partitions are unnamed files in $TMPDIR (glibc's tmpfile() would ignore it): a
    TMPDIR that does not exist is a clear error naming it, one that does is left empty."""
    t = sample_table(2000)
    pq.write_table(t, tmp_path / "a.parquet")
    pq.write_table(t.slice(1), tmp_path / "b.parquet")
    env = dict(os.environ, TMPDIR=str(tmp_path / "missing"))
    r = run("compare", "--ignore-order", tmp_path / "a.parquet", tmp_path / "b.parquet", env=env)
    assert r.rc == 2, r
    assert str(tmp_path / "missing") in r.err and "TMPDIR" in r.err
    (tmp_path / "spill").mkdir()
    env["TMPDIR"] = str(tmp_path / "spill")
    r = run("compare", "--ignore-order", "--json", tmp_path / "a.parquet", tmp_path / "b.parquet",
            env=env)
    assert r.rc == 1, r
    doc = json.loads(r.out)
    assert doc["original"]["only_here"] == 1 and doc["reproduced"]["only_here"] == 0
    assert doc["original"]["examples"][0]["offset"] == 0
    assert list((tmp_path / "spill").iterdir()) == []
