"""Verify modes on datasets kamu writes here (issue 26): a trusted head (--expect-head, pin
files), incremental verification (--since). Expected heads and the blocks above them come
from kamu's own log (`kamu log -o yaml`), never from odf-hash.

History is rewritten the way kamu lets a user do it: `kamu reset` to an older block, then new
data ingested, so the folder holds a valid chain that no longer passes through the head
recorded before.
"""
import json
import os
import shutil

import pytest

import make_workspace

SNAPSHOT = """kind: DatasetSnapshot
version: 1
content:
  name: pinned
  kind: Root
  metadata:
    - kind: AddPushSource
      sourceName: default
      read:
        kind: NdJson
        schema:
          fields:
            - name: event_time
              type: Timestamp
            - name: value
              type: Int64
      merge:
        kind: Append
"""


class PushedDataset:
    """A kamu workspace with one push-source dataset, `pinned`; rows are ingested with
    ingest(), its chain read back from kamu's log."""

    def __init__(self, kamu, root):
        self.ws = root / "ws"
        self.ws.mkdir()
        self.k = make_workspace.Kamu(kamu, self.ws)
        self.k("init")
        (self.ws / "pinned.yaml").write_text(SNAPSHOT)
        self.k("add", self.ws / "pinned.yaml")
        self.n = 0
        folders = list((self.ws / ".kamu" / "datasets").iterdir())
        assert len(folders) == 1
        self.path = folders[0]

    def ingest(self, *values):
        self.n += 1
        f = self.ws / f"rows-{self.n}.ndjson"
        f.write_text("".join(
            json.dumps({"event_time": f"2024-01-{i % 28 + 1:02d}T00:00:00Z", "value": v}) + "\n"
            for i, v in enumerate(values)))
        self.k("ingest", "pinned", f)

    def log(self):
        """[(block hash, block content)], newest first, as kamu records them."""
        return make_workspace.parse_log(self.k("log", "pinned", "-o", "yaml").stdout)

    def head(self):
        return self.log()[0][0]


@pytest.fixture
def pushed(kamu, tmp_path):
    ds = PushedDataset(kamu, tmp_path)
    yield ds
    shutil.rmtree(tmp_path, ignore_errors=True)


def verify(run, *args):
    r = run("verify", "--json", *args)
    assert r.rc in (0, 1), r
    return r.rc, r.json()["datasets"][0]


def test_trusted_head_catches_a_rewritten_history(run, pushed, tmp_path):
    pushed.ingest(1, 2)
    first = pushed.head()
    pushed.ingest(3)
    trusted = pushed.head()
    log = pushed.log()
    assert [h for h, _ in log].index(first) == 1  # kamu added one block above `first`

    # The pinned head, and any ancestor of the head, is fine.
    for pin in (trusted, first):
        rc, d = verify(run, "--expect-head", pin, pushed.path)
        assert rc == 0 and d["valid"], d
        assert d["scope"]["expected_head_found"] is True
        seq = next(b["sequenceNumber"] for h, b in log if h == pin)
        assert d["scope"]["expected_head_sequence"] == seq

    # Rewrite: back to `first`, then other rows. The chain is self-consistent again.
    pushed.k("--yes", "reset", "pinned", first)
    pushed.ingest(30)
    rewritten = pushed.head()
    assert rewritten != trusted
    assert trusted not in [h for h, _ in pushed.log()]
    rc, d = verify(run, pushed.path)
    assert rc == 0 and d["verdict"] == "VALID", d

    rc, d = verify(run, "--expect-head", trusted, pushed.path)
    assert rc == 1 and not d["valid"]
    assert [p["kind"] for p in d["problems"]] == ["history-rewritten"]
    p = d["problems"][0]
    assert p["expected"] == trusted and p["actual"] == rewritten
    # kamu's reset leaves the old block file behind: the message says so.
    assert f"blocks/{trusted} still exists" in p["message"]

    # The same through a pin file, which holds other datasets' pins too.
    pins = tmp_path / "pins.txt"
    pins.write_text(f"{first}  /elsewhere/other-dataset\n{trusted}  {pushed.path}/\n")
    r = run("verify", "--pins", pins, pushed.path)
    assert r.rc == 1, r
    assert "problem 1: history-rewritten" in r.out and f"trusted      {trusted}" in r.out

    # A dataset the pin file does not name is verified without a pin, and the report says so.
    pins.write_text(f"{first}  /elsewhere/other-dataset\n")
    rc, d = verify(run, "--pins", pins, pushed.path)
    assert rc == 0 and d["scope"]["expected_head"] is None
    assert any("names no pin" in s for s in d["scope"]["skipped"])

    # An unknown hash: the same kind, and no block file of it.
    unknown = "f1620" + "ab" * 32
    rc, d = verify(run, "--expect-head", unknown, pushed.path)
    assert rc == 1 and d["problems"][0]["kind"] == "history-rewritten"
    assert "still exists" not in d["problems"][0]["message"]


