"""`odf-hash verify` on a workspace written by kamu itself (the main ODF implementation,
0.265): unreferenced files after `kamu system compact --hard` and `kamu reset`, kamu
workspaces, folders that are not datasets, and non-canonical file names.

One workspace is built per session (about ten kamu commands of ~1 s each): two root
datasets from local CSV files (FilesGlob), pulled; then `cities` is hard-compacted and `towns`
reset to its first data block. kamu is the independent source: `kamu verify --integrity`
says whether a dataset is valid, and `kamu log -o yaml` which blocks and files its chain
references; every other file in blocks/, data/ and checkpoints/ must be listed as
unreferenced. Tests that change a dataset work on a copy of the workspace.

kamu is ../shared/tools/kamu/kamu beside the repository (or $ODF_HASH_KAMU); the tests are
skipped without it.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest
import yaml

from conftest import base58btc

SOURCE = pathlib.Path(__file__).resolve().parents[2]
KAMU = pathlib.Path(os.environ.get("ODF_HASH_KAMU", SOURCE.parent / "shared/tools/kamu/kamu"))
FOLDERS = ("blocks", "data", "checkpoints")

pytestmark = pytest.mark.skipif(not KAMU.exists(), reason=f"no kamu at {KAMU}")


def kamu(workspace, *args, check=True):
    proc = subprocess.run([str(KAMU), "--yes", *map(str, args)], cwd=workspace,
                          capture_output=True, text=True, timeout=120)
    if check and proc.returncode != 0:
        raise AssertionError(f"kamu {' '.join(map(str, args))}: {proc.returncode}\n"
                             f"{proc.stdout}\n{proc.stderr}")
    return proc


SNAPSHOT = """kind: DatasetSnapshot
version: 1
content:
  name: {name}
  kind: Root
  metadata:
    - kind: SetPollingSource
      fetch:
        kind: FilesGlob
        path: {glob}
      read:
        kind: Csv
        header: true
      merge:
        kind: Append
"""


def dataset_dirs(workspace):
    """alias -> dataset folder, from kamu's own layout (.kamu/datasets/<id>/info/alias)."""
    out = {}
    for d in (workspace / ".kamu" / "datasets").iterdir():
        out[(d / "info" / "alias").read_text().strip()] = d
    return out


def referenced_by_kamu(workspace, alias):
    """The keys kamu's chain references, from `kamu log -o yaml` (block hashes from its
    "# Block:" lines, data and checkpoint files from newData / newCheckpoint)."""
    text = kamu(workspace, "log", alias, "-o", "yaml").stdout
    keys = {f"blocks/{h}" for h in re.findall(r"^# Block: (\S+)$", text, re.M)}
    for doc in yaml.safe_load_all(text):
        event = (doc or {}).get("content", {}).get("event", {})
        if event.get("newData"):
            keys.add(f"data/{event['newData']['physicalHash']}")
        if event.get("newCheckpoint"):
            keys.add(f"checkpoints/{event['newCheckpoint']['physicalHash']}")
    return keys


def files_on_disk(dataset):
    return {f"{folder}/{p.name}" for folder in FOLDERS if (dataset / folder).is_dir()
            for p in (dataset / folder).iterdir() if not p.name.startswith(".pending-")}


@pytest.fixture(scope="session")
def workspace(tmp_path_factory):
    """The kamu workspace, with facts recorded from kamu: per alias, the keys its chain
    references and its verdict from `kamu verify --integrity`."""
    root = tmp_path_factory.mktemp("kamu")
    src, ws = root / "src", root / "ws"
    src.mkdir()
    ws.mkdir()
    (src / "cities-1.csv").write_text("city,population\nA,1\nB,2\n")
    (src / "cities-2.csv").write_text("city,population\nC,3\n")
    (src / "towns-1.csv").write_text("town,km\nX,10\n")
    (src / "towns-2.csv").write_text("town,km\nY,20\nZ,30\n")
    for name in ("cities", "towns"):
        (ws / f"{name}.yaml").write_text(SNAPSHOT.format(name=name, glob=src / f"{name}-*.csv"))
    kamu(ws, "init")
    kamu(ws, "add", "cities.yaml", "towns.yaml")
    kamu(ws, "pull", "cities", "towns")
    dirs = dataset_dirs(ws)
    # towns: a second pull if the first took one file only, then reset to its first AddData.
    kamu(ws, "pull", "towns")
    text = kamu(ws, "log", "towns", "-o", "yaml").stdout
    adds = [h for h, body in re.findall(r"^# Block: (\S+)$(.*?)(?=^# Block:|\Z)", text,
                                        re.M | re.S) if "kind: AddData" in body]
    assert len(adds) >= 1, text
    before_reset = files_on_disk(dirs["towns"])
    kamu(ws, "reset", "towns", adds[-1])  # the oldest AddData (log is newest first)
    kamu(ws, "system", "compact", "--hard", "cities")
    facts = {}
    for alias in ("cities", "towns"):
        verdict = kamu(ws, "verify", "--integrity", alias, check=False)
        facts[alias] = {"referenced": referenced_by_kamu(ws, alias),
                        "kamu_valid": verdict.returncode == 0,
                        "dir": dirs[alias]}
    facts["towns"]["before_reset"] = before_reset
    return ws, facts


