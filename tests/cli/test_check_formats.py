"""coreutils conventions of --check (issue 25): -c is a flag and the lists are operands, the
lists of the other SHA3-256 tools are read, and `logical --check` checks what `logical` writes.

Expected digests come from hashlib.sha3_256 and from `openssl dgst -sha3-256` itself (the
lists it writes are checked as it wrote them); logical hashes from the Rust reference (see
test_logical.py).
"""
import hashlib
import json
import os
import shutil
import subprocess

import pytest

from conftest import physical_hash
from test_logical import DATA, RECORDS, REFERENCE


@pytest.fixture
def files(tmp_path):
    data = {"a": b"abc", "b b": b"", "c(1)": b"\x00\x01" * 5000}
    for name, content in data.items():
        (tmp_path / name).write_bytes(content)
    return tmp_path, data


def sha3_hex(content):
    return hashlib.sha3_256(content).hexdigest()


def openssl_list(d, names, *flags):
    r = subprocess.run(["openssl", "dgst", "-sha3-256", *flags, *names], cwd=d,
                       capture_output=True, text=True, check=True)
    return r.stdout


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl not installed")
@pytest.mark.parametrize("flags", [["-r"], []], ids=["openssl-r", "openssl-bsd"])
def test_openssl_dgst_lists_check(run, files, flags):
    d, data = files
    (d / "l").write_text(openssl_list(d, list(data), *flags))
    r = run("physical", "-c", "l", cwd=d)
    assert r.rc == 0, r
    assert r.out == "".join(f"{n}: OK\n" for n in data)
    (d / "a").write_bytes(b"changed")
    r = run("physical", "-c", "l", cwd=d)
    assert r.rc == 1
    assert "a: FAILED\n" in r.out


@pytest.mark.parametrize(
    "line_of",
    [
        lambda name, c: f"{sha3_hex(c)}  {name}",  # sha3sum, rhash --sha3-256
        lambda name, c: f"{sha3_hex(c).upper()}  {name}",  # rhash --uppercase
        lambda name, c: f"SHA3-256 ({name}) = {sha3_hex(c)}",  # BSD, rhash --bsd, --tag
    ],
    ids=["sha3sum", "upper", "bsd-tag"],
)
def test_bare_digests_and_bsd_lines(run, files, line_of):
    d, data = files
    (d / "l").write_text("".join(line_of(n, c) + "\n" for n, c in data.items()))
    r = run("physical", "--check", "l", cwd=d)
    assert r.rc == 0, r
    assert r.out == "".join(f"{n}: OK\n" for n in data)


def test_any_number_of_lists_and_stdin(run, files):
    d, data = files
    (d / "one").write_text(f"{physical_hash(b'abc')}  a\n")
    (d / "two").write_text(f"{sha3_hex(b'')}  b b\n")
    stdin = f"SHA3-256 (c(1)) = {sha3_hex(data['c(1)'])}\n".encode()
    r = run("physical", "-c", "--quiet", "one", "-", "two", input=stdin, cwd=d)
    assert (r.rc, r.out, r.err) == (0, "", "")
    r = run("physical", "-c", "one", "-", "two", input=stdin, cwd=d)
    assert r.out == "a: OK\nc(1): OK\nb b: OK\n"
    # No operand: the list is standard input.
    r = run("physical", "-c", input=stdin, cwd=d)
    assert (r.rc, r.out) == (0, "c(1): OK\n")


def test_warnings_follow_each_list(run, files):
    d, _ = files
    (d / "one").write_text(f"{physical_hash(b'x')}  a\n")
    (d / "two").write_text(f"{physical_hash(b'')}  b b\n")
    r = run("physical", "-c", "one", "two", cwd=d)
    assert r.rc == 1
    assert r.out == "a: FAILED\nb b: OK\n"
    assert r.err == "odf-hash: WARNING: 1 computed checksum did NOT match\n"


def test_one_bad_list_among_good_ones(run, files):
    d, _ = files
    (d / "one").write_text(f"{physical_hash(b'abc')}  a\n")
    r = run("physical", "-c", "one", "missing-list", cwd=d)
    assert r.rc == 2
    assert r.out == "a: OK\n"
    assert "odf-hash: missing-list: No such file or directory\n" in r.err


def test_old_option_forms_still_work(run, files):
    d, _ = files
    (d / "l").write_text(f"{physical_hash(b'abc')}  a\n")
    for args in (["--check", "l"], ["--check=l"], ["-c", "l"], ["l", "-c"]):
        r = run("physical", *args, cwd=d)
        assert (r.rc, r.out) == (0, "a: OK\n"), args


