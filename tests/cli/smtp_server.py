"""A Smart Transfer Protocol node for the tests, on 127.0.0.1: the pull flow as kamu 0.265
speaks it (measured against kamu's node: ws://HOST:PORT/<dataset>/pull with
x-odf-smtp-version: 1; the pull request answered by {"Ok":{"transfer_plan":…}}; `{}` by the
blocks as a gzip'd tar in a JSON array of bytes, oldest first, the head last; object_files by
download URLs), written with the `websockets` library, over a folder of datasets; downloads
point at an HTTP server the caller gives (remote_servers.http_server over the same folder).

`faults` make it hostile, each for one test: "wrong-name" (the head block's entry holds
another block's bytes), "bomb" (the payload inflates to 300 MiB of zeros), "silent" (the plan
never comes), "close-1011" (the metadata request is answered by a Close 1011 with a JSON
reason), "binary" (the plan comes as a binary frame), "no-gzip" (the payload is not gzip),
"expired" (the first flow's data downloads expired in 2000 and point where the HTTP server
answers 403; a flow that begins after the head gets good ones), "refused" (the same URLs,
no expiry), "presigned" (download URLs carry a query, X-Amz-Signature=..., that the HTTP
server's `presigned` mode requires), "headers" (every download names the headers a storage
would need: x-amz-server-side-encryption-customer-key, which the HTTP server's
`required_header` mode checks, and a Range of the first 10 bytes, which a client must not send
as given), "bad-header" (every download names a header whose value holds CR LF and another
header).

`tls` (an ssl.SSLContext) serves odf+https:// (wss); `token` makes the handshake answer 401
without "Authorization: Bearer <token>" (every handshake's header is kept in .authorizations).
`http_url=None` makes the node serve the downloads itself, at its own address (plain GETs of
<dataset>/data/<hash> and checkpoints, with the token too: kept in .downloads as (path,
Authorization)), as kamu's node does without object storage.
"""
import asyncio
import contextlib
import functools
import gzip
import hashlib
import io
import json
import pathlib
import tarfile
import threading
import zlib

import websockets
from websockets.asyncio.server import serve
from websockets.http11 import Response
from websockets.datastructures import Headers


def _tar_gz(entries):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(buf.getvalue(), mtime=0)


@functools.cache
def bomb():
    """300 MiB of zeros, gzip'd: built once (a second of zlib, more on a loaded machine, which
    must not count against the client's read timeout: tests build it before they start one)."""
    z = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    out = [z.compress(bytes(1 << 20)) for _ in range(300)]
    out.append(z.flush())
    return b"".join(out)


