"""Hardening, round 4 (issue 33): trust anchors that cannot be sidestepped.

Pins are keyed by the dataset's canonical location (every spelling of a path, a link to it)
and carry the dataset id, so a rewritten history and another dataset put in the place are
both caught; an empty value never switches a mode off; pin files are read bounded, written
under a lock (20 concurrent writers keep 20 pins) through a temporary file created
exclusively (a planted link redirects nothing), a link is followed to the file it names,
and --since with --write-pins needs an anchor.

Datasets are copies of the examples (real folders and links made here); expected heads are
the generator's file names, the dataset ids its derivation (hashlib), locations
os.path.realpath: never odf-hash's own output.
"""
import datetime as dt
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

import pytest

from forged_dataset import gen

EXAMPLES = gen.ROOT_DIR / "examples" / "datasets"
ROOT_HEAD = (EXAMPLES / "root" / "refs" / "head").read_text().strip()
UNKNOWN = "f1620" + "ab" * 32


def example_id(name):
    return "did:odf:fed01" + hashlib.sha3_256(f"odf-hash example {name}".encode()).hexdigest()


ROOT_ID, DERIVATIVE_ID = example_id("root"), example_id("derivative")


@pytest.fixture
def folder(tmp_path):
    """tmp_path holding ds/ (a copy of the example root dataset) and link -> ds."""
    shutil.copytree(EXAMPLES / "root", tmp_path / "ds")
    os.symlink(tmp_path / "ds", tmp_path / "link")
    yield tmp_path
    shutil.rmtree(tmp_path, ignore_errors=True)


def verify_json(run, *args, cwd=None):
    r = run("verify", "--json", *args, cwd=cwd)
    return r, (json.loads(r.out) if r.out else None)


def rewrite_history(dataset):
    """The root example's dataset id over another chain (its Seed alone, written by the
    generator): a valid dataset whose history no longer holds the pinned head."""
    w = gen.DatasetWriter(dataset)
    w.commit(dt.datetime(2025, 9, 1, tzinfo=dt.timezone.utc), gen.EV_SEED,
             {"dataset_id": gen.dataset_id("root"), "dataset_kind": gen.DATASET_KIND_ROOT})


# ---- item 2: pins by canonical location, with the dataset id -----------------------------

SPELLINGS = ["{root}/ds", "./ds", "ds", "/{root}/ds", "ds/", "link", "{root}/link/", "./link/../ds"]


def test_every_spelling_of_the_location_finds_its_pin(run, folder):
    """A pin written for one spelling applies to every other: the dataset's history rewritten
    (same dataset id, another chain: the pinned head is no longer on it) is INVALID, exit 1,
    however its location is written. It used to verify VALID under ./ds, ds, //abs or a
    link."""
    r = run("verify", "--write-pins", "pins", "./ds/", cwd=folder)
    assert r.rc == 0, r
    location = os.path.realpath(folder / "ds")
    assert (folder / "pins").read_text() == f"{ROOT_HEAD} {ROOT_ID}  {location}\n"
    rewrite_history(folder / "ds")
    for spelling in SPELLINGS:
        where = spelling.format(root=folder)
        r, out = verify_json(run, "--pins", "pins", where, cwd=folder)
        assert r.rc == 1, (where, r)
        d = out["datasets"][0]
        assert [p["kind"] for p in d["problems"]] == ["history-rewritten"], where
        assert d["scope"]["expected_head"] == ROOT_HEAD
        assert d["scope"]["expected_dataset_id"] == ROOT_ID
    r = run("verify", "--pins", "pins", "link", cwd=folder)
    assert r.rc == 1 and "problem 1: history-rewritten" in r.out, r


