#!/usr/bin/env python3
"""Writes one kamu workspace holding every kind of dataset kamu writes on this machine.

    .venv/bin/python tests/kamu/make_workspace.py OUT_DIR      # then look at OUT_DIR/ws

The tests of tests/kamu/ import it (`workspace(cache_root)`): the workspace is what the main
ODF implementation really produces, so what odf-hash says about it is checked against kamu's
own recorded hashes and verdicts. kamu is `$ODF_KAMU`, else `../shared/tools/kamu/kamu` beside
the repository (its README says what works without network or containers); every command runs
under a timeout.

OUT_DIR/ws/.kamu/datasets/<dataset id>/ then holds, each named by its alias (info/alias):

  csv-append        CSV files polled through FilesGlob, a preprocess SQL step, Append merge;
                    two pulls (the first ingests two files, one block each; the second one)
  ndjson-ledger     NDJSON files, Ledger merge (a repeated key is dropped), two pulls, then
                    `kamu pull --set-watermark`: an AddData with a watermark and no data
  parquet-snapshot  Parquet files (pyarrow), Snapshot merge over three pulls: corrections
                    (op 2/3) and retractions (op 1) appear
  push-changelog    AddPushSource + `kamu ingest`, ChangelogStream merge (ops in the input)
  push-upsert       AddPushSource (CSV) + `kamu ingest`, UpsertStream merge (a delete)
  compacted-hard    three slices, then `kamu system compact --hard`: the old blocks and data
                    files stay in the folders, unreferenced by the new chain
  compacted-meta    the same after `kamu system compact --hard --keep-metadata-only`
  reset             three slices, then `kamu reset` to the block of the first one
  aborted-ingest    a push ingest kamu aborted after moving its data file into data/ (its
                    block broke the monotonic system time, `--system-time` in the past): an
                    unreferenced data file. (Malformed input, a CSV value of the wrong type, a
                    link to a missing object: kamu fails before the dataset's folders and
                    leaves its files in .kamu/run/ only.)
  versioned-file    GraphQL createVersionedFile + two uploadNewVersion (`kamu system
                    api-server gql-query`): the contents are linked objects in data/
  derivative        a derivative dataset: kamu cannot run transforms here (engines run in
                    containers), so its blocks are written by this script (Seed, SetTransform,
                    kamu's own SetDataSchema block re-linked, three ExecuteTransform, the last
                    with a checkpoint and no data) over data files and hashes kamu wrote for
                    csv-append, with checkpoints; kamu then syncs it into the workspace
                    (`kamu pull file:///... --as derivative`), validating the chain

kamu 0.265 writes no checkpoint for root datasets (its DataFusion ingest carries the previous
one forward; only engines write them): checkpoints come from the derivative only. The example
derivative of examples/datasets/ cannot be synced by kamu (`kamu pull file:///...`: "SetDataSchema
event must be present before adding data"), and a failed sync leaves a dataset folder without
refs/head that breaks every later kamu command of the workspace, hence the derivative above.

OUT_DIR/pushed/<alias>/ holds `kamu push <alias> --to file:///...` of derivative and
versioned-file: plain dataset folders, the latter without its linked objects (kamu's push
does not copy them).

OUT_DIR/manifest.json lists the datasets (alias, id, folder, kind, what each is expected to
hold), and OUT_DIR/logs/<alias>.yaml is `kamu log <alias> -o yaml` (kamu's recorded hashes).
"""
import base64
import copy
import datetime as dt
import hashlib
import importlib.util
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

SOURCE = pathlib.Path(__file__).resolve().parents[2]
DEFAULT_KAMU = SOURCE.parent / "shared" / "tools" / "kamu" / "kamu"
KAMU_TIMEOUT = 120  # seconds per kamu command (each takes about one; 60 was hit under ASan load)
FORMAT = 1  # bump when the manifest's shape changes

ALIASES = ("csv-append", "ndjson-ledger", "parquet-snapshot", "push-changelog", "push-upsert",
           "compacted-hard", "compacted-meta", "reset", "aborted-ingest", "versioned-file",
           "derivative")


class KamuUnavailable(Exception):
    """kamu cannot run here (missing binary, missing zstd, ...): the tests skip, saying why."""


def kamu_path() -> str:
    return os.environ.get("ODF_KAMU") or str(DEFAULT_KAMU)