def verify_json(run, *args):
    r = run("verify", "--json", *args)
    return r, json.loads(r.out)


def test_kamu_calls_both_datasets_valid(workspace):
    _, facts = workspace
    assert facts["cities"]["kamu_valid"] and facts["towns"]["kamu_valid"]


def test_compacted_and_reset_workspace_is_valid_with_unreferenced_files(run, workspace):
    ws, facts = workspace
    r, out = verify_json(run, ws)
    assert r.rc == 0, r
    assert out["summary"]["datasets"] == 2 and out["summary"]["valid"] == 2
    reports = {d["alias"]: d for d in out["datasets"]}
    assert sorted(reports) == ["cities", "towns"]
    for alias, d in reports.items():
        f = facts[alias]
        assert d["valid"] and d["problems"] == [] and d["workspace"] == str(ws)
        assert pathlib.Path(d["path"]) == f["dir"]
        expected = files_on_disk(f["dir"]) - f["referenced"]
        assert expected, alias  # compaction and reset leave files behind
        entries = d["unreferenced"]["entries"]
        assert {e["file"] for e in entries} == expected, alias
        assert all(e["kind"] == "file" for e in entries)
        for e in entries:
            assert e["size"] == (f["dir"] / e["file"]).stat().st_size
        assert d["unreferenced"]["bytes"] == sum(e["size"] for e in entries)
        assert d["unreferenced"]["count"] == len(expected)
    # The reset kept the files of the blocks it erased.
    assert facts["towns"]["before_reset"] - facts["towns"]["referenced"] <= {
        e["file"] for e in reports["towns"]["unreferenced"]["entries"]}


def test_workspace_text_summary_lines(run, workspace):
    ws, facts = workspace
    r = run("verify", ws)
    assert r.rc == 0, r
    n = {a: len(files_on_disk(f["dir"]) - f["referenced"]) for a, f in facts.items()}
    assert f"workspace {ws}: 2 datasets\n" in r.out
    assert re.search(rf"^  cities  VALID, {n['cities']} unreferenced \([\d.]+ (KiB|bytes)\)$",
                     r.out, re.M), r.out
    assert re.search(rf"^  towns   VALID, {n['towns']} unreferenced", r.out, re.M), r.out
    assert f"== cities: {facts['cities']['dir']} (root dataset)\n" in r.out
    assert (f"unreferenced {n['cities']} files, ") in r.out
    assert "--strict makes them problems" in r.out
    assert r.out.endswith("summary: 2 datasets: 2 valid, 0 invalid (0 problems, "
                          "0 logical fallbacks)\n")


def test_strict_turns_unreferenced_into_problems(run, workspace):
    ws, facts = workspace
    r, out = verify_json(run, "--strict", ws)
    assert r.rc == 1, r
    for d in out["datasets"]:
        f = facts[d["alias"]]
        expected = files_on_disk(f["dir"]) - f["referenced"]
        assert not d["valid"]
        assert {p["kind"] for p in d["problems"]} == {"unexpected-file"}
        assert {p["file"] for p in d["problems"]} == expected
        assert d["unreferenced"]["strict"] is True


