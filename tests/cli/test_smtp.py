"""odf+http:// datasets (kamu's Smart Transfer Protocol, read side) against a node written here
(smtp_server.py: the flow as kamu 0.265 speaks it) serving the example datasets, honest and
hostile: a tar entry under another block's name, a gzip bomb, a node that never answers, a
Close 1011 with a JSON reason, a binary frame, a payload that is not gzip, a download whose
bytes were tampered with. Every verdict is the local folder's (itself checked against hashlib
in test_verify.py); a real kamu node is tested in test_kamu_node.py."""
import json
import pathlib
import shutil
import time

import pytest

from remote_servers import http_server
from smtp_server import sha3_name, smtp_node

SOURCE = pathlib.Path(__file__).resolve().parents[2]
DATASETS = SOURCE / "examples" / "datasets"
FAST = ["--read-timeout", "2", "--connect-timeout", "2", "--max-attempts", "2"]


@pytest.fixture
def node(tmp_path):
    root = tmp_path / "served"
    for name in ("root", "derivative"):
        shutil.copytree(DATASETS / name, root / name)
    with http_server(root) as http, smtp_node(root, http.url) as n:
        n.http = http
        n.folder = root
        yield n


def verify_json(run, *args):
    r = run("verify", "--json", *args)
    assert r.rc in (0, 1, 2), r
    return r, json.loads(r.out)["datasets"][0]


@pytest.mark.parametrize("name", ["root", "derivative"])
def test_smtp_verify_and_fetch_equal_the_folder(run, node, tmp_path, name):
    _, local = verify_json(run, DATASETS / name)
    r, remote = verify_json(run, *FAST, f"{node.url}/{name}")
    assert r.rc == 0, r
    assert remote["head"] == local["head"] and remote["blocks"] == local["blocks"]
    assert sorted(f["file"] for f in remote["files"]) == sorted(f["file"] for f in local["files"])
    assert remote["valid"] and not remote["unexpected_checked"]
    # One pull flow: the request, {} and one batch of objects, asked from the blocks.
    pull, metadata, objects = node.requests[:3]
    assert pull == {"begin_after": None, "stop_at": None, "force_update_if_diverged": False}
    assert metadata == {}
    asked = {f"{'checkpoints' if o['object_type'] == 'Checkpoint' else 'data'}/"
             f"{o['physical_hash']}": o["size"] for o in objects["object_files"]}
    assert asked == {f["file"]: (DATASETS / name / f["file"]).stat().st_size
                     for f in local["files"]}
    dest = tmp_path / "copy"
    r = run("fetch", *FAST, f"{node.url}/{name}/", dest)
    assert r.rc == 0, r
    for folder in ("blocks", "data", "checkpoints"):
        for p in (DATASETS / name / folder).iterdir():
            assert (dest / folder / p.name).read_bytes() == p.read_bytes()
    assert (dest / "refs" / "head").read_text() == local["head"]


def test_smtp_unknown_dataset_and_unreachable_node(run, node):
    r = run("verify", *FAST, f"{node.url}/nothing")
    assert r.rc == 2 and "the node has no such dataset (404" in r.err, r
    r = run("verify", *FAST, "odf+http://127.0.0.1:1/x")
    assert r.rc == 2 and "cannot reach the node" in r.err, r
    r = run("verify", *FAST, f"odf+https://127.0.0.1:1/x")
    assert r.rc == 2 and "odf+https:// is not supported" in r.err, r


def test_smtp_entry_under_another_blocks_name_is_rejected(run, node, tmp_path):
    node.faults.add("wrong-name")
    r, report = verify_json(run, *FAST, f"{node.url}/root")
    assert r.rc == 1, r
    head = (DATASETS / "root" / "refs" / "head").read_text().strip()
    assert report["problems"][0]["kind"] == "block-hash-mismatch"
    assert report["problems"][0]["expected"] == head
    r = run("fetch", *FAST, f"{node.url}/root", tmp_path / "copy")
    assert r.rc == 1 and not (tmp_path / "copy" / "blocks").exists(), r


@pytest.mark.parametrize("fault, says", [
    ("bomb", "inflates to more than 256.0 MiB"),
    ("no-gzip", "the blocks' gzip is corrupt"),
    ("close-1011", "closed the connection (code 1011): the node answered an error"),
    ("binary", "binary frame"),
])
def test_smtp_hostile_answers_are_clear_errors(run, node, fault, says):
    node.faults.add(fault)
    start = time.monotonic()
    r = run("verify", *FAST, f"{node.url}/root")
    assert r.rc == 2 and says in r.err, r
    assert time.monotonic() - start < 30


def test_smtp_silent_node_times_out(run, node):
    node.faults.add("silent")
    start = time.monotonic()
    r = run("verify", "--read-timeout", "1", "--connect-timeout", "1", f"{node.url}/root")
    assert r.rc == 2 and "no answer from the node" in r.err, r
    assert time.monotonic() - start < 20


def test_smtp_tampered_download_is_rejected_not_stored(run, node, tmp_path):
    data = sorted((node.folder / "root" / "data").iterdir())
    node.http.lies[f"root/data/{data[0].name}"] = data[1]
    r = run("fetch", "--json", *FAST, f"{node.url}/root", tmp_path / "copy")
    assert r.rc == 1, r
    doc = json.loads(r.out)
    assert doc["problems"][0]["file"] == f"data/{data[0].name}"
    assert doc["problems"][0]["kind"] in ("size-mismatch", "physical-hash-mismatch")
    copy = tmp_path / "copy" / "data"
    assert not (copy / data[0].name).exists()
    for p in copy.iterdir():
        assert sha3_name(p.read_bytes()) == p.name


@pytest.mark.parametrize("fault", ["expired", "refused"])
def test_smtp_expired_or_refused_download_is_asked_for_again(run, node, tmp_path, fault):
    """A download past its expiry (or refused with 403) is asked for again in a new flow
    beginning after the head, and the object is read from the new URL."""
    node.faults.add(fault)
    r = run("fetch", "--json", *FAST, f"{node.url}/root", tmp_path / "copy")
    assert r.rc == 0, r
    head = (DATASETS / "root" / "refs" / "head").read_text().strip()
    pulls_again = [q for q in node.requests if q.get("begin_after") == head]
    asked_again = [o["physical_hash"] for q in node.requests[3:] for o in q.get("object_files", [])]
    stale = {p.name for p in (DATASETS / "root" / "data").iterdir()}  # behind the 403
    if fault == "expired":
        stale |= {p.name for p in (DATASETS / "root" / "checkpoints").iterdir()}
    assert sorted(asked_again) == sorted(stale), node.requests  # once each
    assert len(pulls_again) == len(stale)
    for p in (DATASETS / "root" / "data").iterdir():
        assert (tmp_path / "copy" / "data" / p.name).read_bytes() == p.read_bytes()
