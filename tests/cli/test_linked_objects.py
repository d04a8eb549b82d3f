"""Linked objects (ODF RFC-017) in a real versioned-file dataset written by kamu.

A session fixture makes a kamu workspace (kamu init) holding one versioned-file dataset
(GraphQL createVersionedFile, then uploadNewVersion of "hello", "bye" and "hello" again,
run with `kamu system api-server gql-query`): kamu stores each content as data/<multihash>
and links it from the content_hash column, which its SetDataSchema marks ObjectLink. The
expected values come from kamu (its recorded hashes in `kamu log -o yaml`, the contentHash
GraphQL returns) and from hashlib, never from odf-hash. Every tampered copy is also given to
`kamu verify --integrity`, whose verdict is asserted: kamu does not look at linked objects
(docs/divergences.md).
"""
import base64
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest
import yaml

from remote_servers import http_server, kamu_node, moto_s3, upload_tree

ROOT = pathlib.Path(__file__).resolve().parents[2]
KAMU = pathlib.Path(os.environ.get("ODF_HASH_KAMU", ROOT.parent / "shared" / "tools" / "kamu"
                                   / "kamu"))
CONTENTS = [b"hello", b"bye", b"hello"]  # the third links the first's object again


def sha3_name(data: bytes) -> str:
    return "f1620" + hashlib.sha3_256(data).hexdigest()


def kamu(workspace, *args, timeout=60):
    return subprocess.run([str(KAMU), *map(str, args)], cwd=workspace, capture_output=True,
                          timeout=timeout, text=True)


def gql(workspace, query):
    r = kamu(workspace, "system", "api-server", "gql-query", query)
    assert r.returncode == 0, r
    out = json.loads(r.stdout)
    assert "errors" not in out, out
    return out.get("data", out)  # gql-query prints the data object without --full


@pytest.fixture(scope="session")
def workspace():
    """(workspace folder, dataset folder, [contentHash per upload]) made by kamu."""
    if not KAMU.exists():
        pytest.skip(f"no kamu binary at {KAMU}")
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="odf_hash_linked_test_"))
    try:
        ws = tmp / "ws"
        ws.mkdir()
        assert kamu(ws, "init").returncode == 0
        created = gql(ws, 'mutation { datasets { createVersionedFile(datasetAlias: "vf", '
                          'datasetVisibility: PUBLIC) { ... on CreateDatasetResultSuccess { '
                          'dataset { id } } } } }')
        did = created["datasets"]["createVersionedFile"]["dataset"]["id"]
        (dataset,) = list((ws / ".kamu" / "datasets").iterdir())
        hashes = []
        for content in CONTENTS:
            head = (dataset / "refs" / "head").read_text().strip()
            b64 = base64.urlsafe_b64encode(content).decode().rstrip("=")
            up = gql(ws, f'mutation {{ datasets {{ byId(datasetId: "{did}") {{ asVersionedFile '
                         f'{{ uploadNewVersion(content: "{b64}", expectedHead: "{head}") {{ '
                         f'... on UpdateVersionSuccess {{ contentHash }} }} }} }} }} }}')
            hashes.append(up["datasets"]["byId"]["asVersionedFile"]["uploadNewVersion"]
                          ["contentHash"])
        yield ws, dataset, hashes
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture
def tampered(workspace, tmp_path):
    """A copy of the workspace to break: (copy's workspace, copy's dataset folder)."""
    ws, dataset, _ = workspace
    copy = tmp_path / "ws"
    shutil.copytree(ws, copy)
    return copy, copy / ".kamu" / "datasets" / dataset.name


def verify_json(run, *args):
    r = run("verify", "--json", *args)
    assert r.rc in (0, 1), r
    return r, json.loads(r.out)["datasets"][0]


def kamu_integrity(ws):
    """kamu's verdict on its workspace copy: (exit code, output)."""
    r = kamu(ws, "verify", "--integrity", "vf")
    return r.returncode, r.stdout + r.stderr


def test_kamu_content_hashes_are_sha3_multihashes(workspace):
    _, dataset, hashes = workspace
    assert hashes == [sha3_name(c) for c in CONTENTS]
    for c in CONTENTS:
        assert (dataset / "data" / sha3_name(c)).read_bytes() == c