def test_another_dataset_in_the_place_is_a_distinct_problem(run, folder):
    """The derivative example put where the pinned root was: its Seed names another dataset
    id, a dataset-id-mismatch (then history-rewritten); an old pin line (no id) sees only the
    rewritten history, and the report says the id was not checked."""
    (folder / "pins").write_text(f"{ROOT_HEAD} {ROOT_ID}  {folder / 'ds'}\n")
    shutil.rmtree(folder / "ds")
    shutil.copytree(EXAMPLES / "derivative", folder / "ds")
    r, out = verify_json(run, "--pins", folder / "pins", folder / "link")
    assert r.rc == 1, r
    d = out["datasets"][0]
    assert [p["kind"] for p in d["problems"]] == ["dataset-id-mismatch", "history-rewritten"]
    assert d["problems"][0]["expected"] == ROOT_ID and d["problems"][0]["actual"] == DERIVATIVE_ID
    assert d["dataset_id"] == DERIVATIVE_ID
    text = run("verify", "--pins", folder / "pins", folder / "ds")
    assert "problem 1: dataset-id-mismatch" in text.out and "another dataset was put" in text.out
    (folder / "pins").write_text(f"{ROOT_HEAD}  ds\n")  # a line of an older odf-hash
    r, out = verify_json(run, "--pins", "pins", "ds", cwd=folder)
    d = out["datasets"][0]
    assert r.rc == 1 and [p["kind"] for p in d["problems"]] == ["history-rewritten"]
    assert any(s.startswith("dataset id: not checked") for s in d["scope"]["skipped"])


def test_a_location_named_twice_is_an_error(run, folder):
    (folder / "pins").write_text(f"{ROOT_HEAD}  ds\n{UNKNOWN}  {folder}/link/\n")
    r = run("verify", "--pins", "pins", "ds", cwd=folder)
    assert r.rc == 2 and r.out == "", r
    assert (f'pins:2: "{folder}/link/" is pinned on line 1 already (both are '
            f'{os.path.realpath(folder / "ds")}): a pin file names each dataset once') in r.err


def test_pins_of_urls_are_keyed_without_user_information(run, folder):
    """A URL's pin: scheme and host in lower case, default port and dot segments gone, no
    user information; the server is never contacted (the pin file is read first and the
    malformed dataset id refused)."""
    (folder / "pins").write_text(f"{ROOT_HEAD} did:odf:?  HTTP://User:pw@Host:80/a/../ds/\n")
    r = run("verify", "--pins", "pins", "http://127.0.0.1:9/ds", cwd=folder)
    assert r.rc == 2 and "pins:1: " in r.err and "not a dataset id" in r.err, r


# ---- item 3: empty values are usage errors -----------------------------------------------

OPERANDS = {"physical": ["x"], "logical": ["x"], "decode": ["f1620"], "verify": ["x"],
            "compare": ["x", "y"], "slice": ["x"], "completions": ["bash"], "help": []}


def options_taking_values(run):
    """(command, option) for every option of every command that takes a value, read from each
    command's --help: a new option is covered without editing this test."""
    listed = run("help").out
    commands = sorted(set(re.findall(r"^  ([a-z]+) ", listed, re.M)) & set(OPERANDS))
    assert set(commands) == set(OPERANDS), listed
    found = []
    # The remote-store options, named on one line of each command's --help, are explained by
    # `odf-hash help stores`: read from there, for each command whose help names them.
    stores = re.findall(r"^\s+(?:-\w,\s*)?(--[\w-]+) [A-Z_]+\b", run("help", "stores").out,
                        re.M)
    assert "--endpoint-url" in stores, stores
    for command in commands:
        text = run(command, "--help").out
        for option in re.findall(r"^\s+(?:-\w,\s*)?(--[\w-]+) [A-Z_]+\b", text, re.M):
            found.append((command, option))
        if "'odf-hash help stores' explains them" in text:
            found += [(command, option) for option in stores]
    return found


