"""odf-hash logical: logical hashes of Parquet / Arrow IPC files (output, --columns, --json, errors).

The data files are in tests/cli/data/ (written by data/make_data.py with pyarrow). Every
expected hash below was printed by the Rust reference, never by odf-hash: a scratch program
reading each Parquet file through parquet 60.0.0's ParquetRecordBatchReaderBuilder at default
options (kamu's path) and each IPC file/stream through arrow-ipc 60.1, feeding arrow-digest
60.0.0 RecordDigestV0<Sha3_256>; column digests are ArrayDigestV0<Sha3_256> of the top-level
non-struct columns.
"""
import json
import os
import shutil

import pytest

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

RECORDS = "f9680c001206b06b3191efb658b5bbe4e5ddc2d52e0b66bdf7d4f7df8dd93a1da141cd4c33b"
REFERENCE = {
    "timestamps.parquet":
        "f9680c00120e56cbfe7457d07b07a4c80312cdcf1079f22fe6d1569b3d41508691684834720",
    "timestamps_noschema.parquet":
        "f9680c0012025fec5384f08387c145ac6860e1719eab2b3969a3ea525cef05b9c89cf25a31b",
    "int96.parquet":
        "f9680c001208ddc5efe36d82031b0038be828c9475b79dccf20a13babbe050c58e5658f9502",
    "records.parquet": RECORDS,
    "records.arrow": RECORDS,
    "records.arrows": RECORDS,
}
RECORDS_COLUMNS = {
    "id": "234fcbdfa0616126a72b8116affc290c92e8f7033fc43d994f9be19f2bfe66df",
    "name": "9ebcf8af44436f51ea86656749874d80adae5d2f3ce6d0ed6ca4e418a2a0cf6b",
    "tags": "730ec5747ca74e3dc6c8b5cf8cbaa8c0cada23b8457792d5b581598d9a5d8deb",
}
TIMESTAMP_COLUMNS = {
    "ms_berlin": "6a0812350bdba9c60d03f16fe14595b172e5df43b4cfe04386ceac6074552c5c",
    "us_utc": "47575ae521b887d5cd9f675c63b5b4d648539ee749251f20674a12100582e3f5",
    "us_naive": "0c77a28a2f5f2d90a803f2dfbe8dca94067c2808c3e197150b2a1314541c1497",
}


def test_matches_the_reference_in_argument_order(run):
    names = list(REFERENCE)
    r = run("logical", *names, cwd=DATA)
    assert r.rc == 0, r
    assert r.err == ""
    assert r.out == "".join(f"{REFERENCE[n]}  {n}\n" for n in names)


@pytest.mark.parametrize("jobs", ["1", "2", "8"])
def test_parallel_output_keeps_argument_order(run, jobs):
    names = list(reversed(REFERENCE)) * 3
    r = run("logical", "--jobs", jobs, *names, cwd=DATA)
    assert r.rc == 0, r
    assert r.out == "".join(f"{REFERENCE[n]}  {n}\n" for n in names)


def test_same_records_same_hash_from_parquet_and_ipc_whatever_the_name(run, tmp_path):
    # Detection is by content: a Parquet file named .arrow and an IPC stream named .parquet.
    shutil.copy(os.path.join(DATA, "records.parquet"), tmp_path / "a.arrow")
    shutil.copy(os.path.join(DATA, "records.arrows"), tmp_path / "b.parquet")
    r = run("logical", "a.arrow", "b.parquet", cwd=tmp_path)
    assert r.rc == 0, r
    assert r.out == f"{RECORDS}  a.arrow\n{RECORDS}  b.parquet\n"


def parse_columns(out):
    """{file: {column path: (type, digest)}} from --columns text output."""
    files, current = {}, None
    for line in out.splitlines():
        if line.startswith("  "):
            digest, typ, path = line.strip().split("  ")
            files[current][path] = (typ, digest)
        else:
            h, name = line.split("  ", 1)
            current = name
            files[name] = {"": h}
    return files