def test_versioned_file_is_valid_with_its_linked_objects(run, workspace):
    _, dataset, hashes = workspace
    r = run("verify", dataset)
    assert r.rc == 0, r
    assert "linked       2 objects checked: 2 match\n" in r.out
    assert "result       VALID" in r.out
    r, d = verify_json(run, dataset)
    assert d["valid"] and d["problems"] == []
    assert d["linked_objects"] == {"checked": 2, "matched": 2}
    linked = [f for f in d["files"] if f["role"] == "linked-object"]
    # Each object once, though "hello" is linked from two data files; sizes from the bytes.
    assert sorted(f["file"] for f in linked) == sorted(f"data/{h}" for h in set(hashes))
    assert {f["file"]: f["size"] for f in linked} == {
        f"data/{sha3_name(c)}": len(c) for c in CONTENTS}
    assert all(f["outcome"] == "physical-match" for f in linked)


def test_recorded_hashes_equal_ours(run, workspace):
    ws, dataset, _ = workspace
    r = kamu(ws, "log", "vf", "-o", "yaml")
    assert r.returncode == 0, r
    slices = []
    for doc in yaml.safe_load_all(r.stdout):
        if not doc:
            continue
        event = doc["content"]["event"]
        if event["kind"] == "AddData" and event.get("newData"):
            slices.append(event)
    assert len(slices) == len(CONTENTS)
    for event in slices:
        new = event["newData"]
        f = dataset / "data" / new["physicalHash"]
        assert f.stat().st_size == new["size"]
        r = run("physical", f)
        assert r.rc == 0 and r.out.split()[0] == new["physicalHash"], r
        r = run("logical", f)
        assert r.rc == 0 and r.out.split()[0] == new["logicalHash"], r
        # kamu's summary: one object per version, of the content's size.
        assert event["extra"]["opendatafabric.org/linkedObjects"]["numObjectsNaive"] == 1


def problems_of(d, kind):
    return [p for p in d["problems"] if p["kind"] == kind]


def data_file_linking(dataset, obj):
    """The data files whose content_hash column holds `obj` (pyarrow, not odf-hash)."""
    import pyarrow.parquet as pq
    out = []
    for f in sorted((dataset / "data").iterdir()):
        try:
            t = pq.read_table(f, columns=["content_hash"])
        except Exception:
            continue  # a linked object, not Parquet
        if obj in t.column("content_hash").to_pylist():
            out.append(f"data/{f.name}")
    return out


def test_deleted_linked_object_is_missing(run, tampered):
    ws, dataset = tampered
    obj = sha3_name(b"bye")
    (dataset / "data" / obj).unlink()
    r, d = verify_json(run, dataset)
    assert r.rc == 1
    (p,) = problems_of(d, "linked-object-missing")
    assert p["file"] == f"data/{obj}"
    assert p["link"]["column"] == "content_hash"
    assert p["link"]["row"] == 0
    assert [p["link"]["data_file"]] == data_file_linking(dataset, obj)
    assert len(d["problems"]) == 1  # the summary's size is not checked without the object
    text = run("verify", dataset)
    assert "linked-object-missing" in text.out and "column content_hash row 0" in text.out
    rc, out = kamu_integrity(ws)
    assert rc == 0, out  # kamu does not look at linked objects (docs/divergences.md)


def test_corrupted_linked_object_is_a_hash_mismatch(run, tampered):
    ws, dataset = tampered
    obj = sha3_name(b"hello")
    (dataset / "data" / obj).write_bytes(b"HELLO")  # same size, other bytes
    r, d = verify_json(run, dataset)
    assert r.rc == 1
    (p,) = problems_of(d, "linked-object-hash-mismatch")
    assert p["file"] == f"data/{obj}"
    assert p["expected"] == obj and p["actual"] == sha3_name(b"HELLO")
    assert p["link"]["column"] == "content_hash" and p["link"]["row"] == 0
    # Attributed to the newest data file linking it (the third upload).
    linking = data_file_linking(dataset, obj)
    assert len(linking) == 2 and p["link"]["data_file"] in linking
    assert d["linked_objects"] == {"checked": 2, "matched": 1}
    assert len(d["problems"]) == 1
    rc, out = kamu_integrity(ws)
    assert rc == 0, out


