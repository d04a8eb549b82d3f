"""odf-hash over IPFS: ipfs://CID/path read through a real IPFS HTTP gateway on 127.0.0.1,
anchored by the CID: every block is asked for as a verifiable response (GATEWAY/ipfs/CID?
format=raw) and checked against the CID that links to it, from the root down the UnixFS path
to each file.

The gateway is Kubo (github.com/ipfs/kubo, the reference IPFS node) built from the Go module
proxy by scripts/build-kubo.sh, once, into a cache outside the repository (the tests skip,
saying why, when Go is not installed). The node runs offline (no bootstrap peers, no
network), with a repository made here; the example datasets and a tampered copy are added
to it by the test, in every layout Kubo writes (CIDv1 with raw leaves, CIDv0, dag-pb leaves,
small chunks and few links a node so that files are DAGs several levels deep, the trickle
layout, sha3-256 blocks with small ones inlined in identity CIDs, and every folder sharded as
a HAMT), and a copy whose data/ holds 2500 more entries, which Kubo shards. Expected
verdicts: the local folder's report (checked against hashlib in test_verify.py), hashlib,
and the logical hashes the blocks record (--deep); and kamu itself (when ../shared/tools/kamu
is there) reads a dataset it wrote through the same gateway with the same setting. What a
lying gateway can do is tests/cli/test_ipfs_hostile.py. The daemon is always stopped.
"""
import base64
import json
import os
import pathlib
import shutil
import subprocess

import pytest

import ipfs_node
from conftest import physical_hash
from ipfs_node import DATASETS, FAST, outcomes, verify_json
from remote_servers import http_server

SOURCE = pathlib.Path(__file__).resolve().parents[2]
KAMU = pathlib.Path(os.environ.get("ODF_KAMU", SOURCE.parent / "shared" / "tools" / "kamu" / "kamu"))
KAMU_GATEWAY_VAR = "KAMU_CONFIG__protocol__ipfs__httpGateway"  # kamu's config, from the env

# How the datasets are added: `ipfs add -r` options, and what each makes of them.
LAYOUTS = {
    "cidv1": ["--cid-version", "1"],  # raw leaves, dag-pb folders
    "cidv0": ["--cid-version", "0"],  # base58 "Qm…" CIDs, dag-pb leaves
    "dagpb-leaves": ["--cid-version", "1", "--raw-leaves=false"],
    # ~2 KB files in 64-byte chunks, 4 links a node: file DAGs 3 levels deep
    "deep-files": ["--cid-version", "1", "--chunker", "size-64", "--max-file-links", "4"],
    "trickle": ["--cid-version", "1", "--trickle", "--chunker", "size-100"],
    # sha3-256 blocks; refs/head and refs/ (under 128 bytes) inlined in identity CIDs
    "sha3-inline": ["--cid-version", "1", "--hash", "sha3-256", "--inline", "--inline-limit",
                    "128"],
    # every folder of more than 2 entries a HAMT of fanout 16
    "hamt": ["--cid-version", "1", "--max-directory-links", "2", "--max-hamt-fanout", "16"],
}
DATASET_NAMES = ("root", "derivative")
# Entries added to a copy of root's data/: names of 80 characters, so that the folder's node
# would be over 256 KiB, which Kubo shards as a HAMT at its default settings.
JUNK_FILES = 2500
LARGE_LAYOUTS = ("cidv1", "hamt")


class Gateway:
    def __init__(self, url, cids, root, ipfs):
        self.url, self.cids, self.root, self.ipfs = url, cids, root, ipfs

    def is_hamt(self, path):
        """Whether the folder at /ipfs/PATH is a HAMT shard (UnixFS Type 5, as Kubo says)."""
        node = json.loads(self.ipfs("dag", "get", path))
        data = base64.b64decode(node["Data"]["/"]["bytes"] + "==")
        return data[:2] == bytes([0x08, 0x05])


@pytest.fixture(scope="module")
def ipfs_bin():
    return ipfs_node.kubo_or_skip()


