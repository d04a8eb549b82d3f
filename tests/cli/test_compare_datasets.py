"""`odf-hash compare ORIGINAL_DATASET REPRODUCED_DATASET`: slices grouped into the smallest
runs that end at one offset on both sides (one file each when the datasets split their
records alike; where they never end together, the offsets both hold, as parts of files),
each run compared record by record, the offsets one side holds listed, and where the
chains' events diverge.

The datasets are written here (Seed, then one AddData per table; blocks with the flatbuffers
builder of scripts/generate_example_datasets.py, files named by hashlib's SHA3); the
expected verdicts and rows come from the tables each test writes.
"""
import datetime as dt
import json
import resource
import subprocess

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("flatbuffers")

import linked_dataset as ld  # noqa: E402  (tests/cli: the block writers)

gen = ld.gen


def write_dataset(path, tables, extra_event=None):
    """Seed, optionally one SetInfo, then one AddData per table (its offset interval from the
    table's `offset` column: contiguous, or with a gap where the tables have one; prevOffset
    the previous table's last offset, so that a contiguous dataset verifies, and one with a
    gap or a later start does not)."""
    for sub in ("blocks", "data", "refs"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    events = [(gen.EV_SEED, lambda b: gen.fb_seed(b, {"dataset_id": gen.dataset_id("cmp"),
                                                      "dataset_kind": gen.DATASET_KIND_ROOT}))]
    if extra_event is not None:
        events.append(extra_event)
    prev_offset = None
    for t in tables:
        start = t.column("offset")[0].as_py()
        data = gen.parquet_bytes(t)
        (path / "data" / ld.name(data)).write_bytes(data)
        s = {"logical_hash": ld.PLACEHOLDER_LOGICAL, "physical_hash": gen.sha3_multihash(data),
             "offset_interval": (start, start + t.num_rows - 1), "size": len(data)}
        events.append((gen.EV_ADD_DATA, ld._add_data(s, None, prev_offset)))
        prev_offset = start + t.num_rows - 1
    prev = None
    for seq, (tag, fn) in enumerate(events):
        block = ld._block(ld.T0 + dt.timedelta(minutes=seq), prev, seq, tag, fn)
        prev = gen.sha3_multihash(block)
        (path / "blocks" / gen.multibase16(prev)).write_bytes(block)
    (path / "refs" / "head").write_text(gen.multibase16(prev))


def table(start, n, change=None):
    v = [i * 10 for i in range(start, start + n)]
    if change is not None:
        v[change - start] = -1
    return pa.table({"offset": pa.array(range(start, start + n), pa.int64()),
                     "v": pa.array(v, pa.int64())})


def test_identical_and_different_slices(run, tmp_path):
    write_dataset(tmp_path / "a", [table(0, 100), table(100, 50), table(150, 30)])
    write_dataset(tmp_path / "b", [table(0, 100), table(100, 50, change=120), table(150, 30)])
    r = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    assert r.rc == 1, r
    doc = json.loads(r.out)
    assert doc["verdict"] == "different" and doc["chain_divergence"] is None
    assert [(s["start"], s["end"], s["verdict"])
            for s in doc["slices"]] == [(0, 99, "identical"), (100, 149, "different"),
                                        (150, 179, "identical")]
    (d,) = doc["slices"][1]["comparison"]["differences"]
    assert d["column"] == "v" and d["differing_rows"] == 1
    assert d["rows"] == [{"row": 20, "offset": 120, "original": "1200", "reproduced": "-1",
                          "original_file": doc["slices"][1]["original_files"][0]["file"],
                          "reproduced_file": doc["slices"][1]["reproduced_files"][0]["file"]}]
    text = run("compare", tmp_path / "a", tmp_path / "b").out
    assert "slice [100, 149]" in text and "row 20 (offset 120)" in text
    assert run("compare", tmp_path / "a", tmp_path / "a").rc == 0


def files(side):
    return [(f["start"], f["end"]) for f in side]


def test_other_slice_boundaries_and_chain_divergence(run, tmp_path):
    # The same 150 records, split at 100 in the original and at 120 in the reproduction: one
    # run [0, 149] of two files a side, the same records (never "identical": other files).
    write_dataset(tmp_path / "a", [table(0, 100), table(100, 50)])
    info = (gen.EV_SET_INFO, lambda b: gen.fb_set_info(b, {"description": "again", "keywords": []}))
    write_dataset(tmp_path / "b", [table(0, 120), table(120, 30)], extra_event=info)
    r = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    assert r.rc == 0, r
    doc = json.loads(r.out)
    assert doc["chain_divergence"] == {"sequence_number": 1, "original": "AddData",
                                       "reproduced": "SetInfo"}
    assert doc["verdict"] == "same-records"
    (s,) = doc["slices"]
    assert (s["start"], s["end"], s["verdict"]) == (
        0, 149, "equivalent")
    assert files(s["original_files"]) == [(0, 99), (100, 149)]
    assert files(s["reproduced_files"]) == [(0, 119), (120, 149)]
    assert s["comparison"]["original"]["rows"] == 150
    assert s["comparison"]["original"]["physical"] is None
    text = run("compare", tmp_path / "a", tmp_path / "b").out
    assert "chains      diverge at block 1: AddData vs SetInfo" in text
    assert "slice [0, 149]" in text and "equivalent" in text and "2 original files" in text


def test_other_boundaries_one_value_changed(run, tmp_path):
    write_dataset(tmp_path / "a", [table(0, 100), table(100, 50), table(150, 10)])
    write_dataset(tmp_path / "b", [table(0, 120), table(120, 30, change=130), table(150, 10)])
    r = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    assert r.rc == 1, r
    doc = json.loads(r.out)
    assert doc["verdict"] == "different"
    assert [(s["start"], s["end"], s["verdict"])
            for s in doc["slices"]] == [(0, 149, "different"), (150, 159, "identical")]
    run0 = doc["slices"][0]
    (d,) = run0["comparison"]["differences"]
    assert d["column"] == "v" and d["differing_rows"] == 1
    # Row 130 of the run: offset 130, in the original's second file and the reproduction's
    # second file.
    assert d["rows"] == [{"row": 130, "offset": 130, "original": "1300", "reproduced": "-1",
                          "original_file": run0["original_files"][1]["file"],
                          "reproduced_file": run0["reproduced_files"][1]["file"]}]
    text = run("compare", tmp_path / "a", tmp_path / "b").out
    assert "row 130 (offset 130)" in text
    # Each file is named once, numbered in its side's list; a row line names it by number.
    second = run0["original_files"][1]["file"]
    assert text.count(second) == 1 and "[2] " + second in text, text
    row_line = next(line for line in text.splitlines() if "row 130 (offset 130)" in line)
    assert "original 1300 in [2], reproduced -1 in [2]" in row_line, row_line


def test_schema_change_inside_a_run(run, tmp_path):
    changed = pa.table({"offset": pa.array(range(100, 150), pa.int64()),
                        "v": pa.array([str(i * 10) for i in range(100, 150)], pa.string())})
    write_dataset(tmp_path / "a", [table(0, 100), changed])
    write_dataset(tmp_path / "b", [table(0, 120), table(120, 30)])
    r = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    assert r.rc == 1, r
    (s,) = json.loads(r.out)["slices"]
    assert s["verdict"] == "error" and "comparison" not in s
    first, second = (f["file"] for f in s["original_files"])
    assert second + " has another schema than " in s["error"], s["error"]
    assert s["error"].split(" has another schema than ")[1].startswith(
        str(tmp_path / "a" / first)), s["error"]
    assert 'column "v" is int64, then utf8' in s["error"], s["error"]
    assert "has another schema" in run("compare", tmp_path / "a", tmp_path / "b").out


def entries(doc):
    return [(s["start"], s["end"], s["verdict"])
            for s in doc["slices"]]


def compared(doc):
    """The entries with what their runs compared as (the comparison's own verdict), for a
    comparison that vouches for nothing (its entries say "unverified")."""
    return [(s["start"], s["end"],
             s["comparison"]["verdict"] if "comparison" in s else s["verdict"])
            for s in doc["slices"]]


def verify_problems(run, path):
    """`odf-hash verify --json`'s problems of a dataset: what compare must report of it."""
    (report,) = json.loads(run("verify", "--json", path).out)["datasets"]
    return report["problems"]


def expect_unverified(run, doc, side, path):
    """`side` of the comparison failed its own verification with verify's problems, the other
    passed: nothing is vouched for."""
    assert doc["verdict"] == "unverified"
    expected = verify_problems(run, path)
    assert expected, "the construction must make verify fail"
    assert doc[side]["verification"]["problems"] == expected
    assert doc[side]["verification"]["vouched"] is False
    other = "reproduced" if side == "original" else "original"
    assert doc[other]["verification"]["vouched"] is True
    assert all(not s["vouched"] for s in doc["slices"])
    assert not any(s["verdict"] in ("identical", "equivalent") for s in doc["slices"])


def windows(side):
    """(first offset, last offset, first row, last row) of each file's part, None if whole."""
    return [None if f["window"] is None else
            (f["window"]["start"], f["window"]["end"], f["window"]["first_row"],
             f["window"]["last_row"]) for f in side]


def test_tail_only_in_the_original(run, tmp_path):
    # A tail only the original has: one-sided, the common slice compared alone.
    write_dataset(tmp_path / "a", [table(0, 100), table(100, 50)])
    write_dataset(tmp_path / "b", [table(0, 100)])
    r = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    assert r.rc == 1
    doc = json.loads(r.out)
    assert entries(doc) == [(0, 99, "identical"), (100, 149, "only-in-original")]
    assert windows(doc["slices"][1]["original_files"]) == [None]


def test_longer_reproduction(run, tmp_path):
    # The reproduction was run later: 200 records in one slice against the original's 150.
    # Offsets 0-149 are compared (rows 0-149 of the reproduction's file), 150-199 listed.
    write_dataset(tmp_path / "a", [table(0, 150)])
    write_dataset(tmp_path / "b", [table(0, 200)])
    r = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    assert r.rc == 1, r  # offsets only one side holds: not the same records everywhere
    doc = json.loads(r.out)
    assert doc["verdict"] == "different"
    assert entries(doc) == [(0, 149, "equivalent"), (150, 199, "only-in-reproduced")]
    common, tail = doc["slices"]
    assert windows(common["original_files"]) == [None]
    assert windows(common["reproduced_files"]) == [(0, 149, 0, 149)]
    assert common["comparison"]["original"]["rows"] == 150
    assert common["comparison"]["reproduced"]["rows"] == 150
    assert common["comparison"]["reproduced"]["physical"] is None  # a part of a file
    assert common["comparison"]["original"]["logical"] == common["comparison"]["reproduced"]["logical"]
    assert tail["original_files"] == []
    assert windows(tail["reproduced_files"]) == [(150, 199, 150, 199)]
    assert tail["reproduced_files"][0]["file"] == common["reproduced_files"][0]["file"]
    text = run("compare", tmp_path / "a", tmp_path / "b").out
    name = common["reproduced_files"][0]["file"]
    assert f"{name} [0, 199] rows 0-149 (offsets 0-149)" in text, text
    assert f"{name} [0, 199] rows 150-199 (offsets 150-199)" in text, text
    assert ("one side    0 offsets only in the original, 50 only in the reproduction; the offsets "
            "both hold: the same records") in text, text
    # Split in two on the original's side: one run of two files against part of one.
    write_dataset(tmp_path / "c", [table(0, 100), table(100, 50)])
    doc = json.loads(run("compare", "--json", tmp_path / "c", tmp_path / "b").out)
    assert entries(doc) == [(0, 149, "equivalent"), (150, 199, "only-in-reproduced")]
    assert windows(doc["slices"][0]["original_files"]) == [None, None]
    assert windows(doc["slices"][0]["reproduced_files"]) == [(0, 149, 0, 149)]


def test_changed_value_inside_a_window(run, tmp_path):
    # The reproduction's one file holds 200 records, offset 130 changed: found at row 130 of
    # the run [0, 149], in the original's second file.
    write_dataset(tmp_path / "a", [table(0, 100), table(100, 50)])
    write_dataset(tmp_path / "b", [table(0, 200, change=130)])
    r = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    assert r.rc == 1, r
    doc = json.loads(r.out)
    assert entries(doc) == [(0, 149, "different"), (150, 199, "only-in-reproduced")]
    run0 = doc["slices"][0]
    assert run0["comparison"]["original"]["rows"] == 150
    assert run0["comparison"]["reproduced"]["rows"] == 150
    (d,) = run0["comparison"]["differences"]
    assert d["column"] == "v" and d["differing_rows"] == 1
    assert d["rows"] == [{"row": 130, "offset": 130, "original": "1300", "reproduced": "-1",
                          "original_file": run0["original_files"][1]["file"],
                          "reproduced_file": run0["reproduced_files"][0]["file"]}]
    text = run("compare", tmp_path / "a", tmp_path / "b").out
    assert "row 130 (offset 130)" in text
    assert "the offsets both hold: different" in text


def test_gap_on_either_side(run, tmp_path):
    # The reproduction lacks offsets 150-159 (a chain verify calls invalid: offset-mismatch);
    # its [160, 199] has offset 170 changed. The offsets both hold are still compared, and
    # nothing is vouched for (exit 3).
    write_dataset(tmp_path / "a", [table(0, 100), table(100, 100)])
    write_dataset(tmp_path / "b", [table(0, 150), table(160, 40, change=170)])
    r = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    assert r.rc == 3, r
    doc = json.loads(r.out)
    expect_unverified(run, doc, "reproduced", tmp_path / "b")
    assert [p["kind"] for p in doc["reproduced"]["verification"]["problems"]] == [
        "offset-mismatch"]
    assert entries(doc) == [(0, 149, "unverified"), (150, 159, "only-in-original"),
                            (160, 199, "unverified")]
    assert compared(doc) == [(0, 149, "equivalent"), (150, 159, "only-in-original"),
                             (160, 199, "different")]
    first, gap, last = doc["slices"]
    assert windows(first["original_files"]) == [None, (100, 149, 0, 49)]
    assert windows(first["reproduced_files"]) == [None]
    assert windows(gap["original_files"]) == [(150, 159, 50, 59)]
    assert windows(last["original_files"]) == [(160, 199, 60, 99)]
    assert windows(last["reproduced_files"]) == [None]
    assert gap["original_files"][0]["file"] == last["original_files"][0]["file"]
    (d,) = last["comparison"]["differences"]
    # Rows count from the window's start (offset 160): offset 170 is row 10 of the entry,
    # row 70 of the original's second file.
    assert d["rows"] == [{"row": 10, "offset": 170, "original": "1700", "reproduced": "-1",
                          "original_file": last["original_files"][0]["file"],
                          "reproduced_file": last["reproduced_files"][0]["file"]}]
    assert last["comparison"]["original"]["rows"] == 40
    text = run("compare", tmp_path / "a", tmp_path / "b").out
    assert "row 10 (offset 170)" in text
    assert "10 offsets only in the original, 0 only in the reproduction" in text
    assert "NOT VERIFIED  1 problem" in text and "problem 1: offset-mismatch" in text
    assert "verdict     unverified: the reproduction failed its own verification" in text
    # The other way round: the original's gap, the reproduction's one slice cut around it.
    r = run("compare", "--json", tmp_path / "b", tmp_path / "a")
    assert r.rc == 3, r
    doc = json.loads(r.out)
    expect_unverified(run, doc, "original", tmp_path / "b")
    assert compared(doc) == [(0, 149, "equivalent"), (150, 159, "only-in-reproduced"),
                             (160, 199, "different")]
    assert windows(doc["slices"][1]["reproduced_files"]) == [(150, 159, 50, 59)]


def test_later_start(run, tmp_path):
    # A reproduction starting at offset 50 (which verify calls invalid: its first slice must
    # start at 0): the offsets both hold compared, nothing vouched for.
    write_dataset(tmp_path / "a", [table(0, 200)])
    write_dataset(tmp_path / "b", [table(50, 150)])
    r = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    assert r.rc == 3, r
    doc = json.loads(r.out)
    expect_unverified(run, doc, "reproduced", tmp_path / "b")
    assert compared(doc) == [(0, 49, "only-in-original"), (50, 199, "equivalent")]
    assert windows(doc["slices"][0]["original_files"]) == [(0, 49, 0, 49)]
    assert windows(doc["slices"][1]["original_files"]) == [(50, 199, 50, 199)]
    assert doc["slices"][1]["comparison"]["original"]["rows"] == 150
    # A run whose first file is cut at its start: offset 150, in the original's second file,
    # is row 100 of the entry [50, 199].
    write_dataset(tmp_path / "c", [table(0, 100), table(100, 100, change=150)])
    doc = json.loads(run("compare", "--json", tmp_path / "c", tmp_path / "b").out)
    assert compared(doc) == [(0, 49, "only-in-original"), (50, 199, "different")]
    assert entries(doc) == [(0, 49, "only-in-original"), (50, 199, "unverified")]
    common = doc["slices"][1]
    assert windows(common["original_files"]) == [(50, 99, 50, 99), None]
    (d,) = common["comparison"]["differences"]
    assert d["rows"] == [{"row": 100, "offset": 150, "original": "-1", "reproduced": "1500",
                          "original_file": common["original_files"][1]["file"],
                          "reproduced_file": common["reproduced_files"][0]["file"]}]


def test_a_long_run_opens_one_file_at_a_time(odf_hash_bin, tmp_path):
    # 60 slices of 5 records against one of 300, compared with 24 file descriptors at most:
    # the run's files are opened one at a time, not all at once.
    write_dataset(tmp_path / "a", [table(i * 5, 5) for i in range(60)])
    write_dataset(tmp_path / "b", [table(0, 300, change=237)])

    def compare():
        return subprocess.run(
            [odf_hash_bin, "compare", "--json", tmp_path / "a", tmp_path / "b"],
            capture_output=True, timeout=120, stdin=subprocess.DEVNULL,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (24, 24)))

    r = compare()
    assert r.returncode == 1, r
    (s,) = json.loads(r.stdout)["slices"]
    assert (s["end"], len(s["original_files"]), s["verdict"]) == (
        299, 60, "different")
    (d,) = s["comparison"]["differences"]
    (row,) = d["rows"]
    # Offset 237 is in the original's 48th file (237 // 5 = 47), the reproduction's only one.
    assert (row["offset"], row["original_file"], row["reproduced_file"]) == (
        237, s["original_files"][47]["file"], s["reproduced_files"][0]["file"])
    write_dataset(tmp_path / "b", [table(0, 300)])
    r = compare()
    assert r.returncode == 0, r
    assert json.loads(r.stdout)["slices"][0]["verdict"] == "equivalent"


