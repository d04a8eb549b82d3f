#!/usr/bin/env python3
"""Writes the seeds of the dataset fuzzer (tests/fuzz/dataset_fuzz.cpp documents the format).

    .venv/bin/python tests/fuzz/make_dataset_corpus.py

Seeds: the two example datasets as they are, and copies with the kinds of names a hostile
author controls: refs/head as a FIFO, a directory or a link out of the dataset; a data file as
a directory, a FIFO or a link (inside and outside); a block as a directory; a folder as a link
out; unreferenced FIFOs, folders and links; a one-block chain made with the hash-naming entry.
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
    }
    for name, entries in seeds.items():
        (CORPUS / f"seed-{name}").write_bytes(b"".join(entries))
    print(f"make_dataset_corpus: {len(seeds)} seeds in {CORPUS}")


if __name__ == "__main__":
    main()
