"""odf_hash.compare(progress=callable): called on the calling thread with the bytes read so
far, never decreasing, and once more when it is done, at least at both files' sizes then (the
physical hashes read every byte of each); an exception it raises stops the comparison and comes out of compare. The
files are served by the CLI tests' local HTTP server with every response held 0.3 s, so that
the comparison lasts several of the 100 ms ticks."""
import os
import sys
import threading

import pytest

import odf_hash

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "cli"))
from remote_servers import http_server  # noqa: E402

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def pair(tmp_path):
    n = 20_000
    a = pa.table({"offset": pa.array(range(n), pa.int64()), "v": pa.array(range(n), pa.int64())})
    b = a.set_column(1, "v", pa.array([i if i != 777 else -1 for i in range(n)], pa.int64()))
    pq.write_table(a, tmp_path / "a.parquet", row_group_size=2000)
    pq.write_table(b, tmp_path / "b.parquet", row_group_size=2000)
    return (tmp_path / "a.parquet").stat().st_size + (tmp_path / "b.parquet").stat().st_size


@pytest.mark.parametrize("ignore_order", [False, True])
def test_progress_is_called_with_the_bytes_read(tmp_path, ignore_order):
    total = pair(tmp_path)
    seen, threads = [], set()

    def progress(done):
        seen.append(done)
        threads.add(threading.get_ident())

    with http_server(tmp_path) as server:
        c = odf_hash.compare(f"{server.url}/slow/a.parquet", f"{server.url}/slow/b.parquet",
                             progress=progress, ignore_order=ignore_order)
    assert not c
    assert len(seen) >= 3, seen
    assert seen == sorted(seen) and all(isinstance(x, int) for x in seen)
    assert threads == {threading.get_ident()}
    # The last call comes once the comparison is done: every byte of both files was read for
    # their physical hashes (ignore_order reads the records: the column chunks and footers).
    assert seen[-1] >= (1 if ignore_order else total) and seen[-1] <= 10 * total


def test_an_exception_in_progress_stops_the_comparison(tmp_path):
    pair(tmp_path)

    class Stop(Exception):
        pass

    calls = []

    def progress(done):
        calls.append(done)
        raise Stop("enough")

    with http_server(tmp_path) as server:
        with pytest.raises(Stop, match="enough"):
            odf_hash.compare(f"{server.url}/slow/a.parquet", f"{server.url}/slow/b.parquet",
                             progress=progress)
    assert len(calls) == 1


def test_progress_must_be_callable(tmp_path):
    pair(tmp_path)
    with pytest.raises(odf_hash.InvalidInputError, match="progress"):
        odf_hash.compare(tmp_path / "a.parquet", tmp_path / "b.parquet", progress=42)