def test_other_algorithms_are_named(run, files):
    d, _ = files
    sha256 = hashlib.sha256(b"abc").hexdigest()
    sha1 = hashlib.sha1(b"abc").hexdigest()
    (d / "l").write_text(f"SHA256 (a) = {sha256}\n{sha1}  a\n")
    r = run("physical", "-c", "--warn", "l", cwd=d)
    assert r.rc == 2
    assert "l:1: improperly formatted hash line: the line is a SHA256 checksum, not SHA3-256" in r.err
    assert "l:2: improperly formatted hash line: invalid hash:" in r.err
    assert "(a bare hex digest of 160 bits: not SHA3-256" in r.err
    r = run("physical", "-c", "l", cwd=d)
    assert "no properly formatted hash lines found (line 1: the line is a SHA256" in r.err


def test_sha256_sized_bare_digest_is_a_failed_check(run, files):
    # 64 hex digits are read as SHA3-256: a sha256sum list then fails, file by file, as
    # sha3sum would fail it.
    d, _ = files
    (d / "l").write_text(f"{hashlib.sha256(b'abc').hexdigest()}  a\n")
    r = run("physical", "-c", "l", cwd=d)
    assert (r.rc, r.out) == (1, "a: FAILED\n")


def test_json_names_the_list_of_each_entry(run, files):
    d, _ = files
    (d / "one").write_text(f"{physical_hash(b'abc')}  a\n")
    (d / "two").write_text(f"{sha3_hex(b'')}  b b\ngarbage\n")
    r = run("physical", "-c", "--json", "one", "two", cwd=d)
    assert r.rc == 0, r
    doc = json.loads(r.out)
    assert doc["lists"] == ["one", "two"]
    assert "list" not in doc
    assert [(e["list"], e["path"], e["status"]) for e in doc["entries"]] == [
        ("one", "a", "ok"), ("two", "b b", "ok")]
    assert doc["entries"][1]["expected"] == physical_hash(b"")
    assert [(m["list"], m["line"]) for m in doc["malformed"]] == [("two", 2)]


# ---- logical --check --------------------------------------------------------------------


@pytest.fixture
def logical_files(tmp_path):
    for name in ("records.parquet", "records.arrow", "timestamps.parquet"):
        shutil.copy(os.path.join(DATA, name), tmp_path / name)
    return tmp_path


def test_logical_check_ok_failed_missing(run, logical_files):
    d = logical_files
    lines = [f"{REFERENCE[n]}  {n}" for n in ("records.parquet", "records.arrow")]
    lines.append(f"{RECORDS}  timestamps.parquet")  # another file's hash
    lines.append(f"{RECORDS}  gone.parquet")
    (d / "l").write_text("\n".join(lines) + "\n")
    r = run("logical", "-c", "l", cwd=d)
    assert r.rc == 1
    assert r.out == ("records.parquet: OK\nrecords.arrow: OK\ntimestamps.parquet: FAILED\n"
                     "gone.parquet: FAILED open or read\n")
    assert "WARNING: 1 computed checksum did NOT match" in r.err
    assert "WARNING: 1 listed file could not be read" in r.err
    r = run("logical", "-c", "--ignore-missing", "--quiet", "l", cwd=d)
    assert (r.rc, r.out) == (1, "timestamps.parquet: FAILED\n")


def test_logical_check_reads_what_logical_writes(run, logical_files):
    d = logical_files
    written = run("logical", "records.parquet", "timestamps.parquet", cwd=d)
    assert written.rc == 0
    assert written.out == (f"{RECORDS}  records.parquet\n"
                           f"{REFERENCE['timestamps.parquet']}  timestamps.parquet\n")
    r = run("logical", "--check", "-", input=written.out.encode(), cwd=d)
    assert (r.rc, r.out) == (0, "records.parquet: OK\ntimestamps.parquet: OK\n")
    r = run("logical", "--check", "--json", "-", input=written.out.encode(), cwd=d)
    doc = json.loads(r.out)
    assert doc["entries"][0]["rows"] == 1000  # records.parquet: ids 0..999 (make_data.py)


def test_logical_check_refuses_physical_hashes(run, logical_files):
    d = logical_files
    raw = (d / "records.parquet").read_bytes()
    (d / "l").write_text(f"{physical_hash(raw)}  records.parquet\n"
                         f"{sha3_hex(raw)}  records.parquet\n")
    r = run("logical", "-c", "--warn", "l", cwd=d)
    assert r.rc == 2
    assert "l:1: improperly formatted hash line: hash is sha3-256, not a logical" in r.err
    assert "l:2: improperly formatted hash line: a bare SHA3-256 digest is a physical hash" in r.err


def test_check_equals_after_double_dash_is_a_file_name(run, tmp_path):
    (tmp_path / "--check=x").write_bytes(b"abc")
    r = run("physical", "--", "--check=x", cwd=tmp_path)
    assert (r.rc, r.out) == (0, f"{physical_hash(b'abc')}  --check=x\n")
