"""The Python examples of the README and of the documentation site (docs/**/*.md) run, and print
what they show (issue 36), so that they cannot go stale. Each ```python block is a doctest
(`>>>` lines and the output under them; `...` elides, whitespace runs compare equal); the
blocks of one page run in order in one namespace, from a scratch folder per page that sees the
repository's examples/ and tests/ (the bundled data), so a page may write files and read them
back. A warning is printed as `Category: message` on the line it is raised, where the reader
would see it. A block whose first line is `# not run: <why>` (it needs a cluster, a workspace,
files the page does not make) is not run; the test counts those, so that they stay few."""
import doctest
import os
import pathlib
import re
import warnings

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
NOT_RUN = "# not run:"


def python_blocks(text):
    return re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)


def pages_with_examples():
    return [str(p.relative_to(ROOT)) for p in PAGES if python_blocks(p.read_text())]


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    for d in ("examples", "tests"):
        (tmp_path / d).symlink_to(ROOT / d)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("page", pages_with_examples())
def test_python_examples_print_what_the_page_shows(page, scratch):
    blocks = python_blocks((ROOT / page).read_text())
    run = [b for b in blocks if not b.startswith(NOT_RUN)]
    for b in blocks:
        assert b.startswith(NOT_RUN) or b.lstrip().startswith(">>>"), \
            f"{page}: a python block is a doctest (>>>) or starts with '{NOT_RUN} why'"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs = {"__name__": "__docs__"}

    def show(message, category, filename, lineno, file=None, line=None):
        print(f"{category.__name__}: {message}")

    examples = 0
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show
        for i, block in enumerate(run):
            test = parser.get_doctest(block, globs, f"{page}[{i}]", page, 0)
            examples += len(test.examples)
            runner.run(test, clear_globs=False)
            globs = test.globs  # a DocTest runs in a copy: the next block sees what this made
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{page}: {result.failed} example(s) print something else (above)"
    assert examples > 0 or not run


def test_examples_run_on_the_pages_that_must_show_them():
    """The README and the Python pages show runnable examples; blocks left unrun stay few."""
    counts = {}
    for page in PAGES:
        blocks = python_blocks(page.read_text())
        counts[str(page.relative_to(ROOT))] = (
            sum(not b.startswith(NOT_RUN) for b in blocks), sum(b.startswith(NOT_RUN) for b in blocks))
    for page in ("README.md", "docs/python/hashing.md", "docs/python/verify.md",
                 "docs/python/compare.md", "docs/python/fetch.md", "docs/python/cluster.md",
                 "docs/python/accessors.md", "docs/python/errors.md"):
        assert counts[page][0] >= 1, page
    not_run = sum(n for _, n in counts.values())
    ran = sum(n for n, _ in counts.values())
    assert not_run <= ran // 2, counts
