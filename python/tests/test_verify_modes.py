"""The verify modes from Python (issue 26): expect_head, since, deep, sample / seed, through
verify(), plan() / check() / merge() and the Dask adapter's local scheduler. Expected block
hashes are the example generator's file names (hashlib); its README gives the chain: Seed,
SetInfo, then three AddData blocks (sequence numbers 2 to 4), three data files and two
checkpoints."""
import hashlib
import os
import pathlib

import pytest

# The Arrow module (deep checks read records) finds pyarrow's libparquet beside the installed
# package, or already loaded: a test run from a --target folder relies on the latter.
pytest.importorskip("pyarrow.parquet")

import odf_hash  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "datasets" / "root"
HEAD = (EXAMPLE / "refs" / "head").read_text().strip()
UNKNOWN = "f1620" + "ab" * 32
# The example's dataset id, as scripts/generate_example_datasets.py derives it.
EXAMPLE_ID = "did:odf:fed01" + hashlib.sha3_256(b"odf-hash example root").hexdigest()


def test_expect_head_on_the_chain_and_not():
    r = odf_hash.verify(EXAMPLE, expect_head=HEAD)
    assert r.ok and r.complete and r.verdict == "VALID"
    assert r.scope["expected_head_found"] and r.scope["expected_head_sequence"] == 4
    r = odf_hash.verify(EXAMPLE, expect_head=UNKNOWN)
    assert not r.ok
    assert [p.kind.value for p in r] == ["history-rewritten"]
    assert r.problems[0].expected == UNKNOWN and r.problems[0].actual == HEAD
    assert "INVALID (1 problem)" in repr(r)


def test_since_the_head_checks_no_file():
    r = odf_hash.verify(EXAMPLE, since=HEAD)
    assert r.ok and not r.complete
    assert r.files == [] and r.blocks == 1
    assert r.verdict == "VALID (since block 4: 0 new blocks, 0 files checked)"
    assert r.scope["since_sequence"] == 4
    assert any("not read (--since" in s for s in r.scope["skipped"])


def test_deep_and_sample():
    r = odf_hash.verify(EXAMPLE, deep=True)
    assert r.ok and r.scope["deep"] and r.complete
    r = odf_hash.verify(EXAMPLE, sample=2, seed=11)
    assert r.ok and not r.complete
    s = r.scope["sample"]
    assert (s["files_checked"], s["files_total"], s["seed"], s["spec"]) == (2, 5, 11, "2")
    assert r.verdict.startswith("VALID (sampled: 2 of 5 files, ")
    assert len(r.files) == 2
    assert odf_hash.verify(EXAMPLE, sample=2, seed=11) == r  # deterministic for a seed
    # Without a seed, one is chosen and reported.
    assert isinstance(odf_hash.verify(EXAMPLE, sample="40%").scope["sample"]["seed"], int)


def test_plan_check_merge_keep_the_modes():
    p = odf_hash.plan(EXAMPLE, sample=3, seed=5, deep=True, expect_head=HEAD)
    assert len(p) == 3 and all(t.deep for t in p if t.role == "data")
    p = odf_hash.Plan.from_json(p.to_json())
    merged = odf_hash.merge(p, [odf_hash.check(t) for t in p])
    assert merged == odf_hash.verify(EXAMPLE, sample=3, seed=5, deep=True, expect_head=HEAD)
    assert merged.scope["sample"]["files_checked"] == 3 and not merged.complete


def test_dask_local_scheduler_verifies_a_sample():
    dask = pytest.importorskip("dask")
    import odf_hash.dask
    with dask.config.set(scheduler="threads"):
        got = odf_hash.dask.verify(EXAMPLE, sample=2, seed=9, progress=False)
    assert got == odf_hash.verify(EXAMPLE, sample=2, seed=9)


@pytest.mark.parametrize("kwargs", [
    {"sample": 0}, {"sample": 1.5}, {"sample": "x"}, {"sample": True}, {"seed": 3},
    {"sample": 2, "seed": -1}, {"expect_head": "zz"}, {"since": 12},
])
def test_bad_modes_raise(kwargs):
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.verify(EXAMPLE, **kwargs)


