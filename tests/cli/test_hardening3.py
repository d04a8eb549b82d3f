"""Hardening, round 3 (issue 23): streams read once, constant-memory check lists, refused
NaN timeouts, NUL bytes in paths, control characters on every output channel. Expected
hashes come from hashlib, never from odf-hash."""
import json
import os
import subprocess
import threading
import time

import pytest

from conftest import physical_hash


def test_standard_input_is_read_once_in_argument_order(odf_hash_bin, tmp_path):
    """`physical - -` and `- /dev/stdin` used to read one pipe from two threads (wrong hashes
    that changed every run). Now the first reads it whole, the second finds it at its end (the
    empty input), as sha256sum does; same answer at every --jobs and every run."""
    payload = os.urandom(3 << 20)
    full, empty = physical_hash(payload), physical_hash(b"")
    for jobs in ("1", "4"):
        for args in (["-", "-"], ["-", "/dev/stdin"], ["-", "-", "-"]):
            for _ in range(3):
                p = subprocess.run([odf_hash_bin, "physical", "--jobs", jobs, *args],
                                   input=payload, capture_output=True, timeout=60)
                assert p.returncode == 0, p
                lines = p.stdout.decode().splitlines()
                assert [l.split("  ")[0] for l in lines] == [full] + [empty] * (len(args) - 1)
    # Regular files beside the stream are still hashed in parallel and printed in order.
    files = []
    for i in range(6):
        f = tmp_path / f"f{i}"
        f.write_bytes(os.urandom(100_000 + i))
        files.append(f)
    args = [str(files[0]), "-", *map(str, files[1:]), "-"]
    p = subprocess.run([odf_hash_bin, "physical", "--jobs", "4", *args], input=payload,
                       capture_output=True, timeout=60)
    assert p.returncode == 0, p
    expected = ([physical_hash(files[0].read_bytes()), full] +
                [physical_hash(f.read_bytes()) for f in files[1:]] + [empty])
    assert [l.split("  ")[0] for l in p.stdout.decode().splitlines()] == expected


def _rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@pytest.mark.parametrize("source", ["/dev/zero", "yes"])
def test_check_list_is_read_in_constant_memory(odf_hash_bin, binary_rss_kib, tmp_path, source):
    """`physical --check /dev/zero` and an endless `yes LINE | physical --check -` grew to
    gigabytes before checking a line; now lines are read and checked a batch at a time and
    an over-long line is skipped to its end (sha256sum checks line by line too)."""
    target = tmp_path / "t"
    target.write_bytes(b"x")
    line = f"{physical_hash(b'x')}  {target}\n".encode()
    # Under AddressSanitizer freed memory waits in a quarantine (256 MiB by default), which
    # would count as held: keep it small so that RSS measures what the program keeps.
    env = {**os.environ, "ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") +
           ":quarantine_size_mb=1:thread_local_quarantine_size_kb=64"}
    if source == "yes":
        feeder = subprocess.Popen(["yes", line.decode().rstrip("\n")], stdout=subprocess.PIPE)
        proc = subprocess.Popen([odf_hash_bin, "physical", "--quiet", "--check", "-"],
                                stdin=feeder.stdout, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=env)
        feeder.stdout.close()
    else:
        feeder = None
        proc = subprocess.Popen([odf_hash_bin, "physical", "--quiet", "--check", source],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        peak, settled = 0, None
        start = time.monotonic()
        while time.monotonic() < start + 4 and proc.poll() is None:
            rss = _rss_kib(proc.pid)
            peak = max(peak, rss)
            if settled is None and time.monotonic() > start + 1.5:
                settled = rss
            time.sleep(0.05)
        assert proc.poll() is None, "an endless list cannot end by itself"
        # Above the binary's own footprint (binary_rss_kib: ~7 MiB, ~140 MiB under ASan); a
        # list held in memory grows by ~1 GiB/s here. Bounded, and flat once running.
        assert 0 < peak < binary_rss_kib + 96 * 1024, f"peak RSS {peak} KiB"
        assert settled is not None and peak - settled < 16 * 1024, (settled, peak)
    finally:
        proc.kill()
        proc.wait(timeout=30)
        if feeder:
            feeder.kill()
            feeder.wait(timeout=30)


def test_check_list_over_long_line_is_malformed_not_fatal(run, tmp_path):
    target = tmp_path / "t"
    target.write_bytes(b"abc")
    lst = tmp_path / "list"
    lst.write_bytes(b"f1620" + b"0" * (2 << 20) + b"\n" +
                    f"{physical_hash(b'abc')}  {target}\n".encode())
    r = run("physical", "--check", lst, "--warn")
    assert r.rc == 0, r
    assert r.out == f"{target}: OK\n"
    assert f"{lst}:1: improperly formatted hash line: line longer than 1 MiB" in r.err


@pytest.mark.parametrize("flag", ["--read-timeout", "--connect-timeout"])
@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "0", "1e9"])
def test_timeouts_must_be_finite_seconds(run, flag, value):
    """A NaN timeout passed the range check (every comparison with NaN is false) and then
    never fired."""
    r = run("physical", flag, value, "-", input=b"")
    assert r.rc == 2, r
    assert r.out == ""
    assert f"Value {value} is not a number of seconds from 0.1 to 3600" in r.err


