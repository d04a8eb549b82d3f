"""odf-hash against a real kamu node: `kamu system api-server` (kamu 0.265, the main ODF
implementation) on 127.0.0.1, serving a workspace made here, by the ODF Simple Transfer
Protocol at http://127.0.0.1:PORT/<alias>/refs/head, /blocks/<hash>, /data/<hash>, ...

The workspace holds
  rootds  a root dataset kamu wrote itself (a FilesGlob polling source over a local CSV);
  deriv   examples/datasets/derivative (written by scripts/generate_example_datasets.py):
          kamu cannot compute derivative data here (no engine containers), and refuses to
          pull that folder (it has no SetDataSchema), so the folder is put into the workspace
          as kamu lays datasets out, and kamu rebuilds its database from the folders;
  rootv2  tests/data/odf/root-v2, a dataset in manifest version 2, the same way.
Datasets kamu did not create itself are private: each is made public (anonymous reads) by
kamu's own GraphQL mutation `setVisibility`.

Expected verdicts come from kamu (`kamu verify --integrity`), from the local folder's report
(itself checked against hashlib in test_verify.py) and from hashlib. kamu runs under
`timeout`; the node is always stopped.
"""
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import urllib.error
import urllib.request

import pytest

from conftest import physical_hash
from remote_servers import kamu_node

SOURCE = pathlib.Path(__file__).resolve().parents[2]
DATASETS = SOURCE / "examples" / "datasets"
FIXTURES = SOURCE / "tests" / "data" / "odf"
KAMU = pathlib.Path(os.environ.get("ODF_KAMU", SOURCE.parent / "shared" / "tools" / "kamu" / "kamu"))
FAST = ["--read-timeout", "5", "--connect-timeout", "2", "--max-attempts", "2"]

pytestmark = pytest.mark.skipif(not KAMU.exists(), reason=f"kamu is not at {KAMU}")


def root_snapshot(name, src):
    """A kamu DatasetSnapshot of a root dataset `name` polling the CSV files of `src`."""
    return ("kind: DatasetSnapshot\nversion: 1\ncontent:\n"
            f"  name: {name}\n  kind: Root\n"
            "  metadata:\n    - kind: SetPollingSource\n      fetch:\n        kind: FilesGlob\n"
            f"        path: {src}/*.csv\n      read:\n        kind: Csv\n        header: true\n"
            "      merge:\n        kind: Append\n")

def kamu(ws, *args, timeout=120):
    r = subprocess.run(["timeout", str(timeout), str(KAMU), *args], cwd=ws,
                       capture_output=True, timeout=timeout + 10)
    assert r.returncode == 0, (args, r.stdout[-2000:], r.stderr[-2000:])
    return r.stdout.decode()


def example_id(name):
    # scripts/generate_example_datasets.py: dataset_id(name)
    return "fed01" + hashlib.sha3_256(b"odf-hash example " + name.encode()).hexdigest()


def seed_id(folder):
    """The did:odf of a dataset folder (the multicodec ed25519 key "ed01" + 32 bytes that
    only its Seed block holds)."""
    found = set()
    for block in (folder / "blocks").iterdir():
        data = block.read_bytes()
        i = data.find(b"\xed\x01")
        if i >= 0:
            found.add("f" + data[i:i + 34].hex())
    assert len(found) == 1, found
    return found.pop()



def get(url, headers=None, method="GET"):
    req = urllib.request.Request(url, headers=headers or {}, method=method)
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read()


class Node:
    def __init__(self, ws, url):
        self.ws, self.url = ws, url
        self.folders = {}
        for d in (ws / ".kamu" / "datasets").iterdir():
            self.folders[(d / "info" / "alias").read_text().strip()] = d


