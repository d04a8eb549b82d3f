"""Shared fixtures of the tests against kamu, the main ODF implementation (issue 22, item 6).

The session builds one kamu workspace with make_workspace.py (or takes it from the cache
folder `$ODF_KAMU_WORKSPACE_CACHE`, keyed by kamu's version and the generator's text; ctest
sets it to the build folder) and copies it into a temporary folder, which the tests read and
copy again before breaking anything. Expected values come from kamu: the hashes it recorded
(`kamu log -o yaml`) and its verdicts (`kamu verify --integrity`).

When kamu cannot run (no binary, no zstd to unpack it), every test is skipped with the reason
("kamu unavailable: ..."; ctest then reports kamu_pytest as skipped, never as passed), unless
ODF_REQUIRE_KAMU=1, which makes it a failure.

PENDING lists the parts of issue 22 that other changes implement: a test needing one is an
expected failure (strict), so it fails, to be noticed, once the feature works. Remove an entry
when its feature lands.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "cli"))  # remote_servers.py: moto on 127.0.0.1

import make_workspace  # noqa: E402
from remote_servers import kamu_node, stop_process_group  # noqa: E402, F401

PENDING = {
}


def pending(*features):
    """pytest marks for a test that needs these features of issue 22 (see PENDING)."""
    reasons = [PENDING[f] for f in features if f in PENDING]
    return [pytest.mark.xfail(strict=True, reason="; ".join(reasons))] if reasons else []


def param(*values, features=(), id=None):
    return pytest.param(*values, marks=pending(*features), id=id)


@pytest.fixture(scope="session")
def odf_hash_bin():
    path = os.environ.get("ODF_HASH_BIN")
    if not path:
        pytest.fail("ODF_HASH_BIN is not set (run through ctest, or export it)")
    return path


@pytest.fixture(scope="session")
def kamu():
    path = make_workspace.kamu_path()
    try:
        make_workspace.kamu_version(path)
    except make_workspace.KamuUnavailable as e:
        if os.environ.get("ODF_REQUIRE_KAMU") == "1":
            pytest.fail(f"kamu unavailable (ODF_REQUIRE_KAMU=1): {e}")
        pytest.skip(f"kamu unavailable: {e}")
    return path


@pytest.fixture(scope="session")
def kamu_workspace(kamu, tmp_path_factory):
    """A private copy of the built workspace: its folder (manifest.json, ws/, logs/)."""
    cache = os.environ.get("ODF_KAMU_WORKSPACE_CACHE")
    root = pathlib.Path(cache) if cache else tmp_path_factory.mktemp("kamu-cache")
    built = make_workspace.workspace(root, kamu)
    copy = tmp_path_factory.mktemp("kamu") / "w"
    shutil.copytree(built, copy, symlinks=True)
    return copy


@pytest.fixture(scope="session")
def manifest(kamu_workspace):
    return json.loads((kamu_workspace / "manifest.json").read_text())


@pytest.fixture(scope="session")
def datasets(manifest, kamu_workspace):
    """alias -> manifest entry, with "path" the dataset folder in the session's copy."""
    out = {}
    for d in manifest["datasets"]:
        out[d["alias"]] = dict(d, path=kamu_workspace / d["folder"])
    return out


class Ran:
    def __init__(self, proc):
        self.rc = proc.returncode
        self.out = proc.stdout.decode("utf-8", "replace")
        self.err = proc.stderr.decode("utf-8", "replace")

    def json(self):
        return json.loads(self.out)

    def __repr__(self):
        return f"Ran(rc={self.rc}, out={self.out[-3000:]!r}, err={self.err[-2000:]!r})"


@pytest.fixture(scope="session")
def run(odf_hash_bin):
    def _run(*args, timeout=120, env=None):
        proc = subprocess.run([odf_hash_bin, *map(str, args)], capture_output=True,
                              timeout=timeout, stdin=subprocess.DEVNULL,
                              env=None if env is None else {**os.environ, **env})
        return Ran(proc)
    return _run



def run_kamu(kamu: str, workspace: pathlib.Path, *args, timeout=120):
    """kamu in `workspace`: (exit code or None on timeout, stdout + stderr)."""
    proc = subprocess.Popen([kamu, *map(str, args)], cwd=workspace, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        stop_process_group(proc, timeout=10)
        proc.communicate()
        return None, f"(no answer in {timeout} s)"


# (case, kamu's verdict, kamu's message, odf-hash's verdict) of the differential tests, printed
# after the run so that kamu's verdicts on every broken copy stay visible.
VERDICTS = []


def pytest_terminal_summary(terminalreporter):
    if not VERDICTS:
        return
    tr = terminalreporter
    tr.section("kamu verify --integrity on the broken copies")
    for case, kamu_says, message, ours in sorted(VERDICTS):
        last = next((line.strip() for line in reversed(message.splitlines()) if line.strip()),
                    "")
        tr.write_line(f"{case:40} kamu: {kamu_says:9} odf-hash: {ours:7} {last[:110]}")