def test_every_option_refuses_an_empty_value(run, folder):
    """`--expect-head "$PIN"` with PIN unset used to verify without its anchor; the same for
    --since, --pins, --write-pins, --sample, --seed, --ipfs-gateway, --endpoint-url, --region
    and the options of the other commands. Each is now exit 2 before any work."""
    found = options_taking_values(run)
    for must in ("--expect-head", "--since", "--pins", "--write-pins", "--sample", "--seed",
                 "--ipfs-gateway", "--endpoint-url", "--region", "--dataset", "--jobs"):
        assert ("verify", must) in found, found
    assert ("physical", "--endpoint-url") in found and ("slice", "--offset") in found
    for command, option in found:
        r = run(command, option, "", *OPERANDS[command], cwd=folder)
        assert r.rc == 2 and r.out == "", (command, option, r)
        assert option in r.err, (command, option, r)
    r = run("verify", "--expect-head", "", "ds", cwd=folder)
    assert "--expect-head: an empty value is refused" in r.err, r
    assert not (folder / "pins").exists()


# ---- item 4: pin files ----------------------------------------------------------------------

def _run_measured(cmd, stdin=None, env=None):
    """(exit code, stderr, seconds, peak RSS in KiB) of one process. The peak comes from
    /usr/bin/time (scripts/bootstrap.sh installs it), not from wait4's rusage: a child forked
    from this pytest process counts the parent's resident pages until it execs, hundreds of
    MiB late in a suite."""
    start = time.monotonic()
    with tempfile.NamedTemporaryFile("r") as rss:
        proc = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss.name, *map(str, cmd)],
                                stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env=env)
        err = proc.stderr.read().decode()
        proc.wait()
        peak = int(rss.read().split()[-1])
    return proc.returncode, err, time.monotonic() - start, peak


@pytest.mark.parametrize("pins", ["/dev/zero", "endless"])
def test_pin_files_are_read_bounded(odf_hash_bin, binary_rss_kib, folder, pins):
    """`--pins /dev/zero` grew to 4.7 GB: a device is now refused before a byte is read, and
    an endless pipe after 16 MiB, in bounded memory."""
    env = {**os.environ, "ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") +
           ":quarantine_size_mb=1:thread_local_quarantine_size_kb=64"}
    feeder = None
    if pins == "endless":
        feeder = subprocess.Popen(["yes", f"{ROOT_HEAD}  {folder / 'ds'}"], stdout=subprocess.PIPE)
    try:
        rc, err, seconds, peak = _run_measured(
            [odf_hash_bin, "verify", "--pins", "/dev/stdin" if feeder else pins, folder / "ds"],
            stdin=feeder.stdout if feeder else None, env=env)
    finally:
        if feeder:
            feeder.kill()
            feeder.wait(timeout=30)
    assert rc == 2, err
    assert seconds < 20 and peak < binary_rss_kib + 128 * 1024, (seconds, peak, binary_rss_kib)
    assert ("a character device, not a pin file" in err if pins == "/dev/zero"
            else "larger than 16 MiB, the most odf-hash reads of a pin file" in err), err


def test_write_pins_onto_a_device_fails_before_verifying(odf_hash_bin, folder):
    """`--write-pins /dev/full` grew to 6.1 GB: now refused at once (a pin file is a regular
    file, replaced when written), nothing verified, /dev untouched."""
    rc, err, seconds, peak = _run_measured(
        [odf_hash_bin, "verify", "--write-pins", "/dev/full", folder / "ds"])
    assert rc == 2 and seconds < 20, err
    assert "/dev/full: a character device, not a pin file" in err
    assert not any(p.startswith("full.") or ".tmp-" in p for p in os.listdir("/dev"))