def test_dataset_selection_by_alias(run, workspace):
    ws, facts = workspace
    for where in (ws, ws / ".kamu", ws / ".kamu" / "datasets"):
        r, out = verify_json(run, "--dataset", "towns", where)
        assert r.rc == 0, r
        assert [d["alias"] for d in out["datasets"]] == ["towns"]
    r = run("verify", "--dataset", "towns", "--dataset", "nope", ws)
    assert r.rc == 2, r
    assert 'the workspace has no dataset aliased "nope" (aliases: cities, towns)' in r.err
    assert "workspace " in r.out and "\n  towns  VALID" in r.out
    r = run("verify", "--dataset", "towns", facts["towns"]["dir"])
    assert r.rc == 2 and "is not one" in r.err, r


def test_one_dataset_of_the_workspace_directly(run, workspace):
    _, facts = workspace
    r, out = verify_json(run, facts["cities"]["dir"])
    assert r.rc == 0, r
    assert "alias" not in out["datasets"][0]


def test_not_a_dataset_exit_2_with_a_hint(run, workspace, tmp_path):
    ws, facts = workspace
    blocks = facts["cities"]["dir"] / "blocks"
    r = run("verify", blocks)
    assert r.rc == 2, r
    assert (f"{blocks}: not an ODF dataset (no refs/ nor blocks/): its names are hashes: it "
            "looks like the blocks/ folder of a dataset: verify the dataset folder, its "
            "parent") in r.err
    assert "head-missing" not in r.out
    r = run("verify", facts["cities"]["dir"] / "data")
    assert r.rc == 2 and "the data/ folder of a dataset" in r.err, r
    (tmp_path / "empty").mkdir()
    r = run("verify", tmp_path / "empty")
    assert r.rc == 2 and "not an ODF dataset (no refs/ nor blocks/): the folder is empty" in r.err
    r = run("verify", ws.parent / "src")
    assert r.rc == 2 and "does not look like a dataset nor a kamu workspace (4 entries" in r.err
    r = run("verify", ws / ".kamu" / "datasets" / "nope")
    assert r.rc == 2 and "no such dataset directory" in r.err


@pytest.fixture
def ws_copy(workspace, tmp_path):
    ws, facts = workspace
    dst = tmp_path / "ws"
    shutil.copytree(ws, dst, symlinks=True)
    rel = {a: f["dir"].relative_to(ws) for a, f in facts.items()}
    return dst, {a: dst / r for a, r in rel.items()}


def test_dataset_without_head_is_still_a_dataset(run, ws_copy):
    ws, dirs = ws_copy
    (dirs["cities"] / "refs" / "head").unlink()
    r, out = verify_json(run, ws)
    assert r.rc == 1, r
    reports = {d["alias"]: d for d in out["datasets"]}
    assert [p["kind"] for p in reports["cities"]["problems"]] == ["head-missing"]
    assert reports["towns"]["valid"]


def test_alias_is_untrusted_text(run, ws_copy):
    ws, dirs = ws_copy
    (dirs["towns"] / "info" / "alias").write_text("evil\nresult       VALID\x1b[2J")
    r = run("verify", ws)
    assert r.rc == 0, r
    assert "\x1b" not in r.out
    assert "== evil\\x0aresult       VALID\\x1b[2J: " in r.out
    r, out = verify_json(run, ws)
    assert "evil\nresult       VALID\x1b[2J" in [d["alias"] for d in out["datasets"]]


def test_non_canonical_names_agree_with_kamu(run, ws_copy, workspace):
    """A data file renamed to the upper-case spelling of its hash: kamu cannot find it, and
    neither does verify (file-missing naming the other file, which is unreferenced). A
    base58btc refs/head is read by both (the head is a value, not a name)."""
    ws, dirs = ws_copy
    _, facts = workspace
    data = sorted(k for k in facts["cities"]["referenced"] if k.startswith("data/"))
    assert len(data) == 1  # hard compaction: one data file
    canonical = data[0].split("/")[1]
    upper = "F" + canonical[1:].upper()
    (dirs["cities"] / "data" / canonical).rename(dirs["cities"] / "data" / upper)
    head = (dirs["towns"] / "refs" / "head").read_text().strip()
    (dirs["towns"] / "refs" / "head").write_text("z" + base58btc(bytes.fromhex(head[1:])))
    (ws / ".kamu" / "workspace.sqlite.db").unlink()  # kamu rebuilds it from the folders
    assert kamu(ws, "verify", "--integrity", "cities", check=False).returncode != 0
    assert kamu(ws, "verify", "--integrity", "towns", check=False).returncode == 0
    r, out = verify_json(run, ws)
    assert r.rc == 1, r
    reports = {d["alias"]: d for d in out["datasets"]}
    assert reports["towns"]["valid"]
    problems = reports["cities"]["problems"]
    assert [(p["kind"], p["file"]) for p in problems] == [("file-missing", data[0])]
    assert problems[0]["message"] == (
        f"the data file does not exist under its canonical name; data/{upper} holds the same "
        "hash under another spelling, which kamu does not open (only the canonical name "
        "counts)")
    entry = [e for e in reports["cities"]["unreferenced"]["entries"]
             if e["file"] == f"data/{upper}"]
    assert entry and entry[0]["canonical_name"] == canonical


