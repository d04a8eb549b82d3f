"""Every link of the README and of the documentation site's pages (docs/**/*.md) leads somewhere
(issue 36), without the network: a relative link names a file of the repository, and its
`#anchor`, when it has one, a heading of that file (GitHub's and myst's anchors: the heading in
lower case, punctuation dropped, spaces as hyphens). `make docs` (sphinx-build -W) checks the
links between pages too; this also covers the README, which the site does not include, and
runs with the CLI tests. External links are never fetched: each must be to a host of the
allow-list below, so that a new one is a reviewed decision. The Python reference of the site
must cover the package: every name of odf_hash.__all__ is documented on a page of docs/python/
(read from the sources, since this runs before the wheel is installed)."""
import ast
import pathlib
import re
import urllib.parse

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "HACKING.md"] + sorted((ROOT / "docs").rglob("*.md"))

# Hosts the pages may link to (checked by hand when added; never fetched by the tests).
ALLOWED_HOSTS = {"github.com", "specs.ipfs.tech"}

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")


def prose(text):
    """The text outside code blocks and code spans, where a link is a link."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(path):
    return LINK.findall(prose(path.read_text()))


def slug(heading):
    """The anchor GitHub (and myst_heading_anchors) gives a heading."""
    text = re.sub(r"`([^`]*)`", r"\1", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen = {}
    out = set()
    for heading in re.findall(r"^#{1,6} (.+)$", FENCE.sub("", path.read_text()), re.M):
        s = slug(heading)
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


def page_id(path):
    return str(path.relative_to(ROOT))


def test_slug_is_githubs():
    assert slug("11. What arrow0 cannot see, and what `compare` does about it") == \
        "11-what-arrow0-cannot-see-and-what-compare-does-about-it"
    assert slug("`verify`: whole ODF datasets") == "verify-whole-odf-datasets"


def test_the_pages_have_links():
    # A parser that finds nothing would pass every check below.
    assert len(links(ROOT / "README.md")) >= 20
    assert len(links(ROOT / "docs" / "index.md")) >= 5


@pytest.mark.parametrize("page", [page_id(p) for p in PAGES])
def test_relative_links_lead_to_a_file_and_heading(page):
    path = ROOT / page
    for target in links(path):
        parsed = urllib.parse.urlparse(target)
        if parsed.scheme:
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / urllib.parse.unquote(file_part)).resolve() if file_part else path
        assert dest.exists(), f"{page}: link to {target}: no such file"
        assert ROOT in dest.parents or dest == ROOT, f"{page}: {target} leaves the repository"
        if anchor:
            assert dest.suffix == ".md", f"{page}: {target}: an anchor into a non-Markdown file"
            assert anchor in anchors(dest), f"{page}: {target}: no such heading in {dest.name}"


@pytest.mark.parametrize("page", [page_id(p) for p in PAGES])
def test_external_links_are_to_allowed_hosts(page):
    for target in links(ROOT / page):
        parsed = urllib.parse.urlparse(target)
        if not parsed.scheme:
            continue
        assert parsed.scheme == "https", f"{page}: {target}: only https links"
        assert parsed.hostname in ALLOWED_HOSTS, f"{page}: {target}: add the host to ALLOWED_HOSTS"


def test_docs_pages_are_in_the_site():
    """Each page is reachable from the site's index (sphinx-build warns about orphans too,
    but only when it runs)."""
    listed = set()
    for path in (ROOT / "docs").rglob("*.md"):
        for block in re.findall(r"^```\{toctree\}\n(.*?)^```", path.read_text(), re.M | re.S):
            for line in block.splitlines():
                line = line.strip()
                if line and not line.startswith(":"):
                    listed.add((path.parent / line).relative_to(ROOT / "docs").as_posix())
    pages = {p.relative_to(ROOT / "docs").with_suffix("").as_posix()
             for p in (ROOT / "docs").rglob("*.md")} - {"index"}
    assert pages - listed == set()


def test_python_reference_covers_the_package():
    tree = ast.parse((ROOT / "python/src/odf_hash/__init__.py").read_text())
    (names,) = [node.value for node in tree.body if isinstance(node, ast.Assign)
                and any(getattr(t, "id", None) == "__all__" for t in node.targets)]
    public = {ast.literal_eval(e) for e in names.elts}
    documented = set()
    for path in (ROOT / "docs" / "python").glob("*.md"):
        documented |= set(re.findall(r"^\.\. auto(?:function|class|exception):: odf_hash\.(\w+)$",
                                     path.read_text(), re.M))
    assert public - documented == set(), "names of odf_hash.__all__ not on a docs/python page"
    assert documented - public == set()
