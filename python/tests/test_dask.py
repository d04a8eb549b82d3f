"""odf_hash.dask on a real local Dask cluster (two worker processes): the reports equal the
local odf_hash.verify on every example dataset and broken copy, also when a worker is killed
while running a check; logical_hashes against the reference's values (fixtures.json)."""
import json
import os
import signal

import pytest

dask = pytest.importorskip("dask", reason="dask is not installed (scripts/bootstrap.sh installs it)")
distributed = pytest.importorskip("distributed", reason="distributed is not installed")

import odf_hash  # noqa: E402
import odf_hash.dask  # noqa: E402
from datasets import FIXTURES, make_variants  # noqa: E402


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    return make_variants(tmp_path_factory.mktemp("dask"))


def test_without_a_client_a_local_bag(variants, capsys):
    with pytest.raises(ValueError):
        distributed.get_client()  # no cluster yet: the local scheduler runs a dask.bag
    with dask.config.set(scheduler="threads"):
        for name in ("root", "root-flipped-data-and-stray-file"):
            ds = variants[name]
            assert odf_hash.dask.verify(ds) == odf_hash.verify(ds), name
    assert "Completed" in capsys.readouterr().out  # dask.diagnostics.ProgressBar


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, host="127.0.0.1")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_cluster_reports_equal_local(client, variants):
    for name, ds in variants.items():
        assert odf_hash.dask.verify(ds, client, progress=False) == odf_hash.verify(ds), name
    # The current client is picked up when none is given; progress is distributed's.
    ds = variants["derivative-reencoded"]
    assert odf_hash.dask.verify(ds, integrity_only=True) == odf_hash.verify(ds, integrity_only=True)
    # The unreferenced section travels in the plan; strict makes its entries problems.
    ds = variants["root-flipped-data-and-stray-file"]
    report = odf_hash.dask.verify(ds, client, strict=True, progress=False)
    assert report == odf_hash.verify(ds, strict=True)
    assert [u.file for u in report.unreferenced] == ["data/stray.txt"] and report.strict
    assert odf_hash.ProblemKind.UNEXPECTED_FILE in [p.kind for p in report]
    assert [u.file for u in odf_hash.dask.verify(ds, client, progress=False).unreferenced] == [
        "data/stray.txt"]
    ds = variants["root-truncated-checkpoint-deleted-data"]
    for batch_size in (1, 2, 100):
        assert (odf_hash.dask.verify(ds, client, batch_size=batch_size, progress=False)
                == odf_hash.verify(ds)), batch_size


class KillFirstCheck(distributed.WorkerPlugin):
    """Kills (SIGKILL) the worker process that starts the first odf-hash check of the run;
    the marker file makes it happen once across workers and their restarts."""

    def __init__(self, marker):
        self.marker = marker

    def transition(self, key, start, finish, **kwargs):
        if finish != "executing" or "odf-hash-check" not in str(key):
            return
        try:
            fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_killed_mid_run_changes_nothing(client, variants, tmp_path):
    ds = variants["root-truncated-checkpoint-deleted-data"]
    marker = tmp_path / "killed"
    pids_before = set(client.run(os.getpid).values())
    client.register_plugin(KillFirstCheck(str(marker)), name="odf-hash-kill-first-check")
    try:
        report = odf_hash.dask.verify(ds, client, retries=2, progress=False)
    finally:
        client.unregister_worker_plugin("odf-hash-kill-first-check")
    assert marker.exists(), "no worker was killed"
    assert int(marker.read_text()) in pids_before  # one of the original workers died
    assert report == odf_hash.verify(ds)
    client.wait_for_workers(2, timeout=60)


def test_logical_hashes_match_the_reference(client):
    import pyarrow.parquet as pq
    fixtures = json.loads((FIXTURES / "fixtures.json").read_text())
    if fixtures.get("placeholder_logical_hashes", True):
        pytest.skip("the fixtures carry placeholder logical hashes")
    names = ["derivative-slice0-reencoded.parquet", "derivative-slice0-changed-value.parquet"]
    paths = [FIXTURES / n for n in names]
    slices = odf_hash.dask.logical_hashes(paths, client, progress=False)
    assert list(slices) == [str(p) for p in paths]
    for name, p in zip(names, paths):
        s = slices[str(p)]
        assert s["logicalHash"] == fixtures[name]["logical"]
        assert s["physicalHash"] == fixtures[name]["physical"]
        assert s["size"] == p.stat().st_size
    rows = [pq.read_metadata(p).num_rows for p in paths]
    chained = odf_hash.dask.logical_hashes(paths, client, start_offset=10, progress=False)
    assert [c["offsetInterval"] for c in chained.values()] == [
        {"start": 10, "end": 10 + rows[0] - 1},
        {"start": 10 + rows[0], "end": 10 + rows[0] + rows[1] - 1}]
    with pytest.raises(odf_hash.Error):
        odf_hash.dask.logical_hashes([FIXTURES / "fixtures.json"], client, retries=0,
                                     progress=False)
