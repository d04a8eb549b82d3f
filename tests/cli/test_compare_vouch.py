"""`odf-hash compare` of two datasets vouches for nothing that was not checked against its own
metadata: each side is verified as `verify` verifies it, and a side that fails makes the
verdict "unverified" (exit 3) with that side's problems in verify's terms.

Each shape breaks copies of the example datasets (or datasets written here) the way an
attacker or an accident would; the expected problems of a side are `odf-hash verify --json`'s
on the same folder or URL, the expected entries come from the construction (which blocks and
files were changed), never from compare's own output.
"""
import json
import pathlib
import shutil

import pytest

from dataset_edits import block_below, copy_example, flip_middle_byte, head_block
import remote_servers
import test_compare_datasets as writer  # the datasets written here (Seed, one AddData a table)

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "data" / "odf"


def verify_report(run, location):
    r = run("verify", "--json", location)
    (report,) = json.loads(r.out)["datasets"]
    return report


def compare_json(run, a, b, rc, *extra):
    r = run("compare", "--json", *extra, a, b)
    assert r.rc == rc, r
    return json.loads(r.out)


def expect_side(run, doc, side, location):
    """`side` failed its verification with `verify`'s own problems, or passed when verify
    says the dataset is valid."""
    report = verify_report(run, location)
    v = doc[side]["verification"]
    assert v["problems"] == report["problems"]
    assert v["vouched"] is report["valid"]
    return v


def expect_nothing_vouched(doc):
    assert doc["verdict"] == "unverified"
    assert all(s["vouched"] is False for s in doc["slices"])
    assert not any(s["verdict"] in ("identical", "equivalent") for s in doc["slices"])


def test_pristine_copies_are_vouched_for(run, tmp_path):
    a = copy_example("root", tmp_path / "a")
    b = copy_example("root", tmp_path / "b")
    doc = compare_json(run, a, b, 0)
    assert doc["verdict"] == "same-records"
    data = sorted("data/" + p.name for p in (a / "data").iterdir())
    for side in ("original", "reproduced"):
        v = expect_side(run, doc, side, a)
        assert v["vouched"] and v["chain_complete"] and v["unreached"] is None
        assert sorted(f["file"] for f in v["files"]) == data
        assert {f["outcome"] for f in v["files"]} == {"physical-match"}
        assert v["files_read"] == len(data)
        assert v["files_unchecked"] == len(list((a / "checkpoints").iterdir()))
    assert all(s["vouched"] and s["verdict"] == "identical" for s in doc["slices"])
    text = run("compare", a, b).out
    assert text.count("  verified  the chain to the seed; 3 data files read") == 2, text
    assert "verdict     same records in every slice" in text


def test_swapped_head_block(run, tmp_path):
    """The head block's file holds the bytes of the block below it (a valid block)."""
    a = copy_example("root", tmp_path / "a")
    b = copy_example("root", tmp_path / "b")
    below = block_below(b, head_block(b)).read_bytes()
    head_block(b).write_bytes(below)
    doc = compare_json(run, a, b, 3)
    expect_nothing_vouched(doc)
    expect_side(run, doc, "original", a)
    v = expect_side(run, doc, "reproduced", b)
    assert v["problems"] and v["problems"][0]["file"] == "blocks/" + head_block(b).name
    r = run("compare", a, b)
    assert r.rc == 3
    assert "NOT VERIFIED" in r.out and f"problem 1: {v['problems'][0]['kind']}" in r.out
    assert "verdict     unverified: the reproduction failed its own verification" in r.out
    # Swapped alike on both sides: both walks agree (the same slices), and still nothing is
    # vouched for.
    head_block(a).write_bytes(below)
    doc = compare_json(run, a, b, 3)
    expect_nothing_vouched(doc)
    expect_side(run, doc, "original", a)
    expect_side(run, doc, "reproduced", b)
    assert [s["comparison"]["verdict"] for s in doc["slices"]] == ["identical"] * len(doc["slices"])
    r = run("compare", a, b)
    assert r.rc == 3 and "unverified: both sides failed their own verification" in r.out
    assert "same records" not in r.out


