"""Sphinx configuration of the odf-hash documentation site (`make docs`: build-docs/html).

Pages are Markdown (myst-parser). The Python reference is autodoc over the odf_hash package
installed in .venv (the wheel `make python` builds); the C reference is Breathe over the XML
Doxygen writes for include/odf_hash/odf_hash.h (docs/Doxyfile) into build-docs/doxygen/xml; the
C++ reference is Breathe over the XML of the public C++ headers (docs/Doxyfile.cpp) in
build-docs/doxygen-cpp/xml.
Nothing here reaches the network: no intersphinx, no remote images; `make docs` runs
sphinx-build -W, so every warning (a broken cross-reference, a missing anchor, a docstring
that does not parse) fails the build."""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent

project = "odf-hash"
author = "the odf-hash authors"
copyright = "the odf-hash authors"

extensions = ["myst_parser", "sphinx.ext.autodoc", "breathe"]
source_suffix = {".md": "markdown"}
root_doc = "index"
# docs/schemas/ holds JSON Schemas (linked to, not pages); the Doxyfile is not a page.
exclude_patterns = ["schemas", "Doxyfile", "Doxyfile.cpp"]

# `[text](page.md#a-heading)` links are resolved and checked for headings down to level 4.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]

# Examples without a language are terminal output, shown as written.
highlight_language = "text"

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "signature"

breathe_projects = {"odf_hash": str(ROOT / "build-docs" / "doxygen" / "xml"),
                    "odf_hash_cpp": str(ROOT / "build-docs" / "doxygen-cpp" / "xml")}
breathe_default_project = "odf_hash"
# The C header is C (docs/c-api.md); the other headers are C++ (docs/cpp-api.md).
breathe_domain_by_file_pattern = {"*/odf_hash.h": "c"}

html_theme = "alabaster"
html_title = "odf-hash"
html_theme_options = {"description": "Open Data Fabric hashes, checked", "nosidebar": False}
