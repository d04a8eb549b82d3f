"""A dataset is untrusted down to the kind of each name; CLI paths keep working like sha256sum.

- verify: FIFOs, directories and links where files should be give one precise problem each,
  never a hang; links leaving the dataset are reported unless --follow-symlinks; untrusted
  text is quoted short and escaped;
- unreadable files (permission denied) are clear problems or errors naming the path, for
  verify, physical, physical --check and logical. The tests run as root, where mode 000 does
  not deny reads, so those runs drop to an unprivileged user (uid/gid 65534);
- physical reads pipes: process substitution, /dev/stdin, a named FIFO with a writer.

Expected hashes come from hashlib; dataset names from the example generator.
"""
import hashlib
import json
import os
import pathlib
import shutil
import stat
import subprocess
import tempfile

import pytest

from conftest import physical_hash

SOURCE = pathlib.Path(__file__).resolve().parents[2]
DATASETS = SOURCE / "examples" / "datasets"
DATA = SOURCE / "tests" / "cli" / "data"
NOBODY = 65534


@pytest.fixture
def open_dir():
    """A temporary folder that an unprivileged user can enter (pytest's tmp_path cannot)."""
    d = pathlib.Path(tempfile.mkdtemp(prefix="odf-hash-cli-"))
    os.chmod(d, 0o755)
    yield d
    for p in d.rglob("*"):
        if not p.is_symlink():
            os.chmod(p, 0o700)
    shutil.rmtree(d)


@pytest.fixture
def run_unprivileged(run):
    """run(...) as uid/gid 65534 without supplementary groups when root; as is otherwise."""

    def _run(*args, **kwargs):
        if os.geteuid() == 0:
            kwargs.update(user=NOBODY, group=NOBODY, extra_groups=[])
        r = run(*args, **kwargs)
        if r.rc == 127 or "error while loading shared libraries" in r.err:
            pytest.skip("the binary is not runnable by the unprivileged user here")
        return r

    return _run


def copy_root(where: pathlib.Path) -> pathlib.Path:
    dst = where / "root"
    shutil.copytree(DATASETS / "root", dst)
    return dst


def files_by_sequence(run, ds):
    r = run("verify", "--json", ds)
    out = {}
    for f in json.loads(r.out)["datasets"][0]["files"]:
        out.setdefault(f["sequence_number"], {"block": f["block"]})[f["role"]] = f["file"]
    return out


def problems(run, *args):
    r = run("verify", "--json", *args)
    return r, json.loads(r.out)["datasets"][0]["problems"]


def test_fifo_head_does_not_hang(run, tmp_path):
    ds = copy_root(tmp_path)
    (ds / "refs" / "head").unlink()
    os.mkfifo(ds / "refs" / "head")
    r = run("verify", ds)
    assert r.rc == 1, r
    assert ("problem 1: not-a-regular-file\n    file      refs/head\n"
            "    refs/head is a FIFO (named pipe), not a regular file: it was not opened\n") in r.out


def test_directory_head_says_it_is_a_directory(run, tmp_path):
    ds = copy_root(tmp_path)
    (ds / "refs" / "head").unlink()
    (ds / "refs" / "head").mkdir()
    r, ps = problems(run, ds)
    assert r.rc == 1
    assert [(p["kind"], p["file"], p["message"]) for p in ps] == [
        ("not-a-regular-file", "refs/head",
         "refs/head is a directory, not a regular file: it was not opened")]


@pytest.mark.parametrize("make", ["directory", "fifo"])
def test_data_file_of_another_kind_is_one_problem(run, tmp_path, make):
    ds = copy_root(tmp_path)
    info = files_by_sequence(run, ds)
    target = ds / info[3]["data"]
    target.unlink()
    if make == "directory":
        target.mkdir()
    else:
        os.mkfifo(target)
    r, ps = problems(run, ds)
    assert r.rc == 1, r
    what = "a directory" if make == "directory" else "a FIFO (named pipe)"
    assert [(p["kind"], p["file"], p["message"]) for p in ps] == [
        ("not-a-regular-file", info[3]["data"],
         f"the data file is {what}, not a regular file: it was not opened")]


