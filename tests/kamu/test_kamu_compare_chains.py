"""`odf-hash compare` of datasets kamu wrote in separate workspaces: where the metadata chains
differ (issue 24, item 4), as a user reproducing a kamu derivative in a second workspace sees it.

Four workspaces are written here (not the shared cached one): each ingests the same CSV into a
root dataset `src` (one with another merge strategy), and three add a derivative `der` reading
`src` with a SQL transform, one with another query. kamu cannot run the transform here (engines
run in containers), so the derivatives hold Seed and SetTransform only, which is what is
compared. Expected values are what was given to kamu (the queries, the alias, the merge
strategies) and the dataset ids kamu chose (its folder names, .kamu/datasets/<id>/).
"""
import json
import pathlib

import pytest

from conftest import run_kamu

QUERY = "SELECT id, name FROM src WHERE id > 1"
OTHER_QUERY = "SELECT id, upper(name) AS name FROM src"
KAMU_TIMEOUT = 120


def root_snapshot(glob: pathlib.Path, merge: dict) -> str:
    return json.dumps({"kind": "DatasetSnapshot", "version": 1, "content": {
        "name": "src", "kind": "Root", "metadata": [{
            "kind": "SetPollingSource",
            "fetch": {"kind": "FilesGlob", "path": str(glob)},
            "read": {"kind": "Csv", "header": True, "schema": {"fields": [
                {"name": "id", "type": "Int64"}, {"name": "name", "type": "String"},
                {"name": "ts", "type": "Timestamp"}]}},
            "merge": merge}]}})


def derivative_snapshot(query: str) -> str:
    return json.dumps({"kind": "DatasetSnapshot", "version": 1, "content": {
        "name": "der", "kind": "Derivative", "metadata": [{
            "kind": "SetTransform", "inputs": [{"datasetRef": "src"}],
            "transform": {"kind": "Sql", "engine": "datafusion", "query": query}}]}})


def kamu_ok(kamu, ws, *args):
    rc, out = run_kamu(kamu, ws, *args, timeout=KAMU_TIMEOUT)
    assert rc == 0, f"kamu {' '.join(map(str, args))}: {out[-2000:]}"


def folder(ws: pathlib.Path, alias: str) -> pathlib.Path:
    (found,) = [d for d in (ws / ".kamu" / "datasets").iterdir()
                if (d / "info" / "alias").is_file()
                and (d / "info" / "alias").read_text().strip() == alias]
    return found


@pytest.fixture(scope="module")
def workspaces(kamu, tmp_path_factory):
    root = tmp_path_factory.mktemp("kamu-chains")
    (root / "in").mkdir()
    (root / "in" / "a.csv").write_text("id,name,ts\n1,a,2024-01-01T00:00:00Z\n"
                                       "2,b,2024-01-02T00:00:00Z\n")
    glob = root / "in" / "*.csv"
    plans = {"ws1": ({"kind": "Append"}, QUERY), "ws2": ({"kind": "Append"}, QUERY),
             "ws3": ({"kind": "Append"}, OTHER_QUERY),
             "ws4": ({"kind": "Ledger", "primaryKey": ["id"]}, None)}
    out = {}
    for name, (merge, query) in plans.items():
        ws = root / name
        ws.mkdir()
        kamu_ok(kamu, ws, "init")
        (ws / "src.yaml").write_text(root_snapshot(glob, merge))
        kamu_ok(kamu, ws, "add", "src.yaml")
        kamu_ok(kamu, ws, "pull", "src")
        if query is not None:
            (ws / "der.yaml").write_text(derivative_snapshot(query))
            kamu_ok(kamu, ws, "add", "der.yaml")
        out[name] = ws
    return out


def compare(run, a, b):
    r = run("compare", "--json", a, b)
    assert r.rc in (0, 1), r
    return r.rc, r.json()


def test_same_transform_in_a_second_workspace(run, workspaces):
    ws1, ws2 = workspaces["ws1"], workspaces["ws2"]
    rc, doc = compare(run, folder(ws1, "der"), folder(ws2, "der"))
    assert rc == 0 and doc["chain_divergence"] is None
    # Each workspace created its own `src`: its id differs, and that is all.
    assert doc["chain_differences"] == [{
        "sequence_number": 1, "reproduced_sequence_number": 1, "event": "SetTransform",
        "field": "SetTransform.inputs[src].datasetRef",
        "original": "did:odf:" + folder(ws1, "src").name,
        "reproduced": "did:odf:" + folder(ws2, "src").name,
        "identity_only": True}]


def test_changed_query_is_named(run, workspaces):
    ws1, ws3 = workspaces["ws1"], workspaces["ws3"]
    rc, doc = compare(run, folder(ws1, "der"), folder(ws3, "der"))
    assert rc == 0  # no data on either side: the records do not differ
    real = [d for d in doc["chain_differences"] if not d["identity_only"]]
    # kamu writes a single query as the one step of `queries`.
    assert [(d["sequence_number"], d["field"], d["original"], d["reproduced"]) for d in real] == [
        (1, "SetTransform.transform.queries[0].query", QUERY, OTHER_QUERY)]
    text = run("compare", folder(ws1, "der"), folder(ws3, "der")).out
    assert "block 1 SetTransform.transform.queries[0].query" in text
    assert f"reproduced  {OTHER_QUERY}" in text


def test_root_datasets_re_ingested(run, workspaces):
    ws1, ws2, ws4 = workspaces["ws1"], workspaces["ws2"], workspaces["ws4"]
    # The same source and schema: no chain difference (the records differ in system_time,
    # which kamu sets at ingest: exit 1).
    rc, doc = compare(run, folder(ws1, "src"), folder(ws2, "src"))
    assert rc == 1 and doc["chain_differences"] == [] and doc["chain_divergence"] is None
    # ... and in the time columns alone (the CSV has no event time: kamu stamps both with the
    # ingest time), the same CSV rows otherwise, which the report says.
    assert (doc["system_time_column"], doc["event_time_column"]) == ("system_time", "event_time")
    (s,) = doc["slices"]
    assert s["only_time_columns_differ"] is True
    assert sorted(s["comparison"]["differing_columns"]) == ["event_time", "system_time"]
    assert "only the time columns differ (event_time, system_time)" in run(
        "compare", folder(ws1, "src"), folder(ws2, "src")).out
    # Another merge strategy: the SetPollingSource differs there.
    rc, doc = compare(run, folder(ws1, "src"), folder(ws4, "src"))
    fields = {(d["field"], d["original"], d["reproduced"]) for d in doc["chain_differences"]}
    assert ("SetPollingSource.merge.kind", "Append", "Ledger") in fields
    assert all(d["event"] != "Seed" for d in doc["chain_differences"])


def test_push_sources_field_by_field(run, datasets):
    """Two push sources of the shared workspace (make_workspace.py gave kamu an NdJson read
    with a ChangelogStream merge, and a Csv read with an UpsertStream merge, the same schema
    and primary key): their AddPushSource blocks differ in those two kinds only."""
    rc, doc = compare(run, datasets["push-changelog"]["path"], datasets["push-upsert"]["path"])
    push = [(d["field"], d["original"], d["reproduced"]) for d in doc["chain_differences"]
            if d["event"] == "AddPushSource"]
    assert push == [("AddPushSource.read.kind", "NdJson", "Csv"),
                    ("AddPushSource.merge.kind", "ChangelogStream", "UpsertStream")]
    assert all(d["event"] == "AddPushSource" for d in doc["chain_differences"])