class SmtpNode:
    def __init__(self, root: pathlib.Path, http_url: str, tls=None, token=None):
        self.root = pathlib.Path(root)
        self.http_url = http_url  # where downloads point
        self.tls = tls
        self.token = token
        self.authorizations = []
        self.downloads = []  # (path, Authorization) of each GET served at the node's address
        self.sent_blocks = []  # the names of the blocks each flow sent
        self.faults = set()
        self.requests = []  # every message received, parsed
        self.url = None
        self._loop = None

    def _blocks(self, dataset: pathlib.Path):
        head = (dataset / "refs" / "head").read_text().strip()
        names = sorted(p.name for p in (dataset / "blocks").iterdir() if p.name != head)
        entries = [(n, (dataset / "blocks" / n).read_bytes()) for n in names]
        head_bytes = (dataset / "blocks" / head).read_bytes()
        if "wrong-name" in self.faults:
            head_bytes = entries[0][1]
        return entries + [(head, head_bytes)]

    def _serve_file(self, request, parts):
        authorization = request.headers.get("Authorization")
        self.downloads.append((request.path, authorization))
        if self.token is not None and authorization != f"Bearer {self.token}":
            return Response(401, "Unauthorized", Headers(), b"")
        target = self.root.joinpath(*parts)
        if ".." in parts or not target.is_file():
            return Response(404, "Not Found", Headers(), b"")
        data = target.read_bytes()
        return Response(200, "OK", Headers([("Content-Length", str(len(data)))]), data)

    def _chain(self, dataset: pathlib.Path):
        """The chain's block names from the head down, found as kamu's node walks it: each
        block holds its predecessor's multihash (the bytes behind its 'f' name)."""
        blocks = {p.name: p.read_bytes() for p in (dataset / "blocks").iterdir()}
        name = (dataset / "refs" / "head").read_text().strip()
        chain = []
        while name is not None:
            chain.append(name)
            data = blocks[name]
            name = next((n for n in blocks if n not in chain and bytes.fromhex(n[1:]) in data),
                        None)
        return chain

    def _check(self, connection, request):
        path = request.path
        parts = path.strip("/").split("/")
        if self.http_url is None and len(parts) == 3 and parts[1] in ("data", "checkpoints"):
            return self._serve_file(request, parts)
        if len(parts) != 2 or parts[1] != "pull" or not (self.root / parts[0]).is_dir():
            return Response(404, "Not Found", Headers(), b"")
        if request.headers.get("x-odf-smtp-version") != "1":
            return Response(400, "Bad Request", Headers(), b"missing x-odf-smtp-version")
        self.authorizations.append(request.headers.get("Authorization"))
        if self.token is not None and request.headers.get("Authorization") != f"Bearer {self.token}":
            return Response(401, "Unauthorized", Headers(), b"")
        return None

    async def _handle(self, ws):
        dataset = self.root / ws.request.path.strip("/").split("/")[0]
        pull = json.loads(await ws.recv())
        self.requests.append(pull)
        if "silent" in self.faults:
            await asyncio.sleep(3600)
        begin_after = pull.get("begin_after")
        chain = self._chain(dataset)
        if begin_after is not None and begin_after not in chain:
            await ws.send(json.dumps({"Err": {"InvalidInterval": {
                "head": chain[0], "tail": begin_after}}}))
            return
        plan = json.dumps({"Ok": {"transfer_plan": {"num_blocks": 1, "num_objects": 0,
                                                    "num_records": 0, "bytes_in_raw_blocks": 0,
                                                    "bytes_in_raw_objects": 0}}})
        if "binary" in self.faults:
            await ws.send(plan.encode())
            return
        await ws.send(plan)
        self.requests.append(json.loads(await ws.recv()))
        if "close-1011" in self.faults:
            await ws.close(1011, json.dumps({"Err": {"Internal": {
                "phase": {"Pull": "MetadataRequest"}, "error_message": "Internal error"}}}))
            return
        head = chain[0]
        again = begin_after == head  # a flow asking downloads again
        entries = self._blocks(dataset)
        if begin_after is not None:  # the blocks after it, oldest first
            after = chain[:chain.index(begin_after)]
            entries = [e for e in entries if e[0] in after]
            entries.sort(key=lambda e: -after.index(e[0]))
        self.sent_blocks.append([name for name, _ in entries])
        payload = (bomb() if "bomb" in self.faults else
                   b"not gzip at all" if "no-gzip" in self.faults else _tar_gz(entries))
        await ws.send(json.dumps({"blocks": {"num_blocks": len(entries),
                                             "media_type": "application/tar+gzip",
                                             "encoding": "raw", "payload": list(payload)}}))
        async for message in ws:
            request = json.loads(message)
            self.requests.append(request)
            answers = []
            stale = not again and self.faults & {"expired", "refused"}
            for f in request.get("object_files", []):
                folder = "checkpoints" if f["object_type"] == "Checkpoint" else "data"
                prefix = "/403" if stale else ""
                expires = ("2000-01-01T00:00:00Z" if stale and "expired" in self.faults
                           else "2999-01-01T00:00:00.5+01:00")
                query = (f"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=s"
                         f"{f['physical_hash'][-8:]}" if "presigned" in self.faults else "")
                headers = []
                if "headers" in self.faults:
                    headers = [{"name": "x-amz-server-side-encryption-customer-key",
                                "value": "k" + f["physical_hash"][-8:]},
                               {"name": "Range", "value": "bytes=0-9"}]
                if "bad-header" in self.faults:
                    headers = [{"name": "x-amz-meta", "value": "a\r\nX-Injected: 1"}]
                base = self.http_url or self.url.replace("odf+", "")
                answers.append({"object_file": f, "pull_strategy": "HttpDownload",
                                "download_from": {"url": f"{base}{prefix}/"
                                                         f"{dataset.name}/{folder}/"
                                                         f"{f['physical_hash']}{query}",
                                                  "headers": headers, "expires_at": expires}})
            await ws.send(json.dumps({"object_transfer_strategies": answers}))

    async def _main(self, started, stop):
        async with serve(self._handle, "127.0.0.1", 0, process_request=self._check,
                         max_size=None, ssl=self.tls) as server:
            port = server.sockets[0].getsockname()[1]
            self.url = f"odf+{'https' if self.tls else 'http'}://127.0.0.1:{port}"
            started.set()
            await stop.wait()


@contextlib.contextmanager
def smtp_node(root, http_url, tls=None, token=None):
    """An SmtpNode serving the datasets of `root` (its .url: "odf+http://127.0.0.1:PORT", or
    odf+https:// with `tls`), always stopped; downloads point at `http_url`, or at the node
    itself when it is None."""
    node = SmtpNode(root, http_url, tls, token)
    started = threading.Event()
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    def run():
        asyncio.set_event_loop(loop)
        loop.run_until_complete(node._main(started, stop))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(10), "the Smart Transfer Protocol test node did not start"
    try:
        yield node
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(timeout=10)


def sha3_name(data: bytes) -> str:
    return "f1620" + hashlib.sha3_256(data).hexdigest()
