"""odf_hash.compare_datasets (and its Dask adapter) vouches for nothing that was not checked
against its own metadata: each side verified as odf_hash.verify verifies it, "unverified"
when a side fails. Copies of the example datasets (or datasets written with the CLI tests'
writer) are broken as an attacker or an accident would; the expected problems of a side are
odf_hash.verify's on the same folder or URL, the expected entries come from the construction."""
import json
import pathlib
import shutil
import sys

import pytest

import odf_hash

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "data" / "odf"
sys.path.insert(0, str(ROOT / "tests" / "cli"))
from remote_servers import http_server  # noqa: E402
from dataset_edits import block_below, copy_example, flip_middle_byte, head_block  # noqa: E402


def expect_side(side, location):
    """The side's problems are verify's on the same dataset; vouched exactly when it is valid."""
    report = odf_hash.verify(location)
    assert side.problems == report.problems
    assert side.vouched is report.ok
    return side


def expect_nothing_vouched(d):
    assert d.verdict == "unverified" and not d and not d.same_records
    assert all(not s.vouched for s in d.slices)
    assert not {s.verdict for s in d.slices} & {"identical", "equivalent"}


def on_dask(a, b, local):
    """The Dask adapter gives the same comparison (its workers check the files they read)."""
    pytest.importorskip("dask")
    import odf_hash.dask

    assert odf_hash.dask.compare_datasets(a, b) == local


def test_pristine_copies_are_vouched_for(tmp_path):
    a = copy_example("root", tmp_path / "a")
    b = copy_example("root", tmp_path / "b")
    d = odf_hash.compare_datasets(a, b)
    assert d and d.verdict == "same-records" and d.problems == []
    data = sorted("data/" + p.name for p in (a / "data").iterdir())
    for side in (d.original_check, d.reproduced_check):
        expect_side(side, a)
        assert sorted(f.file for f in side.files) == data
        assert {f.outcome for f in side.files} == {"physical-match"}
        assert side.chain_complete and side.unreached is None
    assert all(s.vouched and s.verdict == "identical" for s in d.slices)
    assert d.problems_to_arrow().num_rows == 0
    on_dask(a, b, d)


def test_swapped_head_block(tmp_path):
    a = copy_example("root", tmp_path / "a")
    b = copy_example("root", tmp_path / "b")
    below = block_below(b, head_block(b)).read_bytes()
    head_block(b).write_bytes(below)
    d = odf_hash.compare_datasets(a, b)
    expect_nothing_vouched(d)
    expect_side(d.original_check, a)
    side = expect_side(d.reproduced_check, b)
    assert side.problems[0].file == "blocks/" + head_block(b).name
    assert [(s, p.kind.value) for s, p in d.problems] == [
        ("reproduced", p.kind.value) for p in side.problems]
    on_dask(a, b, d)
    # Alike on both sides: the walks agree, still nothing is vouched for.
    head_block(a).write_bytes(below)
    d = odf_hash.compare_datasets(a, b)
    expect_nothing_vouched(d)
    expect_side(d.original_check, a)
    expect_side(d.reproduced_check, b)
    assert {s.comparison.verdict for s in d.slices} == {"identical"}
    table = d.problems_to_arrow()
    assert table.column("side").to_pylist() == ["original", "reproduced"]
    assert set(table.column("kind").to_pylist()) == {side.problems[0].kind.value}
    on_dask(a, b, d)


def test_lying_server_answers_another_block(tmp_path):
    a = copy_example("root", tmp_path / "a")
    b = copy_example("root", tmp_path / "b")
    with http_server(b) as server:
        server.lies[f"blocks/{head_block(b).name}"] = block_below(b, head_block(b))
        url = server.url + "/"
        d = odf_hash.compare_datasets(a, url)
        expect_nothing_vouched(d)
        side = expect_side(d.reproduced_check, url)
        assert side.problems[0].file == "blocks/" + head_block(b).name
        assert d.original_check.vouched
        on_dask(a, url, d)
        server.lies.clear()
        assert odf_hash.compare_datasets(a, url).verdict == "same-records"


def test_same_missing_block_on_both_sides(dataset_writer, tmp_path):
    """Seed, [0, 99], [100, 149], [150, 179] on both; block 2 deleted on both: offsets 0-149
    are unreached on both sides, listed as such."""
    w = dataset_writer
    for name in ("a", "b"):
        w.write_dataset(tmp_path / name, [w.table(0, 100), w.table(100, 50), w.table(150, 30)])
        block_below(tmp_path / name, head_block(tmp_path / name)).unlink()
    d = odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b")
    expect_nothing_vouched(d)
    for side, name in ((d.original_check, "a"), (d.reproduced_check, "b")):
        expect_side(side, tmp_path / name)
        assert not side.chain_complete and side.unreached == (0, 149)
    assert [(s.start, s.end, s.verdict) for s in d.slices] == [
        (0, 149, "unreached"), (150, 179, "unverified")]
    assert d.slices[0].original_unreached and d.slices[0].reproduced_unreached
    assert (d.only_in_original, d.only_in_reproduced) == (0, 0)
    on_dask(tmp_path / "a", tmp_path / "b", d)