def test_resized_linked_object_also_breaks_the_summary_only_when_readable(run, tampered):
    """An object replaced by another file of the right name but another size: its hash
    fails; the summary check needs every object's size, so it stays silent."""
    _, dataset = tampered
    obj = sha3_name(b"bye")
    (dataset / "data" / obj).write_bytes(b"byebye")
    _, d = verify_json(run, dataset)
    assert [p["kind"] for p in d["problems"]] == ["linked-object-hash-mismatch"]


def test_linked_object_replaced_by_a_folder(run, tampered):
    _, dataset = tampered
    obj = sha3_name(b"bye")
    (dataset / "data" / obj).unlink()
    (dataset / "data" / obj).mkdir()
    r, d = verify_json(run, dataset)
    assert r.rc == 1
    (p,) = d["problems"]
    assert p["kind"] == "not-a-regular-file" and p["link"]["column"] == "content_hash"


def test_linked_objects_are_not_unexpected_files(run, tampered):
    _, dataset = tampered
    (dataset / "data" / sha3_name(b"stray")).write_bytes(b"stray")
    r, d = verify_json(run, dataset)
    # Only the stray file is unreferenced: the two linked objects are referenced by the
    # data files. It is listed (the dataset stays valid), and a problem with --strict.
    assert r.rc == 0 and d["problems"] == [], d
    assert [e["file"] for e in d["unreferenced"]["entries"]] == [f"data/{sha3_name(b'stray')}"]
    r, d = verify_json(run, "--strict", dataset)
    assert r.rc == 1
    assert [p["file"] for p in d["problems"]] == [f"data/{sha3_name(b'stray')}"]


def test_over_http(run, workspace, tampered):
    _, dataset, _ = workspace
    with http_server(dataset) as server:
        r, d = verify_json(run, server.url)
        assert r.rc == 0, r
        assert d["linked_objects"] == {"checked": 2, "matched": 2}
    _, broken = tampered
    (broken / "data" / sha3_name(b"bye")).unlink()
    with http_server(broken) as server:
        r, d = verify_json(run, server.url)
        assert r.rc == 1
        assert [p["kind"] for p in d["problems"]] == ["linked-object-missing"]
        assert d["problems"][0]["link"]["column"] == "content_hash"


def test_over_s3(run, workspace):
    _, dataset, _ = workspace
    with moto_s3() as (endpoint, client):
        client.create_bucket(Bucket="linked")
        upload_tree(client, "linked", "vf", dataset)
        r, d = verify_json(run, "--endpoint-url", endpoint, "s3://linked/vf")
        assert r.rc == 0, r
        assert d["unexpected_checked"] is True  # listed, and the objects are not unexpected
        assert d["linked_objects"] == {"checked": 2, "matched": 2}
        client.put_object(Bucket="linked", Key=f"vf/data/{sha3_name(b'hello')}", Body=b"HELLO")
        r, d = verify_json(run, "--endpoint-url", endpoint, "s3://linked/vf")
        assert r.rc == 1
        assert [p["kind"] for p in d["problems"]] == ["linked-object-hash-mismatch"]


# --- Shapes kamu does not write (linked_dataset.py) ----------------------------------------

A, B = b"object A", b"the second object"


@pytest.mark.parametrize("string_view,ipc", [(False, False), (True, False), (False, True)])
def test_links_in_structs_options_and_views(run, tmp_path, string_view, ipc):
    import linked_dataset
    rows = [(sha3_name(A), None), (None, sha3_name(B)), (sha3_name(A), sha3_name(B))]
    ds = tmp_path / "ds"
    linked_dataset.write(ds, rows, [A, B], summary=(4, 2 * len(A) + 2 * len(B)),
                         string_view=string_view, ipc=ipc)
    r, d = verify_json(run, ds)
    assert r.rc == 0, r
    assert d["linked_objects"] == {"checked": 2, "matched": 2}
    (ds / "data" / sha3_name(B)).unlink()
    r, d = verify_json(run, ds)
    assert r.rc == 1
    (p,) = d["problems"]
    assert p["kind"] == "linked-object-missing"
    assert p["link"]["column"] == "maybe" and p["link"]["row"] == 1  # row 0's is null


