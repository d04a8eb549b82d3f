"""What a lying IPFS gateway can make `odf-hash verify ipfs://CID` say: a clear error or
INVALID, never VALID.

The gateway is a small proxy on 127.0.0.1 in front of a real Kubo node (tests/cli/ipfs_node.py)
that answers most block requests (GET /ipfs/CID?format=raw) with Kubo's block, and some with
what a hostile gateway would send instead: another dataset's root block for the CID, one
changed byte in a chunk of a data file or in refs/head, another folder's block for a link, a
folder with an entry more or one less (made by Kubo from a changed copy, so a well-formed
block), an endless or oversized body, a HAMT shard answered with its parent (a loop if
followed), a body that is not a raw block, and one that stalls. Both servers are stopped
whatever happens; every run is bounded by the timeouts given.
"""
import contextlib
import http.server
import json
import shutil
import threading
import time
import urllib.parse
import urllib.request

import pytest

import ipfs_node
from ipfs_node import DATASETS, FAST, outcomes, verify_json

RAW = "application/vnd.ipld.raw"
STALL_SECONDS = 20


class _Hostile(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):
        parts = urllib.parse.urlsplit(self.path)
        if not parts.path.startswith("/ipfs/"):
            return self._send(404, b"", "text/plain")
        cid = parts.path[len("/ipfs/"):]
        self.server.requested.append(cid)
        kind, arg = self.server.rules.get(cid, ("proxy", None))
        if kind == "proxy":
            return self._send(200, self.server.block(cid))
        if kind == "as":  # another block under this CID
            return self._send(200, self.server.block(arg))
        if kind == "bytes":
            return self._send(200, arg)
        if kind == "flip":
            b = bytearray(self.server.block(cid))
            b[len(b) // 2] ^= 1
            return self._send(200, bytes(b))
        if kind == "text":
            return self._send(200, self.server.block(cid), "text/plain")
        return self._endless(kind)

    def _send(self, status, body, content_type=RAW):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _endless(self, kind):
        """"oversized": announces 3 MiB; "endless": no length, zeros until the client hangs
        up (at most 64 MiB); "stall": 10 of 1000 bytes, then nothing."""
        self.send_response(200)
        self.send_header("Content-Type", RAW)
        if kind == "oversized":
            self.send_header("Content-Length", str(3 << 20))
        elif kind == "stall":
            self.send_header("Content-Length", "1000")
        else:
            self.send_header("Connection", "close")
        self.end_headers()
        with contextlib.suppress(OSError):
            if kind == "stall":
                self.wfile.write(b"\0" * 10)
                self.wfile.flush()
                self.server.stopping.wait(STALL_SECONDS)
                return
            for _ in range(256):
                self.wfile.write(b"\0" * (256 << 10))
        self.close_connection = True


class HostileGateway(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, upstream):
        super().__init__(("127.0.0.1", 0), _Hostile)
        self.upstream = upstream
        self.rules = {}  # CID -> (kind, argument)
        self.requested = []
        self.stopping = threading.Event()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def block(self, cid):
        req = urllib.request.Request(f"{self.upstream}/ipfs/{cid}?format=raw",
                                     headers={"Accept": RAW})
        with urllib.request.urlopen(req, timeout=20) as resp:
            return resp.read()


class Node:
    def __init__(self, ipfs, cids, hostile):
        self.ipfs, self.cids, self.hostile = ipfs, cids, hostile

    def resolve(self, path):
        return self.ipfs("resolve", "-r", f"/ipfs/{path}").removeprefix("/ipfs/")


@pytest.fixture(scope="module")
def node(tmp_path_factory):
    ipfs_bin = ipfs_node.kubo_or_skip()
    base = tmp_path_factory.mktemp("ipfs-hostile")
    folders = base / "datasets"
    for name in ("root", "derivative"):
        shutil.copytree(DATASETS / name, folders / name)
    # root with a data file more (unreferenced) and one less (missing)
    shutil.copytree(DATASETS / "root", folders / "root-extra")
    (folders / "root-extra" / "data" / "extra").write_text("extra\n")
    shutil.copytree(DATASETS / "root", folders / "root-missing")
    sorted((folders / "root-missing" / "data").iterdir())[-1].unlink()
    shutil.copytree(DATASETS / "root", folders / "root-large")
    for i in range(300):
        (folders / "root-large" / "data" / f"junk-{i:04d}").write_text(f"{i}\n")
    with ipfs_node.kubo_gateway(ipfs_bin, base / "node") as kubo:
        cids = {name: kubo.add(folders / name) for name in
                ("root", "derivative", "root-extra", "root-missing")}
        cids["deep"] = kubo.ipfs("add", "-r", "-Q", "--cid-version", "1", "--chunker", "size-64",
                                 "--max-file-links", "4", str(folders / "root"))
        cids["hamt"] = kubo.ipfs("add", "-r", "-Q", "--cid-version", "1", "--max-hamt-fanout", "16",
                                 "--max-directory-links", "2", str(folders / "root-large"))
        hostile = HostileGateway(kubo.url)
        thread = threading.Thread(target=hostile.serve_forever, daemon=True)
        thread.start()
        try:
            yield Node(kubo.ipfs, cids, hostile)
        finally:
            hostile.stopping.set()
            hostile.shutdown()
            hostile.server_close()
            thread.join(timeout=10)


@pytest.fixture
def gateway(node):
    """The proxy with no rule (all blocks Kubo's), rules cleared after each test."""
    node.hostile.rules.clear()
    node.hostile.requested.clear()
    yield node.hostile
    node.hostile.rules.clear()


def verify_error(run, gateway, cid):
    """A run that must end in an error (exit 2): its stderr."""
    start = time.monotonic()
    r = run("verify", *FAST, "--ipfs-gateway", gateway.url, f"ipfs://{cid}")
    assert r.rc == 2, r
    assert "VALID" not in r.out, r
    assert time.monotonic() - start < 60, r
    return r.err


def test_proxy_passes_kubo_through(run, node, gateway):
    """Without rules the proxy is a faithful trustless gateway: VALID, as the local folder."""
    _, local = verify_json(run, DATASETS / "root")
    r, report = verify_json(run, *FAST, "--ipfs-gateway", gateway.url, f"ipfs://{node.cids['root']}")
    assert r.rc == 0 and report["valid"] and outcomes(report) == outcomes(local), r
    assert gateway.requested and all(c for c in gateway.requested)


def test_another_dataset_for_the_cid(run, node, gateway):
    """The classic lie: another self-consistent dataset (VALID on its own) under the CID."""
    gateway.rules[node.cids["root"]] = ("as", node.cids["derivative"])
    err = verify_error(run, gateway, node.cids["root"])
    assert f"/ipfs/{node.cids['root']}?format=raw" in err
    assert f"does not hash to {node.cids['root']}" in err
    assert "the gateway sent other content than the CID names" in err


def test_one_changed_byte_in_a_chunk(run, node, gateway):
    """A data file of the 3-level file DAG with one byte changed in one 64-byte chunk: that
    file unreadable (INVALID), the others checked."""
    name = sorted((DATASETS / "root" / "data").iterdir())[1].name
    leaves = node.ipfs("refs", "-r", "--unique", f"{node.cids['deep']}/data/{name}").split()
    leaf = [c for c in leaves if c.startswith("bafk")][-1]
    gateway.rules[leaf] = ("flip", None)
    r, report = verify_json(run, *FAST, "--ipfs-gateway", gateway.url, f"ipfs://{node.cids['deep']}")
    assert r.rc == 1 and not report["valid"], r
    [p] = report["problems"]
    assert (p["kind"], p["file"]) == ("file-unreadable", f"data/{name}")
    assert f"does not hash to {leaf}" in p["message"], p
    others = [o for f, o in outcomes(report) if f != f"data/{name}"]
    assert others and all(o == "physical-match" for o in others)


def test_one_changed_byte_in_refs_head(run, node, gateway):
    head = node.resolve(f"{node.cids['root']}/refs/head")
    gateway.rules[head] = ("flip", None)
    r, report = verify_json(run, *FAST, "--ipfs-gateway", gateway.url, f"ipfs://{node.cids['root']}")
    assert r.rc != 0 and not report["valid"], r
    assert any(f"does not hash to {head}" in p["message"] for p in report["problems"]), report


@pytest.mark.parametrize("folder, instead", [("blocks", "data"), ("data", "blocks")])
def test_wrong_block_for_a_link(run, node, gateway, folder, instead):
    """A folder's link answered with another folder's block (well-formed, of this dataset)."""
    cid = node.resolve(f"{node.cids['root']}/{folder}")
    gateway.rules[cid] = ("as", node.resolve(f"{node.cids['root']}/{instead}"))
    err = verify_error(run, gateway, node.cids["root"])
    assert f"does not hash to {cid}" in err


@pytest.mark.parametrize("copy", ["root-extra", "root-missing"])
def test_folder_with_an_entry_more_or_less(run, node, gateway, copy):
    """data/ answered with the data/ of a copy holding a file more, or one less: a well-formed
    folder (Kubo wrote it) that is not the one the CID names."""
    cid = node.resolve(f"{node.cids['root']}/data")
    gateway.rules[cid] = ("as", node.resolve(f"{node.cids[copy]}/data"))
    err = verify_error(run, gateway, node.cids["root"])
    assert f"does not hash to {cid}" in err


@pytest.mark.parametrize("kind, says", [
    ("oversized", "larger than 2097152 bytes, more than an IPFS block may be"),
    ("endless", "larger than 2097152 bytes, more than an IPFS block may be"),
    ("text", 'Content-Type "text/plain", not a raw block (application/vnd.ipld.raw): it is '
             "not a trustless gateway"),
])
def test_bodies_that_are_no_block(run, node, gateway, kind, says):
    gateway.rules[node.cids["root"]] = (kind, None)
    err = verify_error(run, gateway, node.cids["root"])
    assert says in err


def test_stalled_block(run, node, gateway):
    """10 bytes of a block, then nothing: the read timeout (1 s here) ends each attempt."""
    gateway.rules[node.cids["root"]] = ("stall", None)
    start = time.monotonic()
    r = run("verify", "--read-timeout", "1", "--connect-timeout", "2", "--max-attempts", "2",
            "--ipfs-gateway", gateway.url, f"ipfs://{node.cids['root']}")
    assert r.rc == 2 and "VALID" not in r.out, r
    assert "(2 attempts)" in r.err, r
    assert time.monotonic() - start < STALL_SECONDS, r


def test_hamt_shard_answered_with_its_parent(run, node, gateway):
    """A sub-shard of the sharded data/ answered with the shard above it: followed, it would
    loop; its bytes do not hash to the sub-shard's CID."""
    data = node.resolve(f"{node.cids['hamt']}/data")
    shard = json.loads(node.ipfs("dag", "get", data))
    subs = [link["Hash"]["/"] for link in shard["Links"] if len(link["Name"]) == 1]
    assert subs, shard  # fanout 16: a one-digit name is a sub-shard
    gateway.rules[subs[0]] = ("as", data)
    err = verify_error(run, gateway, node.cids["hamt"])
    assert f"does not hash to {subs[0]}" in err


def test_hamt_sub_shard_answered_with_a_sibling(run, node, gateway):
    """Two sub-shards swapped would move entries to buckets their names do not hash to; the
    CIDs refuse it first."""
    data = node.resolve(f"{node.cids['hamt']}/data")
    shard = json.loads(node.ipfs("dag", "get", data))
    subs = [link["Hash"]["/"] for link in shard["Links"] if len(link["Name"]) == 1]
    assert len(subs) >= 2, shard
    gateway.rules[subs[0]] = ("as", subs[1])
    err = verify_error(run, gateway, node.cids["hamt"])
    assert f"does not hash to {subs[0]}" in err
