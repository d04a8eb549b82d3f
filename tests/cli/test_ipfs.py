"""odf-hash over IPFS: ipfs://CID/path read through a real IPFS HTTP gateway on 127.0.0.1,
as kamu reads IPFS datasets (GATEWAY/ipfs/CID/path).

The gateway is Kubo (github.com/ipfs/kubo, the reference IPFS node) built from the Go module
proxy by scripts/build-kubo.sh, once, into a cache outside the repository (the tests skip,
saying why, when Go is not installed). The node runs offline (no bootstrap peers, no
network), with a repository made here; the example datasets and a tampered copy are added
to it by the test. Expected verdicts: the local folder's report (checked against hashlib in
test_verify.py) and hashlib; and kamu itself (when ../shared/tools/kamu is there) reads a
dataset it wrote through the same gateway with the same setting. The daemon is always
stopped.
"""
import json
import os
import pathlib
import shutil
import subprocess

import pytest

import ipfs_node
from conftest import physical_hash

SOURCE = pathlib.Path(__file__).resolve().parents[2]
DATASETS = SOURCE / "examples" / "datasets"
KAMU = pathlib.Path(os.environ.get("ODF_KAMU", SOURCE.parent / "shared" / "tools" / "kamu" / "kamu"))
KAMU_GATEWAY_VAR = "KAMU_CONFIG__protocol__ipfs__httpGateway"  # kamu's config, from the env
FAST = ["--read-timeout", "5", "--connect-timeout", "2", "--max-attempts", "2"]


class Gateway:
    def __init__(self, url, cids, root, ipfs):
        self.url, self.cids, self.root, self.ipfs = url, cids, root, ipfs


@pytest.fixture(scope="module")
def ipfs_bin():
    return ipfs_node.kubo_or_skip()


@pytest.fixture(scope="module")
def gateway(ipfs_bin, tmp_path_factory):
    base = tmp_path_factory.mktemp("ipfs")
    # The datasets and a copy of root with one byte of a data file flipped.
    root = base / "datasets"
    for name in ("root", "derivative"):
        shutil.copytree(DATASETS / name, root / name)
    shutil.copytree(DATASETS / "root", root / "root-flipped")
    flipped = sorted((root / "root-flipped" / "data").iterdir())[0]
    b = bytearray(flipped.read_bytes())
    b[len(b) // 2] ^= 1
    flipped.write_bytes(bytes(b))
    with ipfs_node.kubo_gateway(ipfs_bin, base / "node") as node:
        cids = {name: node.add(root / name) for name in ("root", "derivative", "root-flipped")}
        yield Gateway(node.url, cids, root, node.ipfs)


def verify_json(run, *args, **kwargs):
    r = run("verify", "--json", *args, **kwargs)
    assert r.rc in (0, 1), r
    return r, json.loads(r.out)["datasets"][0]


def outcomes(report):
    return sorted((f["file"], f["outcome"]) for f in report["files"])


@pytest.mark.parametrize("name", ["root", "derivative"])
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