def test_link_in_a_struct_is_named_by_its_path(run, tmp_path):
    import linked_dataset
    ds = tmp_path / "ds"
    data_file = linked_dataset.write(ds, [(sha3_name(A), None)], [])
    _, d = verify_json(run, ds)
    (p,) = d["problems"]
    assert p["kind"] == "linked-object-missing"
    assert p["link"] == {"data_file": data_file, "column": "s.link", "row": 0}


def test_summary_disagreeing_with_the_data(run, tmp_path):
    import linked_dataset
    rows = [(sha3_name(A), sha3_name(A))]
    ds = tmp_path / "count"
    data_file = linked_dataset.write(ds, rows, [A], summary=(1, len(A)))
    _, d = verify_json(run, ds)
    (p,) = d["problems"]
    assert p["kind"] == "linked-objects-summary-mismatch"
    assert p["file"] == data_file
    assert (p["expected"], p["actual"], p["unit"]) == (1, 2, "link-values")
    ds = tmp_path / "size"
    linked_dataset.write(ds, rows, [A], summary=(2, len(A)))
    _, d = verify_json(run, ds)
    (p,) = d["problems"]
    assert (p["expected"], p["actual"], p["unit"]) == (len(A), 2 * len(A), "bytes")
    ds = tmp_path / "right"
    linked_dataset.write(ds, rows, [A], summary=(2, 2 * len(A)))
    r, d = verify_json(run, ds)
    assert r.rc == 0 and d["linked_objects"] == {"checked": 1, "matched": 1}, d


def test_malformed_link_values(run, tmp_path):
    import linked_dataset
    ds = tmp_path / "ds"
    rows = [(sha3_name(A), "not a hash"), (sha3_name(A), "f1620" + "00" * 31)]
    data_file = linked_dataset.write(ds, rows, [A])
    r, d = verify_json(run, ds)
    assert r.rc == 1
    assert [(p["kind"], p["link"]["column"], p["link"]["row"]) for p in d["problems"]] == [
        ("link-malformed", "maybe", 0), ("link-malformed", "maybe", 1)]
    assert all(p["file"] == data_file for p in d["problems"])
    assert d["linked_objects"] == {"checked": 1, "matched": 1}


def test_arrow0_link_is_malformed(run, tmp_path):
    """A link is the SHA3-256 multihash of the object's bytes: an arrow0 logical hash
    (f9680c00120…) names no object."""
    import linked_dataset
    ds = tmp_path / "ds"
    arrow0 = "f9680c00120" + "ab" * 32
    linked_dataset.write(ds, [(sha3_name(A), arrow0)], [A])
    r, d = verify_json(run, ds)
    assert r.rc == 1
    (p,) = d["problems"]
    assert (p["kind"], p["link"]["column"]) == ("link-malformed", "maybe"), p
    assert "this is a arrow0-sha3-256 multihash" in p["message"]


def test_problems_per_data_file_are_capped(run, tmp_path):
    """A data file linking many missing objects lists the first 10 (in row order) and counts
    the rest in one more problem, in text and --json alike (issue 33 item 5)."""
    import hashlib
    import linked_dataset
    ds = tmp_path / "ds"
    missing = ["f1620" + hashlib.sha3_256(str(i).encode()).hexdigest() for i in range(2500)]
    data_file = linked_dataset.write(ds, [(m, None) for m in missing] + [(sha3_name(A), None)],
                                     [A])
    r, d = verify_json(run, ds)
    assert r.rc == 1
    problems = d["problems"]
    assert len(problems) == 11, [p["kind"] for p in problems]
    assert [p["link"]["row"] for p in problems[:10]] == list(range(10))
    assert all(p["kind"] == "linked-object-missing" for p in problems)
    assert "link" not in problems[10] and problems[10]["file"] == data_file
    assert problems[10]["message"] == ("and 2490 more linked objects of this data file with the "
                                       "same problem (linked-object-missing), not listed")
    assert d["linked_objects"] == {"checked": 2501, "matched": 1}
    r = run("verify", ds)
    assert r.rc == 1 and "INVALID (11 problems)" in r.out, r.out[-400:]
    assert "and 2490 more linked objects" in r.out