def test_ignore_order_is_for_files(run, tmp_path):
    write_dataset(tmp_path / "a", [table(0, 10)])
    r = run("compare", "--ignore-order", tmp_path / "a", tmp_path / "a")
    assert r.rc == 2 and "not datasets" in r.err


def test_overlapping_slices_of_a_malformed_chain(run, tmp_path):
    # The original's second slice repeats offsets 50-99: listed as an error, not paired; the
    # offsets of its well-formed slice compared, the rest the reproduction's alone.
    write_dataset(tmp_path / "a", [table(0, 100), table(50, 100)])
    write_dataset(tmp_path / "b", [table(0, 150)])
    r = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    assert r.rc == 3, r  # verify calls the original invalid (offset-mismatch)
    doc = json.loads(r.out)
    expect_unverified(run, doc, "original", tmp_path / "a")
    assert entries(doc) == [(0, 99, "unverified"), (50, 149, "error"),
                            (100, 149, "only-in-reproduced")]
    assert compared(doc)[0] == (0, 99, "equivalent")
    assert "overlaps the one before it, [0, 99]" in doc["slices"][1]["error"]
    assert windows(doc["slices"][0]["reproduced_files"]) == [(0, 99, 0, 99)]


def set_vocab(system_time_column):
    """A SetVocab event (union tag 6) naming the system time column (its field 2)."""
    def fn(b):
        name = b.CreateString(system_time_column)
        b.StartObject(4)
        b.PrependUOffsetTRelativeSlot(2, name, 0)
        return b.EndObject()
    return (6, fn)


