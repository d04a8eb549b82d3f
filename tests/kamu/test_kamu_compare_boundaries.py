"""`odf-hash compare` of two datasets kamu wrote with the same records split into slices at
other boundaries: one workspace ingests the records in two pushes (two slices), another in
one (one slice), at one fixed system time so that the records are the same. kamu cannot run
derivative transforms here (no engine containers, see its README), so the "pulled after each
ingest vs pulled once" case is made with a root dataset's push ingests, which split the
records alike.

Expected values come from what is ingested (5 records: offsets 0-2 then 3-4, or 0-4) and
from kamu: the logical hash it recorded for the single slice (`kamu log -o yaml`) is the hash
of the same records, so it must be the hash of the two-slice run read as one table.
"""
import json
import pathlib
import shutil
import tempfile

import pytest
import yaml

import make_workspace

SYSTEM_TIME = "2024-05-01T00:00:00Z"
SNAPSHOT = make_workspace.snapshot("events", make_workspace.push(
    {"kind": "NdJson", "schema": make_workspace.schema(
        ("event_time", "Timestamp"), ("key", "String"), ("value", "Int64"))},
    make_workspace.APPEND))
FIRST = [("2024-03-01T00:00:00Z", "a", 1), ("2024-03-01T00:00:00Z", "b", 2),
         ("2024-03-01T00:00:00Z", "c", 3)]
SECOND = [("2024-03-02T00:00:00Z", "d", 4), ("2024-03-02T00:00:00Z", "e", 5)]


def ndjson(rows):
    return "".join(json.dumps({"event_time": t, "key": k, "value": v}) + "\n"
                   for t, k, v in rows)


def workspace(kamu, folder: pathlib.Path, pushes):
    """A kamu workspace whose dataset `events` got one push ingest per list of rows, every
    block at SYSTEM_TIME; returns (dataset folder, kamu's log: [(hash, block)], newest first)."""
    folder.mkdir()
    k = make_workspace.Kamu(kamu, folder)
    k("init")
    (folder / "events.yaml").write_text(yaml.safe_dump(SNAPSHOT, sort_keys=False))
    k("--system-time", SYSTEM_TIME, "add", "events.yaml")
    for rows in pushes:
        k("--system-time", SYSTEM_TIME, "ingest", "events", "--stdin", input=ndjson(rows))
    log = make_workspace.parse_log(k("log", "events", "-o", "yaml").stdout)
    (alias,) = [p for p in (folder / ".kamu" / "datasets").glob("*/info/alias")
                if p.read_text().strip() == "events"]
    return alias.parent.parent, log


def slices(log):
    """(start, end, logical hash) of each slice kamu recorded, oldest first."""
    out = []
    for _, block in reversed(log):
        data = block["event"].get("newData")
        if data:
            out.append((data["offsetInterval"]["start"], data["offsetInterval"]["end"],
                        data["logicalHash"]))
    return out


@pytest.fixture
def folder():
    path = pathlib.Path(tempfile.mkdtemp(prefix="odf_hash_kamu_boundaries_test"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_same_records_across_other_slice_boundaries(kamu, run, folder):
    twice, twice_log = workspace(kamu, folder / "twice", [FIRST, SECOND])
    once, once_log = workspace(kamu, folder / "once", [FIRST + SECOND])
    assert [s[:2] for s in slices(twice_log)] == [(0, 2), (3, 4)]
    assert [s[:2] for s in slices(once_log)] == [(0, 4)]
    ((_, _, kamu_logical),) = slices(once_log)

    r = run("compare", "--json", twice, once)
    assert r.rc == 0, r
    doc = r.json()
    assert doc["verdict"] == "same-records"
    (s,) = doc["slices"]
    assert (s["start"], s["end"], s["verdict"]) == (
        0, 4, "equivalent")
    assert len(s["original_files"]) == 2 and len(s["reproduced_files"]) == 1
    c = s["comparison"]
    assert c["original"]["rows"] == len(FIRST + SECOND) == c["reproduced"]["rows"]
    # The two slices read as one table hash as kamu hashed the one slice of those records.
    assert c["original"]["logical"] == kamu_logical == c["reproduced"]["logical"]
    assert "slice [0, 4]" in run("compare", twice, once).out


def test_a_changed_value_found_at_its_offset_across_boundaries(kamu, run, folder):
    twice, _ = workspace(kamu, folder / "twice", [FIRST, SECOND])
    changed = SECOND[:1] + [(SECOND[1][0], SECOND[1][1], 50)]  # "e": 5 -> 50, offset 4
    other, _ = workspace(kamu, folder / "other", [FIRST + changed])
    r = run("compare", "--json", twice, other)
    assert r.rc == 1, r
    (s,) = r.json()["slices"]
    assert s["verdict"] == "different"
    (col,) = s["comparison"]["differences"]
    assert col["column"] == "value" and col["differing_rows"] == 1
    (row,) = col["rows"]
    assert (row["offset"], row["original"], row["reproduced"]) == (4, "5", "50")
    assert row["original_file"] == s["original_files"][1]["file"]
    assert row["reproduced_file"] == s["reproduced_files"][0]["file"]


def test_a_longer_reproduction_is_compared_over_the_common_offsets(kamu, run, folder):
    # The reproduction was run later, with the second push's records too: offsets 0-2 are
    # compared (rows 0-2 of its one slice), 3-4 are only in the reproduction.
    original, original_log = workspace(kamu, folder / "original", [FIRST])
    later, later_log = workspace(kamu, folder / "later", [FIRST + SECOND])
    ((start, end, kamu_logical),) = slices(original_log)
    assert (start, end) == (0, len(FIRST) - 1)
    assert [s[:2] for s in slices(later_log)] == [(0, len(FIRST + SECOND) - 1)]

    r = run("compare", "--json", original, later)
    assert r.rc == 1, r  # offsets only the reproduction holds
    doc = r.json()
    assert doc["verdict"] == "different"
    assert [(s["start"], s["end"], s["verdict"])
            for s in doc["slices"]] == [(0, 2, "equivalent"), (3, 4, "only-in-reproduced")]
    common, tail = doc["slices"]
    (f,) = common["reproduced_files"]
    assert f["window"] == {"start": 0, "end": 2, "first_row": 0, "last_row": 2}
    assert common["original_files"][0]["window"] is None
    c = common["comparison"]
    assert c["original"]["rows"] == len(FIRST) == c["reproduced"]["rows"]
    # The reproduction's first three records hash as kamu hashed the original's slice.
    assert c["reproduced"]["logical"] == kamu_logical == c["original"]["logical"]
    (g,) = tail["reproduced_files"]
    assert g["file"] == f["file"]
    assert g["window"] == {"start": 3, "end": 4, "first_row": 3, "last_row": 4}
    text = run("compare", original, later).out
    assert "0 offsets only in the original, 2 only in the reproduction" in text, text
