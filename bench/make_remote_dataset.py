"""A root ODF dataset of about --mib MiB of data files, for bench/remote.sh.

The data files are random bytes (a root dataset's files are checked by size and physical
hash only, so their content does not matter to verification), each block written with the
example generator's FlatBuffers code (scripts/generate_example_datasets.py). The logical
hashes recorded are placeholders: a root dataset never falls back to them. Reuses OUT when a
stamp file says it was made with the same parameters.
"""
import argparse
import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
import generate_example_datasets as gen  # noqa: E402

PLACEHOLDER_LOGICAL = bytes([0x96, 0x80, 0xC0, 0x01, 0x20]) + bytes(32)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--files", type=int, default=32)
    ap.add_argument("--schema", action="store_true",
                    help="a SetDataSchema block after the Seed (kamu pull refuses data without "
                         "one; bench/fetch.sh)")
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    stamp = out / ".made-with"
    params = f"mib={args.mib} files={args.files}" + (" schema" if args.schema else "") + "\n"
    if stamp.exists() and stamp.read_text() == params:
        return
    w = gen.DatasetWriter(out)
    w.commit(gen.T0, gen.EV_SEED, {"dataset_id": gen.dataset_id("bench-remote"),
                                   "dataset_kind": gen.DATASET_KIND_ROOT})
    if args.schema:
        set_data_schema(w)
    size = args.mib * 1024 * 1024 // args.files
    offset = 0
    for i in range(args.files):
        f = w.add_file("data", os.urandom(size))
        rows = 1000
        new_data = {"logical_hash": PLACEHOLDER_LOGICAL, "physical_hash": f["physical_hash"],
                    "offset_interval": (offset, offset + rows - 1), "size": f["size"]}
        event = {"prev_checkpoint": None, "prev_offset": offset - 1 if offset else None,
                 "new_watermark": gen.T0, "new_data": new_data}
        w.commit(gen.T0 + gen.hours(i + 1), gen.EV_ADD_DATA, event)
        offset += rows
    stamp.write_text(params)


def set_data_schema(w):
    """A SetDataSchema of one int64 column "offset", committed as the writer's next block
    (the block corpus's schema writer: tests/fuzz/make_block_corpus.py)."""
    import flatbuffers
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests" / "fuzz"))
    import make_block_corpus as corpus

    w.sequence_number += 1
    b = flatbuffers.Builder(1024)
    prev = gen.fb_bytes(b, w.head)
    event = corpus.set_data_schema([("offset", corpus.DT_INT64, None, None)])(b)
    b.StartObject(5)
    b.PrependStructSlot(0, gen.fb_timestamp(b, gen.T0), 0)
    b.PrependUOffsetTRelativeSlot(1, prev, 0)
    b.PrependUint64Slot(2, w.sequence_number, 0)
    b.PrependUint8Slot(3, corpus.EV_SET_DATA_SCHEMA, 0)
    b.PrependUOffsetTRelativeSlot(4, event, 0)
    b.Finish(b.EndObject())
    block = corpus.manifest(bytes(b.Output()))
    mh = gen.sha3_multihash(block)
    (w.path / "blocks" / gen.multibase16(mh)).write_bytes(block)
    w.head = mh
    w.block_hashes.append(mh)
    (w.path / "refs" / "head").write_text(gen.multibase16(mh))


if __name__ == "__main__":
    main()