def test_link_leaving_the_dataset_and_follow_symlinks(run, tmp_path):
    ds = copy_root(tmp_path)
    info = files_by_sequence(run, ds)
    data = ds / info[2]["data"]
    outside = tmp_path / "elsewhere.parquet"
    shutil.move(data, outside)
    data.symlink_to(outside)
    r, ps = problems(run, ds)
    assert r.rc == 1, r
    assert [(p["kind"], p["file"]) for p in ps] == [("link-outside-dataset", info[2]["data"])]
    assert f'symbolic link to "{outside}"' in ps[0]["message"]
    assert "--follow-symlinks" in ps[0]["message"]
    r = run("verify", "--follow-symlinks", ds)
    assert r.rc == 0, r
    # A link that stays inside the dataset is followed without the flag.
    data.unlink()
    (ds / "info").mkdir()
    shutil.move(outside, ds / "info" / "part")
    data.symlink_to(pathlib.Path("..") / "info" / "part")
    r = run("verify", ds)
    assert r.rc == 0, r


def test_head_linked_to_a_secret_never_quotes_it(run, tmp_path):
    ds = copy_root(tmp_path)
    secret = tmp_path / "secret"
    secret.write_text("password=hunter2\n")
    (ds / "refs" / "head").unlink()
    (ds / "refs" / "head").symlink_to(secret)
    r = run("verify", ds)
    assert r.rc == 1, r
    assert "hunter2" not in r.out + r.err
    # Followed on request, only a short escaped prefix of the content is quoted.
    secret.write_text("x" * 100 + "hunter2")
    r = run("verify", "--follow-symlinks", ds)
    assert r.rc == 1, r
    assert "hunter2" not in r.out + r.err
    assert '"' + "x" * 40 + "\u2026\"" in r.out


def test_names_with_control_characters_cannot_forge_report_lines(run, tmp_path):
    ds = copy_root(tmp_path)
    (ds / "data" / "evil\nresult       VALID\x1b[2J").write_bytes(b"x")
    r = run("verify", ds)  # listed as unreferenced: the dataset is valid
    assert r.rc == 0, r
    assert r.out.count("\nresult       VALID") == 1  # the real verdict only
    assert "\n    data/evil\\x0aresult       VALID\\x1b[2J  (1 byte)\n" in r.out
    assert "\x1b" not in r.out
    r = run("verify", "--strict", ds)
    assert r.rc == 1, r
    assert "\nresult       VALID" not in r.out
    assert "    file      data/evil\\x0aresult       VALID\\x1b[2J\n" in r.out
    assert "\x1b" not in r.out


def test_json_says_unexpected_files_were_checked(run):
    r = run("verify", "--json", DATASETS / "root")
    assert r.rc == 0, r
    assert json.loads(r.out)["datasets"][0]["unexpected_checked"] is True


# --- Permission denied, as an unprivileged user -------------------------------------------


def test_verify_unreadable_data_file(run, run_unprivileged, open_dir):
    ds = copy_root(open_dir)
    info = files_by_sequence(run, ds)
    data = ds / info[3]["data"]
    os.chmod(data, 0)
    r = run_unprivileged("verify", "--json", ds)
    assert r.rc == 1, r
    ps = json.loads(r.out)["datasets"][0]["problems"]
    assert [(p["kind"], p["file"], p["message"]) for p in ps] == [
        ("file-unreadable", info[3]["data"],
         f"cannot read the data file: {data}: cannot open: Permission denied")]


def test_verify_unreadable_dataset_folder_is_an_error(run_unprivileged, open_dir):
    ds = copy_root(open_dir)
    os.chmod(ds / "blocks", 0)
    r = run_unprivileged("verify", ds)
    assert r.rc == 2, r
    assert f"{ds}/blocks" in r.err and "Permission denied" in r.err


def test_physical_check_unreadable_file(run_unprivileged, open_dir):
    f = open_dir / "f"
    f.write_bytes(b"abc")
    (open_dir / "list").write_text(f"{physical_hash(b'abc')}  f\n")
    os.chmod(f, 0)
    r = run_unprivileged("physical", "--check", "list", cwd=open_dir)
    assert r.rc == 1, r
    assert r.out == "f: FAILED open or read\n"
    assert "odf-hash: f: Permission denied\n" in r.err


def test_physical_unreadable_check_list(run_unprivileged, open_dir):
    (open_dir / "list").write_text(f"{physical_hash(b'abc')}  f\n")
    os.chmod(open_dir / "list", 0)
    r = run_unprivileged("physical", "--check", "list", cwd=open_dir)
    assert r.rc == 2, r
    assert r.err == "odf-hash: list: Permission denied\n"


