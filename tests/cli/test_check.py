"""odf-hash physical --check: verdict lines, warnings, flags, exit codes, --json."""
import json
import pathlib

import pytest

from conftest import ARROW0_PREFIX, encode, physical_hash, physical_multihash


@pytest.fixture
def tree(tmp_path):
    """Files a, b, c and a check list 'good.sha3' that matches them."""
    data = {"a": b"abc", "b": b"", "dir/c d": b"\x00\x01" * 5000}
    (tmp_path / "dir").mkdir()
    for name, content in data.items():
        (tmp_path / name).write_bytes(content)
    lines = "".join(f"{physical_hash(content)}  {name}\n" for name, content in data.items())
    (tmp_path / "good.sha3").write_text(lines)
    return tmp_path, data


def write_list(d, name, lines):
    (d / name).write_text("".join(line + "\n" for line in lines))
    return name


def test_all_ok(run, tree):
    d, _ = tree
    r = run("physical", "--check", "good.sha3", cwd=d)
    assert r.rc == 0, r
    assert r.out == "a: OK\nb: OK\ndir/c d: OK\n"
    assert r.err == ""


def test_list_written_by_physical_checks_ok(run, tree):
    d, data = tree
    listing = run("physical", *data, cwd=d)
    assert listing.rc == 0
    r = run("physical", "-c", "-", input=listing.out.encode(), cwd=d)
    assert r.rc == 0, r
    assert r.out == "".join(f"{n}: OK\n" for n in data)


def test_changed_file_fails(run, tree):
    d, _ = tree
    (d / "b").write_bytes(b"changed")
    r = run("physical", "--check", "good.sha3", cwd=d)
    assert r.rc == 1
    assert r.out == "a: OK\nb: FAILED\ndir/c d: OK\n"
    assert r.err == "odf-hash: WARNING: 1 computed checksum did NOT match\n"


def test_two_failures_use_the_plural(run, tree):
    d, _ = tree
    (d / "a").write_bytes(b"x")
    (d / "b").write_bytes(b"y")
    r = run("physical", "--check", "good.sha3", cwd=d)
    assert r.rc == 1
    assert "odf-hash: WARNING: 2 computed checksums did NOT match\n" in r.err


def test_missing_file_fails_open_or_read(run, tree):
    d, _ = tree
    (d / "a").unlink()
    r = run("physical", "--check", "good.sha3", cwd=d)
    assert r.rc == 1
    assert r.out == "a: FAILED open or read\nb: OK\ndir/c d: OK\n"
    assert r.err == (
        "odf-hash: a: No such file or directory\n"
        "odf-hash: WARNING: 1 listed file could not be read\n"
    )


def test_directory_listed_fails_open_or_read(run, tree):
    d, _ = tree
    name = write_list(d, "l", [f"{physical_hash(b'')}  dir"])
    r = run("physical", "--check", name, cwd=d)
    assert r.rc == 1
    assert r.out == "dir: FAILED open or read\n"
    assert "odf-hash: dir: is a directory\n" in r.err


def test_ignore_missing_skips_missing_files(run, tree):
    d, _ = tree
    (d / "a").unlink()
    r = run("physical", "--check", "good.sha3", "--ignore-missing", cwd=d)
    assert r.rc == 0, r
    assert r.out == "b: OK\ndir/c d: OK\n"
    assert r.err == ""


def test_ignore_missing_with_nothing_verified_fails(run, tree):
    d, _ = tree
    name = write_list(d, "l", [f"{physical_hash(b'')}  gone"])
    r = run("physical", "--check", name, "--ignore-missing", cwd=d)
    assert r.rc == 1
    assert r.out == ""
    assert r.err == "odf-hash: l: no file was verified\n"


def test_malformed_lines_reported_with_line_number(run, tree):
    d, data = tree
    name = write_list(
        d,
        "mixed.sha3",
        [
            "# a comment",
            f"{physical_hash(data['a'])}  a",
            "",
            "not a hash line",
            f"{physical_hash(data['b'])} b",
            f"{physical_hash(data['b'])}  b",
        ],
    )
    # As sha256sum: without --warn only the count, with a pointer to --warn.
    r = run("physical", "--check", name, cwd=d)
    assert r.rc == 0, r
    assert r.out == "a: OK\nb: OK\n"
    assert r.err == (
        "odf-hash: WARNING: 2 lines are improperly formatted (--warn says which and why)\n"
    )
    r = run("physical", "--check", name, "--warn", cwd=d)
    assert r.rc == 0, r
    assert r.out == "a: OK\nb: OK\n"
    assert "odf-hash: mixed.sha3:4: improperly formatted hash line" in r.err
    assert "odf-hash: mixed.sha3:5: improperly formatted hash line" in r.err
    assert "mixed.sha3:1:" not in r.err and "mixed.sha3:3:" not in r.err
    assert r.err.endswith("odf-hash: WARNING: 2 lines are improperly formatted\n")


def test_strict_makes_malformed_lines_fail(run, tree):
    d, data = tree
    name = write_list(d, "l", [f"{physical_hash(data['a'])}  a", "garbage"])
    r = run("physical", "--check", name, "--strict", "-w", cwd=d)
    assert r.rc == 1
    assert r.out == "a: OK\n"
    assert "odf-hash: l:2: improperly formatted hash line" in r.err
    assert "odf-hash: WARNING: 1 line is improperly formatted\n" in r.err


def test_strict_with_clean_list_passes(run, tree):
    d, _ = tree
    assert run("physical", "--check", "good.sha3", "--strict", cwd=d).rc == 0


