"""Ctrl-C during long calls: each call runs its C++ work with a cancel flag while the calling
thread watches for signals (python/ext/interruptible.h), so KeyboardInterrupt arrives within
a fraction of a second, even while the work waits on a server that never answers, and the
package keeps working afterwards.

Each case runs in a child Python that the test interrupts with SIGINT; the stalled server is
a plain socket in this process (127.0.0.1, stopped at the end of the test)."""
import contextlib
import json
import pathlib
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest


@contextlib.contextmanager
def stalled_server(answer: bytes = b""):
    """A server on 127.0.0.1 that reads each request, sends `answer` (e.g. headers only) and
    then nothing more, keeping the connection open until the end of the block."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    stop = threading.Event()
    conns = []

    def serve():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except (socket.timeout, OSError):
                continue
            conns.append(conn)
            try:
                conn.settimeout(5)
                conn.recv(65536)
                if answer:
                    conn.sendall(answer)
            except OSError:
                pass

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        t.join(timeout=5)
        for c in conns:
            c.close()
        listener.close()


def interrupt(call: str, setup: str = "", wait: float = 1.5):
    """Runs `call` in a child Python, sends SIGINT `wait` seconds after it started, and
    returns (exit code, output, seconds from the signal to the exit). The child prints
    'interrupted' and exits 7 on KeyboardInterrupt, then checks that the package still
    works (a physical hash of b'' against hashlib's)."""
    code = ("import hashlib, sys, odf_hash\n" + setup +
            "print('started', flush=True)\n"
            "try:\n"
            f"    {call}\n"
            "    print('returned', flush=True); sys.exit(3)\n"
            "except KeyboardInterrupt:\n"
            "    pass\n"
            "h = odf_hash.physical(b'')\n"
            "assert str(h) == 'f1620' + hashlib.sha3_256(b'').hexdigest(), h\n"
            "print('interrupted', flush=True); sys.exit(7)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        assert proc.stdout.readline() == b"started\n", proc.stderr.read()
        time.sleep(wait)
        assert proc.poll() is None, (proc.returncode, proc.stdout.read(), proc.stderr.read())
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        took = time.monotonic() - t0
    finally:
        proc.kill()
        proc.wait()
    return proc.returncode, out, err, took


STORE = "read_timeout=600, connect_timeout=600, max_attempts=1"
EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "datasets" / "root"


# refs/head: no answer at all, or headers and the start of a 70-byte body, then nothing.
@pytest.mark.parametrize("answer", [b"", b"HTTP/1.1 200 OK\r\nContent-Length: 70\r\n\r\nf1620"],
                         ids=["no-answer", "body-stalls"])
@pytest.mark.parametrize("call", ["verify", "plan"])
def test_verify_of_a_stalled_server_stops_on_ctrl_c(answer, call):
    with stalled_server(answer) as url:
        rc, out, err, took = interrupt(f"odf_hash.{call}({url + '/ds'!r}, {STORE})")
    assert rc == 7, (rc, out, err)
    assert out.endswith(b"interrupted\n")
    assert took < 5, took


@pytest.mark.parametrize("call", ["physical", "logical_file", "slice"])
def test_file_calls_on_a_stalled_server_stop_on_ctrl_c(call):
    answer = b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\nPAR1"
    with stalled_server(answer) as url:
        target = url + "/data.parquet"
        rc, out, err, took = interrupt(f"odf_hash.{call}({target!r}, {STORE})")
    assert rc == 7, (rc, out, err)
    assert took < 5, took


@pytest.mark.parametrize("call", ["logical", "unordered_digest"])
def test_logical_of_an_endless_stream_stops_on_ctrl_c(call):
    """A RecordBatchReader over a generator that never ends: the hasher checks the flag
    between batches, and the generator runs on the work's thread under the GIL."""
    setup = ("import pyarrow as pa\n"
             "batch = pa.record_batch({'x': pa.array(range(10000), pa.int64())})\n"
             "def endless():\n"
             "    while True:\n"
             "        yield batch\n"
             "reader = pa.RecordBatchReader.from_batches(batch.schema, endless())\n")
    rc, out, err, took = interrupt(f"odf_hash.{call}(reader)", setup=setup)
    assert rc == 7, (rc, out, err)
    assert took < 5, took


def test_logical_file_of_a_local_file_stops_on_ctrl_c(tmp_path):
    """A Parquet file large enough to take many seconds to hash (a long string column),
    interrupted early: the hasher stops between record batches."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "big.parquet"
    value = "x" * 4096
    with pq.ParquetWriter(path, pa.schema([("s", pa.string())]), compression="zstd") as w:
        batch = pa.record_batch({"s": pa.array([value] * 16384)})
        for _ in range(256):  # 16 GiB of strings; a few MiB on disk
            w.write_batch(batch)
    rc, out, err, took = interrupt(f"odf_hash.logical_file({str(path)!r}, threads=2)", wait=1.0)
    assert rc == 7, (rc, out, err)
    assert took < 5, took


@pytest.mark.parametrize("ignore_order", [False, True], ids=["compare", "ignore-order"])
def test_compare_of_a_stalled_server_stops_on_ctrl_c(ignore_order):
    answer = b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\nPAR1"
    with stalled_server(answer) as url:
        call = (f"odf_hash.compare({url + '/a.parquet'!r}, {url + '/b.parquet'!r}, "
                f"ignore_order={ignore_order}, {STORE})")
        rc, out, err, took = interrupt(call)
    assert rc == 7, (rc, out, err)
    assert took < 5, took


def test_compare_of_local_files_stops_on_ctrl_c(tmp_path):
    """Two large local files that differ in every value: hashing, then locating rows, all
    stop at their next read."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    value = "x" * 4096
    for name, last in (("a", "a"), ("b", "b")):
        with pq.ParquetWriter(tmp_path / f"{name}.parquet", pa.schema([("s", pa.string())]),
                              compression="zstd") as w:
            batch = pa.record_batch({"s": pa.array([value + last] * 16384)})
            for _ in range(256):
                w.write_batch(batch)
    a, b = str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet")
    rc, out, err, took = interrupt(f"odf_hash.compare({a!r}, {b!r})", wait=1.0)
    assert rc == 7, (rc, out, err)
    assert took < 5, took


def test_check_of_a_task_on_a_stalled_server_stops_on_ctrl_c():
    """A worker's check(task): the task's dataset is a server that never answers."""
    import odf_hash
    task = odf_hash.plan(str(EXAMPLE)).tasks[0]
    with stalled_server() as url:
        text = task.to_json().replace(json.dumps(str(EXAMPLE)), json.dumps(url + "/ds"))
        assert url in text
        setup = f"task = odf_hash.Task.from_json({text!r})\n"
        rc, out, err, took = interrupt(
            "odf_hash.check(task, allow=odf_hash.Allow.dataset(task.dataset))", setup=setup)
    assert rc == 7, (rc, out, err)
    assert took < 5, took


def test_physical_of_a_large_local_file_stops_on_ctrl_c(tmp_path):
    """physical() of a sparse 64 GiB file (minutes of hashing) stops between chunks."""
    big = tmp_path / "big"
    with open(big, "wb") as f:
        f.truncate(64 << 30)
    rc, out, err, took = interrupt(f"odf_hash.physical({str(big)!r})", wait=1.0)
    assert rc == 7, (rc, out, err)
    assert took < 5, took
