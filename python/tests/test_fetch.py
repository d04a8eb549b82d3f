"""odf_hash.fetch: the example datasets copied into a temporary folder; a tampered copy is
rejected with nothing stored under a final name (each name re-hashed with hashlib)."""
import hashlib
import pathlib
import shutil

import pytest

import odf_hash

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "datasets"


def name_of(data: bytes) -> str:
    return "f1620" + hashlib.sha3_256(data).hexdigest()


def final_names_verify(dest: pathlib.Path) -> None:
    for folder in ("blocks", "data", "checkpoints"):
        if (dest / folder).exists():
            for f in (dest / folder).iterdir():
                assert name_of(f.read_bytes()) == f.name, f


def test_fetch_copies_and_reports(tmp_path):
    dest = tmp_path / "copy"
    seen = []
    report = odf_hash.fetch(EXAMPLES / "root", dest, progress=seen.append)
    assert report.fetched and not report.rejected and not report.problems
    assert report.head == (EXAMPLES / "root" / "refs" / "head").read_text()
    assert report.old_head is None and report.blocks_fetched == 5
    sizes = {f"{d}/{p.name}": p.stat().st_size
             for d in ("data", "checkpoints") for p in (EXAMPLES / "root" / d).iterdir()}
    assert {f.file: f.size for f in report.files} == sizes
    assert all(f.how == "transferred" for f in report.files)
    assert report.bytes_transferred == sum(sizes.values())
    assert seen and seen[-1] == sum(sizes.values())
    assert report.verdict.startswith("FETCHED (5 new blocks, 5 files, ")
    assert repr(report).endswith(f": {report.verdict}>")
    assert report.to_dict()["files"][0]["how"] == "transferred"
    with pytest.raises(TypeError):
        bool(report)
    final_names_verify(dest)
    assert odf_hash.verify(dest).ok
    again = odf_hash.fetch(EXAMPLES / "root", dest)
    assert again.fetched and again.up_to_date and again.verdict == "UP TO DATE"


def test_fetch_rejects_tampered_data(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(EXAMPLES / "root", source)
    data = sorted((source / "data").iterdir())[0]
    b = bytearray(data.read_bytes())
    b[len(b) // 2] ^= 1
    data.write_bytes(bytes(b))
    report = odf_hash.fetch(source, tmp_path / "copy")
    assert not report.fetched and report.rejected
    [p] = report.problems
    assert p.kind == odf_hash.ProblemKind.PHYSICAL_HASH_MISMATCH
    assert p.expected == data.name and p.actual == name_of(bytes(b))
    assert report.head is None and not (tmp_path / "copy" / "refs").exists()
    final_names_verify(tmp_path / "copy")


def test_fetch_errors_and_arguments(tmp_path):
    with pytest.raises(odf_hash.NotFoundError):
        odf_hash.fetch(tmp_path / "nothing", tmp_path / "copy")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(odf_hash.InvalidInputError, match="holds files but no dataset"):
        odf_hash.fetch(EXAMPLES / "root", tmp_path / "busy")
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.fetch(EXAMPLES / "root", tmp_path / "c", expect_head="nothex")
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.fetch(EXAMPLES / "root", tmp_path / "c", jobs=0)
    with pytest.raises(TypeError):
        odf_hash.fetch(EXAMPLES / "root", tmp_path / "c", no_such_option=1)
    other = (EXAMPLES / "derivative" / "refs" / "head").read_text().strip()
    r = odf_hash.fetch(EXAMPLES / "root", tmp_path / "d", expect_head=other)
    assert r.rejected and r.problems[0].kind == odf_hash.ProblemKind.HISTORY_REWRITTEN


def test_fetch_into_and_out_of_a_kamu_workspace(tmp_path):
    """A kamu workspace as kamu lays it out (.kamu/datasets/<id>/info/alias): the dataset lands
    in the folder named by its Seed's id; from a workspace, a dataset is named by alias."""
    ws = tmp_path / "ws"
    (ws / ".kamu" / "datasets").mkdir(parents=True)
    r = odf_hash.fetch(EXAMPLES / "root", ws)
    assert r.fetched and r.alias == "root"
    ident = r.dataset_id.removeprefix("did:odf:")
    target = ws / ".kamu" / "datasets" / ident
    assert r.dest == str(target)
    assert (target / "info" / "alias").read_text() == "root"
    final_names_verify(target)
    assert odf_hash.verify_workspace(ws)["root"].ok
    with pytest.raises(odf_hash.InvalidInputError, match="name the dataset to fetch"):
        odf_hash.fetch(ws, tmp_path / "out")
    out = odf_hash.fetch(ws, tmp_path / "out", dataset="root")
    assert out.fetched and out.alias is None
    assert out.head == r.head
    with pytest.raises(odf_hash.InvalidInputError, match="an alias means nothing there"):
        odf_hash.fetch(EXAMPLES / "root", tmp_path / "plain", alias="x")
