"""A real IPFS gateway on 127.0.0.1 for the tests (tests/cli/test_ipfs.py, tests/kamu/): Kubo
(github.com/ipfs/kubo, the reference IPFS node), built from the Go module proxy by
scripts/build-kubo.sh once, into a cache outside the repository, and run offline (no
bootstrap peers, no swarm addresses, a repository made here). The daemon is always stopped.
"""
import contextlib
import json
import os
import pathlib
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from remote_servers import free_port, stop_process_group

SOURCE = pathlib.Path(__file__).resolve().parents[2]
BUILD_KUBO = SOURCE / "scripts" / "build-kubo.sh"
DATASETS = SOURCE / "examples" / "datasets"
# Remote-store options that keep a failing run short.
FAST = ["--read-timeout", "5", "--connect-timeout", "2", "--max-attempts", "2"]


def verify_json(run, *args, **kwargs):
    """`odf-hash verify --json ARGS`: the run, and its first dataset's report."""
    r = run("verify", "--json", *args, **kwargs)
    assert r.rc in (0, 1), r
    return r, json.loads(r.out)["datasets"][0]


def outcomes(report):
    return sorted((f["file"], f["outcome"]) for f in report["files"])



def kubo_or_skip():
    """The path of the ipfs binary (built once), or a visible skip when it cannot be built
    (no Go on this machine)."""
    r = subprocess.run([str(BUILD_KUBO)], capture_output=True, timeout=1800)
    if r.returncode == 3:
        pytest.skip("Kubo cannot be built: " + r.stderr.decode().strip())
    assert r.returncode == 0, r.stderr.decode()[-3000:]
    return r.stdout.decode().strip().splitlines()[-1]


class Node:
    """A running gateway: ``url``, ``add(folder) -> CID`` (CIDv1), ``ipfs(*args)``."""

    def __init__(self, url, ipfs):
        self.url, self.ipfs = url, ipfs

    def add(self, folder):
        return self.ipfs("add", "-r", "--cid-version", "1", "-Q", str(folder))


@contextlib.contextmanager
def kubo_gateway(ipfs_bin, base: pathlib.Path):
    base.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "IPFS_PATH": str(base / "repo")}

    def ipfs(*args):
        r = subprocess.run([ipfs_bin, *args], env=env, capture_output=True, timeout=120)
        assert r.returncode == 0, (args, r.stderr.decode()[-2000:])
        return r.stdout.decode().strip()

    # The test profile: loopback addresses, no bootstrap peers, no local discovery.
    ipfs("init", "--profile", "test", "--empty-repo")
    port, api_port = free_port(), free_port()
    ipfs("config", "Addresses.Gateway", f"/ip4/127.0.0.1/tcp/{port}")
    ipfs("config", "Addresses.API", f"/ip4/127.0.0.1/tcp/{api_port}")
    ipfs("config", "--json", "Addresses.Swarm", "[]")
    ipfs("bootstrap", "rm", "--all")
    # An object to probe the gateway with, added before the daemon starts.
    (base / "probe").write_bytes(b"probe")
    probe_cid = ipfs("add", "--cid-version", "1", "-Q", str(base / "probe"))

    log = open(base / "daemon.log", "wb")
    proc = subprocess.Popen(["timeout", "600", ipfs_bin, "daemon", "--offline"], env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/ipfs/{probe_cid}", timeout=5) as resp:
                    if resp.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError):
                pass
            assert proc.poll() is None, (base / "daemon.log").read_text()[-2000:]
            assert time.monotonic() < deadline, "the IPFS gateway did not answer in 60 s"
            time.sleep(0.2)
        yield Node(url, ipfs)
    finally:
        stop_process_group(proc, timeout=20)
        log.close()
