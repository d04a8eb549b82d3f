"""Black-box tests of `odf-hash fetch SOURCE DEST`: the example datasets fetched from a folder,
an HTTP server and an S3 endpoint (moto), every server on 127.0.0.1 (remote_servers.py), and
from hostile ones: a server answering other bytes for a file, one missing a file, one dying
mid-object. The rule checked after every fetch (`final_names_verify`): every file under a
final name in DEST hashes (hashlib) to its name, and refs/head names a block that is there.
"""
import hashlib
import json
import pathlib
import shutil

import pytest

from conftest import physical_hash
from remote_servers import http_server, moto_s3, upload_tree

SOURCE = pathlib.Path(__file__).resolve().parents[2]
DATASETS = SOURCE / "examples" / "datasets"
FAST = ["--read-timeout", "2", "--connect-timeout", "2", "--max-attempts", "2"]


def final_names_verify(dest):
    """Every block, data file and checkpoint under its final name hashes to it (hashlib);
    returns the names by folder."""
    names = {}
    for folder in ("blocks", "data", "checkpoints"):
        names[folder] = set()
        if not (dest / folder).exists():
            continue
        for f in (dest / folder).iterdir():
            assert physical_hash(f.read_bytes()) == f.name, f
            names[folder].add(f.name)
    if (dest / "refs" / "head").exists():
        assert (dest / "refs" / "head").read_text() in names["blocks"]
    return names


def same_dataset(a, b):
    """The two dataset folders hold the same head, blocks, data and checkpoints."""
    assert (a / "refs" / "head").read_text().strip() == (b / "refs" / "head").read_text().strip()
    for folder in ("blocks", "data", "checkpoints"):
        left = sorted(p.name for p in (a / folder).iterdir()) if (a / folder).exists() else []
        right = sorted(p.name for p in (b / folder).iterdir()) if (b / folder).exists() else []
        assert left == right, folder
        for name in left:
            assert (a / folder / name).read_bytes() == (b / folder / name).read_bytes()


def fetch_json(run, *args):
    r = run("fetch", "--json", *args)
    assert r.rc in (0, 1, 2), r
    return r, json.loads(r.out)


@pytest.mark.parametrize("name", ["root", "derivative"])
def test_fetch_from_a_folder_then_up_to_date(run, tmp_path, name):
    dest = tmp_path / "copy"
    r = run("fetch", DATASETS / name, dest)
    assert r.rc == 0, r
    head = (DATASETS / name / "refs" / "head").read_text().strip()
    blocks = len(list((DATASETS / name / "blocks").iterdir()))
    files = sum(len(list((DATASETS / name / f).iterdir())) for f in ("data", "checkpoints"))
    last = r.out.splitlines()[-1]
    assert last.startswith(f"FETCHED ({blocks} new blocks, {files} files, "), r.out
    assert last.endswith(f" transferred): {dest} is now at head {head} (block {blocks - 1})")
    assert r.out.count("  transferred ") == files
    same_dataset(DATASETS / name, dest)
    final_names_verify(dest)
    assert not (dest / ".odf-hash-fetch").exists()
    assert run("verify", dest).rc == 0
    again = run("fetch", DATASETS / name, dest)
    assert again.rc == 0 and again.out.splitlines()[-1].startswith("UP TO DATE: "), again
    quiet = run("fetch", "-q", DATASETS / name, dest)
    assert quiet.rc == 0 and len(quiet.out.splitlines()) == 1, quiet


def test_fetch_json_counts_every_byte(run, tmp_path):
    r, doc = fetch_json(run, DATASETS / "root", tmp_path / "copy")
    assert r.rc == 0
    assert doc["fetched"] and doc["problems"] == [] and doc["old_head"] is None
    sizes = {f"{folder}/{p.name}": p.stat().st_size
             for folder in ("data", "checkpoints") for p in (DATASETS / "root" / folder).iterdir()}
    assert {f["file"]: f["size"] for f in doc["files"]} == sizes
    assert doc["bytes_transferred"] == sum(sizes.values())
    assert all(f["how"] == "transferred" for f in doc["files"])
    assert doc["head"] == doc["source_head"] == (DATASETS / "root" / "refs" / "head").read_text()


def test_fetch_incremental_after_new_blocks(run, tmp_path):
    source = tmp_path / "source"
    shutil.copytree(DATASETS / "root", source)
    full_head = (source / "refs" / "head").read_text()
    report = json.loads(run("verify", "--json", "-v", source).out)["datasets"][0]
    block2 = next(f["block"] for f in report["files"] if f["sequence_number"] == 2)
    (source / "refs" / "head").write_text(block2)
    dest = tmp_path / "copy"
    r, first = fetch_json(run, source, dest)
    assert r.rc == 0 and first["blocks_fetched"] == 3, first
    (source / "refs" / "head").write_text(full_head)
    r, second = fetch_json(run, source, dest)
    assert r.rc == 0, r
    assert second["old_head"] == block2 and second["old_sequence"] == 2
    assert second["blocks_fetched"] == 2
    newer = {f["file"] for f in report["files"] if f["sequence_number"] > 2}
    assert {f["file"] for f in second["files"]} == newer
    same_dataset(source, dest)


