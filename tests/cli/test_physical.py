"""odf-hash physical: hashing files (output format, order, stdin, errors, --json, progress)."""
import json
import os
import pty
import select
import subprocess
import tempfile
import time

import pytest

from conftest import physical_hash


@pytest.fixture
def files(tmp_path):
    """Three files of different sizes; the biggest first, so it finishes last."""
    contents = {
        "big.bin": bytes(range(256)) * 12000,
        "abc.txt": b"abc",
        "empty": b"",
    }
    for name, data in contents.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path, contents


def test_prints_hash_two_spaces_name_per_file_in_argument_order(run, files):
    d, contents = files
    names = list(contents)
    r = run("physical", *names, cwd=d)
    assert r.rc == 0, r
    assert r.err == ""
    assert r.out == "".join(f"{physical_hash(contents[n])}  {n}\n" for n in names)


def test_abc_is_the_published_sha3_vector(run, files):
    d, _ = files
    r = run("physical", "abc.txt", cwd=d)
    assert r.out == (
        "f16203a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532  abc.txt\n"
    )


def test_no_argument_and_dash_read_stdin(run):
    data = b"from standard input\n" * 1000
    expected = f"{physical_hash(data)}  -\n"
    assert run("physical", input=data).out == expected
    assert run("physical", "-", input=data).out == expected


def test_jobs_1_and_2_and_default_give_identical_output(run, tmp_path):
    names = []
    for i in range(12):
        name = f"f{i:02d}"
        # Decreasing sizes: with several jobs, later files finish first.
        (tmp_path / name).write_bytes(os.urandom((12 - i) * 150_000))
        names.append(name)
    expected = "".join(
        f"{physical_hash((tmp_path / n).read_bytes())}  {n}\n" for n in names
    )
    for jobs in (["--jobs", "1"], ["--jobs", "2"], ["-j", "8"], []):
        r = run("physical", *jobs, *names, cwd=tmp_path)
        assert r.rc == 0, (jobs, r)
        assert r.out == expected, jobs


def test_same_file_twice_is_listed_twice(run, files):
    d, contents = files
    r = run("physical", "abc.txt", "abc.txt", cwd=d)
    assert r.out == f"{physical_hash(b'abc')}  abc.txt\n" * 2


def test_directory_and_missing_file_are_reported_and_the_others_still_done(run, files):
    d, contents = files
    (d / "sub").mkdir()
    r = run("physical", "abc.txt", "sub", "nope", "empty", cwd=d)
    assert r.rc == 2
    assert r.out == f"{physical_hash(b'abc')}  abc.txt\n{physical_hash(b'')}  empty\n"
    assert "odf-hash: sub: is a directory\n" in r.err
    assert "odf-hash: nope: No such file or directory\n" in r.err


def test_permission_denied_names_the_path(run, odf_hash_bin):
    # As root, mode 000 does not deny reads: run the binary as an unprivileged user then.
    d = tempfile.mkdtemp(prefix="odf-hash-cli-")
    try:
        os.chmod(d, 0o755)
        secret = os.path.join(d, "secret")
        with open(secret, "wb") as f:
            f.write(b"secret")
        os.chmod(secret, 0)
        kwargs = {}
        if os.geteuid() == 0:
            kwargs = {"user": 65534, "group": 65534}
        r = run("physical", secret, **kwargs)
        if r.rc == 127 or "error while loading shared libraries" in r.err:
            pytest.skip("the binary is not runnable by the unprivileged user here")
        assert r.rc == 2, r
        assert r.out == ""
        assert r.err == f"odf-hash: {secret}: Permission denied\n"
    finally:
        os.chmod(os.path.join(d, "secret"), 0o600)
        os.unlink(os.path.join(d, "secret"))
        os.rmdir(d)


def test_name_with_newline_is_escaped_like_coreutils(run, tmp_path):
    (tmp_path / "a\nb").write_bytes(b"abc")
    r = run("physical", "a\nb", cwd=tmp_path)
    assert r.rc == 0
    assert r.out == f"\\{physical_hash(b'abc')}  a\\nb\n"


def test_json_lists_hash_and_size_or_error_per_file(run, files):
    d, contents = files
    (d / "sub").mkdir()
    r = run("physical", "--json", "abc.txt", "sub", "big.bin", cwd=d)
    assert r.rc == 2
    doc = json.loads(r.out)
    assert doc == {
        "schema": "odf-hash/physical/1",
        "files": [
            {"path": "abc.txt", "hash": physical_hash(b"abc"), "size": 3},
            {"path": "sub", "error": "is a directory"},
            {
                "path": "big.bin",
                "hash": physical_hash(contents["big.bin"]),
                "size": len(contents["big.bin"]),
            },
        ]
    }


def test_json_stdin(run):
    r = run("physical", "--json", input=b"abc")
    assert r.rc == 0
    assert json.loads(r.out) == {"schema": "odf-hash/physical/1",
                                 "files": [{"path": "-", "hash": physical_hash(b"abc"), "size": 3}]}