def test_columns_lists_every_leaf_with_type_and_reference_digest(run):
    r = run("logical", "--columns", "records.parquet", "timestamps.parquet", cwd=DATA)
    assert r.rc == 0, r
    files = parse_columns(r.out)
    rec = files["records.parquet"]
    assert rec[""] == RECORDS
    assert list(rec)[1:] == ["id", "name", "point.x", "point.y", "tags"]
    assert rec["id"][0] == "l" and rec["name"][0] == "u" and rec["tags"][0] == "+l"
    assert rec["point.x"][0] == "i" and rec["point.y"][0] == "g"
    for col, digest in RECORDS_COLUMNS.items():
        assert rec[col][1] == digest, col
    ts = files["timestamps.parquet"]
    assert ts["ms_berlin"][0] == "tsm:Europe/Berlin"
    assert ts["us_utc"][0] == "tsu:UTC"
    assert ts["us_naive"][0] == "tsu:"
    for col, digest in TIMESTAMP_COLUMNS.items():
        assert ts[col][1] == digest, col


def test_columns_show_which_column_differs(run):
    # Without the embedded schema arrow-rs reads ms_berlin as "UTC": only that column differs.
    r = run("logical", "--columns", "timestamps.parquet", "timestamps_noschema.parquet", cwd=DATA)
    assert r.rc == 0, r
    files = parse_columns(r.out)
    a, b = files["timestamps.parquet"], files["timestamps_noschema.parquet"]
    assert a[""] != b[""]
    differing = [c for c in a if c and a[c] != b[c]]
    assert differing == ["ms_berlin"]
    assert b["ms_berlin"][0] == "tsm:UTC"


def test_json_document(run):
    r = run("logical", "--json", "records.parquet", "records.arrows", "garbage.parquet", cwd=DATA)
    assert r.rc == 2, r
    doc = json.loads(r.out)
    files = doc["files"]
    assert [f["path"] for f in files] == ["records.parquet", "records.arrows", "garbage.parquet"]
    assert files[0] == {"path": "records.parquet", "logical": RECORDS, "rows": 1000,
                        "format": "parquet", "reference_compatible": True}
    assert files[1]["format"] == "arrow-ipc-stream"
    assert files[1]["logical"] == RECORDS
    assert set(files[2]) == {"path", "error"}
    assert "not a Parquet or Arrow IPC file" in files[2]["error"]
    assert "odf-hash: garbage.parquet: not a Parquet or Arrow IPC file" in r.err


def test_json_with_columns(run):
    r = run("logical", "--json", "--columns", "records.arrow", cwd=DATA)
    assert r.rc == 0, r
    f = json.loads(r.out)["files"][0]
    assert f["format"] == "arrow-ipc-file"
    cols = {c["path"]: c for c in f["columns"]}
    assert list(cols) == ["id", "name", "point.x", "point.y", "tags"]
    for col, digest in RECORDS_COLUMNS.items():
        assert cols[col]["digest"] == digest
    assert cols["point.y"]["type"] == "g"


@pytest.mark.parametrize(
    "name, reason",
    [
        ("garbage.parquet", "not a Parquet or Arrow IPC file"),
        ("truncated.parquet", "truncated or corrupt Parquet file"),
        ("duration.parquet", "column 'd' has type Duration"),
        ("missing.parquet", "missing.parquet"),
    ],
)
def test_bad_file_is_reported_and_the_others_still_hashed(run, name, reason):
    r = run("logical", "records.parquet", name, "timestamps.parquet", cwd=DATA)
    assert r.rc == 2, r
    assert r.out == (f"{RECORDS}  records.parquet\n"
                     f"{REFERENCE['timestamps.parquet']}  timestamps.parquet\n")
    lines = r.err.splitlines()
    assert len(lines) == 1, r.err
    assert lines[0].startswith(f"odf-hash: {name}: "), r.err
    assert reason in lines[0]


