"""`compare` and `logical` show the bytes read on stderr when it is a terminal (a pseudo-terminal
here), as `physical` and `verify` do: "compare: 1.2 MiB 3 MB/s" after the first second,
erased before the report; nothing on a pipe or with --no-progress. The files are served by a local HTTP server that
waits 0.3 s before each response, so that the work lasts more than the one-second delay."""
import pytest

from remote_servers import http_server
from test_hardening3 import _on_a_terminal

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def pair(tmp_path):
    n = 4_000
    a = pa.table({"offset": pa.array(range(n), pa.int64()), "v": pa.array(range(n), pa.int64())})
    b = a.set_column(1, "v", pa.array([i if i != 777 else -1 for i in range(n)], pa.int64()))
    pq.write_table(a, tmp_path / "a.parquet", row_group_size=2000)
    pq.write_table(b, tmp_path / "b.parquet", row_group_size=2000)


@pytest.mark.parametrize("command,name", [
    (["compare"], b"compare: "),
    (["compare", "--ignore-order"], b"compare --ignore-order: "),
    (["logical"], b"logical: "),
])
def test_progress_on_a_terminal_and_not_on_a_pipe(odf_hash_bin, run, tmp_path, command, name):
    pair(tmp_path)
    with http_server(tmp_path) as server:
        urls = [f"{server.url}/slow/a.parquet", f"{server.url}/slow/b.parquet"]
        rc, out = _on_a_terminal([odf_hash_bin, *command, *urls], seconds=90)
        assert rc in (0, 1), out
        assert name in out, out[-600:]
        line = out[out.index(name):].split(b"\r", 1)[0]
        assert b"MB/s" in line and (b"KiB" in line or b"MiB" in line or b" B " in line), line
        assert b"\r\x1b[K" in out  # erased before the report
        # The report itself is whole after the progress line is erased.
        report = b"verdict" if command == ["compare"] else (
            b"different records" if command[-1] == "--ignore-order" else b"f9680c00120")
        assert report in out.rsplit(b"\r\x1b[K", 1)[1], out[-600:]
        piped = run(*command, *urls)
        assert name not in piped.err.encode() and "\x1b[K" not in piped.err, piped
        # --no-progress: nothing drawn, even on a terminal.
        rc, quiet = _on_a_terminal([odf_hash_bin, *command, "--no-progress", *urls], seconds=90)
        assert rc in (0, 1) and name not in quiet and b"\x1b[K" not in quiet, quiet[-600:]