def test_write_pins_then_verify_against_them(run, pushed, tmp_path):
    pushed.ingest(1)
    pins = tmp_path / "pins.txt"
    other = f"{'f1620' + '00' * 32}  s3://bucket/other\n"
    pins.write_text(other)
    r = run("verify", "--write-pins", pins, pushed.path)
    assert r.rc == 0, r
    head = pushed.head()
    # The pin: the head, the dataset's id (kamu names its folder by it) and the real path.
    pinned = f"did:odf:{pushed.path.name}  {os.path.realpath(pushed.path)}\n"
    assert pins.read_text() == other + f"{head} {pinned}"
    pushed.ingest(2)
    # Verified against the pin (an ancestor now), and the pin moves to the new head.
    r = run("verify", "--pins", pins, "--write-pins", pins, pushed.path)
    assert r.rc == 0, r
    assert f"trusted      {head} (on the chain" in r.out
    assert pins.read_text() == other + f"{pushed.head()} {pinned}"
    # An invalid dataset is not pinned: the file is left as it was.
    before = pins.read_text()
    (pushed.path / "refs" / "head").write_text("f1620" + "cd" * 32)
    r = run("verify", "--write-pins", pins, pushed.path)
    assert r.rc == 1 and pins.read_text() == before


def test_since_checks_only_the_newer_blocks(run, pushed):
    pushed.ingest(1, 2)
    pushed.ingest(3)
    since = pushed.head()
    pushed.ingest(4, 5)
    log = pushed.log()
    newer = [(h, b) for h, b in log[:[h for h, _ in log].index(since)]]
    new_files = sorted(
        (b["event"]["newData"]["physicalHash"] for _, b in newer
         if b["event"].get("newData")))
    new_checkpoints = sorted(
        (b["event"]["newCheckpoint"]["physicalHash"] for _, b in newer
         if b["event"].get("newCheckpoint")))
    since_seq = next(b["sequenceNumber"] for h, b in log if h == since)

    # Files below --since are not read: a corrupt old data file goes unnoticed.
    old_data = next(b["event"]["newData"]["physicalHash"] for h, b in log[len(newer):]
                    if b["event"].get("newData"))
    (pushed.path / "data" / old_data).write_bytes(b"corrupted")

    rc, d = verify(run, "--since", since, pushed.path)
    assert rc == 0, d
    assert d["head"] == log[0][0] and d["blocks"] == len(newer) + 1
    assert d["scope"]["since_found"] and d["scope"]["since_sequence"] == since_seq
    assert d["scope"]["complete"] is False
    assert sorted(f["file"].split("/")[1] for f in d["files"] if f["role"] == "data") == new_files
    assert sorted(f["file"].split("/")[1] for f in d["files"]
                  if f["role"] == "checkpoint") == new_checkpoints
    assert d["verdict"].startswith(f"VALID (since block {since_seq}: {len(newer)} new block")
    assert any("not read (--since" in s for s in d["scope"]["skipped"])
    assert d["kind"] == "root" and d["scope"]["kind_inferred"]

    # A full verify finds the corrupt file.
    rc, d = verify(run, pushed.path)
    assert rc == 1 and d["problems"][0]["kind"] == "size-mismatch"

    # The text report names the new head to pin.
    r = run("verify", "--since", since, "--expect-head", since, pushed.path)
    assert f"pin          {log[0][0]}  {pushed.path}" in r.out
    # A newer block changed above --since is caught.
    newest = pushed.path / "blocks" / log[0][0]
    newest.write_bytes(newest.read_bytes() + b"\0")
    rc, d = verify(run, "--since", since, pushed.path)
    assert rc == 1 and d["problems"][0]["kind"] == "block-hash-mismatch"