def kamu_version(kamu: str) -> str:
    try:
        proc = subprocess.run([kamu, "--version"], capture_output=True, text=True,
                              timeout=KAMU_TIMEOUT, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise KamuUnavailable(f"{kamu}: {e}") from e
    if proc.returncode != 0 or not proc.stdout.startswith("kamu "):
        raise KamuUnavailable(f"{kamu} --version: exit {proc.returncode}: "
                              f"{(proc.stderr or proc.stdout).strip()[:300]}")
    return proc.stdout.strip()


class Kamu:
    """Runs kamu commands in one workspace, each under a timeout; a failure raises with
    kamu's output (unless `check=False`)."""

    def __init__(self, kamu: str, workspace: pathlib.Path):
        self.kamu = kamu
        self.workspace = workspace
        self.seconds = 0.0
        self.commands = 0

    def __call__(self, *args, input=None, check=True, timeout=KAMU_TIMEOUT):
        start = time.monotonic()
        proc = subprocess.run([self.kamu, *map(str, args)], cwd=self.workspace, input=input,
                              capture_output=True, text=True, timeout=timeout,
                              stdin=None if input is not None else subprocess.DEVNULL)
        self.seconds += time.monotonic() - start
        self.commands += 1
        if check and proc.returncode != 0:
            raise RuntimeError(f"kamu {' '.join(map(str, args))}: exit {proc.returncode}\n"
                               f"{proc.stdout}\n{proc.stderr}")
        return proc


# ----------------------------------------------------------------------------------------
# Dataset snapshots (kamu's YAML manifests) and the input files they read


def snapshot(name: str, source: dict) -> dict:
    """A root DatasetSnapshot (kamu's manifest) with one source event."""
    return {"kind": "DatasetSnapshot", "version": 1,
            "content": {"name": name, "kind": "Root", "metadata": [source]}}


def schema(*pairs) -> dict:
    return {"fields": [{"name": n, "type": t} for n, t in pairs]}


def polling(glob: pathlib.Path, read: dict, merge: dict, preprocess: str | None = None) -> dict:
    event = {"kind": "SetPollingSource", "fetch": {"kind": "FilesGlob", "path": str(glob)},
             "read": read}
    if preprocess:
        event["preprocess"] = {"kind": "Sql", "engine": "datafusion", "query": preprocess}
    event["merge"] = merge
    return event


def push(read: dict, merge: dict) -> dict:
    return {"kind": "AddPushSource", "sourceName": "default", "read": read, "merge": merge}


CSV_READ = {"kind": "Csv", "header": True,
            "schema": schema(("id", "Int64"), ("name", "String"), ("ts", "Timestamp"))}
CSV_PREPROCESS = "SELECT id, upper(name) AS name, ts AS event_time FROM input"
CHANGES = schema(("event_time", "Timestamp"), ("op", "Int32"), ("key", "String"),
                 ("value", "Int64"))
APPEND = {"kind": "Append"}
# The uploads of the versioned-file dataset (each stored as a linked object).
VERSIONED_FILE_CONTENTS = (b"first version of a small file\n",
                           b"second version, longer than the first one\n")


def csv_rows(rows):
    return "id,name,ts\n" + "".join(f"{i},{n},2024-01-{d:02d}T00:00:00Z\n" for i, n, d in rows)


def write_parquet_snapshot(path, rows):
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pa.table({
        "city": pa.array([r[0] for r in rows], pa.string()),
        "population": pa.array([r[1] for r in rows], pa.int64()),
    })
    pq.write_table(table, path)


def base64usnp(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


# ----------------------------------------------------------------------------------------
# kamu log -o yaml


def parse_log(text: str) -> list:
    """Blocks of `kamu log -o yaml`, newest first: [(block hash, MetadataBlock content)]."""
    out = []
    for doc in re.split(r"^---\s*$", text, flags=re.M):
        m = re.search(r"^# Block: (\S+)", doc, flags=re.M)
        if not m:
            continue
        out.append((m.group(1), yaml.safe_load(doc)["content"]))
    return out


# ----------------------------------------------------------------------------------------
# The derivative dataset (blocks written here, data and hashes from kamu)


def _example_generator():
    spec = importlib.util.spec_from_file_location(
        "generate_example_datasets", SOURCE / "scripts" / "generate_example_datasets.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen


def _ts(text) -> dt.datetime:
    if isinstance(text, dt.datetime):
        return text.astimezone(dt.timezone.utc)
    t = str(text).replace("Z", "+00:00")
    t = re.sub(r"\.(\d{6})\d+", r".\1", t)  # Python parses microseconds at most
    return dt.datetime.fromisoformat(t)


def write_derivative(out: pathlib.Path, source_folder: pathlib.Path, source_log: list,
                     source_id: str):
    """A derivative dataset over csv-append: Seed, SetTransform, SetDataSchema (kamu's block,
    its prev hash re-linked), one ExecuteTransform per data slice kamu recorded (same files,
    same hashes, a checkpoint each), and a last ExecuteTransform with a checkpoint only."""
    gen = _example_generator()
    chain = list(reversed(source_log))  # oldest first
    schema_hash, schema_block = next((h, b) for h, b in chain
                                     if b["event"]["kind"] == "SetDataSchema")
    assert schema_block["sequenceNumber"] == 2, "the schema block must take sequence number 2"
    adds = [(h, b) for h, b in chain if b["event"]["kind"] == "AddData"
            and b["event"].get("newData")]
    t_schema = _ts(schema_block["systemTime"])
    w = gen.DatasetWriter(out)
    w.commit(t_schema - dt.timedelta(seconds=2), gen.EV_SEED,
             {"dataset_id": gen.dataset_id(f"kamu-derivative {source_id}"),
              "dataset_kind": gen.DATASET_KIND_DERIVATIVE})
    w.commit(t_schema - dt.timedelta(seconds=1), gen.EV_SET_TRANSFORM, {
        "inputs": [{"dataset_ref": source_id, "alias": "csv-append"}],
        "engine": "datafusion", "queries": ["SELECT * FROM `csv-append`"]})
    # kamu's own SetDataSchema block, re-linked: the 34 bytes of its prev hash replaced in
    # place (a FlatBuffers byte vector of fixed length), so the rest stays kamu's encoding.
    raw = (source_folder / "blocks" / schema_hash).read_bytes()
    old_prev = bytes.fromhex(schema_block["prevBlockHash"][1:])
    assert raw.count(old_prev) == 1
    raw = raw.replace(old_prev, w.head)
    mh = gen.sha3_multihash(raw)
    (out / "blocks" / gen.multibase16(mh)).write_bytes(raw)
    w.head = mh
    w.sequence_number = 2
    w.block_hashes.append(mh)
    source_did = bytes.fromhex(source_id[len("did:odf:f"):])
    prev_block, prev_offset, last_time = None, None, t_schema
    for k, (h, b) in enumerate(adds):
        e = b["event"]
        nd = e["newData"]
        name = nd["physicalHash"]
        shutil.copyfile(source_folder / "data" / name, out / "data" / name)
        checkpoint = w.add_file("checkpoints", json.dumps(
            {"engine": "odf-hash test", "run": k + 1, "input_offset": nd["offsetInterval"]["end"]},
            sort_keys=True).encode())
        event = {
            "query_inputs": [{"dataset_id": source_did, "prev_block_hash": prev_block,
                              "new_block_hash": bytes.fromhex(h[1:]),
                              "prev_offset": prev_offset,
                              "new_offset": nd["offsetInterval"]["end"]}],
            "prev_checkpoint": w.last_checkpoint, "prev_offset": w.last_offset,
            "new_data": {"logical_hash": bytes.fromhex(nd["logicalHash"][1:]),
                         "physical_hash": bytes.fromhex(name[1:]),
                         "offset_interval": (nd["offsetInterval"]["start"],
                                             nd["offsetInterval"]["end"]),
                         "size": nd["size"]},
            "new_checkpoint": checkpoint, "new_watermark": _ts(e["newWatermark"]),
        }
        last_time = max(last_time, _ts(b["systemTime"])) + dt.timedelta(seconds=1)
        w.commit(last_time, gen.EV_EXECUTE_TRANSFORM, event)
        w.last_offset = nd["offsetInterval"]["end"]
        w.last_checkpoint = checkpoint["physical_hash"]
        prev_block, prev_offset = bytes.fromhex(h[1:]), nd["offsetInterval"]["end"]
        last_watermark = event["new_watermark"]
    # A run that only moved the engine's state: a checkpoint, no data (kamu skips checking
    # such checkpoints, see docs/divergences.md).
    checkpoint = w.add_file("checkpoints", b'{"engine": "odf-hash test", "state only": true}')
    w.commit(last_time + dt.timedelta(seconds=1), gen.EV_EXECUTE_TRANSFORM, {
        "query_inputs": [{"dataset_id": source_did, "prev_block_hash": prev_block,
                          "new_block_hash": None, "prev_offset": prev_offset,
                          "new_offset": None}],  # no new input block
        "prev_checkpoint": w.last_checkpoint, "prev_offset": w.last_offset,
        "new_checkpoint": checkpoint, "new_watermark": last_watermark})
    (out / "refs" / "head").write_text(gen.multibase16(w.head))


# ----------------------------------------------------------------------------------------
# The workspace


def build(out: pathlib.Path, kamu: str) -> dict:
    """Writes the workspace into `out` (must not exist); returns the manifest."""
    started = time.monotonic()
    out.mkdir(parents=True)
    inp, ws, logs = out / "in", out / "ws", out / "logs"
    for d in (inp, ws, logs):
        d.mkdir()
    k = Kamu(kamu, ws)
    k("init")

    (inp / "csv").mkdir()
    (inp / "ndjson").mkdir()
    (inp / "parquet").mkdir()
    csv_glob = inp / "csv" / "part-*.csv"
    snapshots = {
        "csv-append": polling(csv_glob, CSV_READ, APPEND, CSV_PREPROCESS),
        "ndjson-ledger": polling(
            inp / "ndjson" / "part-*.ndjson",
            {"kind": "NdJson",
             "schema": schema(("event_time", "Timestamp"), ("id", "Int64"), ("value", "String"))},
            {"kind": "Ledger", "primaryKey": ["id"]}),
        "parquet-snapshot": polling(inp / "parquet" / "snap-*.parquet", {"kind": "Parquet"},
                                    {"kind": "Snapshot", "primaryKey": ["city"]}),
        "push-changelog": push({"kind": "NdJson", "schema": CHANGES},
                               {"kind": "ChangelogStream", "primaryKey": ["key"]}),
        "push-upsert": push({"kind": "Csv", "header": True, "schema": CHANGES},
                            {"kind": "UpsertStream", "primaryKey": ["key"]}),
        "aborted-ingest": push(
            {"kind": "NdJson", "schema": schema(("event_time", "Timestamp"), ("value", "Int64"))},
            APPEND),
        # Three slices each, to be compacted or reset below.
        "compacted-hard": polling(csv_glob, CSV_READ, APPEND, CSV_PREPROCESS),
        "compacted-meta": polling(csv_glob, CSV_READ, APPEND, CSV_PREPROCESS),
        "reset": polling(csv_glob, CSV_READ, APPEND, CSV_PREPROCESS),
    }
    snap_dir = out / "snapshots"
    snap_dir.mkdir()
    for name, source in snapshots.items():
        # A deep copy: shared dicts would be written as YAML anchors, which kamu cannot read.
        (snap_dir / f"{name}.yaml").write_text(
            yaml.safe_dump(copy.deepcopy(snapshot(name, source)), sort_keys=False))
    k("add", *sorted(snap_dir.glob("*.yaml")))

    # Pull 1: two CSV files (two blocks), one NDJSON and one Parquet snapshot.
    (inp / "csv" / "part-001.csv").write_text(csv_rows([(1, "ada", 1), (2, "bob", 2)]))
    (inp / "csv" / "part-002.csv").write_text(csv_rows([(3, "cy", 3)]))
    (inp / "ndjson" / "part-001.ndjson").write_text(
        '{"event_time": "2024-02-01T00:00:00Z", "id": 1, "value": "one"}\n'
        '{"event_time": "2024-02-01T00:00:00Z", "id": 2, "value": "two"}\n')
    write_parquet_snapshot(inp / "parquet" / "snap-001.parquet",
                           [("Vancouver", 662248), ("Toronto", 2794356), ("Calgary", 1306784)])
    polled = ["csv-append", "ndjson-ledger", "parquet-snapshot", "compacted-hard",
              "compacted-meta", "reset"]
    # One dataset per `kamu pull`: kamu 0.265 pulling several datasets at once failed in CI
    # with "Failed to pull reset: Internal error: missing field `kind`" (a race inside kamu;
    # the same source pulled fine for the other five), so the workspace was not built.
    for name in polled:
        k("pull", name)
    # Pull 2: one more file each; the Parquet snapshot corrects, retracts and appends.
    (inp / "csv" / "part-003.csv").write_text(csv_rows([(4, "dee", 4), (5, "eve", 5)]))
    (inp / "ndjson" / "part-002.ndjson").write_text(
        '{"event_time": "2024-02-02T00:00:00Z", "id": 2, "value": "two again"}\n'
        '{"event_time": "2024-02-02T00:00:00Z", "id": 3, "value": "three"}\n')
    write_parquet_snapshot(inp / "parquet" / "snap-002.parquet",
                           [("Vancouver", 662248), ("Toronto", 2800000), ("Ottawa", 1017449)])
    for name in polled:
        k("pull", name)
    # Pull 3: the snapshot drops a row again.
    write_parquet_snapshot(inp / "parquet" / "snap-003.parquet",
                           [("Toronto", 2800000), ("Ottawa", 1017449)])
    k("pull", "parquet-snapshot")
    k("pull", "ndjson-ledger", "--set-watermark", "2024-02-10T00:00:00Z")

    # Push sources.
    k("ingest", "push-changelog", "--stdin", input=(
        '{"event_time": "2024-03-01T00:00:00Z", "op": 0, "key": "a", "value": 1}\n'
        '{"event_time": "2024-03-01T00:00:00Z", "op": 0, "key": "b", "value": 2}\n'))
    k("ingest", "push-changelog", "--stdin", input=(
        '{"event_time": "2024-03-02T00:00:00Z", "op": 2, "key": "a", "value": 1}\n'
        '{"event_time": "2024-03-02T00:00:00Z", "op": 3, "key": "a", "value": 10}\n'
        '{"event_time": "2024-03-02T00:00:00Z", "op": 1, "key": "b", "value": 2}\n'))
    (inp / "upsert-1.csv").write_text("event_time,op,key,value\n"
                                      "2024-03-01T00:00:00Z,0,a,1\n2024-03-01T00:00:00Z,0,b,2\n")
    (inp / "upsert-2.csv").write_text("event_time,op,key,value\n2024-03-02T00:00:00Z,0,a,5\n"
                                      "2024-03-02T00:00:00Z,1,b,2\n2024-03-02T00:00:00Z,0,c,7\n")
    k("ingest", "push-upsert", inp / "upsert-1.csv")
    k("ingest", "push-upsert", inp / "upsert-2.csv")

    # An ingest kamu aborts after moving its data file into data/: the block it would append
    # has a system time before the head's (kamu's hidden --system-time option).
    k("ingest", "aborted-ingest", "--stdin",
      input='{"event_time": "2024-04-01T00:00:00Z", "value": 1}\n')
    aborted = k("--system-time", "2001-01-01T00:00:00Z", "ingest", "aborted-ingest", "--stdin",
                input='{"event_time": "2024-04-02T00:00:00Z", "value": 2}\n', check=False)
    if aborted.returncode == 0 or "monotonic" not in aborted.stderr:
        raise RuntimeError(f"the aborted ingest did not fail as expected: {aborted.stderr}")

    # Versioned file: the uploaded contents become linked objects.
    created = json.loads(k("system", "api-server", "gql-query",
                           'mutation { datasets { createVersionedFile(datasetAlias: '
                           '"versioned-file", datasetVisibility: PUBLIC) { message '
                           '... on CreateDatasetResultSuccess { dataset { id } } } } }').stdout)
    vf_id = created["datasets"]["createVersionedFile"]["dataset"]["id"]
    for content in VERSIONED_FILE_CONTENTS:
        res = json.loads(k("system", "api-server", "gql-query",
                           f'mutation {{ datasets {{ byId(datasetId: "{vf_id}") {{ '
                           f'asVersionedFile {{ uploadNewVersion(content: '
                           f'"{base64usnp(content)}", contentType: "text/plain") {{ isSuccess '
                           f'message }} }} }} }} }}').stdout)
        if not res["datasets"]["byId"]["asVersionedFile"]["uploadNewVersion"]["isSuccess"]:
            raise RuntimeError(f"uploadNewVersion failed: {res}")

    # Compaction and reset (the blocks to reset to come from kamu's log).
    k("--yes", "system", "compact", "--hard", "compacted-hard")
    k("--yes", "system", "compact", "--hard", "--keep-metadata-only", "compacted-meta")
    reset_log = parse_log(k("log", "reset", "-o", "yaml").stdout)
    first_add = min((b["sequenceNumber"], h) for h, b in reset_log
                    if b["event"]["kind"] == "AddData")[1]
    k("--yes", "reset", "reset", first_add)

    # The derivative: written over csv-append's files, then synced by kamu.
    ids = dataset_ids(ws)
    csv_log = parse_log(k("log", "csv-append", "-o", "yaml").stdout)
    csv_folder = ws / ".kamu" / "datasets" / ids["csv-append"]
    src = out / "derivative-src"
    write_derivative(src, csv_folder, csv_log, "did:odf:" + ids["csv-append"])
    k("pull", f"file://{src}", "--as", "derivative")

    # Plain dataset folders written by `kamu push` to a file:// repository (what an S3 one
    # would hold too). kamu pushes the chain's data files and checkpoints, not the linked
    # objects of a versioned file.
    pushed = {}
    for alias in ("derivative", "versioned-file"):
        pushed[alias] = f"pushed/{alias}"
        k("push", alias, "--to", f"file://{out / pushed[alias]}")

    ids = dataset_ids(ws)
    missing = set(ALIASES) - set(ids)
    if missing:
        raise RuntimeError(f"datasets missing from the workspace: {sorted(missing)}")
    datasets = []
    for alias in ALIASES:
        log = k("log", alias, "-o", "yaml").stdout
        (logs / f"{alias}.yaml").write_text(log)
        datasets.append({
            "alias": alias,
            "id": ids[alias],
            "folder": f"ws/.kamu/datasets/{ids[alias]}",
            "kind": "derivative" if alias == "derivative" else "root",
            # Files of the folder no block of the chain references (kamu leaves them).
            "unreferenced": alias in ("compacted-hard", "compacted-meta", "reset",
                                      "aborted-ingest"),
            "linked_objects": alias == "versioned-file",
            "checkpoints": alias == "derivative",
        })
    manifest = {"format": FORMAT, "kamu": kamu_version(kamu), "datasets": datasets,
                "pushed": pushed,
                "kamu_commands": k.commands, "kamu_seconds": round(k.seconds, 1),
                "build_seconds": round(time.monotonic() - started, 1)}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def dataset_ids(ws: pathlib.Path) -> dict:
    out = {}
    for d in (ws / ".kamu" / "datasets").iterdir():
        alias = d / "info" / "alias"
        if alias.is_file():
            out[alias.read_text().strip()] = d.name
    return out


def cache_key(kamu: str) -> str:
    h = hashlib.sha256(kamu_version(kamu).encode())
    for f in (pathlib.Path(__file__), SOURCE / "scripts" / "generate_example_datasets.py"):
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def workspace(cache_root: pathlib.Path, kamu: str | None = None) -> pathlib.Path:
    """The workspace folder (holding manifest.json, ws/, logs/) for this kamu and this
    script, built under cache_root/<key>/ unless already there. Raises KamuUnavailable."""
    kamu = kamu or kamu_path()
    final = cache_root / f"kamu-workspace-{cache_key(kamu)}"
    if (final / "manifest.json").is_file():
        return final
    cache_root.mkdir(parents=True, exist_ok=True)
    # Built beside and renamed into place (kamu keeps no absolute path of its workspace),
    # so a run cut short never leaves a half-built cache entry.
    tmp = pathlib.Path(tempfile.mkdtemp(prefix=".building-", dir=cache_root))
    try:
        build(tmp / "w", kamu)
        try:
            (tmp / "w").rename(final)
        except OSError:
            if not (final / "manifest.json").is_file():  # another run won the race: fine
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for stale in cache_root.glob("kamu-workspace-*"):  # other kamu versions or scripts
        if stale != final:
            shutil.rmtree(stale, ignore_errors=True)
    return final


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    out = pathlib.Path(sys.argv[1]).resolve()
    manifest = build(out, kamu_path())
    print(json.dumps(manifest, indent=2))


if __name__ == "__main__":
    main()