def test_fetch_rewritten_history_refused_then_forced(run, tmp_path):
    dest = tmp_path / "copy"
    assert run("fetch", DATASETS / "root", dest).rc == 0
    old = (dest / "refs" / "head").read_text()
    r = run("fetch", DATASETS / "derivative", dest)
    assert r.rc == 1, r
    assert "history-rewritten" in r.out and "REJECTED (1 problem)" in r.out
    assert f"stays at head {old}" in r.out
    assert (dest / "refs" / "head").read_text() == old
    forced = run("fetch", "--force", DATASETS / "derivative", dest)
    assert forced.rc == 0 and "a rewritten history accepted" in forced.out, forced
    assert (dest / "refs" / "head").read_text() == \
        (DATASETS / "derivative" / "refs" / "head").read_text().strip()
    final_names_verify(dest)


def test_fetch_expect_head_and_usage_errors(run, tmp_path):
    other = (DATASETS / "derivative" / "refs" / "head").read_text().strip()
    r = run("fetch", "--expect-head", other, DATASETS / "root", tmp_path / "a")
    assert r.rc == 1 and "history-rewritten" in r.out, r
    assert not (tmp_path / "a" / "refs").exists()
    bad = run("fetch", "--expect-head", "nothex", DATASETS / "root", tmp_path / "b")
    assert bad.rc == 2 and "--expect-head" in bad.err, bad
    assert run("fetch", DATASETS / "root").rc == 2
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "notes.txt").write_text("mine")
    busy = run("fetch", DATASETS / "root", tmp_path / "c")
    assert busy.rc == 2 and "holds files but no dataset" in busy.err, busy
    assert (tmp_path / "c" / "notes.txt").read_text() == "mine"
    missing = run("fetch", tmp_path / "nothing", tmp_path / "d")
    assert missing.rc == 2, missing


# ---------------------------------------------------------------------------------------
# HTTP and S3, honest and hostile


@pytest.fixture
def served(tmp_path):
    root = tmp_path / "served"
    shutil.copytree(DATASETS / "root", root / "root")
    with http_server(root) as server:
        yield server, root / "root"


def test_fetch_over_http_equals_the_source(run, tmp_path, served):
    server, folder = served
    dest = tmp_path / "copy"
    r = run("fetch", *FAST, f"{server.url}/root/", dest)
    assert r.rc == 0, r
    same_dataset(folder, dest)
    assert run("verify", dest).rc == 0


def test_fetch_over_http_rejects_a_substituted_file(run, tmp_path, served):
    server, folder = served
    data = sorted((folder / "data").iterdir())
    server.lies[f"root/data/{data[0].name}"] = data[1]  # another valid file in its place
    dest = tmp_path / "copy"
    r, doc = fetch_json(run, *FAST, f"{server.url}/root", dest)
    assert r.rc == 1, r
    kinds = [p["kind"] for p in doc["problems"]]
    assert kinds in (["physical-hash-mismatch"], ["size-mismatch"]), doc["problems"]
    assert doc["problems"][0]["file"] == f"data/{data[0].name}"
    assert doc["head"] is None and not (dest / "refs").exists()
    assert data[0].name not in final_names_verify(dest)["data"]


def test_fetch_over_http_substituted_block_rejects_everything(run, tmp_path, served):
    server, folder = served
    head = (folder / "refs" / "head").read_text()
    blocks = sorted(p for p in (folder / "blocks").iterdir() if p.name != head)
    server.lies[f"root/blocks/{head}"] = blocks[0]
    dest = tmp_path / "copy"
    r, doc = fetch_json(run, *FAST, f"{server.url}/root", dest)
    assert r.rc == 1, r
    assert doc["problems"][0]["kind"] in ("block-hash-mismatch", "block-reencoded")
    assert doc["bytes_transferred"] == 0
    assert not dest.exists() or final_names_verify(dest) == {"blocks": set(), "data": set(),
                                                               "checkpoints": set()}