@pytest.fixture(scope="module")
def node(tmp_path_factory):
    ws = tmp_path_factory.mktemp("kamu-ws")
    src = ws.parent / (ws.name + "-src")
    src.mkdir()
    (src / "part1.csv").write_text("id,name,value\n1,a,10\n2,b,20\n3,c,30\n")
    kamu(ws, "init")
    snapshot = ws.parent / (ws.name + "-rootds.yaml")
    snapshot.write_text(root_snapshot("rootds", src))
    kamu(ws, "add", str(snapshot))
    kamu(ws, "pull", "rootds")
    datasets = ws / ".kamu" / "datasets"
    for alias, folder, ident in (("deriv", DATASETS / "derivative", example_id("derivative")),
                                 ("rootv2", FIXTURES / "root-v2", seed_id(FIXTURES / "root-v2"))):
        shutil.copytree(folder, datasets / ident)
        (datasets / ident / "info").mkdir(exist_ok=True)
        (datasets / ident / "info" / "alias").write_text(alias)
    # kamu rebuilds its database from the folders at the next command; every dataset is then
    # private until made public.
    for f in (ws / ".kamu").glob("workspace.sqlite.db*"):
        f.unlink()
    for d in datasets.iterdir():
        out = kamu(ws, "system", "api-server", "gql-query",
                   f'mutation {{ datasets {{ byId(datasetId: "did:odf:{d.name}") {{ '
                   'setVisibility(visibility: { public: { anonymousAvailable: true } }) '
                   '{ message } } } }')
        assert '"Success"' in out, out
    with kamu_node(str(KAMU), ws, "rootds") as url:
        yield Node(ws, url)


def verify_json(run, *args):
    r = run("verify", "--json", *args)
    assert r.rc in (0, 1), r
    return r, json.loads(r.out)["datasets"][0]


def outcomes(report):
    return sorted((f["file"], f["outcome"]) for f in report["files"])


def test_kamu_node_serves_data_chunked_without_length_or_ranges(node):
    """What kamu 0.265's node does, measured: the reason for the HTTP store's spool."""
    data = sorted((node.folders["rootds"] / "data").iterdir())[0]
    url = f"{node.url}/rootds/data/{data.name}"
    status, headers, body = get(url)
    assert status == 200 and body == data.read_bytes()
    assert "content-length" not in headers and headers.get("transfer-encoding") == "chunked"
    assert "etag" not in headers and "accept-ranges" not in headers
    status, headers, body = get(url, {"Range": "bytes=10-19"})
    assert status == 200 and body == data.read_bytes()  # Range ignored
    status, headers, _ = get(url, method="HEAD")
    assert status == 200 and "content-length" not in headers
    # Checkpoints alike.
    checkpoint = sorted((node.folders["deriv"] / "checkpoints").iterdir())[0]
    status, headers, body = get(f"{node.url}/deriv/checkpoints/{checkpoint.name}")
    assert status == 200 and body == checkpoint.read_bytes()
    assert "content-length" not in headers and headers.get("transfer-encoding") == "chunked"
    # Blocks and refs have a Content-Length.
    head = (node.folders["rootds"] / "refs" / "head").read_text().strip()
    status, headers, body = get(f"{node.url}/rootds/blocks/{head}")
    assert int(headers["content-length"]) == len(body)


@pytest.mark.parametrize("alias", ["rootds", "deriv"])
def test_kamu_node_datasets_verify_valid(run, node, alias):
    folder = node.folders[alias]
    _, local = verify_json(run, folder)
    r, remote = verify_json(run, *FAST, f"{node.url}/{alias}")
    assert r.rc == 0, r
    assert remote["valid"] and remote["chain_complete"] and not remote["problems"], remote
    assert remote["head"] == (folder / "refs" / "head").read_text().strip()
    assert outcomes(remote) == outcomes(local)
    assert all(o == "physical-match" for _, o in outcomes(remote)), remote
    # Every file served is the one on disk, whose name is its hashlib hash.
    for f in remote["files"]:
        assert physical_hash((folder / f["file"]).read_bytes()) == f["file"].split("/")[1]
    if alias == "rootds":
        kamu(node.ws, "verify", "--integrity", "rootds")  # kamu's own verdict: valid


def test_kamu_node_blocks_it_wrote_come_back_unchanged(node):
    for alias in ("rootds", "deriv"):
        for block in (node.folders[alias] / "blocks").iterdir():
            _, _, body = get(f"{node.url}/{alias}/blocks/{block.name}")
            assert body == block.read_bytes(), (alias, block.name)