def test_lying_server_answers_another_block(run, tmp_path):
    """An HTTP server answers the block below the head under the head's name."""
    a = copy_example("root", tmp_path / "a")
    b = copy_example("root", tmp_path / "b")
    with remote_servers.http_server(b) as server:
        server.lies[f"blocks/{head_block(b).name}"] = block_below(b, head_block(b))
        url = server.url + "/"
        doc = compare_json(run, a, url, 3, "--datasets")
        expect_nothing_vouched(doc)
        v = expect_side(run, doc, "reproduced", url)
        assert v["problems"][0]["file"] == "blocks/" + head_block(b).name
        assert doc["original"]["verification"]["vouched"] is True
        r = run("compare", "--datasets", a, url)
        assert r.rc == 3 and "NOT VERIFIED" in r.out
        # The honest server: the same dataset, vouched for.
        server.lies.clear()
        assert compare_json(run, a, url, 0, "--datasets")["verdict"] == "same-records"


def test_same_missing_block_on_both_sides(run, tmp_path):
    """Blocks 0-3 of both (Seed, [0, 99], [100, 149], [150, 179]); block 2 deleted on both: the
    walks stop there and offsets 0-149 are unreached on both sides, listed as such."""
    w = writer
    for name in ("a", "b"):
        w.write_dataset(tmp_path / name, [w.table(0, 100), w.table(100, 50), w.table(150, 30)])
        block_below(tmp_path / name, head_block(tmp_path / name)).unlink()
    doc = compare_json(run, tmp_path / "a", tmp_path / "b", 3)
    expect_nothing_vouched(doc)
    for side, name in (("original", "a"), ("reproduced", "b")):
        v = expect_side(run, doc, side, tmp_path / name)
        assert v["chain_complete"] is False and v["unreached"] == {"start": 0, "end": 149}
    assert [(s["start"], s["end"], s["verdict"])
            for s in doc["slices"]] == [(0, 149, "unreached"), (150, 179, "unverified")]
    below = doc["slices"][0]
    assert below["original_unreached"] and below["reproduced_unreached"]
    assert below["original_files"] == [] and below["reproduced_files"] == []
    assert doc["slices"][1]["comparison"]["verdict"] == "identical"
    text = run("compare", tmp_path / "a", tmp_path / "b").out
    assert "slice [0, 149]" in text and "not compared: both chains are broken above" in text
    assert "unreached offsets [0, 149]" in text


def test_data_files_tampered_identically_on_both_sides(run, tmp_path):
    a = copy_example("root", tmp_path / "a")
    b = copy_example("root", tmp_path / "b")
    victim = sorted((a / "data").iterdir())[0].name
    flip_middle_byte(a / "data" / victim)
    flip_middle_byte(b / "data" / victim)
    assert (a / "data" / victim).read_bytes() == (b / "data" / victim).read_bytes()
    doc = compare_json(run, a, b, 3)
    expect_nothing_vouched(doc)
    for side, ds in (("original", a), ("reproduced", b)):
        v = expect_side(run, doc, side, ds)
        assert [(p["kind"], p["file"]) for p in v["problems"]] == [
            ("physical-hash-mismatch", "data/" + victim)]
    (tampered,) = [s for s in doc["slices"] if s["original_files"][0]["file"] == "data/" + victim]
    assert tampered["comparison"]["verdict"] == "identical"  # what was read, not vouched for
    assert tampered["verdict"] == "unverified"
    text = run("compare", a, b).out
    assert "not vouched for: compared as identical, but both sides failed their own" in text


def test_reencoded_derivative_file_is_vouched_for(run, tmp_path):
    """A derivative's first data file re-encoded (other bytes, the recorded records): verify
    accepts it through the logical fallback, and so is it vouched for."""
    fixtures = json.loads((FIXTURES / "fixtures.json").read_text())
    if fixtures.get("placeholder_logical_hashes", True):
        pytest.skip("example datasets carry placeholder logical hashes")
    a = copy_example("derivative", tmp_path / "a")
    b = copy_example("derivative", tmp_path / "b")
    data = [f for f in verify_report(run, b)["files"] if f["role"] == "data"]
    first = min(data, key=lambda f: f["sequence_number"])["file"]
    shutil.copyfile(FIXTURES / "derivative-slice0-reencoded.parquet", b / first)
    report = verify_report(run, b)
    assert report["valid"] and report["logical_fallbacks"] == 1
    doc = compare_json(run, a, b, 0)
    assert doc["verdict"] == "same-records"
    v = expect_side(run, doc, "reproduced", b)
    assert [f["outcome"] for f in v["files"] if f["file"] == first] == ["logical-match"]
    (slice0,) = [s for s in doc["slices"] if s["reproduced_files"][0]["file"] == first]
    assert slice0["verdict"] == "equivalent" and slice0["vouched"]
    assert "1 by the logical fallback" in run("compare", a, b).out
