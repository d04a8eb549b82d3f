#!/usr/bin/env python3
"""Writes the seeds of the dataset fuzzer (tests/fuzz/dataset_fuzz.cpp documents the format).

    .venv/bin/python tests/fuzz/make_dataset_corpus.py

Seeds: the two example datasets as they are, and copies with the kinds of names a hostile
author controls: refs/head as a FIFO, a directory or a link out of the dataset; a data file as
a directory, a FIFO or a link (inside and outside); a block as a directory; a folder as a link
out; unreferenced FIFOs, folders and links; a one-block chain made with the hash-naming entry;
files under a non-canonical spelling (upper-case, base58btc) of their hash; and folders that
are not datasets (a dataset nested as in a kamu workspace, one of its blocks/ alone).
"""
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATASETS = ROOT / "examples" / "datasets"
CORPUS = ROOT / "tests" / "fuzz" / "corpus" / "dataset"

FILE, DIR, FIFO, LINK, HASHED, HASHED_HEAD = range(6)


def entry(kind, path, data=b""):
    path = path.encode()
    return struct.pack("<BB", kind, len(path)) + path + struct.pack("<H", len(data)) + data


def dataset_entries(name, skip=()):
    out = []
    src = DATASETS / name
    for p in sorted(src.rglob("*")):
        rel = str(p.relative_to(src))
        if p.is_file() and rel not in skip and p.stat().st_size < 65536:
            out.append(entry(FILE, rel, p.read_bytes()))
    return out


def base58(name):
    """The base58btc multibase spelling of a canonical "f..." name."""
    alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    raw = bytes.fromhex(name[1:])
    n, out = int.from_bytes(raw, "big"), ""
    while n:
        n, r = divmod(n, 58)
        out = alphabet[r] + out
    return "z" + "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def renamed(name, rel, new_rel):
    """The dataset's entries with the file `rel` named `new_rel`."""
    old = entry(FILE, rel, (DATASETS / name / rel).read_bytes())
    new = entry(FILE, new_rel, (DATASETS / name / rel).read_bytes())
    return [new if e == old else e for e in dataset_entries(name)]


def first(folder, name="root"):
    return sorted((DATASETS / name / folder).iterdir())[0].name


def main():
    CORPUS.mkdir(parents=True, exist_ok=True)
    for old in CORPUS.glob("seed-*"):
        old.unlink()
    data0, block0, ckpt0 = first("data"), first("blocks"), first("checkpoints")
    seeds = {
        "root": dataset_entries("root"),
        "derivative": dataset_entries("derivative"),
        "head-fifo": [entry(FIFO, "refs/head")] + dataset_entries("root", {"refs/head"}),
        "head-dir": [entry(DIR, "refs/head")] + dataset_entries("root", {"refs/head"}),
        "head-link-out": [entry(LINK, "refs/head", b"/etc/hostname")] +
                         dataset_entries("root", {"refs/head"}),
        "data-dir": [entry(DIR, f"data/{data0}")] + dataset_entries("root", {f"data/{data0}"}),
        "data-fifo": [entry(FIFO, f"data/{data0}")] + dataset_entries("root", {f"data/{data0}"}),
        "data-link-out": [entry(LINK, f"data/{data0}", b"../../../../etc/hostname")] +
                         dataset_entries("root", {f"data/{data0}"}),
        "data-link-in": [entry(FILE, "info/part", (DATASETS / "root" / "data" / data0)
                               .read_bytes()),
                         entry(LINK, f"data/{data0}", b"../info/part")] +
                        dataset_entries("root", {f"data/{data0}"}),
        "block-dir": [entry(DIR, f"blocks/{block0}")] +
                     dataset_entries("root", {f"blocks/{block0}"}),
        "checkpoint-fifo": [entry(FIFO, f"checkpoints/{ckpt0}")] +
                           dataset_entries("root", {f"checkpoints/{ckpt0}"}),
        "folder-link-out": [entry(LINK, "checkpoints", b"/tmp")] +
                           [e for e in dataset_entries("root")],
        "unreferenced-specials": [entry(FIFO, "data/fifo"), entry(DIR, "blocks/dir"),
                                  entry(LINK, "checkpoints/up", b"../../x"),
                                  entry(LINK, "data/loop", b"loop")] + dataset_entries("root"),
        "one-block": [entry(HASHED_HEAD, "blocks", (DATASETS / "root" / "blocks" / block0)
                            .read_bytes())],
        "data-upper-case": renamed("root", f"data/{data0}", f"data/{data0.upper()}"),
        "block-base58": renamed("root", f"blocks/{block0}", f"blocks/{base58(block0)}"),
        "second-spelling": [entry(FILE, f"checkpoints/{ckpt0.upper()}", b"other")] +
                           dataset_entries("root"),
        # Paths are cut at 4 components: the nested dataset keeps refs/ and blocks/ only.
        "nested-workspace": [entry(FILE, "ws/.kamu/datasets/refs", b""),
                             entry(FILE, "ws/.kamu/datasets/blocks", b"")],
        "blocks-folder-alone": [entry(HASHED, "", (DATASETS / "root" / "blocks" / block0)
                                      .read_bytes())],
    }
    for name, entries in seeds.items():
        (CORPUS / f"seed-{name}").write_bytes(b"".join(entries))
    print(f"make_dataset_corpus: {len(seeds)} seeds in {CORPUS}")


if __name__ == "__main__":
    main()
