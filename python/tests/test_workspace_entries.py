"""verify_workspace accounts for every entry of a kamu workspace (issue 33): on a workspace
written by kamu itself (../shared/tools/kamu/kamu, or $ODF_KAMU; skipped without it), an
entry whose chain was deleted, a file and a link leaving the workspace are reports with a
not-a-dataset problem, never left out; an alias naming two datasets asks for the id."""
import os
import pathlib
import shutil
import subprocess

import pytest

import odf_hash

ROOT = pathlib.Path(__file__).resolve().parents[2]
KAMU = pathlib.Path(os.environ.get("ODF_KAMU", ROOT.parent / "shared" / "tools" / "kamu" / "kamu"))

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


def kamu(ws, *args):
    proc = subprocess.run([str(KAMU), "--yes", *map(str, args)], cwd=ws, capture_output=True,
                          text=True, timeout=120)
    if proc.returncode != 0:
        raise AssertionError(f"kamu {args}: {proc.stdout}\n{proc.stderr}")


@pytest.fixture(scope="module")
def kamu_ws(tmp_path_factory):
    if not KAMU.exists():
        pytest.skip(f"no kamu at {KAMU}")
    root = tmp_path_factory.mktemp("kamu-ws")
    ws = root / "ws"
    ws.mkdir()
    for name in ("cities", "towns"):
        (root / f"{name}.csv").write_text("name,n\nA,1\nB,2\n")
        (ws / f"{name}.yaml").write_text(SNAPSHOT.format(name=name, glob=root / f"{name}.csv"))
    kamu(ws, "init")
    kamu(ws, "add", "cities.yaml", "towns.yaml")
    kamu(ws, "pull", "cities", "towns")
    yield ws
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def ws_copy(kamu_ws, tmp_path):
    dst = tmp_path / "ws"
    shutil.copytree(kamu_ws, dst, symlinks=True)
    dirs = {}
    for d in (dst / ".kamu" / "datasets").iterdir():
        dirs[(d / "info" / "alias").read_text().strip()] = d
    yield dst, dirs
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_every_entry_is_a_report(ws_copy, tmp_path):
    ws, dirs = ws_copy
    reports = odf_hash.verify_workspace(ws)
    assert list(reports) == ["cities", "towns"] and all(r.ok for r in reports.values())
    shutil.rmtree(dirs["cities"] / "refs")
    shutil.rmtree(dirs["cities"] / "blocks")
    shutil.move(dirs["towns"], tmp_path / "outside")
    os.symlink(tmp_path / "outside", dirs["towns"])
    (ws / ".kamu" / "datasets" / "stray").write_text("x")
    reports = odf_hash.verify_workspace(ws)
    assert set(reports) == {"cities", "stray", dirs["towns"].name}
    for r in reports.values():
        assert not r.ok and [p.kind for p in r] == [odf_hash.ProblemKind.NOT_A_DATASET]
    assert "neither refs/ nor blocks/" in reports["cities"].problems[0].message
    only = odf_hash.verify_workspace(ws, datasets="cities")
    assert list(only) == ["cities"] and not only["cities"].ok


def test_an_alias_naming_two_datasets_asks_for_the_id(ws_copy):
    ws, dirs = ws_copy
    twin = dirs["towns"].parent / ("fed01" + "0" * 64)
    shutil.copytree(dirs["towns"], twin)
    with pytest.raises(odf_hash.InvalidInputError, match='"towns" names 2 datasets'):
        odf_hash.verify_workspace(ws, datasets=["towns"])
    picked = odf_hash.verify_workspace(ws, datasets=[twin.name])
    assert list(picked) == ["towns"] and picked["towns"].path == str(twin)
    assert picked["towns"].ok
    both = odf_hash.verify_workspace(ws)
    assert f"towns ({twin.name})" in both and f"towns ({dirs['towns'].name})" in both


def test_a_workspace_without_datasets_is_no_valid_result(tmp_path):
    """A workspace whose folder of datasets is empty raises, as `odf-hash verify` exits 2: an
    empty dict would pass `all(r.ok for r in reports.values())` with nothing verified. Asking
    for no dataset (datasets=[]) gets none."""
    ws = tmp_path / "ws"
    (ws / ".kamu" / "datasets").mkdir(parents=True)
    with pytest.raises(odf_hash.NotFoundError, match="the kamu workspace holds no dataset"):
        odf_hash.verify_workspace(ws)
    assert odf_hash.verify_workspace(ws, datasets=[]) == {}