def test_pins_read_and_written_as_the_cli_does(tmp_path):
    """verify(pins=, write_pins=): the pin of the dataset is its expect_head; a valid,
    complete pass writes its head (other lines kept); a sampled pass writes nothing; the CLI
    reads what Python wrote. Expected heads: the example's refs/head (hashlib names)."""
    import subprocess
    other = f"{UNKNOWN}  /some/other/dataset\n"
    pins = tmp_path / "pins"
    pins.write_text(other)
    r = odf_hash.verify(EXAMPLE, pins=pins, write_pins=pins)
    assert r.ok and r.complete
    assert any("names no pin" in s for s in r.scope["skipped"])
    lines = pins.read_text().splitlines()
    pinned = f"{HEAD} {EXAMPLE_ID}  {os.path.realpath(EXAMPLE)}"
    assert lines[0] == other.rstrip("\n") and lines[1] == pinned
    # Now pinned: verified against the pin; an unknown pin is a rewritten history.
    r = odf_hash.verify(EXAMPLE, pins=pins)
    assert r.ok and r.scope["expected_head_found"]
    pins.write_text(f"{UNKNOWN}  {EXAMPLE}\n")
    r = odf_hash.verify(EXAMPLE, pins=pins, write_pins=pins)
    assert [p.kind.value for p in r] == ["history-rewritten"]
    assert pins.read_text() == f"{UNKNOWN}  {EXAMPLE}\n"  # an invalid pass pins nothing
    # Another spelling of the place finds the pin (pins are keyed by canonical location).
    r = odf_hash.verify(f"{EXAMPLE}/../root/", pins=pins)
    assert [p.kind.value for p in r] == ["history-rewritten"]
    fresh = tmp_path / "fresh"
    odf_hash.verify(EXAMPLE, sample=1, seed=1, write_pins=fresh)
    assert not fresh.exists()  # a sampled pass pins nothing
    odf_hash.verify(EXAMPLE, write_pins=fresh)
    cli = odf_hash.cli_path()
    out = subprocess.run([cli, "verify", "--pins", str(fresh), str(EXAMPLE)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    (tmp_path / "bad").write_text("not a pin line\n")
    with pytest.raises(odf_hash.InvalidInputError, match="bad:1"):
        odf_hash.verify(EXAMPLE, pins=tmp_path / "bad")
    with pytest.raises(odf_hash.NotFoundError):
        odf_hash.verify(EXAMPLE, pins=tmp_path / "missing")


@pytest.mark.parametrize("kwargs", [
    {"expect_head": ""}, {"since": ""}, {"sample": ""}, {"sample": 2, "seed": ""},
    {"pins": ""}, {"write_pins": ""}, {"ipfs_gateway": ""}, {"endpoint_url": ""},
    {"region": ""},
])
def test_an_empty_value_is_refused_never_off(kwargs):
    """Issue 33: an empty value never switches a check off (`expect_head=os.environ.get(...,
    "")` must not verify without its anchor); the command refuses the same (exit 2)."""
    if kwargs.get("seed") == "":
        with pytest.raises(odf_hash.InvalidInputError, match="seed must be an integer"):
            odf_hash.verify(EXAMPLE, **kwargs)
        return
    with pytest.raises(odf_hash.InvalidInputError, match="an empty value is refused"):
        odf_hash.verify(EXAMPLE, **kwargs)


def test_pin_files_bounded_locked_and_anchored(tmp_path):
    """The pin files of Python go through the library as the command's do: a device is
    refused before anything is read or verified, writers running at once (threads here)
    keep every pin, and since with write_pins needs an anchor."""
    import shutil
    import threading
    with pytest.raises(odf_hash.InvalidInputError, match="a character device, not a pin file"):
        odf_hash.verify(EXAMPLE, pins="/dev/zero")
    with pytest.raises(odf_hash.InvalidInputError, match="/dev/full: a character device"):
        odf_hash.verify(EXAMPLE, write_pins="/dev/full")
    with pytest.raises(odf_hash.InvalidInputError, match="since with write_pins pins heads"):
        odf_hash.verify(EXAMPLE, since=HEAD, write_pins=tmp_path / "p")
    copies = []
    for i in range(8):
        shutil.copytree(EXAMPLE, tmp_path / f"ds{i}")
        copies.append(tmp_path / f"ds{i}")
    pins = tmp_path / "pins"
    errors = []

    def one(path):
        try:
            odf_hash.verify(path, jobs=1, write_pins=pins)
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=one, args=(c,)) for c in copies]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(pins.read_text().splitlines()) == sorted(
        f"{HEAD} {EXAMPLE_ID}  {os.path.realpath(c)}" for c in copies)
    # Pinned, then the dataset's history rewritten (its head rolled onto an unknown block).
    (copies[0] / "refs" / "head").write_text(UNKNOWN)
    r = odf_hash.verify(f"{copies[0]}/", pins=pins)
    assert not r.ok and r.scope["expected_dataset_id"] == EXAMPLE_ID
