"""odf+http:// datasets (kamu's Smart Transfer Protocol, read side) against a node written here
(smtp_server.py: the flow as kamu 0.265 speaks it) serving the example datasets, honest and
hostile: a tar entry under another block's name, a gzip bomb, a node that never answers, a
Close 1011 with a JSON reason, a binary frame, a payload that is not gzip, a download whose
bytes were tampered with. Every verdict is the local folder's (itself checked against hashlib
in test_verify.py); a real kamu node is tested in test_kamu_node.py."""
import json
import os
import pathlib
import shutil
import subprocess
import time

import pytest

from remote_servers import http_server
from smtp_server import bomb, sha3_name, smtp_node

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
    r = run("verify", *FAST, "odf+https://127.0.0.1:1/x")
    assert r.rc == 2 and "cannot reach the node" in r.err, r


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
    if fault == "bomb":
        bomb()  # built before the client's 2 s read timeout starts (CI once took longer)
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


def test_smtp_presigned_download_urls_keep_their_query(run, node, tmp_path):
    """Download URLs with a query (a presigned storage URL's signature) are requested with it,
    never shown in a message or report; what they give is still hashed."""
    node.faults.add("presigned")
    node.http.presigned = True  # data and checkpoints only with the signature: 403 otherwise
    r, d = verify_json(run, *FAST, f"{node.url}/root")
    assert r.rc == 0 and d["valid"], r
    signed = [q for q in node.http.queries if "X-Amz-Signature=s" in q]
    assert len(signed) >= len(d["files"]), node.http.queries
    r = run("fetch", *FAST, f"{node.url}/root", tmp_path / "copy")
    assert r.rc == 0, r
    for p in (DATASETS / "root" / "data").iterdir():
        assert (tmp_path / "copy" / "data" / p.name).read_bytes() == p.read_bytes()
    # A tampered object behind a presigned URL: rejected, and its signature shows nowhere.
    data = sorted((node.folder / "root" / "data").iterdir())
    node.http.lies[f"root/data/{data[0].name}"] = data[1]
    r = run("verify", "--json", *FAST, f"{node.url}/root")
    assert r.rc == 1, r
    assert "X-Amz-Signature" not in r.out and "X-Amz-Signature" not in r.err, r


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


def test_smtp_over_tls_checks_the_certificate(run, odf_hash_bin, tmp_path):
    """odf+https://: the WebSocket runs over TLS; the node's certificate is checked against
    $CURL_CA_BUNDLE (a self-signed one here, for 127.0.0.1), and refused without it."""
    from test_hardening3 import _self_signed
    cert, ctx = _self_signed(tmp_path)
    root = tmp_path / "served"
    shutil.copytree(DATASETS / "root", root / "root")
    with http_server(root) as http, smtp_node(root, http.url, tls=ctx) as n:
        assert n.url.startswith("odf+https://127.0.0.1:")
        env = {**os.environ, "CURL_CA_BUNDLE": str(cert)}
        p = subprocess.run([odf_hash_bin, "verify", "--json", *FAST, f"{n.url}/root"],
                           capture_output=True, text=True, timeout=60, env=env)
        assert p.returncode == 0, p
        d = json.loads(p.stdout)["datasets"][0]
        _, local = verify_json(run, DATASETS / "root")
        assert d["valid"] and d["head"] == local["head"] and d["blocks"] == local["blocks"]
        dest = tmp_path / "copy"
        p = subprocess.run([odf_hash_bin, "fetch", *FAST, f"{n.url}/root", str(dest)],
                           capture_output=True, text=True, timeout=60, env=env)
        assert p.returncode == 0, p
        assert (dest / "refs" / "head").read_text().strip() == local["head"]
        # The system's certificates do not know this one: the handshake fails, clearly.
        env.pop("CURL_CA_BUNDLE")
        p = subprocess.run([odf_hash_bin, "verify", *FAST, f"{n.url}/root"],
                           capture_output=True, text=True, timeout=60, env=env)
        assert p.returncode == 2, p
        assert "TLS handshake" in p.stderr and "certificate verify failed" in p.stderr, p.stderr


