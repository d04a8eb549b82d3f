#!/usr/bin/env python3
"""Writes the crafted metadata blocks of the odf_block fuzz corpus and their expectations.

    .venv/bin/python tests/fuzz/make_block_corpus.py

Hostile shapes of the nested FlatBuffers surface (the Manifest and the MetadataBlock inside
its content), each written as tests/fuzz/corpus/odf_block/crafted-<name>:
  - every MetadataEvent union member (and an unknown tag) as an empty table, and the tables
    odf-hash reads (DataSlice, Checkpoint, ExecuteTransformInput) with required fields absent;
  - an event tag without its table, a table without its tag, no systemTime;
  - huge and negative lengths and offsets patched into the inner block (vector lengths, the
    root offset, a vtable offset, the vtable size, the event offset), not only the Manifest;
  - Manifests nested in Manifests (deep nesting), and a MetadataBlock whose vtable claims
    far more fields than it has.
tests/data/odf/crafted_blocks.json says what parse_block must answer for each: the event it
reads, or a substring of its error (tests/unit/odf/crafted_blocks_test.cpp checks it, and the
fuzzer replays the files). Blocks are written with the `flatbuffers` Python builder in the
example generator's order (scripts/generate_example_datasets.py), independently of odf-hash.
"""
import datetime as dt
import json
import pathlib
import struct
import sys

import flatbuffers

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import generate_example_datasets as gen  # noqa: E402

CORPUS = ROOT / "tests" / "fuzz" / "corpus" / "odf_block"
EXPECTATIONS = ROOT / "tests" / "data" / "odf" / "crafted_blocks.json"

T0 = dt.datetime(2024, 3, 1, 12, 0, 0, tzinfo=dt.timezone.utc)
HASH = gen.sha3_multihash(b"crafted")
EVENTS = ["AddData", "ExecuteTransform", "Seed", "SetPollingSource", "SetTransform", "SetVocab",
          "SetAttachments", "SetInfo", "SetLicense", "SetDataSchema", "AddPushSource",
          "DisablePushSource", "DisablePollingSource"]

NOT_A_BLOCK = "Manifest.content is not a valid FlatBuffers MetadataBlock"


def empty_table(b):
    b.StartObject(0)
    return b.EndObject()


def inner_block(event_tag, event_fn, system_time=True, event=True, seq=1, prev=HASH):
    b = flatbuffers.Builder(1024)
    prev_vec = gen.fb_bytes(b, prev)
    event_offset = event_fn(b) if event_fn else None
    b.StartObject(5)
    if system_time:
        b.PrependStructSlot(0, gen.fb_timestamp(b, T0), 0)
    if prev_vec is not None:
        b.PrependUOffsetTRelativeSlot(1, prev_vec, 0)
    b.PrependUint64Slot(2, seq, 0)
    if event_tag is not None:
        b.PrependUint8Slot(3, event_tag, 0)
    if event and event_offset is not None:
        b.PrependUOffsetTRelativeSlot(4, event_offset, 0)
    b.Finish(b.EndObject())
    return bytes(b.Output())


def manifest(content, version=3, kind=gen.ODF_METADATA_BLOCK):
    m = flatbuffers.Builder(len(content) + 1024)
    vec = m.CreateByteVector(content)
    m.StartObject(3)
    m.PrependInt64Slot(0, kind, 0)
    m.PrependInt32Slot(1, version, 0)
    m.PrependUOffsetTRelativeSlot(2, vec, 0)
    m.Finish(m.EndObject())
    return bytes(m.Output())


# --- Locating fields in a finished buffer, to patch them --------------------------------


def u32(buf, pos):
    return struct.unpack_from("<I", buf, pos)[0]


def table_field(buf, table, slot):
    """Position of field `slot` of the table at `table`, or None when absent."""
    vtable = table - struct.unpack_from("<i", buf, table)[0]
    vsize = struct.unpack_from("<H", buf, vtable)[0]
    if 4 + 2 * slot >= vsize:
        return None
    off = struct.unpack_from("<H", buf, vtable + 4 + 2 * slot)[0]
    return table + off if off else None


def deref(buf, pos):
    return pos + u32(buf, pos)


def content_start(block):
    """Offset of the inner MetadataBlock bytes within a Manifest."""
    root = u32(block, 0)
    vec = deref(block, table_field(block, root, 2))
    return vec + 4


def patched(block, inner_pos, fmt, value):
    out = bytearray(block)
    struct.pack_into(fmt, out, content_start(block) + inner_pos, value)
    return bytes(out)


def add_data_event(new_data=None, new_checkpoint=None):
    def fn(b):
        return gen.fb_add_data(b, {"new_data": new_data, "new_checkpoint": new_checkpoint,
                                   "prev_offset": 0})
    return fn