def slow_stdin_run(odf_hash_bin, stderr_fd, args=()):
    """Feeds stdin over ~1.6 s so the hash takes more than the one-second progress delay."""
    proc = subprocess.Popen(
        [odf_hash_bin, "physical", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr_fd,
    )
    chunk = b"x" * (1 << 20)
    proc.stdin.write(chunk)
    proc.stdin.flush()
    time.sleep(1.3)
    for _ in range(3):
        proc.stdin.write(chunk)
        proc.stdin.flush()
        time.sleep(0.25)
    proc.stdin.close()
    out = proc.stdout.read()
    proc.wait(timeout=60)
    err = proc.stderr.read() if proc.stderr else None
    return proc.returncode, out, chunk * 4, err


def test_progress_line_on_a_terminal_for_a_slow_file(odf_hash_bin):
    master, slave = pty.openpty()
    try:
        rc, out, data, _ = slow_stdin_run(odf_hash_bin, slave)
        os.close(slave)
        slave = -1
        seen = b""
        while select.select([master], [], [], 0.5)[0]:
            try:
                piece = os.read(master, 65536)
            except OSError:
                break
            if not piece:
                break
            seen += piece
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    assert rc == 0
    assert out.decode() == f"{physical_hash(data)}  -\n"
    assert b"\r-: " in seen, seen
    assert b"MB/s" in seen
    assert seen.endswith(b"\r\x1b[K"), seen  # erased when done


def test_no_progress_line_when_stderr_is_not_a_terminal(odf_hash_bin):
    rc, out, data, err = slow_stdin_run(odf_hash_bin, subprocess.PIPE)
    assert rc == 0
    assert err == b""
    assert out.decode() == f"{physical_hash(data)}  -\n"


def test_no_progress_flag_silences_a_terminal(odf_hash_bin):
    master, slave = pty.openpty()
    try:
        rc, out, data, _ = slow_stdin_run(odf_hash_bin, slave, ["--no-progress"])
        os.close(slave)
        slave = -1
        readable = select.select([master], [], [], 0.2)[0]
        seen = b""
        if readable:
            try:
                seen = os.read(master, 65536)
            except OSError:
                seen = b""
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    assert rc == 0
    assert seen == b""


def test_tag_writes_bsd_lines_that_check_reads_back(run, files):
    """--tag: coreutils' BSD-style lines, the digest hex from hashlib; -c reads them back; a
    name holding a newline is escaped as coreutils escapes it (the backslash starts the
    line)."""
    import hashlib

    d, contents = files
    (d / "a\nb").write_bytes(b"abc")
    names = ["abc.txt", "empty", "a\nb"]
    data = {**contents, "a\nb": b"abc"}
    r = run("physical", "--tag", *names, cwd=d)
    assert (r.rc, r.err) == (0, ""), r
    want = [f"SHA3-256 ({n}) = {hashlib.sha3_256(data[n]).hexdigest()}" for n in names[:2]]
    want.append(f"\\SHA3-256 (a\\nb) = {hashlib.sha3_256(b'abc').hexdigest()}")
    assert r.out == "".join(line + "\n" for line in want)
    (d / "tags.txt").write_text(r.out)
    c = run("physical", "-c", "tags.txt", cwd=d)
    assert c.rc == 0 and c.out == "abc.txt: OK\nempty: OK\n\\a\\nb: OK\n", c


def test_zero_ends_lines_with_nul_and_keeps_names(odf_hash_bin, files):
    """-z: as coreutils' --zero, lines end with NUL and names are written as they are."""
    d, contents = files
    (d / "a\nb").write_bytes(b"abc")
    for flags, line in (([], "{h}  {n}"), (["--tag"], "SHA3-256 ({n}) = {x}")):
        out = subprocess.run([odf_hash_bin, "physical", "-z", *flags, "abc.txt", "a\nb"],
                             cwd=d, capture_output=True, timeout=60).stdout
        import hashlib
        want = b"".join(
            line.format(h=physical_hash(b"abc"), n=n, x=hashlib.sha3_256(b"abc").hexdigest())
            .encode() + b"\0" for n in ("abc.txt", "a\nb"))
        assert out == want


def test_binary_and_text_flags_are_accepted_and_change_nothing(run, files):
    d, _ = files
    plain = run("physical", "abc.txt", "empty", cwd=d)
    for flag in ("-b", "-t", "--binary", "--text"):
        r = run("physical", flag, "abc.txt", "empty", cwd=d)
        assert (r.rc, r.out, r.err) == (0, plain.out, ""), (flag, r)


@pytest.mark.parametrize("args", [["--tag", "--json", "abc.txt"], ["-z", "--json", "abc.txt"],
                                  ["-c", "--tag", "list"], ["-c", "-z", "list"]])
def test_tag_and_zero_refused_where_they_mean_nothing(run, files, args):
    d, _ = files
    (d / "list").write_text(f"{physical_hash(b'abc')}  abc.txt\n")
    r = run("physical", *args, cwd=d)
    assert (r.rc, r.out) == (2, ""), r
    assert "--tag and -z" in r.err