def test_smtp_bearer_token_goes_to_the_node_only(run, odf_hash_bin, tmp_path):
    """$ODF_HASH_BEARER_TOKEN: sent in the handshake (a private dataset); a node that wants one
    and gets none, or another, is a clear error, not a verdict; downloads at another address
    than the node's (presigned storage URLs) never see it."""
    root = tmp_path / "served"
    shutil.copytree(DATASETS / "root", root / "root")
    with http_server(root) as http, smtp_node(root, http.url, token="s3cret") as n:
        env = {k: v for k, v in os.environ.items() if k != "ODF_HASH_BEARER_TOKEN"}
        p = subprocess.run([odf_hash_bin, "verify", *FAST, f"{n.url}/root"],
                           capture_output=True, text=True, timeout=60, env=env)
        assert p.returncode == 2, p
        assert "refused access (HTTP 401)" in p.stderr and "ODF_HASH_BEARER_TOKEN" in p.stderr
        env["ODF_HASH_BEARER_TOKEN"] = "wrong"
        p = subprocess.run([odf_hash_bin, "verify", *FAST, f"{n.url}/root"],
                           capture_output=True, text=True, timeout=60, env=env)
        assert p.returncode == 2 and "was not accepted" in p.stderr, p
        env["ODF_HASH_BEARER_TOKEN"] = "s3cret"
        p = subprocess.run([odf_hash_bin, "verify", *FAST, f"{n.url}/root"],
                           capture_output=True, text=True, timeout=60, env=env)
        assert p.returncode == 0, p
        assert n.authorizations[-1] == "Bearer s3cret"
        # The downloads point at another address (the HTTP server's port): no token there.
        assert http.authorizations and set(http.authorizations) == {None}


def test_smtp_download_headers_are_sent_as_the_node_names_them(run, node, tmp_path):
    """The headers a node names with a download (its storage may need them: a customer key)
    go with that download's requests, except those the client owns (a Range of the first ten
    bytes would cut every object short)."""
    node.faults.add("headers")
    node.http.required_header = True  # data and checkpoints only with the key: 403 otherwise
    r, d = verify_json(run, *FAST, f"{node.url}/root")
    assert r.rc == 0 and d["valid"], r
    assert len(node.http.sent_headers) >= len(d["files"])
    assert all(h.get("Range") != "bytes=0-9" for h in node.http.sent_headers)
    r = run("fetch", *FAST, f"{node.url}/root", tmp_path / "copy")
    assert r.rc == 0, r
    for folder in ("data", "checkpoints"):
        for p in (DATASETS / "root" / folder).iterdir():
            assert (tmp_path / "copy" / folder / p.name).read_bytes() == p.read_bytes()


def test_smtp_download_header_that_would_inject_another_is_refused(run, node, tmp_path):
    """A header value holding CR LF (a hostile node injecting headers): nothing is requested
    with it, the objects are unreadable with a message that says why, and fetch stores none."""
    node.faults.add("bad-header")
    r, d = verify_json(run, *FAST, f"{node.url}/root")
    assert r.rc == 1 and not d["valid"], r
    assert d["problems"] and {p["kind"] for p in d["problems"]} == {"file-unreadable"}, d
    why = "a header that cannot be sent (x-amz-meta: a control character in the value)"
    assert all(why in p["message"] for p in d["problems"]), d
    assert not [p for p in node.http.counts if "/data/" in p or "/checkpoints/" in p]
    dest = tmp_path / "copy"
    r = run("fetch", *FAST, f"{node.url}/root", dest)
    assert r.rc != 0, r
    assert not (dest / "data").exists() or not any((dest / "data").iterdir())
    assert not (dest / "refs" / "head").exists()


