#!/usr/bin/env python3
"""Holds every folder's #include lines to the layering of HACKING.md (ctest `layering`).

The layers, lowest first; each may include the public headers of the layers below it and its
own:

    core  <-  logical  <-  io  <-  remote  <-  odf  <-  compare, query  <-  api

and the fronts (src/capi, tools/odf-hash, python/ext) any public header. Where a file is:
    src/<layer>/...                          the layer's sources and private headers
    include/odf_hash/<layer>/...             its public headers (installed)
    include/odf_hash/internal/<layer>/...    headers only the layers above it use (not
                                             installed): never included by a public header
                                             or a front
    include/odf_hash/arrow_c_data.h          the Arrow C Data Interface: core
    include/odf_hash/odf_hash.h              the C ABI: the fronts'
A public header never names a private file (src/..., or a header found only there) in its
text: it is a contract read on its own, also where it is installed.
A quoted include that is not "odf_hash/..." must be a private header of the including layer
(found beside the file, or under its layer's src/ folder): a layer never reaches into
another layer's src/ folder; what another layer needs goes to internal/.

    check_layering.py [ROOT]        check the tree at ROOT (default: this repository)
    check_layering.py --self-test   copy the tree to a scratch folder, add one upward include,
                                    one include of another layer's private header, one
                                    internal header in a public one and a private file named
                                    in a public one, and check that each is reported (and that the unchanged copy passes)
Exit status 0 when every include is allowed, 1 otherwise (each violation on its own line).
"""

import pathlib
import re
import shutil
import sys
import tempfile

ORDER = ["core", "logical", "io", "remote", "odf"]
# What each layer may include (besides itself).
ALLOWED = {layer: set(ORDER[: i + 1]) for i, layer in enumerate(ORDER)}
ALLOWED["compare"] = set(ORDER) | {"compare"}
ALLOWED["query"] = set(ORDER) | {"query"}
ALLOWED["api"] = set(ORDER) | {"compare", "query", "api"}
FRONT_ALLOWED = set(ALLOWED) | {"capi"}
FRONTS = {"src/capi": "capi", "tools/odf-hash": "cli", "python/ext": "python"}
SOURCE_SUFFIXES = {".h", ".hpp", ".cpp", ".cc", ".c"}
UMBRELLA = "odf_hash/odf_hash.hpp"
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
# A file named in a public header's text (a comment sending the reader somewhere).
FILE_NAMED = re.compile(r"\b((?:src/)?[\w/.-]*?[\w-]+\.(?:h|cpp))\b")


class Unit:
    """Where a file sits: its layer (or front), and whether it is a public header."""

    def __init__(self, layer, front=False, public=False, internal=False, src_root=None):
        self.layer, self.front, self.public = layer, front, public
        self.internal, self.src_root = internal, src_root


def classify(root, path):
    rel = path.relative_to(root).as_posix()
    for folder, name in FRONTS.items():
        if rel.startswith(folder + "/"):
            return Unit(name, front=True, src_root=root / folder)
    parts = rel.split("/")
    if parts[0] == "src" and len(parts) > 2 and parts[1] in ALLOWED:
        return Unit(parts[1], src_root=root / "src" / parts[1])
    if rel.startswith("include/odf_hash/"):
        return header_unit(rel[len("include/"):])
    return None


def header_unit(name):
    """The unit of a header named as it is included: "odf_hash/<layer>/x.h", ..."""
    parts = name.split("/")
    if name == "odf_hash/arrow_c_data.h":
        return Unit("core", public=True)
    if name == "odf_hash/odf_hash.h":  # the C ABI: a front's header
        return Unit("capi", front=True, public=True)
    if name == UMBRELLA:  # the whole C++ API: every public header, no internal one
        return Unit("umbrella", front=True, public=True)
    if len(parts) == 3 and parts[1] in ALLOWED:
        return Unit(parts[1], public=True)
    if len(parts) == 4 and parts[1] == "internal" and parts[2] in ALLOWED:
        return Unit(parts[2], internal=True)
    return None


def check_file(root, path, unit):
    problems = []
    rel = path.relative_to(root).as_posix()
    text = path.read_text(encoding="utf-8", errors="replace")
    for match in INCLUDE.finditer(text):
        name = match.group(1)
        line = text.count("\n", 0, match.start()) + 1
        where = f"{rel}:{line}: #include \"{name}\""
        if name.startswith("odf_hash_fb/"):  # generated FlatBuffers code (odf)
            if unit.layer != "odf":
                problems.append(f"{where}: generated ODF code outside odf")
            continue
        if name.startswith("odf_hash/"):
            target = header_unit(name)
            if target is None or not (root / "include" / name).is_file():
                problems.append(f"{where}: no such header in include/ (layer unknown)")
                continue
            allowed = FRONT_ALLOWED if unit.front else ALLOWED.get(unit.layer, set())
            if target.layer != unit.layer and target.layer not in allowed:
                problems.append(f"{where}: {unit.layer} may not include {target.layer} "
                                f"(an arrow pointing up)")
            elif target.internal and (unit.front or unit.public):
                kind = "a front" if unit.front else "a public header"
                problems.append(f"{where}: {kind} includes an internal header")
            continue
        # A private header: beside the file, or under the own layer's src/ folder.
        beside = (path.parent / name).resolve()
        own = unit.src_root
        if own is not None and beside.is_file() and own.resolve() in beside.parents:
            continue
        if own is not None and (own / name).is_file():
            continue
        others = [p.relative_to(root).as_posix() for p in (root / "src").glob(f"**/{name}")
                  if p.is_file()]
        if others:
            problems.append(f"{where}: a private header of another folder ({others[0]}); "
                            f"what other layers use belongs in include/odf_hash/internal/")
        else:
            problems.append(f"{where}: not found beside the file nor in its layer's folder")
    if unit.public and unit.layer != "capi":
        problems += private_files_named(root, rel, text)
    return problems


