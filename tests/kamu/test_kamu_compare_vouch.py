"""`odf-hash compare` of datasets kamu wrote vouches for nothing that was not checked against
its own metadata (issue 32, item 1.1): a copy whose head block file holds the bytes of the
block below it (another valid block kamu wrote) is "unverified" (exit 3), with the problems
`odf-hash verify` reports of it; kamu's own `kamu verify --integrity` calls that copy invalid
too. The blocks come from kamu's log (`kamu log -o yaml`), never from odf-hash.
"""
import shutil

import pytest

from conftest import run_kamu
from test_kamu_differential import KAMU_SECONDS, Chain

ALIAS = "csv-append"


def kamu_copy(kamu_workspace, datasets, folder):
    """The dataset in a kamu workspace of its own (`.kamu/version` and the folder: kamu builds
    its database from the folders, so it reads the blocks as they are): (workspace, copy)."""
    ds = datasets[ALIAS]
    ws = folder / "ws"
    (ws / ".kamu" / "datasets").mkdir(parents=True)
    shutil.copyfile(kamu_workspace / "ws" / ".kamu" / "version", ws / ".kamu" / "version")
    copy = ws / ".kamu" / "datasets" / ds["id"]
    shutil.copytree(ds["path"], copy)
    return ws, copy


def kamu_valid(kamu, ws):
    """kamu's verdict, with its database rebuilt from the folders (it takes the head and the
    blocks from its database, which would still hold the blocks read before a swap)."""
    for db in (ws / ".kamu").glob("workspace.sqlite.db*"):
        db.unlink()
    rc, out = run_kamu(kamu, ws, "verify", "--integrity", ALIAS, timeout=KAMU_SECONDS)
    assert rc is not None, out
    return rc == 0


def compare(run, a, b, rc):
    r = run("compare", "--json", a, b)
    assert r.rc == rc, r
    return r.json()


def verify_report(run, path):
    (report,) = run("verify", "--json", path).json()["datasets"]
    return report


@pytest.fixture
def copies(kamu_workspace, datasets, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    yield kamu_copy(kamu_workspace, datasets, tmp_path / "a"), \
        kamu_copy(kamu_workspace, datasets, tmp_path / "b")
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_swapped_head_block_of_a_kamu_dataset(run, kamu, kamu_workspace, copies):
    (ws_a, a), (ws_b, b) = copies
    chain = Chain(kamu_workspace, ALIAS)
    head_seq = max(chain.blocks)
    head, below = chain.block(head_seq), chain.block(head_seq - 1)
    assert (b / "refs" / "head").read_text().strip() == head

    # Pristine: kamu calls both valid, and the comparison vouches for them.
    assert kamu_valid(kamu, ws_b)
    doc = compare(run, a, b, 0)
    assert doc["verdict"] == "same-records"
    assert doc["original"]["verification"]["vouched"]
    assert doc["reproduced"]["verification"]["vouched"]
    data = [chain.data(s) for s in chain.seqs("AddData", with_data=True)]
    assert sorted(f["file"] for f in doc["reproduced"]["verification"]["files"]) == sorted(
        "data/" + d for d in data)

    # The head block's file holds the block below it: kamu and verify call the copy invalid.
    (b / "blocks" / head).write_bytes((b / "blocks" / below).read_bytes())
    assert not kamu_valid(kamu, ws_b)
    report = verify_report(run, b)
    assert not report["valid"] and report["problems"][0]["file"] == f"blocks/{head}"
    doc = compare(run, a, b, 3)
    assert doc["verdict"] == "unverified"
    assert doc["reproduced"]["verification"]["problems"] == report["problems"]
    assert doc["original"]["verification"]["vouched"]
    assert not any(s["verdict"] in ("identical", "equivalent") for s in doc["slices"])

    # Swapped alike on both sides: the walks agree on every slice, nothing is vouched for.
    (a / "blocks" / head).write_bytes((a / "blocks" / below).read_bytes())
    assert not kamu_valid(kamu, ws_a)
    doc = compare(run, a, b, 3)
    assert doc["verdict"] == "unverified"
    assert doc["original"]["verification"]["problems"] == verify_report(run, a)["problems"]
    assert all(s["verdict"] == "unverified" for s in doc["slices"] if "comparison" in s)
    text = run("compare", a, b)
    assert text.rc == 3 and "unverified: both sides failed their own verification" in text.out