def test_every_entry_of_the_workspace_is_accounted_for(run, ws_copy, tmp_path):
    """Issue 33: an entry of .kamu/datasets whose refs/ and blocks/ were deleted, one that
    became a file, a link leaving the workspace were left out: the summary listed the other
    datasets, exit 0, and --json had no trace of them. Each is now a not-a-dataset problem:
    INVALID, exit 1, in the text summary, --json and with --dataset."""
    ws, dirs = ws_copy
    datasets = ws / ".kamu" / "datasets"
    shutil.rmtree(dirs["cities"] / "refs")
    shutil.rmtree(dirs["cities"] / "blocks")
    outside = tmp_path / "outside"
    shutil.move(dirs["towns"], outside)
    os.symlink(outside, dirs["towns"])
    (datasets / "stray").write_text("not a dataset\n")
    r = run("verify", ws)
    assert r.rc == 1, r
    towns_id = dirs["towns"].name  # a link leaving the workspace: its alias is not read
    assert f"workspace {ws}: 3 entries, 3 not a dataset\n" in r.out, r.out
    for name in ("cities", "stray", towns_id):
        assert re.search(rf"^  {name} +INVALID \(1 problem\): not a dataset$", r.out, re.M), r.out
    assert "a folder with neither refs/ nor blocks/" in r.out
    assert f'a symbolic link leaving the workspace (to "{outside}")' in r.out
    assert "a regular file, not a dataset folder" in r.out
    assert r.out.endswith("summary: 3 datasets: 0 valid, 3 invalid (3 problems, "
                          "0 logical fallbacks)\n"), r.out
    r, out = verify_json(run, ws)
    assert r.rc == 1, r
    entries = {d["alias"]: d for d in out["datasets"]}
    assert set(entries) == {"cities", "stray", towns_id}
    for d in entries.values():
        assert not d["valid"] and [p["kind"] for p in d["problems"]] == ["not-a-dataset"]
        assert d["workspace"] == str(ws)
    assert out["summary"]["invalid"] == 3 and out["summary"]["valid"] == 0
    # The broken entry is found by its alias, and reported.
    r, out = verify_json(run, "--dataset", "cities", ws)
    assert r.rc == 1 and [d["alias"] for d in out["datasets"]] == ["cities"], r
    # --follow-symlinks follows the link out of the workspace: towns verifies again.
    r, out = verify_json(run, "--follow-symlinks", ws)
    assert r.rc == 1 and {d["alias"]: d["valid"] for d in out["datasets"]} == {
        "cities": False, "stray": False, "towns": True}, r


def test_an_alias_naming_two_datasets_asks_for_the_id(run, ws_copy):
    """Two datasets aliased "towns": --dataset towns says so and names their ids (it used to
    say "pick one with --dataset" though it was given); --dataset <id> picks one."""
    ws, dirs = ws_copy
    twin = dirs["towns"].parent / ("fed01" + "0" * 64)
    shutil.copytree(dirs["towns"], twin)
    r = run("verify", "--dataset", "towns", ws)
    assert r.rc == 2, r
    ids = ", ".join(sorted([dirs["towns"].name, twin.name]))
    assert f'the alias "towns" names 2 datasets (ids {ids}): give the dataset id with --dataset' \
        in r.err
    r, out = verify_json(run, "--dataset", twin.name, ws)
    assert r.rc == 0 and [d["path"] for d in out["datasets"]] == [str(twin)], r
    r = run("verify", ws)
    assert r.rc == 0 and f"  towns ({twin.name})  VALID" in r.out, r
