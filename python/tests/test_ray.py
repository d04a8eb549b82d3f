"""odf_hash.ray on a real local Ray instance (two CPUs, no dashboard; one session for the
module, Ray's start-up being slow): the reports equal the local odf_hash.verify on every
example dataset and broken copy, also when a worker is killed mid-run."""
import os
import shutil
import signal
import sys
import tempfile

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed (scripts/bootstrap.sh installs it)")

import odf_hash  # noqa: E402
import odf_hash.ray  # noqa: E402
from odf_hash import _engine  # noqa: E402
from datasets import make_variants  # noqa: E402


@pytest.fixture(scope="module")
def session():
    # A short folder of its own (Ray's socket paths must stay under 108 bytes), removed after.
    temp = tempfile.mkdtemp(prefix="odfray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             _temp_dir=temp)
    yield
    ray.shutdown()
    shutil.rmtree(temp, ignore_errors=True)


def test_ray_reports_equal_local(session, tmp_path_factory, capsys):
    variants = make_variants(tmp_path_factory.mktemp("ray-data"))
    for name, ds in variants.items():
        assert odf_hash.ray.verify(ds, progress=False) == odf_hash.verify(ds), name
    ds = variants["derivative-reencoded"]
    assert (odf_hash.ray.verify(ds, integrity_only=True, max_retries=1)
            == odf_hash.verify(ds, integrity_only=True))
    # The unreferenced section travels in the plan; strict makes its entries problems.
    ds = variants["root-flipped-data-and-stray-file"]
    report = odf_hash.ray.verify(ds, strict=True, progress=False)
    assert report == odf_hash.verify(ds, strict=True) and report.strict
    assert [u.file for u in report.unreferenced] == ["data/stray.txt"]
    capsys.readouterr()
    odf_hash.ray.verify(variants["root"], progress=True)
    err = capsys.readouterr().err
    assert "5/5" in err  # tqdm's bar, or the plain line without tqdm


def _kill_first_batch(marker: str):
    """A stand-in for odf_hash._engine.check_batch whose first call, in whichever worker,
    kills that worker's process (SIGKILL: no clean-up, as when a node dies); every later call
    checks the batch. The marker file, created exclusively, says a worker was killed."""
    original = _engine.check_batch

    def check_batch(tasks, allow=None):
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return original(tasks, allow)
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        os.kill(os.getpid(), signal.SIGKILL)

    return check_batch


def test_a_worker_killed_mid_run_changes_nothing(session, tmp_path_factory, monkeypatch):
    # The stand-in is defined here, in a module Ray's workers cannot import: it travels by
    # value, the odf_hash function it calls by reference.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    variants = make_variants(tmp_path_factory.mktemp("ray-kill"))
    ds = variants["root-truncated-checkpoint-deleted-data"]
    marker = tmp_path_factory.mktemp("ray-kill-marker") / "killed"
    monkeypatch.setattr(_engine, "check_batch", _kill_first_batch(str(marker)))
    report = odf_hash.ray.verify(ds, max_retries=2, progress=False)
    assert marker.exists(), "no worker was killed"
    assert int(marker.read_text()) != os.getpid()  # a worker died, not this process
    assert report == odf_hash.verify(ds)


def test_a_killed_worker_without_retries_is_an_error(session, tmp_path_factory, monkeypatch):
    # With no retry left, the lost batch is an error from Ray, never a report without it.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    variants = make_variants(tmp_path_factory.mktemp("ray-kill-once"))
    marker = tmp_path_factory.mktemp("ray-kill-once-marker") / "killed"
    monkeypatch.setattr(_engine, "check_batch", _kill_first_batch(str(marker)))
    with pytest.raises(ray.exceptions.RayError):
        odf_hash.ray.verify(variants["root"], max_retries=0, progress=False)
    assert marker.exists(), "no worker was killed"


def test_ray_compares_dataset_slices_as_locally(session, root):
    """odf_hash.ray.compare_datasets: one task per slice pair, the same result as locally."""
    ds = root / "examples" / "datasets"
    for a, b in [("root", "root"), ("root", "derivative")]:
        assert odf_hash.ray.compare_datasets(ds / a, ds / b) == \
            odf_hash.compare_datasets(ds / a, ds / b), (a, b)


def test_ray_compares_runs_of_slices_split_differently(session, dataset_writer, tmp_path):
    """A run of two slices a side, split at other offsets, is one task; a changed value in it
    is found at its offset, as locally."""
    w = dataset_writer
    w.write_dataset(tmp_path / "a", [w.table(0, 100), w.table(100, 50)])
    w.write_dataset(tmp_path / "b", [w.table(0, 120), w.table(120, 30, change=125)])
    d = odf_hash.ray.compare_datasets(tmp_path / "a", tmp_path / "b")
    assert d == odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b")
    (run,) = d.slices
    assert [r.offset for r in run.comparison.differing_rows] == [125]


def test_ray_compares_the_offsets_both_hold(session, dataset_writer, tmp_path):
    """Slices that never end together (a gap in the reproduction, a longer reproduction):
    each range both hold is one task over the parts of the files holding it, as locally."""
    w = dataset_writer
    w.write_dataset(tmp_path / "a", [w.table(0, 100), w.table(100, 100)])
    w.write_dataset(tmp_path / "b", [w.table(0, 150), w.table(160, 60, change=170)])
    d = odf_hash.ray.compare_datasets(tmp_path / "a", tmp_path / "b")
    assert d == odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b")
    # The gap makes the reproduction fail verify (offset-mismatch): nothing is vouched for.
    assert d.verdict == "unverified"
    assert [(s.start, s.end, s.verdict if s.comparison is None else s.comparison.verdict)
            for s in d.slices] == [
        (0, 149, "equivalent"), (150, 159, "only-in-original"), (160, 199, "different"),
        (200, 219, "only-in-reproduced")]
    assert [r.offset for r in d.slices[2].comparison.differing_rows] == [170]
    assert d.slices[3].reproduced_files[0].window == (200, 219)


def test_ray_compare_checks_the_files_it_reads(session, root, tmp_path):
    """The same data file tampered on both sides: the chains are intact and the bytes compare
    identical, so only the tasks' checks of the files they read can tell. The comparison is
    "unverified" with verify's problem on each side, as locally."""
    for name in ("a", "b"):
        shutil.copytree(root / "examples" / "datasets" / "root", tmp_path / name)
        victim = sorted((tmp_path / name / "data").iterdir())[0]
        raw = bytearray(victim.read_bytes())
        raw[len(raw) // 2] ^= 1
        victim.write_bytes(bytes(raw))
    d = odf_hash.ray.compare_datasets(tmp_path / "a", tmp_path / "b")
    assert d == odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b")
    assert d.verdict == "unverified" and not d
    for side, name in ((d.original_check, "a"), (d.reproduced_check, "b")):
        assert side.problems == odf_hash.verify(tmp_path / name).problems
        assert [p.kind.value for p in side.problems] == ["physical-hash-mismatch"]
