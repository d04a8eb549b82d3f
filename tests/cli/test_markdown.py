"""`verify --format markdown` and `compare --format markdown` (issue 36, item 6): a summary to
paste into a pull request, a ticket or a CI job summary, the verdict first. What each must
say comes from how the test breaks or changes its data (the byte appended, the value changed
at a known row); every table row has as many cells as its header (pipes inside values are
escaped), and the exit codes are those of the text output."""
import re
import shutil

import pytest

from test_hardening4 import EXAMPLES

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def tables_are_well_formed(md):
    """Every table row has the header's number of cells (unescaped '|' separate cells)."""
    width = None
    for line in md.splitlines():
        if not line.startswith("|"):
            width = None
            continue
        cells = len(re.findall(r"(?<!\\)\|", line)) - 1
        if width is None:
            width = cells
        assert cells == width, line


def test_verify_valid_and_invalid(run, tmp_path):
    shutil.copytree(EXAMPLES / "root", tmp_path / "good")
    shutil.copytree(EXAMPLES / "root", tmp_path / "bad")
    data = sorted((tmp_path / "bad" / "data").iterdir())[0]
    data.write_bytes(data.read_bytes() + b"x")
    r = run("verify", "--format", "markdown", tmp_path / "good")
    assert r.rc == 0 and r.out.startswith("### odf-hash verify: ✅ 1 dataset, all VALID\n"), r
    r = run("verify", "--format", "markdown", tmp_path / "good", tmp_path / "bad")
    assert r.rc == 1, r
    lines = r.out.splitlines()
    assert lines[0] == ("### odf-hash verify: ❌ 1 of 2 datasets not VALID (1 INVALID, 0 could "
                        "not be verified)")
    assert f"| `{tmp_path / 'bad'}` | **INVALID (1 problem)** | 5 | 1 |" in lines
    problem = next(line for line in lines if line.startswith("1. "))
    assert "**size-mismatch**" in problem and f"`data/{data.name}`" in problem
    size = data.stat().st_size
    assert f"expected `{size - 1} bytes`, actual `{size} bytes`" in problem
    tables_are_well_formed(r.out)


def test_compare_files_keys_and_order(run, tmp_path):
    n = 100
    t = pa.table({"offset": pa.array(range(n), pa.int64()),
                  "s": pa.array([f"a|b{i}" for i in range(n)])})
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(t, a)
    pq.write_table(t.set_column(1, "s", pa.array([f"a|b{i}" if i != 42 else "x`y" for i in
                                                    range(n)])), b)
    r = run("compare", "--format", "markdown", a, b)
    assert r.rc == 1, r
    assert r.out.startswith("### odf-hash compare: ❌ NOT verified: different (arrow0), records "
                            "different\n")
    assert '| `s` | 1 | 42 | 42 | `"a\\|b42"` | ``"x`y"`` |' in r.out
    tables_are_well_formed(r.out)
    same = run("compare", "--format", "markdown", a, a)
    assert same.rc == 0 and same.out.startswith("### odf-hash compare: ✅ verified: identical")
    keyed = run("compare", "--format", "markdown", "--key", "offset", a, b)
    assert keyed.rc == 1 and keyed.out.startswith(
        "### odf-hash compare --key offset: ❌ different records\n"), keyed
    assert "| `offset=42` | `s` | `\"a\\|b42\"` | ``\"x`y\"`` |" in keyed.out
    tables_are_well_formed(keyed.out)
    unordered = run("compare", "--format", "markdown", "--ignore-order", a, b)
    assert unordered.out.startswith("### odf-hash compare --ignore-order: ❌ different records")
    assert "**Only in the original**: 1 row" in unordered.out


def test_compare_datasets(run):
    r = run("compare", "--format", "markdown", EXAMPLES / "root", EXAMPLES / "root")
    assert r.rc == 0, r
    assert r.out.startswith("### odf-hash compare (datasets): ✅ same-records\n")
    tables_are_well_formed(r.out)


def test_format_json_is_json_and_a_bad_format_is_a_usage_error(run, tmp_path):
    r = run("verify", "--format", "json", EXAMPLES / "root")
    assert r.rc == 0 and r.out.startswith("{"), r
    r = run("verify", "--format", "html", EXAMPLES / "root")
    assert r.rc == 2 and "--format" in r.err, r