def test_control_characters_never_reach_the_terminal_raw(run, tmp_path):
    """A name holding escape sequences (set the title, clear the screen, move the cursor to
    forge 'FAKE: OK') is printed with those bytes as \\xHH on stdout and stderr alike, and a
    check list written with such names reads back."""
    evil = "a\x1b]0;TITLE\x07\x1b[2J\x1b[1GFAKE: OK\x7f"
    f = tmp_path / evil
    f.write_bytes(b"data")
    r = run("physical", f)
    assert r.rc == 0, r
    shown = str(tmp_path) + "/a\\x1b]0;TITLE\\x07\\x1b[2J\\x1b[1GFAKE: OK\\x7f"
    assert r.out == f"\\{physical_hash(b'data')}  {shown}\n"
    lst = tmp_path / "list"
    lst.write_text(r.out)
    r = run("physical", "--check", lst)
    assert r.rc == 0, r
    assert r.out == f"\\{shown}: OK\n"
    # stderr: a missing file named with escapes, and an error message quoting it.
    missing = tmp_path / ("gone" + evil)
    r = run("physical", missing)
    assert r.rc == 2
    assert "\x1b" not in r.err and "\x07" not in r.err and "\x7f" not in r.err, r
    assert "gone" in r.err and "\\x1b" in r.err
    lst.write_text(f"{physical_hash(b'x')}  {missing}\n")
    r = run("physical", "--check", lst)
    assert r.rc == 1
    for text in (r.out, r.err):
        assert not any(c in text for c in "\x1b\x07\x7f"), r
    r = run("logical", missing)
    assert r.rc == 2 and "\x1b" not in r.err and "\\x1b" in r.err, r
    r = run("verify", missing)
    assert r.rc == 2 and "\x1b" not in r.err and "\\x1b" in r.err, r


def _on_a_terminal(argv, seconds=120):
    """Runs argv with a pseudo-terminal as its stdout and stderr (so that it draws its
    progress line): (exit code, everything it wrote)."""
    import pty
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(argv[0], argv)
    out = b""
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(status), out


def test_progress_line_escapes_names(odf_hash_bin, tmp_path):
    """The progress line (stderr on a terminal) shows the name with control characters
    escaped. Run under a pseudo-terminal so that the line is drawn."""
    name = tmp_path / "p\x1b]0;T\x07q"
    with open(name, "wb") as f:
        f.truncate(1 << 30)  # sparse: a second or more of hashing, so progress is drawn
    rc, out = _on_a_terminal([odf_hash_bin, "physical", str(name)])
    assert rc == 0, out
    assert b"\x07" not in out and b"]0;T" in out, out[:400]
    assert b"p\\x1b]0;T\\x07q" in out, out[:400]


# --- hostile servers (started here on 127.0.0.1, stopped by the tests) -----------------------

import contextlib
import http.server
import pathlib
import shutil
import ssl

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "datasets"


@contextlib.contextmanager
def _serve(handler_class, tls_context=None):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler_class)
    server.daemon_threads = True
    if tls_context is not None:
        server.socket = tls_context.wrap_socket(server.socket, server_side=True)
    t = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True)
    t.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        t.join(timeout=30)