def test_since_not_on_the_chain(run, pushed):
    pushed.ingest(1)
    first = pushed.head()
    pushed.ingest(2)
    gone = pushed.head()
    pushed.k("--yes", "reset", "pinned", first)
    pushed.ingest(3)
    rc, d = verify(run, "--since", gone, pushed.path)
    assert rc == 1
    assert [p["kind"] for p in d["problems"]] == ["history-rewritten"]
    assert d["scope"]["since_found"] is False
    # Everything walked was checked instead.
    assert d["blocks"] == len(pushed.log()) and d["chain_complete"]


# ---- --deep: the records against what kamu recorded ------------------------------------

VOCAB_SNAPSHOT = SNAPSHOT.replace("  name: pinned\n", "  name: vocab\n").replace(
    "  metadata:\n",
    "  metadata:\n    - kind: SetVocab\n      offsetColumn: rownum\n"
    "      systemTimeColumn: sys_t\n")


def test_deep_on_every_kamu_dataset(run, datasets):
    """Every dataset kamu wrote holds the records its blocks describe: row counts, offsets and
    kamu's recorded logical hashes all agree (kamu's own verdict on these datasets: valid)."""
    for alias, ds in datasets.items():
        rc, d = verify(run, "--deep", ds["path"])
        assert rc == 0 and d["valid"], (alias, d["problems"])
        assert d["scope"]["deep"] is True
        assert alias == "compacted-meta" or any(f["role"] == "data" for f in d["files"]), alias


def test_deep_reads_setvocab_offset_column(run, kamu, tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    k = make_workspace.Kamu(kamu, ws)
    k("init")
    (ws / "vocab.yaml").write_text(VOCAB_SNAPSHOT)
    k("add", ws / "vocab.yaml")
    (ws / "rows.ndjson").write_text(
        '{"event_time": "2024-01-01T00:00:00Z", "value": 1}\n'
        '{"event_time": "2024-01-02T00:00:00Z", "value": 2}\n')
    k("ingest", "vocab", ws / "rows.ndjson")
    log = make_workspace.parse_log(k("log", "vocab", "-o", "yaml").stdout)
    assert any(b["event"]["kind"] == "SetVocab" and b["event"]["offsetColumn"] == "rownum"
               for _, b in log)
    path = next((ws / ".kamu" / "datasets").iterdir())
    rc, d = verify(run, "--deep", path)
    assert rc == 0 and d["valid"], d
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_deep_catches_blocks_lying_about_kamu_files(run, pushed, tmp_path):
    """Blocks built by hand over two data files kamu wrote (offsets 0-1 and 2), recording
    their real physical hashes and kamu's logical hashes, but other intervals: the bytes
    match, the records do not."""
    import forged_dataset
    pushed.ingest(1, 2)
    pushed.ingest(3)
    slices = [b["event"]["newData"] for _, b in reversed(pushed.log())
              if b["event"].get("newData")]
    assert [(s["offsetInterval"]["start"], s["offsetInterval"]["end"]) for s in slices] == \
        [(0, 1), (2, 2)]
    a, b = ((pushed.path / "data" / s["physicalHash"]).read_bytes() for s in slices)
    la, lb = (forged_dataset.multihash(s["logicalHash"]) for s in slices)
    cases = {
        # file B first (its row holds offset 2), then A (rows 0, 1) claimed as 1..2
        "swapped": ([(b, (0, 0), lb), (a, (1, 2), la)],
                    ["offset-column-mismatch", "offset-column-mismatch"]),
        "short": ([(a, (0, 2), la)], ["row-count-mismatch"]),
        "other-logical": ([(a, (0, 1), lb)], ["logical-hash-misrecorded"]),
    }
    for name, (forged, kinds) in cases.items():
        ds = tmp_path / name
        forged_dataset.forge(ds, forged)
        rc, d = verify(run, ds)
        assert rc == 0 and d["valid"], (name, d["problems"])
        rc, d = verify(run, "--deep", ds)
        assert rc == 1, name
        assert sorted(p["kind"] for p in d["problems"]) == sorted(kinds), (name, d["problems"])
    rc, d = verify(run, "--deep", tmp_path / "swapped")
    first = next(p for p in d["problems"] if p["sequence_number"] == 1)
    assert (first["expected"], first["actual"], first["unit"]) == (0, 2, None)  # offsets
