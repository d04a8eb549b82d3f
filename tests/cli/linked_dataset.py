"""Writes small ODF datasets with ObjectLink columns (RFC-017) in shapes kamu does not write:
links inside a struct, in an Option column, read back as Utf8View, nulls at both levels, a
value that is not a multihash, a linkedObjects summary that disagrees.

Blocks are written with the `flatbuffers` Python builder through the example generator's
writers (scripts/generate_example_datasets.py) and the crafted-block corpus's schema writers
(tests/fuzz/make_block_corpus.py); hashes with hashlib; Parquet with pyarrow. The dataset is
root and every file matches its physical hash, so its logical hashes are never compared: they
are recorded as all-zero placeholders (no reference tool at test time).
"""
import datetime as dt
import json
import pathlib
import sys

import flatbuffers
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))
import generate_example_datasets as gen  # noqa: E402
import make_block_corpus as corpus  # noqa: E402

T0 = dt.datetime(2025, 9, 1, 12, 0, 0, tzinfo=dt.timezone.utc)
EV_SET_DATA_SCHEMA = 10
PLACEHOLDER_LOGICAL = bytes.fromhex("9680c00120") + bytes(32)

# offset, s {link (ObjectLink)}, maybe (Option<String>, ObjectLink)
FIELDS = [
    ("offset", corpus.DT_INT64, None, None),
    ("s", corpus.DT_STRUCT, [("link", corpus.DT_STRING, None, corpus.OBJECT_LINK)], None),
    ("maybe", corpus.DT_OPTION, corpus.DT_STRING, corpus.OBJECT_LINK),
]


def name(data: bytes) -> str:
    return gen.multibase16(gen.sha3_multihash(data))


def _block(system_time, prev, seq, tag, event_fn):
    b = flatbuffers.Builder(1024)
    prev_vec = gen.fb_bytes(b, prev)
    event = event_fn(b)
    b.StartObject(5)
    b.PrependStructSlot(0, gen.fb_timestamp(b, system_time), 0)
    if prev_vec is not None:
        b.PrependUOffsetTRelativeSlot(1, prev_vec, 0)
    b.PrependUint64Slot(2, seq, 0)
    b.PrependUint8Slot(3, tag, 0)
    b.PrependUOffsetTRelativeSlot(4, event, 0)
    b.Finish(b.EndObject())
    return corpus.manifest(bytes(b.Output()))


def _add_data(slice_, extra, prev_offset=None):
    def fn(b):
        s = gen.fb_data_slice(b, slice_)
        e = corpus.fb_extra(b, extra) if extra is not None else None
        b.StartObject(7)
        if prev_offset is not None:
            b.PrependUint64Slot(1, prev_offset, None)  # optional scalar: always written
        b.PrependUOffsetTRelativeSlot(2, s, 0)
        if e is not None:
            b.PrependUOffsetTRelativeSlot(6, e, 0)
        return b.EndObject()
    return fn


def write(path: pathlib.Path, rows, objects, summary=None, string_view=False, ipc=False):
    """A dataset at `path`: Seed, SetDataSchema(FIELDS), one AddData of `rows` ((link or
    None for a null struct, maybe or None) per row), each of `objects` written as
    data/<its name>. `summary` = (numObjectsNaive, sizeNaive) or None. Returns the data
    file's key."""
    for sub in ("blocks", "data", "refs"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    string = pa.string_view() if string_view else pa.string()
    table = pa.table({
        "offset": pa.array(range(len(rows)), pa.int64()),
        "s": pa.array([None if link is None else {"link": link} for link, _ in rows],
                      pa.struct([pa.field("link", string)])),
        "maybe": pa.array([m for _, m in rows], string),
    })
    if ipc:
        sink = pa.BufferOutputStream()
        with pa.ipc.new_file(sink, table.schema) as w:
            w.write_table(table)
        data = sink.getvalue().to_pybytes()
    else:
        data = gen.parquet_bytes(table)
    (path / "data" / name(data)).write_bytes(data)
    for obj in objects:
        (path / "data" / name(obj)).write_bytes(obj)
    extra = None
    if summary is not None:
        extra = json.dumps({"opendatafabric.org/linkedObjects": {
            "numObjectsNaive": summary[0], "sizeNaive": summary[1]}})
    slice_ = {"logical_hash": PLACEHOLDER_LOGICAL, "physical_hash": gen.sha3_multihash(data),
              "offset_interval": (0, len(rows) - 1), "size": len(data)}
    events = [
        (gen.EV_SEED, lambda b: gen.fb_seed(b, {"dataset_id": gen.dataset_id("linked"),
                                                "dataset_kind": gen.DATASET_KIND_ROOT})),
        (EV_SET_DATA_SCHEMA, corpus.set_data_schema(FIELDS)),
        (gen.EV_ADD_DATA, _add_data(slice_, extra)),
    ]
    prev = None
    for seq, (tag, fn) in enumerate(events):
        block = _block(T0 + dt.timedelta(minutes=seq), prev, seq, tag, fn)
        prev = gen.sha3_multihash(block)
        (path / "blocks" / gen.multibase16(prev)).write_bytes(block)
    (path / "refs" / "head").write_text(gen.multibase16(prev))
    return f"data/{name(data)}"