class _Drip(http.server.BaseHTTPRequestHandler):
    """Announces 100,000 bytes and sends one every 0.2 s (a slow-loris server): each byte
    used to reset the stall clock, so the transfer never timed out. Answers ranges the same."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        size = 100_000
        rng = self.headers.get("Range")
        if rng:
            a, _, b = rng[6:].partition("-")
            start, end = int(a), (int(b) if b else size - 1)
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
            n = end - start + 1
        else:
            self.send_response(200)
            n = size
        self.send_header("Content-Length", str(n))
        self.end_headers()
        try:
            for _ in range(min(n, 150)):  # at most 30 s, then the connection is dropped
                self.wfile.write(b"P")
                self.wfile.flush()
                time.sleep(0.2)
        except OSError:
            pass
        self.close_connection = True

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "100000")
        self.end_headers()


@pytest.mark.parametrize("command", ["physical", "logical"])
def test_a_dripping_server_times_out_at_the_minimum_rate(odf_hash_bin, command):
    with _serve(_Drip) as port:
        url = f"http://127.0.0.1:{port}/data/file.parquet"
        t0 = time.monotonic()
        p = subprocess.run([odf_hash_bin, command, "--read-timeout", "1", "--max-attempts", "1",
                            url], capture_output=True, timeout=60)
        took = time.monotonic() - t0
    err = p.stderr.decode()
    assert p.returncode == 2, (p, err)
    assert took < 15, took
    assert "below the minimum rate of 1024 bytes/s" in err or "Timeout" in err or \
        "timed out" in err.lower(), err


def _self_signed(tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True,
                   timeout=60)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    return cert, ctx


def _files_handler(root, redirect_to=None):
    class Handler(http.server.SimpleHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def __init__(self, *a, **kw):
            super().__init__(*a, directory=str(root), **kw)

        def log_message(self, *args):
            pass

        def do_GET(self):
            if redirect_to is not None:
                self.send_response(302)
                self.send_header("Location", redirect_to + self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            super().do_GET()
    return Handler


def test_https_is_never_left_for_http(odf_hash_bin, tmp_path):
    """An https:// dataset redirected to http:// was followed silently (the report said https
    and VALID). Now the redirect is refused; the same dataset served over https is VALID, so
    the refusal is the downgrade's, not TLS's."""
    ds = tmp_path / "ds"
    shutil.copytree(EXAMPLES / "root", ds)
    cert, ctx = _self_signed(tmp_path)
    env = {**os.environ, "CURL_CA_BUNDLE": str(cert)}
    with _serve(_files_handler(ds), ctx) as tls_port:
        p = subprocess.run([odf_hash_bin, "verify", f"https://127.0.0.1:{tls_port}/"],
                           capture_output=True, env=env, timeout=120)
        assert p.returncode == 0, p
        assert b"result       VALID" in p.stdout
    with _serve(_files_handler(ds)) as plain_port, \
            _serve(_files_handler(ds, f"http://127.0.0.1:{plain_port}"), ctx) as tls_port:
        for args in (["verify"], ["physical"]):
            target = (f"https://127.0.0.1:{tls_port}/" if args == ["verify"] else
                      f"https://127.0.0.1:{tls_port}/refs/head")
            p = subprocess.run([odf_hash_bin, *args, "--max-attempts", "1", target],
                               capture_output=True, env=env, timeout=120)
            err = p.stderr.decode()
            assert p.returncode == 2, (p, err)
            assert "redirected to a URL that is not https" in err, err
            assert b"VALID" not in p.stdout


@pytest.mark.parametrize("password", ["it's-S3CR3T", 'q"S3CR3T<>', "pa/S3CR3T", "pa#S3CR3T",
                                      "pa?S3CR3T", "my S3CR3T"])
def test_url_passwords_never_printed(odf_hash_bin, tmp_path, password):
    """A URL password holding ' " < > (which curl sends) or / # ? and a space (a URL curl
    refuses) was printed in full on several channels. Every channel: the text report, --json,
    hash lines, --check lines, errors, and the progress line (a pseudo-terminal)."""
    ds = tmp_path / "ds"
    shutil.copytree(EXAMPLES / "root", ds)
    data = sorted((ds / "data").iterdir())[0]
    with _serve(_files_handler(ds)) as port:
        base = f"http://user:{password}@127.0.0.1:{port}"
        lst = tmp_path / "list"
        lst.write_text(f"{physical_hash(data.read_bytes())}  {base}/data/{data.name}\n")
        runs = [["verify", base + "/"], ["verify", "--json", base + "/"],
                ["physical", f"{base}/data/{data.name}"],
                ["physical", "--json", f"{base}/data/{data.name}"],
                ["physical", "--check", str(lst)], ["logical", f"{base}/data/{data.name}"],
                ["slice", f"{base}/data/{data.name}"],
                ["verify", base + "/nothing-here"]]
        for args in runs:
            p = subprocess.run([odf_hash_bin, *args, "--max-attempts", "1"], capture_output=True,
                               timeout=120)
            text = (p.stdout + p.stderr).decode("utf-8", "replace")
            assert "S3CR3T" not in text, (args, text)
            assert "user:" not in text, (args, text)
            if password in ("it's-S3CR3T", 'q"S3CR3T<>') and args[-1].endswith("/"):
                assert p.returncode == 0, (args, text)  # curl sends it: the dataset verifies
                assert f"http://***@127.0.0.1:{port}/" in text, (args, text)
            elif args[0] == "verify" and not args[-1].endswith("/"):
                assert p.returncode != 0, (args, text)
        # The progress line, drawn on a terminal.
        _, out = _on_a_terminal([odf_hash_bin, "verify", base + "/"])
        assert b"S3CR3T" not in out, out


def _cut_then_whole(etag):
    """The first GET of an object is cut after half of its body; every later one (a resume
    with Range, If-Range) is answered 200 with the whole object: a server without Range
    support. With `etag`, both answers carry the same ETag (the object did not change)."""
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        seen = set()

        def log_message(self, *args):
            pass

        def do_GET(self):
            payload = b"".join(bytes([i % 251]) for i in range(1 << 20))
            first = self.path not in Handler.seen
            Handler.seen.add(self.path)
            self.send_response(200)
            self.send_header("Content-Length", str(len(payload)))
            if etag:
                self.send_header("ETag", '"v1"')
            self.end_headers()
            self.wfile.write(payload[: len(payload) // 2] if first else payload)
            self.wfile.flush()
            self.close_connection = True
    return Handler


@pytest.mark.parametrize("etag", [False, True])
def test_resume_against_a_server_without_range_support(odf_hash_bin, etag):
    """A resume answered 200 with the whole body was taken as the rest of the object ('the
    body is longer than the object', or a wrong hash). The response is classified from its
    headers before any body byte is taken: the known part is skipped, the hash is right."""
    payload = b"".join(bytes([i % 251]) for i in range(1 << 20))
    with _serve(_cut_then_whole(etag)) as port:
        p = subprocess.run([odf_hash_bin, "physical", f"http://127.0.0.1:{port}/data/x"],
                           capture_output=True, timeout=120)
    assert p.returncode == 0, p
    assert p.stdout.decode().split()[0] == physical_hash(payload)


class _BigHead(http.server.BaseHTTPRequestHandler):
    """refs/head of 5 KiB, with or without Content-Length (the path says which)."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        body = b"f1620" + b"a" * 5000
        self.send_response(200)
        if self.path.startswith("/with-length/"):
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:  # chunked
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
        self.close_connection = True


def test_an_over_long_head_is_head_invalid_with_or_without_content_length(odf_hash_bin):
    """A refs/head over 4 KiB without Content-Length was exit 2 'cannot reach the dataset',
    with Content-Length exit 1 head-invalid: the same object, the same verdict now."""
    with _serve(_BigHead) as port:
        for mode in ("with-length", "chunked"):
            p = subprocess.run([odf_hash_bin, "verify", "--json", "--max-attempts", "1",
                                f"http://127.0.0.1:{port}/{mode}/ds"], capture_output=True,
                               timeout=60)
            assert p.returncode == 1, (mode, p)
            problems = json.loads(p.stdout)["datasets"][0]["problems"]
            assert [x["kind"] for x in problems] == ["head-invalid"], (mode, problems)
            assert "too long for a hash" in problems[0]["message"], problems


def _huge_derivative(root, huge_name):
    """The derivative dataset `root`, but data/<huge_name> announced as 1 TB of zeros (with
    Range support); a whole GET of it streams zeros (at most 1 GiB, then the connection
    drops)."""
    huge = 10**12

    class Handler(_files_handler(root)):
        def do_GET(self):
            if not self.path.endswith(huge_name):
                return super().do_GET()
            rng = self.headers.get("Range")
            if rng:
                a, _, b = rng[6:].partition("-")
                start, end = int(a), (int(b) if b else huge - 1)
                end = min(end, start + (1 << 20) - 1, huge - 1)
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{end}/{huge}")
                self.send_header("Content-Length", str(end - start + 1))
                self.send_header("Accept-Ranges", "bytes")
                self.end_headers()
                self.wfile.write(b"\0" * (end - start + 1))
                return
            self.send_response(200)
            self.send_header("Content-Length", str(huge))
            self.send_header("Accept-Ranges", "bytes")
            self.end_headers()
            try:
                for _ in range(1024):
                    self.wfile.write(b"\0" * (1 << 20))
            except OSError:
                pass
            self.close_connection = True
    return Handler


def test_a_derivative_file_announcing_a_terabyte_is_not_streamed_first(odf_hash_bin, tmp_path):
    """A derivative data file of another size than recorded cannot match physically: its
    records are read first (the Parquet footer, by a range request), so a server announcing
    1 TB of garbage gets an answer in seconds instead of being streamed whole."""
    ds = tmp_path / "ds"
    shutil.copytree(EXAMPLES / "derivative", ds)
    huge_name = sorted((ds / "data").iterdir())[0].name
    with _serve(_huge_derivative(ds, huge_name)) as port:
        t0 = time.monotonic()
        p = subprocess.run([odf_hash_bin, "verify", "--json", "--max-attempts", "1",
                            f"http://127.0.0.1:{port}/"], capture_output=True, timeout=120)
        took = time.monotonic() - t0
    assert p.returncode == 1, p
    problems = json.loads(p.stdout)["datasets"][0]["problems"]
    assert [(x["file"], x["kind"]) for x in problems] == [(f"data/{huge_name}",
                                                           "file-unreadable")], problems
    assert "size differs from the recorded one (1000000000000 bytes" in problems[0]["message"]
    assert took < 30, took
