"""Linked objects (ODF RFC-017) through the Python package, on a versioned-file dataset kamu
writes at test time (GraphQL createVersionedFile + uploadNewVersion run by
`kamu system api-server gql-query`). Expected values: hashlib and kamu's contentHash."""
import base64
import hashlib
import json
import os
import pathlib
import pickle
import shutil
import subprocess
import tempfile

import pytest

import odf_hash

ROOT = pathlib.Path(__file__).resolve().parents[2]
KAMU = pathlib.Path(os.environ.get("ODF_HASH_KAMU", ROOT.parent / "shared" / "tools" / "kamu"
                                   / "kamu"))
CONTENTS = [b"first", b"second version"]


def sha3_name(data: bytes) -> str:
    return "f1620" + hashlib.sha3_256(data).hexdigest()


def gql(ws, query):
    r = subprocess.run([str(KAMU), "system", "api-server", "gql-query", query], cwd=ws,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r
    out = json.loads(r.stdout)
    return out.get("data", out)


@pytest.fixture(scope="module")
def dataset():
    if not KAMU.exists():
        pytest.skip(f"no kamu binary at {KAMU}")
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="odf_hash_py_linked_test_"))
    try:
        ws = tmp / "ws"
        ws.mkdir()
        subprocess.run([str(KAMU), "init"], cwd=ws, check=True, capture_output=True, timeout=60)
        did = gql(ws, 'mutation { datasets { createVersionedFile(datasetAlias: "vf", '
                      'datasetVisibility: PUBLIC) { ... on CreateDatasetResultSuccess { '
                      'dataset { id } } } } }')["datasets"]["createVersionedFile"]["dataset"]["id"]
        (ds,) = list((ws / ".kamu" / "datasets").iterdir())
        for content in CONTENTS:
            head = (ds / "refs" / "head").read_text().strip()
            b64 = base64.urlsafe_b64encode(content).decode().rstrip("=")
            gql(ws, f'mutation {{ datasets {{ byId(datasetId: "{did}") {{ asVersionedFile {{ '
                    f'uploadNewVersion(content: "{b64}", expectedHead: "{head}") {{ '
                    f'... on UpdateVersionSuccess {{ contentHash }} }} }} }} }} }}')
        copy = tmp / "copy"
        shutil.copytree(ds, copy)
        yield ds, copy
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_report_counts_linked_objects(dataset):
    ds, _ = dataset
    r = odf_hash.verify(ds)
    assert r.ok, list(r)
    assert r.linked_objects == {"checked": 2, "matched": 2}
    linked = {f.file: f.size for f in r.files if f.role == "linked-object"}
    assert linked == {f"data/{sha3_name(c)}": len(c) for c in CONTENTS}
    assert r.to_dict()["linked_objects"] == {"checked": 2, "matched": 2}


def test_problems_name_the_link_and_the_split_agrees(dataset):
    _, copy = dataset
    (copy / "data" / sha3_name(b"second version")).unlink()
    r = odf_hash.verify(copy)
    (p,) = list(r)
    assert p.kind == odf_hash.ProblemKind.LINKED_OBJECT_MISSING
    assert p.kind.value == "linked-object-missing"
    assert p.file == f"data/{sha3_name(b'second version')}"
    assert isinstance(p.link, odf_hash.Link)
    assert p.link.column == "content_hash" and p.link.row == 0
    assert p.to_dict()["link"] == {"data_file": p.link.data_file, "column": "content_hash",
                                   "row": 0}
    # Plan / check / merge, with the tasks and results through pickle and JSON as a worker
    # would get them, gives the same report.
    plan = odf_hash.plan(copy)
    roles = [t.role for t in plan]
    assert roles.count("linked-object") == 2 and roles.count("data") == 2
    tasks = [pickle.loads(pickle.dumps(t)) for t in plan]
    results = [odf_hash.CheckResult.from_json(odf_hash.check(t).to_json()) for t in tasks]
    assert odf_hash.merge(odf_hash.Plan.from_json(plan.to_json()), results) == r
    assert odf_hash.ProblemKind("linked-object-hash-mismatch")


def test_dask_local_bag_equals_verify(dataset):
    dask = pytest.importorskip("dask")
    import odf_hash.dask
    _, copy = dataset
    with dask.config.set(scheduler="threads"):
        assert odf_hash.dask.verify(copy, progress=False) == odf_hash.verify(copy)