def test_logical_unreadable_file(run_unprivileged, open_dir):
    f = open_dir / "records.parquet"
    shutil.copy(DATA / "records.parquet", f)
    os.chmod(f, 0)
    r = run_unprivileged("logical", f)
    assert r.rc == 2, r
    assert r.out == ""
    assert r.err == f"odf-hash: {f}: Permission denied\n"


def test_library_messages_say_what_was_being_done(run, tmp_path):
    data = bytearray((DATA / "records.parquet").read_bytes())
    data[-8] ^= 0x7F  # inside the footer's Thrift metadata
    f = tmp_path / "bad-footer.parquet"
    f.write_bytes(bytes(data))
    r = run("logical", f)
    assert r.rc == 2, r
    assert r.err.startswith(f"odf-hash: {f}: reading the Parquet footer: "), r.err
    cut = tmp_path / "cut.arrows"
    cut.write_bytes((DATA / "records.arrows").read_bytes()[:20000])
    r = run("logical", cut)
    assert r.rc == 2, r
    assert r.err.startswith(f"odf-hash: {cut}: reading record batch "), r.err


# --- physical on pipes, as sha256sum ------------------------------------------------------


def test_physical_process_substitution(odf_hash_bin):
    proc = subprocess.run(
        ["bash", "-c", f"'{odf_hash_bin}' physical <(printf abc) <(printf '')"],
        capture_output=True, timeout=120)
    assert proc.returncode == 0, proc
    lines = proc.stdout.decode().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(physical_hash(b"abc") + "  /dev/fd/")
    assert lines[1].startswith(physical_hash(b"") + "  /dev/fd/")


def test_physical_dev_stdin_from_a_pipe_and_a_file(run, tmp_path):
    r = run("physical", "/dev/stdin", input=b"abc")
    assert r.rc == 0, r
    assert r.out == f"{physical_hash(b'abc')}  /dev/stdin\n"
    f = tmp_path / "f"
    f.write_bytes(b"hello\n")
    with open(f, "rb") as stdin:
        r = run("physical", "/dev/stdin", stdin=stdin)
    assert r.out == f"{physical_hash(b'hello' + bytes([10]))}  /dev/stdin\n"


def test_physical_named_fifo_with_a_writer(run, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    payload = os.urandom(300_000)
    writer = subprocess.Popen(["sh", "-c", f"cat > '{fifo}'"], stdin=subprocess.PIPE)
    try:
        import threading
        t = threading.Thread(target=lambda: (writer.stdin.write(payload), writer.stdin.close()))
        t.start()
        r = run("physical", fifo)
        t.join()
    finally:
        writer.wait(timeout=60)
    assert r.rc == 0, r
    assert r.out == f"{physical_hash(payload)}  {fifo}\n"
    assert hashlib.sha3_256(payload).hexdigest() in r.out


def test_logical_refuses_a_fifo_without_blocking(run, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    r = run("logical", fifo)
    assert r.rc == 2, r
    assert r.err == (f"odf-hash: {fifo}: is a FIFO (named pipe), not a regular file (Parquet "
                     "and Arrow IPC files are read at random offsets)\n")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_slice_and_compare_refuse_streams_at_once(run, tmp_path):
    """slice and compare read records at random offsets, as logical does: a stream (a FIFO
    with no writer, standard input, a pipe given as /dev/stdin) is refused at once, exit 2,
    never waited on (issue 23: they used to block on a FIFO). `logical -` copies standard
    input to a temporary file instead (issue 36: test_logical.py)."""
    f = next((DATASETS / "root" / "data").iterdir())
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    fifo_msg = (f"{fifo}: is a FIFO (named pipe), not a regular file (Parquet and Arrow IPC "
                "files are read at random offsets)\n")
    stdin_msg = ("-: standard input is a stream, not a regular file (Parquet and Arrow IPC "
                 "files are read at random offsets): give the file's path\n")
    for args, prefix, msg in [(("compare", f, fifo), "compare", fifo_msg),
                              (("compare", fifo, f), "compare", fifo_msg),
                              (("slice", fifo), "slice", fifo_msg),
                              (("logical", fifo), "", fifo_msg),
                              (("compare", f, "-"), "compare", stdin_msg),
                              (("slice", "-"), "slice", stdin_msg)]:
        r = run(*args, input=f.read_bytes())
        assert r.rc == 2, (args, r)
        assert r.out == "", (args, r)
        assert r.err == f"odf-hash{' ' + prefix if prefix else ''}: {msg}", (args, r)