def private_files_named(root, rel, text):
    """A public header is a contract read on its own: it never sends its reader to a private
    source file (src/...), which an installed copy does not have."""
    public = {p.name for p in (root / "include").glob("**/*.h")}
    private = {p.name for p in (root / "src").glob("**/*") if p.suffix in (".h", ".cpp")}
    problems = []
    for match in FILE_NAMED.finditer(text):
        name = match.group(1)
        base = name.rsplit("/", 1)[-1]
        if (name.startswith("src/") or base in private) and base not in public:
            line = text.count("\n", 0, match.start()) + 1
            problems.append(f"{rel}:{line}: a public header names a private file ({name}); "
                            f"say what it needs in place")
    return problems


def umbrella_problems(root):
    """The umbrella header includes every public header of the layers (none left out)."""
    umbrella = root / "include" / UMBRELLA
    if not umbrella.is_file():
        return [f"include/{UMBRELLA}: missing (the whole C++ API in one include)"]
    listed = set(INCLUDE.findall(umbrella.read_text(encoding="utf-8")))
    problems = []
    for layer in ORDER + ["compare", "query"]:
        for header in sorted((root / "include" / "odf_hash" / layer).glob("*.h")):
            name = f"odf_hash/{layer}/{header.name}"
            if name not in listed:
                problems.append(f"include/{UMBRELLA}: does not include \"{name}\" (every public "
                                f"header is part of the umbrella)")
    return problems


def check_tree(root):
    root = pathlib.Path(root).resolve()
    problems, files = [], 0
    for base in ["src", "include", "tools", "python/ext"]:
        for path in sorted((root / base).glob("**/*")):
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
                continue
            unit = classify(root, path)
            if unit is None:
                rel = path.relative_to(root).as_posix()
                problems.append(f"{rel}: in no layer (a new folder needs a place in "
                                f"scripts/check_layering.py)")
                continue
            files += 1
            problems += check_file(root, path, unit)
    return files, problems + umbrella_problems(root)


def self_test(root):
    root = pathlib.Path(root).resolve()
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="odf_layering_"))
    try:
        for base in ["src", "include", "tools", "python/ext"]:
            shutil.copytree(root / base, scratch / base)
        files, problems = check_tree(scratch)
        if problems or files == 0:
            print(f"self-test: the unchanged copy fails ({files} files):", *problems, sep="\n")
            return 1
        cases = [
            (scratch / "src/core/sha3.cpp", '#include "odf_hash/odf/verify.h"\n',
             "core may not include odf"),
            (scratch / "src/io/store.cpp", '#include "odf_hash/remote/open_store.h"\n',
             "io may not include remote"),
            (scratch / "src/odf/dataset/dataset.cpp", '#include "http_store.h"\n',
             "a private header of another folder"),
            (scratch / "include/odf_hash/io/store.h",
             '#include "odf_hash/internal/io/deferred_object.h"\n',
             "a public header includes an internal header"),
            (scratch / "tools/odf-hash/main.cpp",
             '#include "odf_hash/internal/core/sha3_multi.h"\n',
             "a front includes an internal header"),
            (scratch / "include/odf_hash/odf/verify.h", "// the rows (deep_check.h)\n",
             "a public header names a private file"),
        ]
        failed = 0
        # A new public header the umbrella does not list.
        new_header = scratch / "include/odf_hash/core/new_part.h"
        new_header.write_text("#pragma once\n", encoding="utf-8")
        _, found = check_tree(scratch)
        new_header.unlink()
        if any("odf_hash/core/new_part.h" in p and "umbrella" in p for p in found):
            print("self-test: include/odf_hash/core/new_part.h missing from the umbrella: reported")
        else:
            print(f"self-test: a public header missing from the umbrella was not reported: {found}")
            failed += 1
        for path, line, expected in cases:
            original = path.read_text(encoding="utf-8")
            path.write_text(original + line, encoding="utf-8")
            _, found = check_tree(scratch)
            path.write_text(original, encoding="utf-8")
            rel = path.relative_to(scratch).as_posix()
            if not any(expected in p and p.startswith(rel) for p in found):
                print(f"self-test: {line.strip()} in {rel} was not reported as "
                      f"\"{expected}\"; reported: {found}")
                failed += 1
            else:
                print(f"self-test: {line.strip()} in {rel}: reported ({expected})")
        return 1 if failed else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv):
    here = pathlib.Path(__file__).resolve().parent.parent
    if argv[1:2] == ["--self-test"]:
        return self_test(argv[2] if len(argv) > 2 else here)
    files, problems = check_tree(argv[1] if len(argv) > 1 else here)
    for p in problems:
        print(p)
    print(f"layering: {files} files, {len(problems)} includes against the layering")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