SLICE = {"logical_hash": bytes([0x96, 0x80, 0xC0, 0x01, 0x20]) + bytes(32),
         "physical_hash": HASH, "offset_interval": (1, 3), "size": 1234}


# DataType union tags (position in the spec's union, from 1) and ObjectLink attributes.
DT_INT64, DT_OPTION, DT_STRUCT, DT_STRING = 12, 20, 21, 24
OBJECT_LINK = ('{"opendatafabric.org/type":{"kind":"ObjectLink",'
               '"linkType":{"kind":"Multihash"}}}')
OBJECT_LINK_LOWER = '{"opendatafabric.org/type":{"kind":"objectLink"}}'  # a kamu alias


def fb_extra(b, text):
    s = b.CreateString(text)
    b.StartObject(1)
    b.PrependUOffsetTRelativeSlot(0, s, 0)
    return b.EndObject()


def fb_data_type(b, tag, arg):
    """(tag, table offset) of a DataType: Option wraps the type `arg`, Struct has the
    fields `arg`, others are empty tables."""
    if tag == DT_OPTION:
        inner_tag, inner = fb_data_type(b, arg, None)
        b.StartObject(2)
        b.PrependUint8Slot(0, inner_tag, 0)
        b.PrependUOffsetTRelativeSlot(1, inner, 0)
        return tag, b.EndObject()
    if tag == DT_STRUCT:
        fields = fb_fields(b, arg)
        b.StartObject(1)
        b.PrependUOffsetTRelativeSlot(0, fields, 0)
        return tag, b.EndObject()
    return tag, empty_table(b)


def fb_field(b, name, tag, arg, extra):
    n = b.CreateString(name) if name is not None else None
    t_tag, t = fb_data_type(b, tag, arg)
    e = fb_extra(b, extra) if extra is not None else None
    b.StartObject(4)
    if n is not None:
        b.PrependUOffsetTRelativeSlot(0, n, 0)
    b.PrependUint8Slot(1, t_tag, 0)
    b.PrependUOffsetTRelativeSlot(2, t, 0)
    if e is not None:
        b.PrependUOffsetTRelativeSlot(3, e, 0)
    return b.EndObject()


def fb_fields(b, fields):
    offsets = [fb_field(b, *f) for f in fields]
    b.StartVector(4, len(offsets), 4)
    for o in reversed(offsets):
        b.PrependUOffsetTRelative(o)
    return b.EndVector()


def set_data_schema(fields, raw=None, schema_without_fields=False):
    def fn(b):
        raw_vec = b.CreateByteVector(raw) if raw is not None else None
        schema = None
        if fields is not None or schema_without_fields:
            vec = fb_fields(b, fields) if fields is not None else None
            b.StartObject(2)
            if vec is not None:
                b.PrependUOffsetTRelativeSlot(0, vec, 0)
            schema = b.EndObject()
        b.StartObject(2)
        if raw_vec is not None:
            b.PrependUOffsetTRelativeSlot(0, raw_vec, 0)
        if schema is not None:
            b.PrependUOffsetTRelativeSlot(1, schema, 0)
        return b.EndObject()
    return fn


def add_data_extra(text):
    def fn(b):
        e = fb_extra(b, text)
        b.StartObject(7)
        b.PrependUOffsetTRelativeSlot(6, e, 0)
        return b.EndObject()
    return fn