def test_empty_and_truncated_ipc(run, tmp_path):
    (tmp_path / "empty").write_bytes(b"")
    data = open(os.path.join(DATA, "records.arrow"), "rb").read()
    (tmp_path / "cut.arrow").write_bytes(data[: len(data) // 2])
    stream = open(os.path.join(DATA, "records.arrows"), "rb").read()
    (tmp_path / "cut.arrows").write_bytes(stream[: len(stream) // 2 + 3])
    r = run("logical", "empty", "cut.arrow", "cut.arrows", cwd=tmp_path)
    assert r.rc == 2, r
    assert r.out == ""
    errs = r.err.splitlines()
    assert len(errs) == 3, r.err
    assert errs[0].startswith("odf-hash: empty: not a Parquet or Arrow IPC file")
    assert errs[1].startswith("odf-hash: cut.arrow: ")
    assert errs[2].startswith("odf-hash: cut.arrows: ")


def test_needs_a_file(run):
    r = run("logical")
    assert r.rc == 2


@pytest.mark.parametrize("threads", ["1", "2", "3", "8"])
@pytest.mark.parametrize("jobs", [[], ["--jobs", "1"], ["--jobs", "2"]])
def test_column_threads_do_not_change_the_hashes(run, threads, jobs):
    names = list(REFERENCE)
    r = run("logical", "--threads", threads, *jobs, *names, cwd=DATA)
    assert r.rc == 0, r
    assert r.out == "".join(f"{REFERENCE[n]}  {n}\n" for n in names)
    r = run("logical", "-t", threads, *jobs, "--columns", "--json", "records.parquet", cwd=DATA)
    assert r.rc == 0, r
    cols = {c["path"]: c["digest"] for c in json.loads(r.out)["files"][0]["columns"]}
    assert {k: cols[k] for k in RECORDS_COLUMNS} == RECORDS_COLUMNS
    serial = run("logical", "-t", "1", "--columns", "--json", "records.parquet", cwd=DATA)
    assert r.out == serial.out


def test_wide_multi_row_group_file_same_output_whatever_the_threads(run, tmp_path):
    # 21 columns of several types in 7 row groups (so batches are read ahead): every thread
    # count prints what --threads 1 prints, column digests included.
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    n = 20000
    cols = {}
    for c in range(21):
        kind = c % 4
        if kind == 0:
            cols[f"i{c}"] = pa.array([(i * 7919 + c) % 1000003 if i % 11 else None for i in range(n)],
                                     pa.int64())
        elif kind == 1:
            cols[f"s{c}"] = pa.array([f"v{i % 977}-{c}" * (i % 5) for i in range(n)])
        elif kind == 2:
            cols[f"b{c}"] = pa.array([(i * c) % 3 == 0 for i in range(n)])
        else:
            cols[f"l{c}"] = pa.array([[i, c] if i % 7 else None for i in range(n)],
                                     pa.list_(pa.int32()))
    path = tmp_path / "wide.parquet"
    pq.write_table(pa.table(cols), path, row_group_size=3000)
    want = run("logical", "--threads", "1", "--columns", str(path))
    assert want.rc == 0, want
    assert len(want.out.splitlines()) == 22
    for threads in ("2", "3", "4"):
        got = run("logical", "--threads", threads, "--columns", str(path))
        assert got.rc == 0, got
        assert got.out == want.out
    default = run("logical", "--columns", str(path), str(path))
    assert default.rc == 0, default
    assert default.out == want.out + want.out


@pytest.mark.parametrize("mode", ["auto", "on", "off"])
def test_column_streams_do_not_change_the_hashes_or_the_errors(run, mode, tmp_path):
    # --column-streams on reads the top-level columns of a Parquet file in groups, each by its
    # own reader on its own thread: the reference hashes, the same column digests, and the
    # same message for a file that cannot be read (here a page header of one column spoilt).
    names = list(REFERENCE)
    r = run("logical", "--threads", "3", "--column-streams", mode, *names, cwd=DATA)
    assert r.rc == 0, r
    assert r.out == "".join(f"{REFERENCE[n]}  {n}\n" for n in names)
    r = run("logical", "-t", "2", "--column-streams", mode, "--columns", "--json",
            "records.parquet", cwd=DATA)
    assert r.rc == 0, r
    cols = {c["path"]: c["digest"] for c in json.loads(r.out)["files"][0]["columns"]}
    assert {k: cols[k] for k in RECORDS_COLUMNS} == RECORDS_COLUMNS
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "corrupt.parquet"
    n = 4000
    pq.write_table(pa.table({"a": pa.array(range(n), pa.int64()),
                             "s": pa.array([f"value {i}" for i in range(n)]),
                             "b": pa.array([i % 3 == 0 for i in range(n)])}),
                   path, row_group_size=1000, compression="none")
    page = pq.ParquetFile(path).metadata.row_group(2).column(1).data_page_offset
    data = bytearray(path.read_bytes())
    data[page:page + 8] = b"\xff" * 8
    path.write_bytes(bytes(data))
    one = run("logical", "-t", "2", "--column-streams", "off", str(path))
    assert one.rc == 2 and "page header" in one.err, one
    got = run("logical", "-t", "2", "--column-streams", mode, str(path))
    assert (got.rc, got.out, got.err) == (one.rc, one.out, one.err)


def test_column_streams_takes_auto_on_or_off(run):
    r = run("logical", "--column-streams", "sometimes", "records.parquet", cwd=DATA)
    assert r.rc == 2, r
    assert r.out == ""


@pytest.mark.parametrize("value", ["0", "-1", "many"])
def test_threads_must_be_a_positive_number(run, value):
    r = run("logical", "--threads", value, "records.parquet", cwd=DATA)
    assert r.rc == 2, r
    assert r.out == ""


@pytest.mark.parametrize("name", ["records.parquet", "records.arrow", "timestamps.parquet"])
def test_dash_reads_a_file_piped_in(run, name):
    """`cat FILE | odf-hash logical -`: standard input copied to a temporary file first (the
    readers seek), hashed as the file: the reference's hash, named "-"; beside other files."""
    with open(os.path.join(DATA, name), "rb") as f:
        data = f.read()
    r = run("logical", "-", input=data)
    assert (r.rc, r.out, r.err) == (0, f"{REFERENCE[name]}  -\n", ""), r
    r = run("logical", "int96.parquet", "-", cwd=DATA, input=data)
    assert r.out == f"{REFERENCE['int96.parquet']}  int96.parquet\n{REFERENCE[name]}  -\n", r
    j = run("logical", "--json", "-", input=data)
    assert json.loads(j.out)["files"][0]["path"] == "-"
    assert json.loads(j.out)["files"][0]["logical"] == REFERENCE[name]


def test_dash_is_bounded_and_named_once(run):
    with open(os.path.join(DATA, "records.parquet"), "rb") as f:
        data = f.read()
    r = run("logical", "--stdin-limit", "1K", "-", input=data)
    assert (r.rc, r.out) == (2, ""), r
    assert "more than 1.0 KiB" in r.err and "--stdin-limit" in r.err
    assert "/proc/self" not in r.err
    r = run("logical", "-", input=b"not parquet at all")
    assert r.rc == 2 and r.err == "odf-hash: -: not a Parquet or Arrow IPC file\n", r
    assert run("logical", "-", "-", input=data).rc == 2
    r = run("logical", "--stdin-limit", "lots", "-", input=data)
    assert r.rc == 2 and "--stdin-limit" in r.err, r


def test_hash_traps_are_warned_on_stderr_and_in_json(run, tmp_path):
    """A timestamp zone that is another name of UTC, and nulls at two struct levels, make a
    hash depend on what the data does not show: a warning per column on stderr and
    `hash_notes` in --json (issue 36, item 1); the hash printed is the same either way."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    alias, utc, nested = (tmp_path / n for n in ("alias.parquet", "utc.parquet", "n.parquet"))
    pq.write_table(pa.table({"ts": pa.array([0, 1], pa.timestamp("ms", tz="Etc/UTC"))}), alias)
    pq.write_table(pa.table({"ts": pa.array([0, 1], pa.timestamp("ms", tz="UTC"))}), utc)
    child = pa.array([1, None, 3], pa.int64())
    s = pa.StructArray.from_arrays([child], ["c"], mask=pa.array([False, False, True]))
    pq.write_table(pa.table({"s": s}), nested)
    r = run("logical", alias)
    assert r.rc == 0 and r.err == (
        f"odf-hash: warning: {alias}: column 'ts': time zone 'Etc/UTC' is another name of UTC: "
        "the same instants under 'UTC' (as kamu and pyarrow write them) hash otherwise\n"), r
    doc = json.loads(run("logical", "--json", alias).out)
    [entry] = doc if isinstance(doc, list) else doc["files"]
    assert entry["hash_notes"][0]["column"] == "ts"
    assert run("logical", utc).err == ""
    r = run("logical", "--json", "--columns", nested)
    [entry] = (lambda d: d if isinstance(d, list) else d["files"])(json.loads(r.out))
    assert "bytes under null slots" in entry["columns"][0]["hash_note"]
    assert "column 's.c': a nullable struct above" in r.err


def test_as_one_hashes_files_and_hive_folders_as_one_table(run, tmp_path):
    """`logical --as-one` (issue 36, item 4): files, or a hive-partitioned folder as pyarrow
    writes it, hashed as one table in the stated order. arrow0 does not depend on how the
    records are split into files, so the hash is that of one file holding the same records
    in that order, written by pyarrow (whose single-file hash the conformance suite pins to
    the reference)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    t = pa.table({"k": pa.array([i % 3 for i in range(300)], pa.int64()),
                  "v": pa.array([f"v{i}" for i in range(300)])})
    parts = [t.slice(0, 100), t.slice(100, 150), t.slice(250)]
    names = []
    for i, p in enumerate(parts):
        names.append(tmp_path / f"part-{i}.parquet")
        pq.write_table(p, names[-1])
    pq.write_table(t, tmp_path / "one.parquet")
    want = run("logical", tmp_path / "one.parquet").out.split()[0]
    r = run("logical", "--as-one", *names)
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0] == f"{want}  {' + '.join(map(str, names))}"
    assert lines[1] == "  (3 files read as one table, in this order:)"
    assert lines[2:] == [f"    {n}" for n in names]
    other = run("logical", "--as-one", names[1], names[0], names[2]).out.split()[0]
    assert other != want  # another order: other records first
    # A hive-partitioned folder: every file below it in path order; the partition values
    # live in the paths, not the files (so the table has column v only).
    hive = tmp_path / "hive"
    pq.write_to_dataset(t, hive, partition_cols=["k"])
    (hive / "_SUCCESS").write_text("")
    files = sorted(p.relative_to(hive).as_posix() for p in hive.rglob("*.parquet"))
    one = pa.concat_tables([pq.ParquetFile(hive / f).read() for f in files])
    assert one.column_names == ["v"]
    pq.write_table(one, tmp_path / "hive-one.parquet")
    want = run("logical", tmp_path / "hive-one.parquet").out.split()[0]
    doc = json.loads(run("logical", "--as-one", "--json", hive).out)
    [entry] = doc["files"]
    assert entry["logical"] == want and entry["rows"] == 300
    assert entry["as_one"] == [f"{hive}/{f}" for f in files]
    r = run("logical", "--as-one", tmp_path / "nothing-here")
    assert r.rc == 2, r
    (tmp_path / "empty").mkdir()
    r = run("logical", "--as-one", tmp_path / "empty")
    assert r.rc == 2 and "holds no data file" in r.err, r