def test_smtp_downloads_at_the_nodes_own_address_carry_the_token(run, odf_hash_bin, tmp_path):
    """A node without object storage serves the downloads itself: at its own address they
    carry $ODF_HASH_BEARER_TOKEN (a private dataset's objects are private too)."""
    root = tmp_path / "served"
    shutil.copytree(DATASETS / "root", root / "root")
    with smtp_node(root, None, token="s3cret") as n:
        env = {**os.environ, "ODF_HASH_BEARER_TOKEN": "s3cret"}
        p = subprocess.run([odf_hash_bin, "fetch", *FAST, f"{n.url}/root", str(tmp_path / "c")],
                           capture_output=True, text=True, timeout=60, env=env)
        assert p.returncode == 0, p
        served = {path.rsplit("/", 1)[1] for path, _ in n.downloads}
        files = {q.name for f in ("data", "checkpoints") for q in (root / "root" / f).iterdir()}
        assert served == files, n.downloads
        assert {auth for _, auth in n.downloads} == {"Bearer s3cret"}
        for name in files:
            folder = "data" if (root / "root" / "data" / name).exists() else "checkpoints"
            assert sha3_name((tmp_path / "c" / folder / name).read_bytes()) == name


def test_smtp_fetch_asks_only_for_the_blocks_after_the_destinations_head(run, node, tmp_path):
    """A second fetch over odf+http:// begins after DEST's head: the node sends only the new
    blocks (kamu's pull request's begin_after), and DEST ends equal to the source."""
    served = node.folder / "root"
    full_head = (served / "refs" / "head").read_text().strip()
    report = json.loads(run("verify", "--json", "-v", served).out)["datasets"][0]
    block2 = next(f["block"] for f in report["files"] if f["sequence_number"] == 2)
    (served / "refs" / "head").write_text(block2)
    dest = tmp_path / "copy"
    r = run("fetch", "--json", *FAST, f"{node.url}/root", dest)
    assert r.rc == 0 and json.loads(r.out)["blocks_fetched"] == 3, r
    (served / "refs" / "head").write_text(full_head)
    node.requests.clear()
    node.sent_blocks.clear()
    r = run("fetch", "--json", *FAST, f"{node.url}/root", dest)
    assert r.rc == 0, r
    doc = json.loads(r.out)
    assert doc["old_head"] == block2 and doc["blocks_fetched"] == 2, doc
    assert node.requests[0]["begin_after"] == block2
    assert len(node.sent_blocks) == 1 and len(node.sent_blocks[0]) == 2, node.sent_blocks
    assert node.sent_blocks[0][-1] == full_head
    newer = {f["file"] for f in report["files"] if f["sequence_number"] > 2}
    assert {f["file"] for f in doc["files"]} == newer
    for folder in ("blocks", "data", "checkpoints"):
        assert sorted(p.name for p in (dest / folder).iterdir()) == \
            sorted(p.name for p in (served / folder).iterdir())
    # Up to date: the node sends no block, and nothing changes.
    r = run("fetch", "--json", *FAST, f"{node.url}/root", dest)
    assert r.rc == 0 and json.loads(r.out)["up_to_date"], r
    assert node.sent_blocks[-1] == []


def test_smtp_fetch_of_a_rewritten_history_is_refused(run, node, tmp_path):
    """DEST's head is not on the node's chain: the node answers InvalidInterval, the whole
    chain is asked for in a new flow, and fetch names the rewritten history as from a folder."""
    dest = tmp_path / "copy"
    assert run("fetch", *FAST, f"{node.url}/root", dest).rc == 0
    old = (dest / "refs" / "head").read_text()
    node.requests.clear()
    r = run("fetch", *FAST, f"{node.url}/derivative", dest)
    assert r.rc == 1 and "history-rewritten" in r.out, r
    assert (dest / "refs" / "head").read_text() == old
    pulls = [q for q in node.requests if "begin_after" in q]
    assert [q["begin_after"] for q in pulls] == [old, None], node.requests