def test_concurrent_write_pins_keep_every_pin(odf_hash_bin, folder):
    """20 runs writing into one pin file at once kept 3 pins; the file is now merged under a
    lock: 20 pins, and no temporary file left."""
    for i in range(20):
        shutil.copytree(folder / "ds", folder / f"ds{i}")
    pins = folder / "pins"
    procs = [subprocess.Popen([odf_hash_bin, "verify", "--write-pins", pins, folder / f"ds{i}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
             for i in range(20)]
    try:
        codes = [p.wait(timeout=120) for p in procs]
    finally:
        for p in procs:
            p.kill()
    assert codes == [0] * 20, [p.stderr.read() for p in procs]
    lines = pins.read_text().splitlines()
    expected = {f"{ROOT_HEAD} {ROOT_ID}  {os.path.realpath(folder / f'ds{i}')}" for i in range(20)}
    assert len(lines) == 20 and set(lines) == expected
    assert not [n for n in os.listdir(folder) if ".tmp-" in n]


def test_a_planted_link_cannot_redirect_the_write(odf_hash_bin, folder):
    """The temporary file used to be `<pins>.tmp-<pid>`, opened following links: a link planted
    under the next pids made odf-hash overwrite its target. Now it is created exclusively
    (O_EXCL|O_NOFOLLOW) under a random name: every planted link and its target stay as they
    were, and the pins land in the pin file."""
    victim = folder / "victim"
    victim.write_text("precious\n")
    probe = subprocess.Popen(["true"])
    probe.wait()
    for pid in range(probe.pid, probe.pid + 400):
        os.symlink(victim, folder / f"pins.tmp-{pid}")
        os.symlink(victim, folder / f".pins.tmp-{pid}")
    for _ in range(5):
        r = subprocess.run([odf_hash_bin, "verify", "--write-pins", folder / "pins",
                            folder / "ds"], capture_output=True, timeout=120)
        assert r.returncode == 0, r
    assert victim.read_text() == "precious\n"
    planted = [n for n in os.listdir(folder) if ".tmp-" in n]
    assert len(planted) == 800 and all(os.path.islink(folder / n) for n in planted)
    assert (folder / "pins").read_text() == \
        f"{ROOT_HEAD} {ROOT_ID}  {os.path.realpath(folder / 'ds')}\n"


def test_write_pins_onto_a_link_updates_the_file_it_names(run, folder):
    """--write-pins follows a link to the file it names, which is replaced; the link stays. A
    link leading nowhere, to a folder or to a device is refused before verifying."""
    (folder / "store").mkdir()
    (folder / "store" / "pins").write_text(f"{UNKNOWN}  /elsewhere\n")
    os.symlink("store/pins", folder / "pins")
    r = run("verify", "--write-pins", "pins", "ds", cwd=folder)
    assert r.rc == 0, r
    assert os.path.islink(folder / "pins")
    assert (folder / "store" / "pins").read_text() == (
        f"{UNKNOWN}  /elsewhere\n{ROOT_HEAD} {ROOT_ID}  {os.path.realpath(folder / 'ds')}\n")
    os.symlink("nowhere", folder / "dangling")
    os.symlink("store", folder / "to-folder")
    os.symlink("/dev/full", folder / "to-device")
    for link, says in (("dangling", "a symbolic link leading nowhere"),
                       ("to-folder", "a symbolic link to a folder, not a pin file"),
                       ("to-device", "a symbolic link to a character device, not a pin file")):
        r = run("verify", "--write-pins", link, "ds", cwd=folder)
        assert r.rc == 2 and r.out == "" and says in r.err, (link, r)
    assert not (folder / "nowhere").exists()


def test_since_with_write_pins_needs_an_anchor(run, folder):
    """--since X --write-pins P pinned a head whose history below X nothing checked. Without
    --expect-head or --pins it is now a usage error; with --pins, a dataset the file names no
    pin for is verified but not pinned, and the report says why; with the trusted head found
    on the chain it is pinned, with the pin's id."""
    r = run("verify", "--since", ROOT_HEAD, "--write-pins", "new", "ds", cwd=folder)
    assert r.rc == 2 and r.out == "" and "--since with --write-pins" in r.err, r
    assert not (folder / "new").exists()
    r = run("verify", "--since", ROOT_HEAD, "--expect-head", ROOT_HEAD, "--write-pins", "new",
            "ds", cwd=folder)
    assert r.rc == 0, r
    assert (folder / "new").read_text() == f"{ROOT_HEAD}  {os.path.realpath(folder / 'ds')}\n"
    (folder / "pins").write_text(f"{UNKNOWN} {ROOT_ID}  /elsewhere\n")
    r, out = verify_json(run, "--since", ROOT_HEAD, "--pins", "pins", "--write-pins", "pins",
                         "ds", cwd=folder)
    assert r.rc == 0, r
    assert any(s.startswith("--write-pins: not pinned: --since")
               for s in out["datasets"][0]["scope"]["skipped"])
    assert (folder / "pins").read_text() == f"{UNKNOWN} {ROOT_ID}  /elsewhere\n"
    (folder / "pins").write_text(f"{ROOT_HEAD} {ROOT_ID}  ds\n")
    r = run("verify", "--since", ROOT_HEAD, "--pins", "pins", "--write-pins", "pins", "ds",
            cwd=folder)
    assert r.rc == 0 and f"pin          {ROOT_HEAD} {ROOT_ID}  " in r.out, r
    assert (folder / "pins").read_text() == \
        f"{ROOT_HEAD} {ROOT_ID}  {os.path.realpath(folder / 'ds')}\n"


# ---- item 8: a workspace whose .kamu is a link ----------------------------------------------

@pytest.mark.parametrize("linked", [".kamu", ".kamu/datasets"])
def test_a_workspace_folder_that_is_a_link_says_so(run, tmp_path, linked):
    """`.kamu` (or `.kamu/datasets`) a link leaving the folder given: not followed (as every
    link leaving a dataset), and the error says that, instead of "it is a kamu workspace:
    odf-hash verify verifies each of its datasets when given this folder", which was given;
    --follow-symlinks follows it."""
    real = tmp_path / "real"
    shutil.copytree(EXAMPLES / "root", real / ".kamu" / "datasets" / "ds1")
    ws = tmp_path / "ws"
    link = ws / linked
    link.parent.mkdir(parents=True)
    link.symlink_to(real / linked)
    r = run("verify", ws)
    assert r.rc == 2, r
    assert (f"{ws}: its {linked} is a symbolic link leaving the folder (to \"{real / linked}\"), "
            "which odf-hash does not follow") in r.err, r.err
    assert "when given this folder" not in r.err
    r = run("verify", "--follow-symlinks", ws)
    assert r.rc == 0 and "ds1  VALID" in r.out, r


def test_pins_with_no_dataset_verify_every_dataset_the_file_names(run, folder):
    """`verify --pins FILE` alone verifies what the pin file lists, in its order, as
    `sha256sum -c LIST` checks its list: both pinned datasets VALID, then one rewritten
    (INVALID, exit 1); a pin file naming nothing is a usage error, as is no dataset at all."""
    shutil.copytree(EXAMPLES / "root", folder / "ds2")
    r = run("verify", "--write-pins", "pins", "ds", "ds2", cwd=folder)
    assert r.rc == 0, r
    r, out = verify_json(run, "--pins", "pins", cwd=folder)
    assert r.rc == 0, r
    assert [d["path"] for d in out["datasets"]] == [os.path.realpath(folder / n)
                                                    for n in ("ds", "ds2")]
    assert all(d["scope"]["expected_head"] == ROOT_HEAD for d in out["datasets"])
    rewrite_history(folder / "ds2")
    r, out = verify_json(run, "--pins", "pins", cwd=folder)
    assert r.rc == 1, r
    assert [d["verdict"].split()[0] for d in out["datasets"]] == ["VALID", "INVALID"]
    (folder / "empty").write_text("")
    r = run("verify", "--pins", "empty", cwd=folder)
    assert r.rc == 2 and "no dataset given, and the pin file names none" in r.err, r
