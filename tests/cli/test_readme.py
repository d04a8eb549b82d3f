"""The shell examples of the README and of every page of the documentation site (docs/**/*.md)
are run and their output compared (issues 25 and 36), so that they cannot go stale: every
`$ build/odf-hash ...` line of a ```sh block whose inputs exist in the repository (the bundled
examples and test data) is run in order, page by page, from a scratch folder per page that
sees the repository's examples/ and tests/, and the lines shown under it must be what it
prints (a last line `...` elides the rest; a first line `...` elides the beginning). Lines
with placeholders (big.parquet, URLs, ~/my-workspace) are not run. The hashes shown are also
checked against independent sources: hashlib for physical hashes, the Rust reference's
recorded hash for the logical one."""
import glob
import hashlib
import os
import pathlib
import re
import shlex
import subprocess

import pytest

from test_logical import RECORDS

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README] + sorted((ROOT / "docs").rglob("*.md"))

# The examples that must keep running on each page (a page would otherwise show nothing
# checked without anyone noticing).
NEEDED = {
    "README.md": ("physical examples/files/*", "physical --check my.sha3",
                  "logical tests/cli/data/records.parquet", "verify examples/datasets/root",
                  "compare tests/cli/data/records.parquet tests/cli/data/records.arrow"),
    "docs/commands/physical.md": ("physical examples/files/*",),
    "docs/commands/check.md": ("physical --check my.sha3",),
    "docs/commands/decode.md": ("decode zW1",),
    "docs/commands/logical.md": ("logical tests/cli/data/records.parquet",),
    "docs/commands/slice.md": ("slice tests/cli/data/records.parquet",),
    "docs/commands/verify.md": ("verify examples/datasets/root",),
    "docs/commands/compare.md": ("compare tests/cli/data/records.parquet",),
    "docs/commands/fetch.md": ("fetch examples/datasets/root my-copy",
                               "fetch -q examples/datasets/root my-copy"),
    "docs/commands/help.md": ("help stores",),
    "docs/commands/verify-query.md": ("verify-query tests/data/query/answers/join.json",
                                      "--dataset=cities=tests/data/query/datasets/cities",
                                      "--dataset=mix=tests/data/query/datasets/mix-rewritten"),
}


def sh_blocks(text):
    return re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)


def examples(block):
    """(command, expected output lines) in the block's order."""
    out = []
    lines = block.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            i += 1
            continue
        command = re.sub(r"\s+#.*$", "", lines[i][2:]).strip()
        expected = []
        i += 1
        while i < len(lines) and lines[i].strip() and not lines[i].startswith("$ "):
            if not lines[i].lstrip().startswith("#"):
                expected.append(lines[i])
            i += 1
        out.append((command, expected))
    return out


def runnable(command, cwd):
    """Whether this is an odf-hash example (never make, pip...) and every input it names
    exists here (no placeholder, no URL)."""
    if not re.match(r"(cat \S+ \| )?build/odf-hash ", command):
        return False
    if "://" in command or "~" in command or "…" in command:
        return False
    tokens = shlex.split(command.replace("|", " | "))
    redirect_target = False
    for t in tokens:
        if t in (">", "|", "cat") or t == "build/odf-hash" or t.startswith("-"):
            redirect_target = t == ">"
            continue
        if redirect_target:
            redirect_target = False
            continue
        if "/" in t or "." in t or "*" in t:
            if not glob.glob(str(cwd / t)):
                return False
    return True


def all_text():
    return "\n".join(p.read_text() for p in PAGES)


@pytest.fixture
def scratch(tmp_path):
    for d in ("examples", "tests"):
        (tmp_path / d).symlink_to(ROOT / d)
    return tmp_path


@pytest.mark.parametrize("page", [str(p.relative_to(ROOT)) for p in PAGES])
def test_examples_print_what_the_page_shows(odf_hash_bin, scratch, page):
    ran = []
    for block in sh_blocks((ROOT / page).read_text()):
        for command, expected in examples(block):
            if not runnable(command, scratch):
                continue
            shell = command.replace("build/odf-hash", shlex.quote(odf_hash_bin))
            r = subprocess.run(["bash", "-c", shell], cwd=scratch, capture_output=True,
                               text=True, timeout=120)
            ran.append(command)
            assert r.returncode == 0, (command, r.stderr)
            actual = r.stdout.splitlines()
            if expected and expected[0] == "...":
                # "..." first: the lines shown end what it prints (a "..." may end them too).
                tail = expected[1:]
                if tail and tail[-1] == "...":
                    tail = tail[:-1]
                    assert any(actual[i:i + len(tail)] == tail for i in range(len(actual))), \
                        (page, command)
                else:
                    assert actual[-len(tail):] == tail, (page, command)
            elif expected and expected[-1] == "...":
                assert actual[: len(expected) - 1] == expected[:-1], (page, command)
            elif expected:
                assert actual == expected, (page, command)
    for needed in NEEDED.get(page, ()):
        assert any(needed in c for c in ran), (page, needed)


def test_every_page_with_needed_examples_exists():
    assert set(NEEDED) <= {str(p.relative_to(ROOT)) for p in PAGES}


def test_hashes_shown_match_independent_sources():
    text = all_text()
    # Physical hashes shown next to a bundled file: hashlib of the file.
    shown = re.findall(r"^(f1620[0-9a-f]{64})  (examples/\S+)$", text, re.M)
    assert len(shown) >= 3
    for h, path in shown:
        assert h == "f1620" + hashlib.sha3_256((ROOT / path).read_bytes()).hexdigest(), path
    # The logical hash of the test data: the reference's (test_logical.py).
    logical = re.findall(r"^(?:logicalHash: )?(f9680c00120[0-9a-f]{64})(?:  tests/cli/data/records.parquet)?$",
                         text, re.M)
    assert len(logical) >= 2
    assert set(logical) == {RECORDS}
    # The head of the example dataset: the name of its head block, the hash of that block.
    head = re.search(r"^head\s+(f1620[0-9a-f]{64})$", text, re.M).group(1)
    block = ROOT / "examples/datasets/root/blocks" / head
    assert "f1620" + hashlib.sha3_256(block.read_bytes()).hexdigest() == head
    assert (ROOT / "examples/datasets/root/refs/head").read_text().strip() == head
    # The slice's physical hash and size: the test data file itself.
    data = (ROOT / "tests/cli/data/records.parquet").read_bytes()
    assert f"physicalHash: f1620{hashlib.sha3_256(data).hexdigest()}" in text
    assert f"size: {len(data)}" in text


def test_readme_first_screen_says_the_caveats():
    first = "\n".join(README.read_text().splitlines()[:40])
    assert "Dictionary" in first and "all-null" in first
    assert "nullable structs with nullable children" in first
    assert "TimeZone" in first