def test_quiet_prints_only_failures(run, tree):
    d, _ = tree
    r = run("physical", "--check", "good.sha3", "--quiet", cwd=d)
    assert r.rc == 0
    assert r.out == ""
    (d / "a").write_bytes(b"x")
    r = run("physical", "--check", "good.sha3", "--quiet", cwd=d)
    assert r.rc == 1
    assert r.out == "a: FAILED\n"
    assert "did NOT match" in r.err


@pytest.mark.parametrize("break_it", [None, "change", "remove", "malformed"])
def test_status_prints_nothing_and_exit_code_tells(run, tree, break_it):
    d, _ = tree
    args = ["physical", "--check", "good.sha3", "--status"]
    if break_it == "change":
        (d / "a").write_bytes(b"x")
    elif break_it == "remove":
        (d / "a").unlink()
    elif break_it == "malformed":
        with open(d / "good.sha3", "a") as f:
            f.write("garbage\n")
    r = run(*args, cwd=d)
    assert (r.out, r.err) == ("", "")
    assert r.rc == (0 if break_it in (None, "malformed") else 1)
    if break_it == "malformed":
        assert run(*args, "--strict", cwd=d).rc == 1


@pytest.mark.parametrize("base", ["f", "F", "b", "B", "z", "m", "M", "u", "U"])
def test_hashes_in_any_multibase(run, tree, base):
    d, data = tree
    name = write_list(d, "l", [f"{encode(base, physical_multihash(data['a']))}  a"])
    r = run("physical", "--check", name, cwd=d)
    assert r.rc == 0, r
    assert r.out == "a: OK\n"


def test_binary_mode_marker_and_crlf(run, tree):
    d, data = tree
    (d / "l").write_bytes(f"{physical_hash(data['a'])} *a\r\n".encode())
    r = run("physical", "--check", "l", cwd=d)
    assert r.rc == 0, r
    assert r.out == "a: OK\n"


def test_logical_hash_in_a_physical_list_is_malformed(run, tree):
    d, data = tree
    logical = "f" + (ARROW0_PREFIX + b"\x11" * 32).hex()
    name = write_list(d, "l", [f"{physical_hash(data['a'])}  a", f"{logical}  b"])
    r = run("physical", "--check", name, "--warn", cwd=d)
    assert r.rc == 0
    assert "odf-hash: l:2: improperly formatted hash line: hash is arrow0-sha3-256" in r.err


def test_list_with_no_valid_line_is_an_error(run, tmp_path):
    name = write_list(tmp_path, "l", ["# only a comment", "garbage"])
    r = run("physical", "--check", name, cwd=tmp_path)
    assert r.rc == 2
    assert r.out == ""
    # Even without --warn, the reason of the first bad line: what the user has to fix.
    assert "odf-hash: l: no properly formatted hash lines found (line 2: " in r.err
    empty = write_list(tmp_path, "empty", [])
    assert run("physical", "--check", empty, cwd=tmp_path).rc == 2


def test_unreadable_list_is_an_error(run, tmp_path):
    r = run("physical", "--check", "no-such-list", cwd=tmp_path)
    assert r.rc == 2
    assert r.err == "odf-hash: no-such-list: No such file or directory\n"
    r = run("physical", "--check", ".", cwd=tmp_path)
    assert r.rc == 2
    assert r.err == "odf-hash: .: is a directory\n"


def test_jobs_do_not_change_the_output(run, tree):
    d, _ = tree
    (d / "b").write_bytes(b"changed")
    outs = {run("physical", "-c", "good.sha3", "-j", j, cwd=d).out for j in ("1", "2", "5")}
    assert outs == {"a: OK\nb: FAILED\ndir/c d: OK\n"}


def test_json_reports_each_entry_and_a_summary(run, tree):
    d, data = tree
    (d / "b").write_bytes(b"changed")
    with open(d / "good.sha3", "a") as f:
        f.write("garbage\n")
        f.write(f"{physical_hash(b'')}  gone\n")
    r = run("physical", "--check", "good.sha3", "--json", cwd=d)
    assert r.rc == 1
    assert r.err == ""
    doc = json.loads(r.out)
    assert doc["list"] == "good.sha3"
    assert doc["lists"] == ["good.sha3"]
    assert doc["summary"] == {
        "ok": 2,
        "failed": 1,
        "unreadable": 1,
        "missing_ignored": 0,
        "malformed": 1,
    }
    assert [m["line"] for m in doc["malformed"]] == [4]
    entries = doc["entries"]
    assert [(e["path"], e["line"], e["status"]) for e in entries] == [
        ("a", 1, "ok"),
        ("b", 2, "failed"),
        ("dir/c d", 3, "ok"),
        ("gone", 5, "unreadable"),
    ]
    assert entries[0]["actual"] == entries[0]["expected"] == physical_hash(b"abc")
    assert entries[0]["size"] == 3
    assert entries[1]["expected"] == physical_hash(b"")
    assert entries[1]["actual"] == physical_hash(b"changed")
    assert entries[3]["error"] == "No such file or directory"
    assert "actual" not in entries[3]


def test_bundled_example_check_list_verifies(run):
    # examples/files.sha3 comes from examples/make_files_sha3.py (hashlib); paths are
    # relative to the repository root.
    root = pathlib.Path(__file__).resolve().parents[2]
    files = sorted(p for p in (root / "examples" / "files").iterdir() if p.is_file())
    r = run("physical", "--check", "examples/files.sha3", cwd=root)
    assert r.rc == 0, r
    assert r.out == "".join(f"{p.relative_to(root).as_posix()}: OK\n" for p in files)
    listed = [
        line.split("  ", 1)
        for line in (root / "examples" / "files.sha3").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert listed == [
        [physical_hash(p.read_bytes()), p.relative_to(root).as_posix()] for p in files
    ]
