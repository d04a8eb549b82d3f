"""Real servers on 127.0.0.1 for the remote-store tests, started and stopped by the tests.

- DatasetHttpServer: a static HTTP/1.1 server over a folder, with Range requests (Python's
  http.server has none), and faults injected on request: a URL path
  /<fault>/<path> serves <path> with that fault applied to the objects under a data/ folder
  (everything else is served normally, so a dataset's chain reads fine):
    ok            no fault
    cut           every response stops after half of its body, the connection closed
    cut-once      the first response per object is cut, later ones (resumes) are whole
    503x2         the first two requests per object answer 503, then the object
    stall         the headers and 100 bytes, then nothing (until the client gives up)
    long-length   Content-Length announces 100 bytes more than the body, then closes
    endless       no Content-Length; the object then zeros without end (until the client
                  hangs up, or 256 MiB)
    redirect-loop 302 to itself
    403, 404      the status alone
  and, like a kamu node (measured: kamu 0.265's api-server answers data files chunked,
  without Content-Length, ETag or Range support), for objects under data/ and checkpoints/:
    chunked       the whole object in a chunked body, Range ignored (200 with everything)
    chunked-short as chunked, the body the first half of the object (a well-ended body)
    chunked-long  as chunked, 100 more bytes after the object
    no-ranges     Content-Length, but Range ignored (200 with everything)
    chunked-all   as chunked, for every object (refs/head and blocks too)
    chunked-ranges  a whole object chunked, without Content-Length, but "Accept-Ranges:
                  bytes" and ranges served (206 with Content-Range)
  A server also lies on request: `server.lies[path] = other` serves the bytes of the
  file `other` under `path` (a block file answering another valid block under its name).
- moto_s3: moto's S3 server (moto[server]) in this process, and a boto3 client for it.
"""
import contextlib
import http.server
import os
import pathlib
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

FAULTS = ("ok", "cut", "cut-once", "503x2", "stall", "long-length", "endless",
          "redirect-loop", "403", "404", "chunked", "chunked-short", "chunked-long", "no-ranges", "chunked-all",
          "chunked-ranges", "slow")