def main():
    cases = {}  # name -> (bytes, expectation)

    def ok(name, data, event):
        cases[name] = (data, {"event": event})

    def bad(name, data, error):
        cases[name] = (data, {"error": error})

    # Every union member as an empty table, and a tag newer than the schema.
    for tag, name in enumerate(EVENTS, start=1):
        block = manifest(inner_block(tag, empty_table, seq=1))
        if name == "Seed":
            bad(f"empty-event-{name}", block, "Seed.datasetId is missing")
        elif name == "ExecuteTransform":
            bad(f"empty-event-{name}", block, "ExecuteTransform.queryInputs is missing")
        else:
            ok(f"empty-event-{name}", block, name)
    ok("unknown-event-tag", manifest(inner_block(42, empty_table)), "Unknown")

    # Required fields absent inside the events odf-hash reads.
    def empty_slice(b):
        b.StartObject(4)
        return b.EndObject()

    def slice_without_interval(b):
        logical = b.CreateByteVector(SLICE["logical_hash"])
        physical = b.CreateByteVector(SLICE["physical_hash"])
        b.StartObject(4)
        b.PrependUOffsetTRelativeSlot(0, logical, 0)
        b.PrependUOffsetTRelativeSlot(1, physical, 0)
        b.PrependUint64Slot(3, 1, 0)
        return b.EndObject()

    def add_data_with(slice_fn=None, checkpoint_fn=None):
        def fn(b):
            s = slice_fn(b) if slice_fn else None
            c = checkpoint_fn(b) if checkpoint_fn else None
            b.StartObject(7)
            if s is not None:
                b.PrependUOffsetTRelativeSlot(2, s, 0)
            if c is not None:
                b.PrependUOffsetTRelativeSlot(3, c, 0)
            return b.EndObject()
        return fn

    bad("add-data-empty-new-data", manifest(inner_block(1, add_data_with(empty_slice))),
        "AddData.newData.logicalHash is missing")
    bad("add-data-new-data-without-interval",
        manifest(inner_block(1, add_data_with(slice_without_interval))),
        "AddData.newData.offsetInterval is missing")
    bad("add-data-empty-new-checkpoint",
        manifest(inner_block(1, add_data_with(checkpoint_fn=empty_table))),
        "AddData.newCheckpoint.physicalHash is missing")

    def transform_with(inputs_fn, slice_fn=None):
        def fn(b):
            inputs = inputs_fn(b)
            s = slice_fn(b) if slice_fn else None
            b.StartObject(6)
            b.PrependUOffsetTRelativeSlot(0, inputs, 0)
            if s is not None:
                b.PrependUOffsetTRelativeSlot(3, s, 0)
            return b.EndObject()
        return fn

    def inputs_of(tables_fn):
        def fn(b):
            tables = tables_fn(b)
            b.StartVector(4, len(tables), 4)
            for t in reversed(tables):
                b.PrependUOffsetTRelative(t)
            return b.EndVector()
        return fn

    def one_good_one_empty_input(b):
        good = gen.fb_execute_transform_input(b, {"dataset_id": HASH})
        return [good, empty_table(b)]

    bad("execute-transform-input-without-dataset-id",
        manifest(inner_block(2, transform_with(inputs_of(one_good_one_empty_input)))),
        "ExecuteTransform.queryInputs[1].datasetId is missing")
    bad("execute-transform-empty-new-data",
        manifest(inner_block(2, transform_with(inputs_of(lambda b: []), empty_slice))),
        "ExecuteTransform.newData.logicalHash is missing")
    ok("execute-transform-no-inputs", manifest(inner_block(2, transform_with(inputs_of(
        lambda b: [])))), "ExecuteTransform")

    # The union's two halves apart, and no systemTime.
    bad("event-tag-without-table", manifest(inner_block(1, add_data_event(), event=False)),
        "the block has no event")
    bad("event-table-without-tag", manifest(inner_block(None, add_data_event())),
        "the block has no event")
    bad("no-system-time", manifest(inner_block(1, add_data_event(), system_time=False)),
        "MetadataBlock.systemTime is missing")

    # Huge and negative lengths and offsets inside the inner block.
    good = manifest(inner_block(1, add_data_event(SLICE, {"physical_hash": HASH, "size": 7})))
    ok("good-add-data", good, "AddData")
    inner = good[content_start(good):]
    root = u32(inner, 0)
    vtable = root - struct.unpack_from("<i", inner, root)[0]
    prev_vec = deref(inner, table_field(inner, root, 1))
    event_field = table_field(inner, root, 4)
    event = deref(inner, event_field)
    new_data = deref(inner, table_field(inner, event, 2))
    logical_vec = deref(inner, table_field(inner, new_data, 0))
    for name, pos, fmt, value in [
        ("inner-prev-hash-length-huge", prev_vec, "<I", 0xFFFFFFFF),
        ("inner-prev-hash-length-2g", prev_vec, "<I", 0x7FFFFFFF),
        ("inner-logical-hash-length-huge", logical_vec, "<I", 0xFFFFFFF0),
        ("inner-root-offset-huge", 0, "<I", 0xFFFFFFF0),
        ("inner-root-offset-negative", 0, "<i", -8),
        ("inner-vtable-offset-most-negative", root, "<i", -0x80000000),
        ("inner-vtable-offset-past-end", root, "<i", -0x7FFFFFF0),
        ("inner-vtable-size-huge", vtable, "<H", 0xFFFF),
        ("inner-event-offset-huge", event_field, "<I", 0xFFFFFFFC),
        ("inner-event-offset-to-itself", event_field, "<I", 0),
    ]:
        bad(name, patched(good, pos, fmt, value), NOT_A_BLOCK)
    # The vtable's table-size field is not used by readers (each field is checked on its
    # own): a huge one is harmless and the block still reads.
    ok("inner-table-size-huge", patched(good, vtable + 2, "<H", 0xFFFF), "AddData")
    outer_root = u32(good, 0)
    content_vec = deref(good, table_field(good, outer_root, 2))
    for name, value in [("manifest-content-length-huge", 0xFFFFFFFF),
                        ("manifest-content-length-2g", 0x7FFFFFFF)]:
        out = bytearray(good)
        struct.pack_into("<I", out, content_vec, value)
        bad(name, bytes(out), "not a valid FlatBuffers Manifest")

    # Deep nesting: Manifests inside Manifests; a vtable claiming 30000 fields.
    nested = inner_block(1, add_data_event())
    for _ in range(64):
        nested = manifest(nested)
    bad("nested-manifests-64-deep", nested, NOT_A_BLOCK)
    wide = bytearray(good)
    struct.pack_into("<H", wide, content_start(good) + vtable, 60000)
    bad("inner-vtable-claims-30000-fields", bytes(wide), NOT_A_BLOCK)

    # Linked objects (RFC-017): SetDataSchema's ODF schema with ObjectLink columns, and
    # AddData's linkedObjects summary; extra attributes are JSON text.
    def linked(name, data, event, **fields):
        cases[name] = (data, {"event": event, **fields})

    linked("set-data-schema-object-links", manifest(inner_block(10, set_data_schema([
        ("offset", DT_INT64, None, None),
        ("content_hash", DT_STRING, None, OBJECT_LINK),
        ("maybe", DT_OPTION, DT_STRING, OBJECT_LINK_LOWER),
        ("s", DT_STRUCT, [("inner", DT_STRING, None, OBJECT_LINK)], None),
        ("described", DT_STRING, None, '{"opendatafabric.org/description":"x"}'),
    ]))), "SetDataSchema", object_links=["content_hash", "maybe", "s.inner"])
    linked("set-data-schema-legacy-arrow-bytes",
           manifest(inner_block(10, set_data_schema(None, raw=b"\x10\x00\x00\x00"))),
           "SetDataSchema", object_links=[])
    linked("set-data-schema-version-2", manifest(inner_block(10, set_data_schema([
        ("content_hash", DT_STRING, None, OBJECT_LINK)])), version=2), "SetDataSchema",
        object_links=["content_hash"])
    bad("set-data-schema-extra-not-json", manifest(inner_block(10, set_data_schema([
        ("content_hash", DT_STRING, None, '{"opendatafabric.org/type": ')]))),
        "SetDataSchema.schema.fields[0].extra is not a JSON object")
    bad("set-data-schema-extra-a-list", manifest(inner_block(10, set_data_schema([
        ("a", DT_STRING, None, "[1, 2]")]))),
        "SetDataSchema.schema.fields[0].extra is not a JSON object")
    bad("set-data-schema-type-without-kind", manifest(inner_block(10, set_data_schema([
        ("a", DT_STRING, None, '{"opendatafabric.org/type": {"linkType": {}}}')]))),
        'has no string "kind"')
    bad("set-data-schema-field-without-name", manifest(inner_block(10, set_data_schema([
        (None, DT_STRING, None, OBJECT_LINK)]))),
        "SetDataSchema.schema.fields[0].name is missing")
    bad("set-data-schema-no-fields", manifest(inner_block(10, set_data_schema(None,
        schema_without_fields=True))), "SetDataSchema.schema.fields is missing")
    linked("add-data-linked-objects", manifest(inner_block(1, add_data_extra(
        '{"opendatafabric.org/linkedObjects":{"numObjectsNaive":2,"sizeNaive":8}}'))),
        "AddData", linked_objects=[2, 8])
    linked("add-data-other-extra", manifest(inner_block(1, add_data_extra('{"x": 1}'))),
           "AddData")
    bad("add-data-linked-objects-negative", manifest(inner_block(1, add_data_extra(
        '{"opendatafabric.org/linkedObjects":{"numObjectsNaive":-1,"sizeNaive":8}}'))),
        "is not {numObjectsNaive, sizeNaive}")
    bad("add-data-linked-objects-missing-size", manifest(inner_block(1, add_data_extra(
        '{"opendatafabric.org/linkedObjects":{"numObjectsNaive":1}}'))),
        "is not {numObjectsNaive, sizeNaive}")
    bad("add-data-extra-not-object", manifest(inner_block(1, add_data_extra('"text"'))),
        "AddData.extra is not a JSON object")

    CORPUS.mkdir(parents=True, exist_ok=True)
    for old in CORPUS.glob("crafted-*"):
        old.unlink()
    expectations = {}
    for name, (data, expect) in sorted(cases.items()):
        (CORPUS / f"crafted-{name}").write_bytes(data)
        expectations[f"crafted-{name}"] = expect
    EXPECTATIONS.write_text(json.dumps(expectations, indent=1, sort_keys=True) + "\n")
    print(f"make_block_corpus: {len(cases)} blocks in {CORPUS}")


if __name__ == "__main__":
    main()