def test_kamu_node_reencodes_version_2_blocks(run, node):
    """GET /blocks/{hash} re-serializes a block in the newest manifest version: the bytes
    served no longer hash to the name. Reported as block-reencoded (a problem), and so
    distinct from corruption."""
    folder = node.folders["rootv2"]
    blocks = sorted(b.name for b in (folder / "blocks").iterdir())
    for name in blocks:
        on_disk = (folder / "blocks" / name).read_bytes()
        _, _, served = get(f"{node.url}/rootv2/blocks/{name}")
        assert physical_hash(on_disk) == name
        assert served != on_disk and physical_hash(served) != name
    r, report = verify_json(run, *FAST, f"{node.url}/rootv2")
    assert r.rc == 1, r
    assert report["chain_complete"]
    problems = report["problems"]
    assert sorted(p["file"] for p in problems) == [f"blocks/{b}" for b in blocks]
    for p in problems:
        assert p["kind"] == "block-reencoded", p
        assert p["expected"] == p["file"][7:]
        assert "a kamu node serves every block in its newest manifest version" in p["message"]
        assert "valid version 3" in p["message"]
    assert all(o == "physical-match" for _, o in outcomes(report))
    # The same folder verifies VALID where its bytes are read as written.
    assert run("verify", folder).rc == 0


def replace_file(path, data):
    saved = path.read_bytes()
    path.write_bytes(data)
    return saved


def test_kamu_node_reencoded_derivative_data_matches_logically(run, node):
    folder = node.folders["deriv"]
    _, local = verify_json(run, folder)
    first = min((f for f in local["files"] if f["role"] == "data"),
                key=lambda f: f["sequence_number"])["file"]
    path = folder / first
    reencoded = (FIXTURES / "derivative-slice0-reencoded.parquet").read_bytes()
    assert len(reencoded) != path.stat().st_size  # kamu would stop at the size: not we
    saved = replace_file(path, reencoded)
    try:
        r, report = verify_json(run, *FAST, f"{node.url}/deriv")
        assert r.rc == 0, r
        by_file = dict(outcomes(report))
        assert by_file[first] == "logical-match", report
        f = next(f for f in report["files"] if f["file"] == first)
        assert f["actual_physical"] == physical_hash(reencoded)
    finally:
        path.write_bytes(saved)


@pytest.mark.parametrize("alias", ["rootds", "deriv"])
def test_kamu_node_truncated_data_fails_clearly(run, node, alias):
    folder = node.folders[alias]
    path = sorted((folder / "data").iterdir())[0]
    saved = replace_file(path, path.read_bytes()[:100])
    try:
        r, report = verify_json(run, *FAST, f"{node.url}/{alias}")
        assert r.rc == 1, r
        [p] = report["problems"]
        assert p["file"] == f"data/{path.name}"
        if alias == "rootds":
            # Bounded by the recorded size; the short body gives the object's size.
            assert (p["kind"], p["actual"], p["unit"]) == ("size-mismatch", 100, "bytes"), p
        else:
            # Derivative data is read whole (no size bound): the logical fallback fails.
            assert p["kind"] == "file-unreadable", p
            assert "cannot be read for the logical fallback" in p["message"], p
            assert f"{node.url}/{alias}/data/{path.name}" in p["message"], p
    finally:
        path.write_bytes(saved)


# ---------------------------------------------------------------------------------------
# odf-hash fetch from the node (its Simple Transfer Protocol), checked by kamu itself


def same_dataset(a, b):
    from test_fetch import same_dataset as same
    same(a, b)


def kamu_verifies(tmp_path, dataset, alias, ident):
    """`kamu verify --integrity` of `dataset` (whose id is `ident`, "fed01...") put into a new
    workspace as kamu lays it out."""
    ws = tmp_path / f"ws-{alias}"
    ws.mkdir()
    kamu(ws, "init")
    target = ws / ".kamu" / "datasets" / ident
    shutil.copytree(dataset, target)
    (target / "info").mkdir(exist_ok=True)
    (target / "info" / "alias").write_text(alias)
    for f in (ws / ".kamu").glob("workspace.sqlite.db*"):
        f.unlink()
    kamu(ws, "verify", "--integrity", alias)