def test_fetch_over_http_missing_file_is_unreachable_then_resumed(run, tmp_path, served):
    server, folder = served
    data = sorted((folder / "data").iterdir())
    kept = data[0].read_bytes()
    data[0].unlink()
    dest = tmp_path / "copy"
    r = run("fetch", *FAST, f"{server.url}/root", dest)
    assert r.rc == 2, r  # not obtained: not a verdict on the content
    assert "file-missing" in r.out and not (dest / "refs").exists()
    data[0].write_bytes(kept)
    again, doc = fetch_json(run, *FAST, f"{server.url}/root", dest)
    assert again.rc == 0, again
    hows = {f["file"]: f["how"] for f in doc["files"]}
    assert hows[f"data/{data[0].name}"] == "transferred"
    assert sum(h == "present" for h in hows.values()) == len(hows) - 1  # kept from the first
    same_dataset(folder, dest)


def test_fetch_server_dying_mid_object_leaves_a_resumable_partial(run, tmp_path, served):
    server, folder = served
    dest = tmp_path / "copy"
    r = run("fetch", *FAST, f"{server.url}/cut/root", dest)
    assert r.rc == 2, r
    assert not (dest / "refs").exists()
    final_names_verify(dest)
    partials = list((dest / ".odf-hash-fetch").glob("*.partial"))
    assert partials, list(dest.rglob("*"))
    again, doc = fetch_json(run, *FAST, f"{server.url}/root", dest)
    assert again.rc == 0, again
    assert any(f["how"] == "resumed" for f in doc["files"]), doc["files"]
    for f in doc["files"]:
        if f["how"] == "resumed":
            assert 0 < f["bytes_transferred"] < f["size"]
    same_dataset(folder, dest)
    assert not (dest / ".odf-hash-fetch").exists()


def test_fetch_from_s3_equals_the_source(run, tmp_path):
    with moto_s3() as (endpoint, client):
        client.create_bucket(Bucket="datasets")
        upload_tree(client, "datasets", "odf/root", DATASETS / "root")
        dest = tmp_path / "copy"
        r = run("fetch", "--endpoint-url", endpoint, "s3://datasets/odf/root", dest)
        assert r.rc == 0, r
        same_dataset(DATASETS / "root", dest)
        # A tampered object: rejected, not stored.
        data = sorted((DATASETS / "root" / "data").iterdir())[0]
        b = bytearray(data.read_bytes())
        b[len(b) // 2] ^= 1
        client.put_object(Bucket="datasets", Key=f"odf/root/data/{data.name}", Body=bytes(b))
        r2 = run("fetch", "--endpoint-url", endpoint, "s3://datasets/odf/root", tmp_path / "c2")
        assert r2.rc == 1 and "physical-hash-mismatch" in r2.out, r2
        assert data.name not in final_names_verify(tmp_path / "c2")["data"]
        assert hashlib.sha3_256(bytes(b)).hexdigest() in r2.out  # the actual hash, named


def test_fetch_with_a_pin_file(run, tmp_path):
    pins = tmp_path / "pins.txt"
    assert run("verify", "--write-pins", pins, DATASETS / "root").rc == 0
    r = run("fetch", "--pins", pins, DATASETS / "root", tmp_path / "a")
    assert r.rc == 0 and "not checked" not in r.out, r
    # The pin of another dataset's head under root's location: a rewritten history.
    other = (DATASETS / "derivative" / "refs" / "head").read_text().strip()
    line = pins.read_text()
    pins.write_text(other + line[line.index(" "):])
    r = run("fetch", "--json", "--pins", pins, DATASETS / "root", tmp_path / "b")
    assert r.rc == 1, r
    assert [p["kind"] for p in json.loads(r.out)["problems"]] == ["history-rewritten"]
    # A source the file does not pin is fetched, and the report says nothing was anchored.
    r = run("fetch", "--pins", pins, DATASETS / "derivative", tmp_path / "c")
    assert r.rc == 0 and "has no pin for" in r.out, r
    both = run("fetch", "--pins", pins, "--expect-head", other, DATASETS / "root", tmp_path / "d")
    assert both.rc == 2, both


@pytest.mark.parametrize("fault", ["endless", "long-length", "chunked-long", "stall"])
def test_fetch_from_a_hostile_server_stores_nothing_unverified(run, tmp_path, served, fault):
    """Bodies that go on past the recorded size, announce more than it, or stall: never a
    final name for them, never more bytes than recorded in the partial object, and an end in
    bounded time."""
    server, folder = served
    dest = tmp_path / "copy"
    r = run("fetch", *FAST, f"{server.url}/{fault}/root", dest)
    assert r.rc in (1, 2), r
    assert not (dest / "refs").exists()
    final_names_verify(dest)
    sizes = {p.name: p.stat().st_size
             for sub in ("data", "checkpoints") for p in (folder / sub).iterdir()}
    for p in (dest / ".odf-hash-fetch").glob("*.partial"):
        assert p.stat().st_size <= sizes[p.name[: -len(".partial")]], p