def stamped(start, n, column="system_time", hours=0, change=None):
    t = table(start, n, change)
    times = [dt.datetime(2026, 1, 1, hours, tzinfo=dt.timezone.utc)] * n
    return t.append_column(column, pa.array(times, pa.timestamp("us", tz="UTC")))


def test_only_the_time_columns_differ(run, tmp_path):
    """A faithful reproduction run at another time: its records differ in the system time
    column alone (ODF stamps each record with the time it was added). The slice stays
    "different" (arrow0 says so) and the report says that nothing else differs."""
    write_dataset(tmp_path / "a", [stamped(0, 40), stamped(40, 10)])
    write_dataset(tmp_path / "b", [stamped(0, 40, hours=5), stamped(40, 10)])
    r = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    assert r.rc == 1, r
    doc = json.loads(r.out)
    assert doc["system_time_column"] == "system_time"
    assert [(s["verdict"], s["only_time_columns_differ"]) for s in doc["slices"]] == [
        ("different", True), ("identical", False)]
    text = run("compare", tmp_path / "a", tmp_path / "b").out
    # One line for the slice, no rows under it, and the closing summary counts it.
    assert "slice [0, 39]              different: only the time columns differ (system_time)" in text, text
    assert "rows differ" not in text, text
    assert ("summary     2 runs of slices both hold: 1 the same records, 1 different only in "
            "the time columns") in text, text
    assert doc["summary"] == {"runs": 2, "same": 1, "within_tolerance": 0, "only_time_columns": 1,
                              "different": 0, "not_compared": 0, "offsets_only_in_original": 0,
                              "offsets_only_in_reproduced": 0}, doc["summary"]
    # Another column differing too: no such note.
    write_dataset(tmp_path / "c", [stamped(0, 40, hours=5, change=7), stamped(40, 10)])
    doc = json.loads(run("compare", "--json", tmp_path / "a", tmp_path / "c").out)
    assert doc["slices"][0]["verdict"] == "different"
    assert doc["slices"][0]["only_time_columns_differ"] is False
    text = run("compare", tmp_path / "a", tmp_path / "c").out
    assert "only the time columns differ" not in text
    assert "summary     2 runs of slices both hold: 1 the same records, 1 different\n" in text
    # The column a SetVocab names.
    write_dataset(tmp_path / "d", [stamped(0, 40, column="sys")], extra_event=set_vocab("sys"))
    write_dataset(tmp_path / "e", [stamped(0, 40, column="sys", hours=3)],
                  extra_event=set_vocab("sys"))
    doc = json.loads(run("compare", "--json", tmp_path / "d", tmp_path / "e").out)
    assert doc["system_time_column"] == "sys"
    assert doc["slices"][0]["only_time_columns_differ"] is True
