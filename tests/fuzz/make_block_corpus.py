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
    far more fields than it has;
  - the events compare reads (SetTransform, SetPollingSource, SetDataSchema's types) with
    their contents, a union value without its type field, newer union members, and string
    lengths patched past the end.
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


# --- The events compare reads (SetTransform, the sources, the full data schema) -----------

EV_SET_POLLING_SOURCE, EV_SET_TRANSFORM, EV_SET_DATA_SCHEMA = 4, 5, 10
TRANSFORM_SQL = 1
FETCH_FILES_GLOB, READ_CSV, MERGE_APPEND = 2, 1, 1
DT_DECIMAL, DT_INT8, DT_INT32, DT_LIST, DT_MAP, DT_TIMESTAMP = 4, 9, 11, 17, 18, 23


def fb_strings(b, values):
    offsets = [b.CreateString(v) for v in values]
    b.StartVector(4, len(offsets), 4)
    for o in reversed(offsets):
        b.PrependUOffsetTRelative(o)
    return b.EndVector()


def fb_tables(b, offsets):
    b.StartVector(4, len(offsets), 4)
    for o in reversed(offsets):
        b.PrependUOffsetTRelative(o)
    return b.EndVector()


def set_transform(inputs, engine=None, version=None, query=None, queries=(), temporal=(),
                  transform_tag=TRANSFORM_SQL):
    """SetTransform {inputs: [TransformInput{datasetRef, alias}], transform: TransformSql
    {engine, version, query, queries: [SqlQueryStep{alias, query}], temporalTables:
    [TemporalTable{name, primaryKey}]}}."""
    def fn(b):
        ins = []
        for ref, alias in inputs:
            r, a = b.CreateString(ref), b.CreateString(alias)
            b.StartObject(2)
            b.PrependUOffsetTRelativeSlot(0, r, 0)
            b.PrependUOffsetTRelativeSlot(1, a, 0)
            ins.append(b.EndObject())
        ins_vec = fb_tables(b, ins)
        steps = []
        for alias, q in queries:
            a = b.CreateString(alias) if alias is not None else None
            qq = b.CreateString(q)
            b.StartObject(2)
            if a is not None:
                b.PrependUOffsetTRelativeSlot(0, a, 0)
            b.PrependUOffsetTRelativeSlot(1, qq, 0)
            steps.append(b.EndObject())
        steps_vec = fb_tables(b, steps) if steps else None
        tables = []
        for name, keys in temporal:
            n, k = b.CreateString(name), fb_strings(b, keys)
            b.StartObject(2)
            b.PrependUOffsetTRelativeSlot(0, n, 0)
            b.PrependUOffsetTRelativeSlot(1, k, 0)
            tables.append(b.EndObject())
        tables_vec = fb_tables(b, tables) if tables else None
        strs = [b.CreateString(v) if v is not None else None for v in (engine, version, query)]
        b.StartObject(5)
        for slot, v in enumerate(strs):
            if v is not None:
                b.PrependUOffsetTRelativeSlot(slot, v, 0)
        if steps_vec is not None:
            b.PrependUOffsetTRelativeSlot(3, steps_vec, 0)
        if tables_vec is not None:
            b.PrependUOffsetTRelativeSlot(4, tables_vec, 0)
        sql = b.EndObject()
        b.StartObject(3)
        b.PrependUOffsetTRelativeSlot(0, ins_vec, 0)
        b.PrependUint8Slot(1, transform_tag, 0)
        b.PrependUOffsetTRelativeSlot(2, sql, 0)
        return b.EndObject()
    return fn


def set_polling_source(path, separator, fetch_tag=FETCH_FILES_GLOB):
    """SetPollingSource {fetch: FetchStepFilesGlob{path}, read: ReadStepCsv{separator},
    merge: MergeStrategyAppend}; fetch_tag None leaves the fetch union's type field out."""
    def fn(b):
        p = b.CreateString(path)
        b.StartObject(6)
        b.PrependUOffsetTRelativeSlot(0, p, 0)
        fetch = b.EndObject()
        sep = b.CreateString(separator)
        b.StartObject(2)
        b.PrependUOffsetTRelativeSlot(1, sep, 0)
        read = b.EndObject()
        merge = empty_table(b)
        b.StartObject(9)
        if fetch_tag is not None:
            b.PrependUint8Slot(0, fetch_tag, 0)
        b.PrependUOffsetTRelativeSlot(1, fetch, 0)
        b.PrependUint8Slot(3, READ_CSV, 0)
        b.PrependUOffsetTRelativeSlot(4, read, 0)
        b.PrependUint8Slot(7, MERGE_APPEND, 0)
        b.PrependUOffsetTRelativeSlot(8, merge, 0)
        return b.EndObject()
    return fn


def fb_typed_field(b, name, type_fn):
    """DataField {name, type} with the type written by type_fn(b) -> (tag, offset)."""
    n = b.CreateString(name)
    tag, t = type_fn(b)
    b.StartObject(4)
    b.PrependUOffsetTRelativeSlot(0, n, 0)
    b.PrependUint8Slot(1, tag, 0)
    b.PrependUOffsetTRelativeSlot(2, t, 0)
    return b.EndObject()


def t_simple(tag):
    return lambda b: (tag, empty_table(b))


def t_timestamp(unit=None, tz=None):
    def fn(b):
        z = b.CreateString(tz) if tz is not None else None
        b.StartObject(2)
        if unit is not None:
            b.PrependInt16Slot(0, unit, None)
        if z is not None:
            b.PrependUOffsetTRelativeSlot(1, z, 0)
        return DT_TIMESTAMP, b.EndObject()
    return fn


def t_decimal(precision, scale):
    def fn(b):
        b.StartObject(2)
        b.PrependUint32Slot(0, precision, 0)
        b.PrependInt32Slot(1, scale, 0)
        return DT_DECIMAL, b.EndObject()
    return fn


def t_list(item_fn, fixed=None):
    def fn(b):
        tag, item = item_fn(b)
        b.StartObject(3)
        b.PrependUint8Slot(0, tag, 0)
        b.PrependUOffsetTRelativeSlot(1, item, 0)
        if fixed is not None:
            b.PrependUint64Slot(2, fixed, None)
        return DT_LIST, b.EndObject()
    return fn


def t_map(key_fn, value_fn):
    def fn(b):
        kt, k = key_fn(b)
        vt, v = value_fn(b)
        b.StartObject(5)
        b.PrependUint8Slot(0, kt, 0)
        b.PrependUOffsetTRelativeSlot(1, k, 0)
        b.PrependUint8Slot(2, vt, 0)
        b.PrependUOffsetTRelativeSlot(3, v, 0)
        return DT_MAP, b.EndObject()
    return fn


def t_option(inner_fn):
    def fn(b):
        tag, inner = inner_fn(b)
        b.StartObject(2)
        b.PrependUint8Slot(0, tag, 0)
        b.PrependUOffsetTRelativeSlot(1, inner, 0)
        return DT_OPTION, b.EndObject()
    return fn


def t_struct(fields):
    def fn(b):
        vec = fb_tables(b, [fb_typed_field(b, n, f) for n, f in fields])
        b.StartObject(1)
        b.PrependUOffsetTRelativeSlot(0, vec, 0)
        return DT_STRUCT, b.EndObject()
    return fn


def typed_schema(fields):
    def fn(b):
        vec = fb_tables(b, [fb_typed_field(b, n, f) for n, f in fields])
        b.StartObject(2)
        b.PrependUOffsetTRelativeSlot(0, vec, 0)
        schema = b.EndObject()
        b.StartObject(2)
        b.PrependUOffsetTRelativeSlot(1, schema, 0)
        return b.EndObject()
    return fn


TYPED_FIELDS = [
    ("ts", t_timestamp(3, "+01:00")),
    ("t2", t_timestamp()),
    ("d", t_decimal(10, 2)),
    ("l", t_list(t_simple(DT_INT64), fixed=3)),
    ("m", t_map(t_simple(DT_STRING), t_option(t_simple(DT_INT32)))),
    ("o", t_option(t_struct([("a", t_simple(DT_INT8))]))),
]
# What the specification says of TYPED_FIELDS (units and time zone defaulted where absent).
TYPED_FIELDS_TEXT = [
    ["ts", "Timestamp(Nanosecond, +01:00)"], ["t2", "Timestamp(Millisecond, UTC)"],
    ["d", "Decimal(10, 2)"], ["l", "List(3)"], ["l[]", "Int64"], ["m", "Map"],
    ["m{key}", "String"], ["m{value}", "Option<Int32>"], ["o", "Option<Struct>"],
    ["o.a", "Int8"],
]


def with_string_length(block, text, length):
    """`block` with the length prefix of the (unique) string `text` replaced."""
    at = block.index(text.encode())
    out = bytearray(block)
    struct.pack_into("<I", out, at - 4, length)
    return bytes(out)


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


    # The events compare reads (event_contents.h): their contents, and malformed ones.
    def contents(name, data, event, **fields):
        cases[name] = (data, {"event": event, **fields})

    transform = set_transform(
        [("did:odf:fed01aa", "left"), ("did:odf:fed01bb", "right")], engine="datafusion",
        version="1.0", queries=[("tmp", "SELECT * FROM left"), (None, "SELECT 1 FROM tmp")],
        temporal=[("right", ["id", "day"])])
    transform_expect = {"inputs": [["did:odf:fed01aa", "left"], ["did:odf:fed01bb", "right"]],
                        "kind": "Sql", "engine": "datafusion", "version": "1.0",
                        "query": None,
                        "queries": [["tmp", "SELECT * FROM left"], [None, "SELECT 1 FROM tmp"]],
                        "temporal_tables": [["right", ["id", "day"]]]}
    contents("set-transform-sql", manifest(inner_block(EV_SET_TRANSFORM, transform)),
             "SetTransform", transform=transform_expect)
    contents("set-transform-version-2", manifest(inner_block(EV_SET_TRANSFORM, transform),
                                                 version=2), "SetTransform",
             transform=transform_expect)
    contents("set-transform-single-query", manifest(inner_block(EV_SET_TRANSFORM, set_transform(
        [("did:odf:fed01aa", "src")], engine="datafusion", query="SELECT 2"))), "SetTransform",
        transform={"inputs": [["did:odf:fed01aa", "src"]], "kind": "Sql",
                   "engine": "datafusion", "version": None, "query": "SELECT 2",
                   "queries": [], "temporal_tables": []})
    contents("set-transform-unknown-kind", manifest(inner_block(EV_SET_TRANSFORM, set_transform(
        [], query="SELECT 3", transform_tag=9))), "SetTransform",
        transform={"inputs": [], "kind": "Unknown(9)", "engine": None, "version": None,
                   "query": None, "queries": [], "temporal_tables": []})
    good_transform = manifest(inner_block(EV_SET_TRANSFORM, transform))
    # Version 2 tolerates a misaligned layout, but not in an event holding vectors of tables:
    # the event offset moved by 2 bytes makes the SetTransform table start misaligned.
    v2 = manifest(inner_block(EV_SET_TRANSFORM, transform), version=2)
    v2_inner = v2[content_start(v2):]
    v2_event = table_field(v2_inner, u32(v2_inner, 0), 4)
    bad("set-transform-version-2-misaligned",
        patched(v2, v2_event, "<I", u32(v2_inner, v2_event) + 2),
        "a version 2 SetTransform, SetPollingSource or AddPushSource must have an aligned layout")
    bad("set-transform-alias-length-huge",
        with_string_length(good_transform, "right", 0x7FFFFFF0), NOT_A_BLOCK)
    bad("set-transform-query-length-past-end",
        with_string_length(good_transform, "SELECT 1 FROM tmp", 0x1000), NOT_A_BLOCK)
    bad("set-transform-primary-key-length-huge",
        with_string_length(good_transform, "day", 0xFFFFFFFF), NOT_A_BLOCK)
    source = manifest(inner_block(EV_SET_POLLING_SOURCE,
                                  set_polling_source("/data/*.csv", ";")))
    contents("set-polling-source", source, "SetPollingSource",
             source='{"fetch":{"kind":"FilesGlob","path":"/data/*.csv"},'
                    '"read":{"kind":"Csv","separator":";"},"merge":{"kind":"Append"}}')
    # A union's value without its type field: read as an unknown member (minireflect's own
    # iteration would dereference the missing type field).
    contents("set-polling-source-fetch-without-type", manifest(inner_block(
        EV_SET_POLLING_SOURCE, set_polling_source("/x", ",", fetch_tag=None))),
        "SetPollingSource", source='{"fetch":{"kind":"Unknown(0)"},'
                                   '"read":{"kind":"Csv","separator":","},'
                                   '"merge":{"kind":"Append"}}')
    contents("set-polling-source-fetch-newer-member", manifest(inner_block(
        EV_SET_POLLING_SOURCE, set_polling_source("/x", ",", fetch_tag=77))),
        "SetPollingSource", source='{"fetch":{"kind":"Unknown(77)"},'
                                   '"read":{"kind":"Csv","separator":","},'
                                   '"merge":{"kind":"Append"}}')
    bad("set-polling-source-path-length-huge",
        with_string_length(source, "/data/*.csv", 0x7FFFFFF0), NOT_A_BLOCK)
    schema_block = manifest(inner_block(EV_SET_DATA_SCHEMA, typed_schema(TYPED_FIELDS)))
    contents("set-data-schema-types", schema_block, "SetDataSchema",
             schema_fields=TYPED_FIELDS_TEXT, object_links=[])
    bad("set-data-schema-timezone-length-huge",
        with_string_length(schema_block, "+01:00", 0x7FFFFFF0), NOT_A_BLOCK)

    # The Seed's dataset id (issue 33: a pin records it beside the head), read as "did:odf:"
    # + multibase16 of its bytes whatever their length; a length past the end is refused.
    def seed(ident):
        return lambda b: gen.fb_seed(b, {"dataset_id": ident,
                                         "dataset_kind": gen.DATASET_KIND_ROOT})

    def seed_block(ident):
        return manifest(inner_block(gen.EV_SEED, seed(ident), seq=0, prev=None))

    key = bytes([0xED, 0x01]) + bytes(range(32))
    contents("seed-dataset-id", seed_block(key), "Seed", dataset_id="did:odf:f" + key.hex())
    contents("seed-dataset-id-empty", seed_block(b""), "Seed", dataset_id="did:odf:f")
    long_key = bytes([0xED, 0x01]) + b"\xab" * 4000
    contents("seed-dataset-id-long", seed_block(long_key), "Seed",
             dataset_id="did:odf:f" + long_key.hex())
    huge = bytearray(seed_block(key))
    struct.pack_into("<I", huge, bytes(huge).index(key) - 4, 0x7FFFFFF0)
    bad("seed-dataset-id-length-huge", bytes(huge), NOT_A_BLOCK)

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