def test_a_rewritten_data_file_still_has_its_links_read(run, tampered):
    """A data file rewritten with one link changed: its physical hash fails, and the link
    it now holds is read all the same (here: to an object that does not exist)."""
    import pyarrow.parquet as pq
    _, dataset = tampered
    obj = sha3_name(b"bye")
    (key,) = data_file_linking(dataset, obj)
    f = dataset / key
    t = pq.read_table(f)
    col = t.schema.get_field_index("content_hash")
    t = t.set_column(col, t.schema.field(col), [[sha3_name(b"nowhere")] * t.num_rows])
    pq.write_table(t, f)
    _, d = verify_json(run, dataset)
    kinds = sorted(p["kind"] for p in d["problems"])
    # The data file fails (its size changed), the new link is missing, and "bye" is now
    # linked by nothing: an unreferenced file (an unexpected-file problem with --strict).
    assert kinds == ["linked-object-missing", "size-mismatch"], d
    assert [e["file"] for e in d["unreferenced"]["entries"]] == [f"data/{obj}"], d
    _, d = verify_json(run, "--strict", dataset)
    kinds = sorted(p["kind"] for p in d["problems"])
    assert kinds == ["linked-object-missing", "size-mismatch", "unexpected-file"], d


# --- From a kamu node (kamu system api-server: Simple Transfer Protocol, data answered
# chunked, Range ignored) ----------------------------------------------------------------


def test_from_a_kamu_node(run, tampered):
    ws, dataset = tampered
    with kamu_node(str(KAMU), ws, "vf") as url:
        r, d = verify_json(run, url + "/vf")
        assert r.rc == 0, r
        assert d["linked_objects"] == {"checked": 2, "matched": 2}
    (dataset / "data" / sha3_name(b"hello")).write_bytes(b"HELLO")
    (dataset / "data" / sha3_name(b"bye")).unlink()
    with kamu_node(str(KAMU), ws, "vf") as url:
        r, d = verify_json(run, url + "/vf")
        assert r.rc == 1
        assert sorted(p["kind"] for p in d["problems"]) == [
            "linked-object-hash-mismatch", "linked-object-missing"], d


def test_fetch_brings_linked_objects_also_incrementally(run, workspace, tmp_path):
    """fetch of the versioned file: first up to its first upload, then the rest. The second
    fetch's new data files link objects whose column is declared by a SetDataSchema below the
    destination's head: they are fetched too, and the copy verifies with every object. Into a
    kamu workspace, kamu verifies it (kamu's own pull leaves linked objects behind)."""
    _, dataset, hashes = workspace
    source = tmp_path / "source"
    shutil.copytree(dataset, source)
    _, d = verify_json(run, source)
    first_block = min((f for f in d["files"] if f["role"] == "data"),
                      key=lambda f: f["sequence_number"])["block"]
    head = (source / "refs" / "head").read_text().strip()
    (source / "refs" / "head").write_text(first_block)
    dest = tmp_path / "copy"
    assert run("fetch", source, dest).rc == 0
    assert (dest / "data" / hashes[0]).read_bytes() == CONTENTS[0]
    (source / "refs" / "head").write_text(head)
    r = run("fetch", "--json", source, dest)
    assert r.rc == 0, r
    fetched = {f["file"] for f in json.loads(r.out)["files"] if f["role"] == "linked-object"}
    assert {f"data/{h}" for h in hashes[1:]} - {f"data/{hashes[0]}"} <= fetched, fetched
    for h, c in zip(hashes, CONTENTS):
        assert (dest / "data" / h).read_bytes() == c
    r, copy = verify_json(run, dest)
    assert copy["valid"] and copy["linked_objects"] == d["linked_objects"], copy
    ws = tmp_path / "ws"
    ws.mkdir()
    assert kamu(ws, "init").returncode == 0
    assert run("fetch", "--alias", "vf", source, ws).rc == 0
    code, out = kamu_integrity(ws)
    assert code == 0, out