def test_data_files_tampered_identically_on_both_sides(tmp_path):
    """Only the files' checks can tell: the chains are intact and the bytes compare
    identical. On Dask the workers check the files they read."""
    a = copy_example("root", tmp_path / "a")
    b = copy_example("root", tmp_path / "b")
    victim = sorted((a / "data").iterdir())[0].name
    flip_middle_byte(a / "data" / victim)
    flip_middle_byte(b / "data" / victim)
    d = odf_hash.compare_datasets(a, b)
    expect_nothing_vouched(d)
    for side, ds in ((d.original_check, a), (d.reproduced_check, b)):
        expect_side(side, ds)
        assert [(p.kind.value, p.file) for p in side.problems] == [
            ("physical-hash-mismatch", "data/" + victim)]
    (tampered,) = [s for s in d.slices if s.original_files[0].file == "data/" + victim]
    assert tampered.comparison.verdict == "identical" and tampered.verdict == "unverified"
    on_dask(a, b, d)


def test_reencoded_derivative_file_is_vouched_for(tmp_path):
    fixtures = json.loads((FIXTURES / "fixtures.json").read_text())
    if fixtures.get("placeholder_logical_hashes", True):
        pytest.skip("example datasets carry placeholder logical hashes")
    a = copy_example("derivative", tmp_path / "a")
    b = copy_example("derivative", tmp_path / "b")
    first = min((f for f in odf_hash.verify(b).files if f.role == "data"),
                key=lambda f: f.sequence_number).file
    shutil.copyfile(FIXTURES / "derivative-slice0-reencoded.parquet", b / first)
    report = odf_hash.verify(b)
    assert report.ok and [f.outcome for f in report.files if f.file == first] == ["logical-match"]
    d = odf_hash.compare_datasets(a, b)
    assert d and d.verdict == "same-records"
    side = expect_side(d.reproduced_check, b)
    assert [f.outcome for f in side.files if f.file == first] == ["logical-match"]
    on_dask(a, b, d)


def test_a_check_result_of_another_task_is_refused(tmp_path):
    """The results the engines bring back are bound to the tasks sent (as odf_hash.merge
    binds them): a result computed for another task is refused, never folded in."""
    from odf_hash import _datasets

    a = copy_example("root", tmp_path / "a")
    b = copy_example("root", tmp_path / "b")
    paired = _datasets._pair_dataset_slices(a, b)
    d, (tasks_a, tasks_b), allow = paired
    assert d.verdict == "unverified"  # nothing checked yet
    assert len(tasks_a) == len(list((a / "data").iterdir()))

    def swapped(runs):
        out = []
        for files_a, files_b, wa, wb, ta, tb in runs:
            c, ra, rb = _datasets._compare_run((files_a, files_b, wa, wb, ta, tb), 0, {}, allow)
            out.append((c, rb, ra))  # each side's results given to the other
        return out

    with pytest.raises(odf_hash.InvalidInputError, match="answers no task"):
        _datasets._compare_slices(paired, swapped)
    assert _datasets._compare_slices(
        paired, lambda runs: [_datasets._compare_run(r, 0, {}, allow) for r in runs]
    ) == odf_hash.compare_datasets(a, b, rows=0)


def test_problems_table_keeps_numbers_as_numbers(tmp_path):
    """A side's size mismatch in problems_to_arrow: the value as text (decimal digits, as the C
    ABI gives it), as a number, and its unit; a hash only as text."""
    a = copy_example("root", tmp_path / "a")
    b = copy_example("root", tmp_path / "b")
    data = sorted((b / "data").iterdir())
    size = data[0].stat().st_size
    with open(data[0], "ab") as f:
        f.write(b"xyz")
    raw = bytearray(data[1].read_bytes())
    raw[len(raw) // 2] ^= 1
    data[1].write_bytes(bytes(raw))
    d = odf_hash.compare_datasets(a, b)
    # verify's problems, in the side's order (offsets, where verify lists the newest first).
    side = d.reproduced_check.problems
    assert sorted(side, key=str) == sorted(odf_hash.verify(b).problems, key=str)
    rows = {r["kind"]: r for r in d.problems_to_arrow().to_pylist()}
    sized = rows["size-mismatch"]
    assert (sized["expected"], sized["actual"]) == (str(size), str(size + 3))
    assert (sized["expected_number"], sized["actual_number"], sized["unit"]) == (
        size, size + 3, "bytes")
    hashed = rows["physical-hash-mismatch"]
    assert hashed["expected"] == data[1].name and hashed["expected_number"] is None
    assert hashed["unit"] is None