def test_kamu_node_fetch_gives_a_dataset_kamu_accepts(run, node, tmp_path):
    dest = tmp_path / "rootds"
    r = run("fetch", *FAST, f"{node.url}/rootds", dest)
    assert r.rc == 0, r
    same_dataset(node.folders["rootds"], dest)
    kamu_verifies(tmp_path, dest, "rootds", node.folders["rootds"].name)


def test_kamu_node_fetch_of_reencoded_blocks_is_rejected(run, node, tmp_path):
    dest = tmp_path / "rootv2"
    r = run("fetch", "--json", *FAST, f"{node.url}/rootv2", dest)
    assert r.rc == 1, r
    doc = json.loads(r.out)
    assert {p["kind"] for p in doc["problems"]} == {"block-reencoded"}
    assert doc["bytes_transferred"] == 0 and not (dest / "blocks").exists()


def test_fetch_into_a_kamu_workspace_kamu_uses_it_as_its_own(run, node, tmp_path):
    """From the node's workspace folder (by alias) and from the node's URL into new kamu
    workspaces: the dataset lands in .kamu/datasets/<its id> with info/alias, kamu lists it and
    verifies it; fetched again it is up to date."""
    folder = node.folders["rootds"]
    ws = tmp_path / "ws"
    ws.mkdir()
    kamu(ws, "init")
    r = run("fetch", node.ws, ws)
    assert r.rc == 2 and "name the dataset to fetch" in r.err and "rootds" in r.err, r
    r = run("fetch", "--json", "--dataset", "rootds", node.ws, ws)
    assert r.rc == 0, r
    doc = json.loads(r.out)
    target = ws / ".kamu" / "datasets" / folder.name
    assert doc["dest"] == str(target) and doc["dataset_id"] == f"did:odf:{folder.name}"
    assert (target / "info" / "alias").read_text() == "rootds"
    same_dataset(folder, target)
    assert not (ws / ".kamu" / ".odf-hash-fetch").exists() or \
        not any((ws / ".kamu" / ".odf-hash-fetch").iterdir())
    listed = json.loads(kamu(ws, "list", "--output-format", "json"))
    assert [d["Name"] for d in listed] == ["rootds"], listed
    kamu(ws, "verify", "--integrity", "rootds")
    again = run("fetch", "--dataset", "rootds", node.ws, ws)
    assert again.rc == 0 and again.out.splitlines()[-1].startswith("UP TO DATE"), again
    # From the node, under another alias: the id is taken, so it is refused, named.
    clash = run("fetch", *FAST, "--alias", "mine", f"{node.url}/rootds", ws)
    assert clash.rc == 2 and "already holds this dataset" in clash.err, clash
    ws2 = tmp_path / "ws2"
    ws2.mkdir()
    kamu(ws2, "init")
    r = run("fetch", *FAST, "--alias", "mine", f"{node.url}/rootds", ws2)
    assert r.rc == 0, r
    assert (ws2 / ".kamu" / "datasets" / folder.name / "info" / "alias").read_text() == "mine"
    kamu(ws2, "verify", "--integrity", "mine")
    assert run("fetch", "--alias", "x", node.folders["rootds"], tmp_path / "plain").rc == 2


@pytest.mark.parametrize("alias", ["rootds", "deriv", "rootv2"])
def test_kamu_node_smart_transfer_protocol(run, node, alias, tmp_path):
    """odf+http://: the whole chain in one answer, the raw block bytes (so the version 2
    blocks that GET /blocks/{hash} re-encodes verify here), objects from the node's download
    URLs; the fetched copy equals the node's folder."""
    folder = node.folders[alias]
    url = "odf+" + node.url + "/" + alias
    _, local = verify_json(run, folder)
    r, remote = verify_json(run, *FAST, url)
    assert r.rc == 0, r
    assert remote["valid"] and remote["head"] == local["head"], remote
    assert outcomes(remote) == outcomes(local)
    dest = tmp_path / alias
    r = run("fetch", *FAST, url, dest)
    assert r.rc == 0, r
    same_dataset(folder, dest)


