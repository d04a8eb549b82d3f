"""progress=callable on every long call of the module (physical, logical_file, slice, verify,
verify_workspace; compare has its own test, test_compare_progress.py): called on the calling
thread with the bytes read so far, never decreasing, and once more when the call is done;
an exception it raises stops the call and comes out of it; anything but a callable or None
is refused. Sizes come from os.stat, never from odf_hash. Files served by the CLI tests'
local HTTP server with every response held 0.3 s last long enough for several 100 ms
ticks."""
import io
import os
import sys
import threading

import pytest

import odf_hash

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "cli"))
from remote_servers import http_server  # noqa: E402

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def data_file(tmp_path):
    n = 20_000
    t = pa.table({"offset": pa.array(range(n), pa.int64()), "v": pa.array(range(n), pa.int64())})
    pq.write_table(t, tmp_path / "a.parquet", row_group_size=2000)
    return tmp_path / "a.parquet"


class Seen:
    def __init__(self):
        self.values, self.threads = [], set()

    def __call__(self, done):
        self.values.append(done)
        self.threads.add(threading.get_ident())

    def check(self, at_least_calls=1):
        assert len(self.values) >= at_least_calls, self.values
        assert self.values == sorted(self.values), self.values
        assert all(isinstance(x, int) for x in self.values)
        assert self.threads == {threading.get_ident()}


CALLS = {
    "physical": lambda p, cb: odf_hash.physical(p, progress=cb),
    "logical_file": lambda p, cb: odf_hash.logical_file(p, progress=cb),
    "slice": lambda p, cb: odf_hash.slice(p, progress=cb),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_slow_file_is_followed(tmp_path, name):
    path = data_file(tmp_path)
    size = path.stat().st_size
    seen = Seen()
    with http_server(tmp_path) as server:
        CALLS[name](f"{server.url}/slow/a.parquet", seen)
    seen.check(at_least_calls=3)
    if name == "logical_file":
        # The footer and the column chunks: some of the file, never more than a few times it.
        assert 0 < seen.values[-1] <= 4 * size
    else:
        # Every byte is read for the physical hash (slice reads the records too).
        assert size <= seen.values[-1] <= 4 * size


def test_a_local_file_ends_at_its_size(tmp_path):
    path = data_file(tmp_path)
    seen = Seen()
    odf_hash.physical(path, progress=seen)
    seen.check()
    assert seen.values[-1] == path.stat().st_size


def test_bytes_and_file_objects(tmp_path):
    seen = Seen()
    assert odf_hash.physical(b"x" * 1000, progress=seen) == odf_hash.physical(b"x" * 1000)
    assert seen.values == [1000]
    data = os.urandom(3 << 20)
    seen = Seen()
    odf_hash.physical(io.BytesIO(data), progress=seen)
    assert seen.values == [1 << 20, 2 << 20, 3 << 20]


def test_verify_counts_the_files_hashed(tmp_path, dataset_writer):
    w = dataset_writer
    ds = tmp_path / "ds"
    w.write_dataset(ds, [w.table(0, 100), w.table(100, 50)])
    files = [p for sub in ("data", "checkpoints") if (ds / sub).is_dir()
             for p in (ds / sub).iterdir()]
    total = sum(p.stat().st_size for p in files)
    assert total > 0
    seen = Seen()
    assert odf_hash.verify(ds, progress=seen).ok
    seen.check()
    assert seen.values[-1] == total
    # A workspace of two such datasets: the bytes of both, one after the other.
    ws = tmp_path / "ws"
    for name in ("one", "two"):
        w.write_dataset(ws / name, [w.table(0, 100), w.table(100, 50)])
    seen = Seen()
    reports = odf_hash.verify_workspace(ws, progress=seen)
    assert len(reports) == 2 and all(r.ok for r in reports.values())
    seen.check()
    assert seen.values[-1] == 2 * total


@pytest.mark.parametrize("name", sorted(CALLS))
def test_an_exception_in_progress_stops_the_call(tmp_path, name):
    path = data_file(tmp_path)

    class Stop(Exception):
        pass

    calls = []

    def progress(done):
        calls.append(done)
        raise Stop("enough")

    with http_server(tmp_path) as server:
        with pytest.raises(Stop, match="enough"):
            CALLS[name](f"{server.url}/slow/a.parquet", progress)
    assert len(calls) == 1


def test_progress_must_be_callable(tmp_path, dataset_writer):
    path = data_file(tmp_path)
    for call in list(CALLS.values()) + [lambda p, cb: odf_hash.verify(p, progress=cb)]:
        with pytest.raises(odf_hash.InvalidInputError, match="progress"):
            call(path, 42)