CHUNKED = ("chunked", "chunked-short", "chunked-long", "no-ranges", "chunked-all")
STALL_SECONDS = 20  # the longest a stalled response holds its connection
SLOW_SECONDS = 0.3  # "slow": every response waits this long (work that shows its progress)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (for servers that take a port
    number rather than binding port 0 themselves: kamu, Kubo)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_process_group(proc: subprocess.Popen, timeout: float = 15) -> None:
    """Stops a server started with start_new_session=True: SIGTERM to its process group,
    SIGKILL after `timeout` seconds. Does nothing when it has exited already."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=timeout)


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are separate writes

    def log_message(self, *args):  # quiet
        pass

    def _send_status(self, code, extra=()):
        self.send_response(code)
        for k, v in extra:
            self.send_header(k, v)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self):
        self._serve(head=True)

    def do_GET(self):
        self._serve(head=False)

    def _serve(self, head):
        server = self.server
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        parts = path.lstrip("/").split("/", 1)
        fault, rel = (parts[0], parts[1]) if len(parts) == 2 and parts[0] in FAULTS \
            else ("ok", path.lstrip("/"))
        target = (server.root / rel).resolve()
        if server.root not in target.parents and target != server.root:
            return self._send_status(404)
        target = server.lies.get(rel, target)
        folders = pathlib.PurePosixPath(rel).parts[:-1]
        faulty = fault != "ok" and "data" in folders
        if fault in CHUNKED:
            faulty = "data" in folders or "checkpoints" in folders or fault == "chunked-all"
        with server.lock:
            count = server.counts.get(path, 0) + 1
            server.counts[path] = count
            server.authorizations.append(self.headers.get("Authorization"))
            server.queries.append(urllib.parse.urlsplit(self.path).query)
        signature = "X-Amz-Signature=s" + rel[-8:]
        if server.presigned and ("data" in folders or "checkpoints" in folders) and \
                signature not in urllib.parse.urlsplit(self.path).query.split("&"):
            return self._send_status(403)
        if server.token is not None and \
                self.headers.get("Authorization") != f"Bearer {server.token}":
            return self._send_status(401)
        if server.required_header and ("data" in folders or "checkpoints" in folders):
            with server.lock:
                server.sent_headers.append(dict(self.headers.items()))
            key = self.headers.get("x-amz-server-side-encryption-customer-key")
            if key != "k" + rel[-8:]:
                return self._send_status(403)
        if fault == "slow":
            time.sleep(SLOW_SECONDS)
        if faulty and fault == "redirect-loop":
            return self._send_status(302, [("Location", self.path)])
        if faulty and fault in ("403", "404"):
            return self._send_status(int(fault))
        if faulty and fault == "503x2" and count <= 2:
            return self._send_status(503)
        if not target.is_file():
            return self._send_status(404)
        data = target.read_bytes()
        if faulty and fault == "chunked-ranges" and "Range" not in self.headers:
            return self._send_chunked(data, "chunked", head, accept_ranges=True)
        if faulty and fault in CHUNKED:
            with server.lock:
                server.range_requests += "Range" in self.headers
            return self._send_chunked(data, fault, head)
        start, end, status = 0, len(data) - 1, 200
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            a, _, b = rng[6:].partition("-")
            start = int(a)
            end = min(int(b), len(data) - 1) if b else len(data) - 1
            if start >= len(data):
                return self._send_status(416, [("Content-Range", f"bytes */{len(data)}")])
            status = 206
        body = data[start:end + 1]
        self.send_response(status)
        self.send_header("ETag", f'"{len(data)}-{int(target.stat().st_mtime)}"')
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
        if faulty and fault == "endless":
            self.send_header("Connection", "close")
        elif faulty and fault == "long-length":
            self.send_header("Content-Length", str(len(body) + 100))
        else:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if head:
            return
        try:
            if faulty and (fault == "cut" or (fault == "cut-once" and count == 1)):
                self.wfile.write(body[:len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
            elif faulty and fault == "stall":
                self.wfile.write(body[:100])
                self.wfile.flush()
                deadline = time.monotonic() + STALL_SECONDS
                while time.monotonic() < deadline and not server.stopping.is_set():
                    time.sleep(0.05)
                self.close_connection = True
            elif faulty and fault == "endless":
                self.wfile.write(body)
                zeros = bytes(65536)
                for _ in range(4096):  # 256 MiB at most
                    if server.stopping.is_set():
                        break
                    self.wfile.write(zeros)
                self.close_connection = True
            elif faulty and fault == "long-length":
                self.wfile.write(body)
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
            else:
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


    def _send_chunked(self, data, fault, head, accept_ranges=False):
        body = {"chunked": data, "chunked-short": data[:len(data) // 2],
                "chunked-long": data + bytes(100), "no-ranges": data, "chunked-all": data}[fault]
        self.send_response(200)
        if fault == "no-ranges":
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if not head:
                self.wfile.write(body)
            return
        self.send_header("Transfer-Encoding", "chunked")
        if accept_ranges:
            self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        if head:
            return
        try:
            for i in range(0, len(body), 1000):  # several chunks, as a streaming server sends
                piece = body[i:i + 1000]
                self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


class DatasetHttpServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, root):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.root = pathlib.Path(root).resolve()
        self.lock = threading.Lock()
        self.counts = {}
        self.range_requests = 0  # Range requests to chunked objects (ignored)
        self.lies = {}  # path under the root -> the file served in its place
        self.stopping = threading.Event()
        self.token = None  # when set: requests without "Authorization: Bearer <token>" get 401
        self.authorizations = []  # the Authorization header of every request (None: none)
        # When set: data/ and checkpoints/ objects are served only to a request whose query
        # holds "X-Amz-Signature=s" + the last 8 characters of the name (a presigned URL's).
        self.presigned = False
        self.queries = []  # the query of every request ("" for none)
        # When set: data/ and checkpoints/ objects are served only to a request with the header
        # x-amz-server-side-encryption-customer-key: "k" + the last 8 characters of the name;
        # the headers of those requests are kept in .sent_headers.
        self.required_header = False
        self.sent_headers = []

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"


@contextlib.contextmanager
def http_server(root):
    server = DatasetHttpServer(root)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


# Credentials and configuration that keep the AWS SDK (in odf-hash) and boto3 (here) on
# this machine: fixed keys, no config files, no instance metadata service.
S3_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_EC2_METADATA_DISABLED": "true",
    "AWS_CONFIG_FILE": "/nonexistent/odf-hash-test-aws-config",
    "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/odf-hash-test-aws-credentials",
}


@contextlib.contextmanager
def moto_s3():
    """(endpoint URL, boto3 S3 client) of a moto server on 127.0.0.1."""
    from moto.server import ThreadedMotoServer
    import boto3

    saved = {k: os.environ.get(k) for k in S3_ENV}
    os.environ.update(S3_ENV)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        endpoint = f"http://{host}:{port}"
        client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
        yield endpoint, client
    finally:
        server.stop()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def moto_client(endpoint):
    import boto3
    return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")


def upload_tree(client, bucket, prefix, root):
    root = pathlib.Path(root)
    for p in sorted(root.rglob("*")):
        if p.is_file():
            client.put_object(Bucket=bucket, Key=f"{prefix}/{p.relative_to(root).as_posix()}",
                              Body=p.read_bytes())


@contextlib.contextmanager
def kamu_node(kamu: str, workspace: pathlib.Path, probe_alias: str):
    """`kamu system api-server` on 127.0.0.1 in `workspace` (the kamu CLI at `kamu`): yields
    its base URL once it answers {url}/{probe_alias}/refs/head; always stopped (its own
    process group). The one kamu node starter of the tests (tests/cli and tests/kamu)."""
    last = ""
    for _ in range(3):  # a port taken between free_port() and the bind: try another
        port = free_port()
        log = open(workspace / f".api-server-{port}.log", "wb")
        proc = subprocess.Popen([kamu, "system", "api-server", "--address", "127.0.0.1",
                                 "--http-port", str(port)], cwd=workspace,
                                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    with urllib.request.urlopen(f"{url}/{probe_alias}/refs/head", timeout=5):
                        break
                except (urllib.error.URLError, ConnectionError, OSError):
                    time.sleep(0.2)
            if proc.poll() is None and time.monotonic() < deadline:
                yield url
                return
            last = (workspace / f".api-server-{port}.log").read_text(errors="replace")[-2000:]
        finally:
            stop_process_group(proc, timeout=10)
            log.close()
    raise RuntimeError(f"kamu system api-server did not start: {last}")