def test_multi_tenant_kamu_node_over_both_protocols(run, tmp_path):
    """A multi-tenant workspace (kamu init --multi-tenant): datasets live at
    /<account>/<dataset>, private until made public; verify and fetch over both protocols."""
    ws = tmp_path / "mt"
    ws.mkdir()
    src = tmp_path / "mt-src"
    src.mkdir()
    (src / "part1.csv").write_text("id,name,value\n1,a,10\n2,b,20\n")
    kamu(ws, "init", "--multi-tenant")
    snapshot = tmp_path / "mt.yaml"
    snapshot.write_text(root_snapshot("mtds", src))
    kamu(ws, "add", str(snapshot))
    kamu(ws, "pull", "mtds")
    (folder,) = list((ws / ".kamu" / "datasets").iterdir())
    out = kamu(ws, "system", "api-server", "gql-query",
               f'mutation {{ datasets {{ byId(datasetId: "did:odf:{folder.name}") {{ '
               'setVisibility(visibility: { public: { anonymousAvailable: true } }) '
               '{ message } } } }')
    assert '"Success"' in out, out
    account = (folder / "info" / "alias").read_text().strip().split("/")[0]  # "<account>/mtds"
    env = {"KAMU_AUTH_GITHUB_CLIENT_ID": "odf-hash-test", "KAMU_AUTH_GITHUB_CLIENT_SECRET": "x"}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        with kamu_node(str(KAMU), ws, f"{account}/mtds") as url:
            for base in (url, "odf+" + url):
                r, report = verify_json(run, *FAST, f"{base}/{account}/mtds")
                assert r.rc == 0 and report["valid"], (base, r)
                dest = tmp_path / ("copy-" + base.split(":")[0].replace("+", "-"))
                r = run("fetch", *FAST, f"{base}/{account}/mtds", dest)
                assert r.rc == 0, r
                same_dataset(folder, dest)
            r = run("verify", *FAST, f"odf+{url}/mtds")
            assert r.rc == 2 and "no such dataset" in r.err, r
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_kamu_node_fetch_after_new_ingest_transfers_only_the_new_blocks(run, node, tmp_path):
    """Runs last in this module: it adds blocks to rootds."""
    folder = node.folders["rootds"]
    dest = tmp_path / "rootds"
    assert run("fetch", *FAST, f"{node.url}/rootds", dest).rc == 0
    # The same over the Smart Transfer Protocol: the second flow begins after DEST's head.
    smart = tmp_path / "rootds-smart"
    smart_url = node.url.replace("http://", "odf+http://") + "/rootds"
    assert run("fetch", *FAST, smart_url, smart).rc == 0
    before = {p.name for p in (folder / "blocks").iterdir()}
    files_before = {p.name for p in (folder / "data").iterdir()}
    src = node.ws.parent / (node.ws.name + "-src")
    (src / "part2.csv").write_text("id,name,value\n4,d,40\n5,e,50\n")
    kamu(node.ws, "pull", "rootds")
    new_blocks = {p.name for p in (folder / "blocks").iterdir()} - before
    new_files = {f"data/{p.name}" for p in (folder / "data").iterdir()} - \
        {f"data/{n}" for n in files_before}
    assert new_blocks and new_files
    r = run("fetch", "--json", *FAST, f"{node.url}/rootds", dest)
    assert r.rc == 0, r
    doc = json.loads(r.out)
    assert doc["blocks_fetched"] == len(new_blocks)
    assert {f["file"] for f in doc["files"] if f["role"] == "data"} == new_files
    assert all(f["how"] == "transferred" for f in doc["files"])
    same_dataset(folder, dest)
    kamu_verifies(tmp_path, dest, "rootds", node.folders["rootds"].name)
    r = run("fetch", "--json", *FAST, smart_url, smart)
    assert r.rc == 0, r
    doc = json.loads(r.out)
    assert doc["blocks_fetched"] == len(new_blocks)
    assert {f["file"] for f in doc["files"] if f["role"] == "data"} == new_files
    same_dataset(folder, smart)
    # Up to date: kamu's node answers a flow beginning after its head with no block.
    r = run("fetch", "--json", *FAST, smart_url, smart)
    assert r.rc == 0 and json.loads(r.out)["up_to_date"], r