@pytest.fixture(scope="module")
def gateway(ipfs_bin, tmp_path_factory):
    base = tmp_path_factory.mktemp("ipfs")
    # The datasets, a copy of root with one byte of a data file flipped, and a copy of root
    # whose data/ holds JUNK_FILES more entries (unreferenced, so a VALID dataset).
    root = base / "datasets"
    for name in DATASET_NAMES:
        shutil.copytree(DATASETS / name, root / name)
    shutil.copytree(DATASETS / "root", root / "root-flipped")
    flipped = sorted((root / "root-flipped" / "data").iterdir())[0]
    b = bytearray(flipped.read_bytes())
    b[len(b) // 2] ^= 1
    flipped.write_bytes(bytes(b))
    shutil.copytree(DATASETS / "root", root / "root-large")
    for i in range(JUNK_FILES):
        (root / "root-large" / "data" / f"unreferenced-{i:05d}-{'x' * 62}").write_text(f"{i}\n")
    with ipfs_node.kubo_gateway(ipfs_bin, base / "node") as node:
        cids = {name: node.add(root / name) for name in ("root", "derivative", "root-flipped")}
        for layout, flags in LAYOUTS.items():
            large = ("root-large",) if layout in LARGE_LAYOUTS else ()
            for name in (*DATASET_NAMES, *large):
                cids[(layout, name)] = node.ipfs("add", "-r", "-Q", *flags, str(root / name))
        yield Gateway(node.url, cids, root, node.ipfs)


@pytest.mark.parametrize("name", DATASET_NAMES)
def test_ipfs_datasets_verify_valid(run, gateway, name):
    _, local = verify_json(run, DATASETS / name)
    url = f"ipfs://{gateway.cids[name]}"
    r, report = verify_json(run, *FAST, "--ipfs-gateway", gateway.url, url)
    assert r.rc == 0, r
    assert report["path"] == url
    assert report["valid"] and report["chain_complete"] and not report["problems"], report
    assert report["head"] == (DATASETS / name / "refs" / "head").read_text().strip()
    assert outcomes(report) == outcomes(local)
    assert all(o == "physical-match" for _, o in outcomes(report))
    # Anchored by the CID, and listed: unreferenced entries are looked for, as in a folder.
    assert report["scope"]["ipfs"] == {"gateway": gateway.url, "verified": True}
    assert report["unexpected_checked"] and report["unreferenced"] == local["unreferenced"]
    r = run("verify", *FAST, "--ipfs-gateway", gateway.url, url)
    assert f"ipfs         every block checked against the CID, read from {gateway.url}\n" in r.out


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", DATASET_NAMES)
def test_ipfs_every_layout_verifies_valid(run, gateway, layout, name):
    """Each way Kubo lays a dataset out, read block by block: the local report, and the
    records' logical hashes recorded in the blocks (--deep reads the Parquet files by ranges,
    through the file DAGs)."""
    _, local = verify_json(run, "--deep", DATASETS / name)
    url = f"ipfs://{gateway.cids[(layout, name)]}"
    r, report = verify_json(run, *FAST, "--deep", "--ipfs-gateway", gateway.url, url)
    assert r.rc == 0, r
    assert report["valid"] and not report["problems"], report
    assert report["scope"]["deep"] and report["scope"]["ipfs"]["verified"]
    assert outcomes(report) == outcomes(local)
    assert report["unreferenced"] == local["unreferenced"]


def test_ipfs_layouts_are_what_they_say(gateway):
    """The layouts really differ where the tests mean them to."""
    assert gateway.cids[("cidv0", "root")].startswith("Qm")
    assert gateway.is_hamt(gateway.cids[("hamt", "root")] + "/blocks")
    assert gateway.is_hamt(gateway.cids[("cidv1", "root-large")] + "/data")
    assert not gateway.is_hamt(gateway.cids[("cidv1", "root")] + "/data")
    first = sorted((DATASETS / "root" / "data").iterdir())[0].name
    deep = json.loads(gateway.ipfs("dag", "get", f"{gateway.cids[('deep-files', 'root')]}"
                                   f"/data/{first}"))
    child = json.loads(gateway.ipfs("dag", "get", deep["Links"][0]["Hash"]["/"]))
    assert len(deep["Links"]) <= 4 and "Links" in child and child["Links"]
    listed = gateway.ipfs("ls", gateway.cids[("sha3-inline", "root")]).split()
    assert any(c.startswith("bafyaa") for c in listed)  # refs/: an identity dag-pb CID
    head = gateway.ipfs("ls", gateway.cids[("sha3-inline", "root")] + "/refs").split()[0]
    assert head.startswith("bafkqa")  # refs/head: an identity raw CID


def test_ipfs_large_sharded_folder(run, gateway):
    """A data/ of 2503 entries that Kubo shards (a node over 256 KiB at its defaults: fanout
    256; and at fanout 16, several levels): listed whole, each entry checked to be where its
    name hashes to, the data files found by their names' hashes."""
    _, local = verify_json(run, gateway.root / "root-large")
    for layout in LARGE_LAYOUTS:
        url = f"ipfs://{gateway.cids[(layout, 'root-large')]}"
        r, report = verify_json(run, *FAST, "--ipfs-gateway", gateway.url, url)
        assert r.rc == 0, r
        assert report["valid"] and outcomes(report) == outcomes(local)
        junk = [e["file"] for e in report["unreferenced"]["entries"]]
        assert junk == [e["file"] for e in local["unreferenced"]["entries"]]
        assert len(junk) == JUNK_FILES


def test_ipfs_tampered_copy_invalid(run, gateway):
    flipped = sorted((gateway.root / "root-flipped" / "data").iterdir())[0]
    r, report = verify_json(run, *FAST, "--ipfs-gateway", gateway.url,
                            f"ipfs://{gateway.cids['root-flipped']}")
    assert r.rc == 1, r
    [p] = report["problems"]
    assert (p["kind"], p["file"]) == ("physical-hash-mismatch", f"data/{flipped.name}")
    assert p["expected"] == flipped.name
    assert p["actual"] == physical_hash(flipped.read_bytes())


@pytest.mark.parametrize("var", ["ODF_HASH_IPFS_GATEWAY",
                                 "KAMU_CONFIG__protocol__ipfs__httpGateway"])
def test_ipfs_gateway_from_environment(run, gateway, var):
    env = {k: v for k, v in os.environ.items()
           if k not in ("ODF_HASH_IPFS_GATEWAY", "KAMU_CONFIG__protocol__ipfs__httpGateway")}
    env[var] = gateway.url + "/"
    r = run("verify", *FAST, f"ipfs://{gateway.cids['root']}", env=env)
    assert r.rc == 0, r
    assert "result       VALID\n" in r.out
    # The option wins over the environment.
    env[var] = "http://127.0.0.1:9"
    r = run("verify", *FAST, "--ipfs-gateway", gateway.url, f"ipfs://{gateway.cids['root']}",
            env=env)
    assert r.rc == 0, r
    r = run("verify", *FAST, f"ipfs://{gateway.cids['root']}", env=env)
    assert r.rc == 2, r
    assert "http://127.0.0.1:9/ipfs/" in r.err, r


def test_ipfs_single_files(run, gateway):
    names = sorted(p.name for p in (DATASETS / "root" / "data").iterdir())
    urls = [f"ipfs://{gateway.cids['root']}/data/{n}" for n in names]
    r = run("physical", *FAST, "--ipfs-gateway", gateway.url, *urls)
    assert r.rc == 0, r
    expected = [physical_hash((DATASETS / "root" / "data" / n).read_bytes()) for n in names]
    assert r.out == "".join(f"{h}  {u}\n" for h, u in zip(expected, urls))


@pytest.mark.skipif(not KAMU.exists(), reason=f"kamu is not at {KAMU}")
def test_ipfs_dataset_kamu_wrote_read_by_kamu_and_by_us(run, gateway, tmp_path):
    """A root dataset kamu wrote, added to IPFS: kamu pulls ipfs://CID through the gateway
    its KAMU_CONFIG__protocol__ipfs__httpGateway names, and odf-hash, given only that
    variable, verifies the same URL VALID."""
    def kamu(ws, *args, env=None):
        r = subprocess.run(["timeout", "120", str(KAMU), *args], cwd=ws, capture_output=True,
                           timeout=130, env=env)
        assert r.returncode == 0, (args, r.stderr.decode()[-2000:])

    src, ws, copy = tmp_path / "src", tmp_path / "ws", tmp_path / "ws2"
    for d in (src, ws, copy):
        d.mkdir()
    (src / "part1.csv").write_text("id,name\n1,a\n2,b\n")
    (tmp_path / "ds.yaml").write_text(
        "kind: DatasetSnapshot\nversion: 1\ncontent:\n  name: csvds\n  kind: Root\n"
        "  metadata:\n    - kind: SetPollingSource\n      fetch:\n        kind: FilesGlob\n"
        f"        path: {src}/*.csv\n      read:\n        kind: Csv\n        header: true\n"
        "      merge:\n        kind: Append\n")
    kamu(ws, "init")
    kamu(ws, "add", str(tmp_path / "ds.yaml"))
    kamu(ws, "pull", "csvds")
    [folder] = list((ws / ".kamu" / "datasets").iterdir())
    # The dataset as the Simple Transfer Protocol lays it out (no info/ of the workspace).
    shutil.copytree(folder, tmp_path / "csvds", ignore=shutil.ignore_patterns("info"))
    cid = gateway.ipfs("add", "-r", "--cid-version", "1", "-Q", str(tmp_path / "csvds"))
    env = {k: v for k, v in os.environ.items() if k != "ODF_HASH_IPFS_GATEWAY"}
    env[KAMU_GATEWAY_VAR] = gateway.url
    kamu(copy, "init")
    kamu(copy, "pull", f"ipfs://{cid}", "--as", "fromipfs", env=env)
    [pulled] = list((copy / ".kamu" / "datasets").iterdir())
    assert (pulled / "refs" / "head").read_text() == (folder / "refs" / "head").read_text()
    r = run("verify", *FAST, f"ipfs://{cid}", env=env)
    assert r.rc == 0, r
    assert "result       VALID\n" in r.out


def test_ipfs_trust_gateway_with_a_plain_http_server(run, tmp_path):
    """A server that only serves paths (no verifiable responses) cannot anchor anything: an
    error saying so (exit 2), unless --trust-gateway, and then the report says that the
    content was not checked against the CID."""
    cid = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi"  # not checked
    shutil.copytree(DATASETS / "root", tmp_path / "ipfs" / cid)
    url = f"ipfs://{cid}"
    with http_server(tmp_path) as server:
        r = run("verify", *FAST, "--ipfs-gateway", server.url, url)
        assert r.rc == 2, r
        assert f"{server.url}/ipfs/{cid}?format=raw: not found (HTTP 404)" in r.err, r
        assert "--trust-gateway" in r.err, r
        r, report = verify_json(run, *FAST, "--trust-gateway", "--ipfs-gateway", server.url, url)
        assert r.rc == 0, r
        assert report["valid"] and report["path"] == url
        assert report["scope"]["ipfs"] == {"gateway": server.url, "verified": False}
        assert report["scope"]["skipped"] == [
            f"IPFS content: not checked against the CID; the gateway {server.url} was trusted "
            "to serve it (--trust-gateway)"]
        r = run("verify", *FAST, "--trust-gateway", "--ipfs-gateway", server.url, url)
        assert r.rc == 0 and "result       VALID\n" in r.out, r
        assert f"ipfs         NOT checked against the CID: read trusting {server.url}\n" in r.out
        name = sorted((DATASETS / "root" / "data").iterdir())[0].name
        r = run("physical", *FAST, "--trust-gateway", "--ipfs-gateway", server.url,
                f"{url}/data/{name}")
        assert r.rc == 0, r
        assert r.out.split()[0] == physical_hash((DATASETS / "root" / "data" / name).read_bytes())
        # ipns:// is refused without trusting the gateway, and read through it with.
        shutil.copytree(DATASETS / "root", tmp_path / "ipns" / "example.org")
        r = run("verify", *FAST, "--ipfs-gateway", server.url, "ipns://example.org")
        assert r.rc == 2 and "odf-hash does not check IPNS records" in r.err, r
        r, report = verify_json(run, *FAST, "--trust-gateway", "--ipfs-gateway", server.url,
                                "ipns://example.org")
        assert r.rc == 0 and report["valid"] and not report["scope"]["ipfs"]["verified"], r


@pytest.mark.parametrize("trust", [[], ["--trust-gateway"]])
@pytest.mark.parametrize("url, says", [
    ("ipfs://{cid}/../../x", 'dot segment ".."'),
    ("ipfs://{cid}/%2e%2E/x", 'dot segment ".."'),
    ("ipfs://{cid}/./refs", 'dot segment "."'),
    ("ipfs://{cid}/a%2Fb", "encoded '/'"),
    ("ipfs://bafyok/x", '"bafyok" is not a CID'),
    ("ipfs://bafyok", '"bafyok" is not a CID'),
    ("ipfs://{cid}?format=car", "no query or fragment"),
])
def test_ipfs_urls_refused_before_any_request(run, trust, url, says):
    """Usage errors (exit 2) naming what is wrong, with or without --trust-gateway; the
    gateway is a port nothing listens on, so any request would be an I/O error instead."""
    cid = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi"
    for command in ("verify", "physical"):
        r = run(command, *FAST, *trust, "--ipfs-gateway", "http://127.0.0.1:9",
                url.format(cid=cid))
        assert r.rc == 2, r
        assert says in r.err, r
        assert "127.0.0.1:9" not in r.err, r


def test_ipfs_fetch_copies_and_rejects_the_tampered_copy(run, gateway, tmp_path):
    dest = tmp_path / "copy"
    r = run("fetch", *FAST, "--ipfs-gateway", gateway.url, f"ipfs://{gateway.cids['root']}", dest)
    assert r.rc == 0, r
    for folder in ("blocks", "data", "checkpoints"):
        names = sorted(p.name for p in (DATASETS / "root" / folder).iterdir())
        assert sorted(p.name for p in (dest / folder).iterdir()) == names
        for n in names:
            assert (dest / folder / n).read_bytes() == (DATASETS / "root" / folder / n).read_bytes()
    flipped = sorted((gateway.root / "root-flipped" / "data").iterdir())[0]
    r = run("fetch", *FAST, "--ipfs-gateway", gateway.url,
            f"ipfs://{gateway.cids['root-flipped']}", tmp_path / "bad")
    assert r.rc == 1 and "physical-hash-mismatch" in r.out, r
    assert not (tmp_path / "bad" / "data" / flipped.name).exists()
    assert not (tmp_path / "bad" / "refs").exists()
