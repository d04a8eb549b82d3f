"""`odf-hash compare ORIGINAL_DATASET REPRODUCED_DATASET`: where the metadata chains' contents
differ (transform, inputs, schema, ExecuteTransform's inputs and offsets), field by field.

The derivative datasets are written here (Seed, SetTransform, SetDataSchema, ExecuteTransform;
blocks with the flatbuffers builders of scripts/generate_example_datasets.py and
tests/fuzz/make_block_corpus.py, files named by hashlib's SHA3). Expected values are what each
test wrote: the queries, aliases, ids, types and offsets.
"""
import datetime as dt
import json

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("flatbuffers")

import linked_dataset as ld  # noqa: E402  (tests/cli: the block writers)

gen = ld.gen
corpus = ld.corpus

QUERY = "SELECT id, v * 2 AS v FROM src"


def schema_event(v_type):
    return corpus.typed_schema([("offset", corpus.t_simple(corpus.DT_INT64)),
                                ("v", corpus.t_simple(v_type))])


def execute(input_id, prev_block, new_block, new_offset, slice_):
    def fn(b):
        inp = gen.fb_execute_transform_input(b, {"dataset_id": input_id,
                                                 "prev_block_hash": prev_block,
                                                 "new_block_hash": new_block,
                                                 "new_offset": new_offset})
        inputs = corpus.fb_tables(b, [inp])
        s = gen.fb_data_slice(b, slice_)
        b.StartObject(6)
        b.PrependUOffsetTRelativeSlot(0, inputs, 0)
        b.PrependUOffsetTRelativeSlot(3, s, 0)
        return b.EndObject()
    return fn


def input_blocks(input_name, consumed):
    """The input's (prev, new) block hashes consumed: the same input (one origin) and the same
    records give the same blocks; another input's differ (its system times)."""
    return (gen.sha3_multihash(f"{input_name}-seed".encode()),
            gen.sha3_multihash(f"{input_name}-{consumed}".encode()))


def write_derivative(path, *, input_name, query=QUERY, v_type=corpus.DT_INT64, consumed=9,
                     minutes=0, transform=None, extra_event=None):
    """Seed, SetTransform(src -> query), SetDataSchema(offset, v), ExecuteTransform (input
    records [0, consumed], output 10 rows). `input_name` makes the input's id (as two
    workspaces that each created their input); `minutes` shifts every system time;
    `extra_event` (tag, writer) goes right after the Seed."""
    for sub in ("blocks", "data", "refs"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    t = pa.table({"offset": pa.array(range(10), pa.int64()),
                  "v": pa.array([i * 2 for i in range(10)], pa.int64())})
    data = gen.parquet_bytes(t)
    (path / "data" / ld.name(data)).write_bytes(data)
    slice_ = {"logical_hash": ld.PLACEHOLDER_LOGICAL, "physical_hash": gen.sha3_multihash(data),
              "offset_interval": (0, 9), "size": len(data)}
    input_id = gen.dataset_id(input_name)
    input_ref = gen.did(input_id)
    blocks = input_blocks(input_name, consumed)
    events = [
        (gen.EV_SEED, lambda b: gen.fb_seed(b, {"dataset_id": gen.dataset_id(str(path)),
                                                "dataset_kind": gen.DATASET_KIND_DERIVATIVE})),
        (corpus.EV_SET_TRANSFORM, transform or corpus.set_transform(
            [(input_ref, "src")], engine="datafusion", queries=[(None, query)])),
        (corpus.EV_SET_DATA_SCHEMA, schema_event(v_type)),
        (gen.EV_EXECUTE_TRANSFORM, execute(input_id, *blocks, consumed, slice_)),
    ]
    if extra_event is not None:
        events.insert(1, extra_event)
    prev = None
    for seq, (tag, fn) in enumerate(events):
        block = ld._block(ld.T0 + dt.timedelta(minutes=minutes + seq), prev, seq, tag, fn)
        prev = gen.sha3_multihash(block)
        (path / "blocks" / gen.multibase16(prev)).write_bytes(block)
    (path / "refs" / "head").write_text(gen.multibase16(prev))
    return input_ref


def differences(run, a, b):
    r = run("compare", "--json", a, b)
    assert r.rc in (0, 1), r
    return r.rc, json.loads(r.out)["chain_differences"]


def test_same_transform_in_another_workspace(run, tmp_path):
    ref_a = write_derivative(tmp_path / "a", input_name="src-in-workspace-1")
    ref_b = write_derivative(tmp_path / "b", input_name="src-in-workspace-2", minutes=90)
    rc, diffs = differences(run, tmp_path / "a", tmp_path / "b")
    assert rc == 0
    # Only the input's identity differs: system times, block hashes and the datasets' own ids
    # are never differences of a reproduction.
    assert diffs == [
        {"sequence_number": 1, "reproduced_sequence_number": 1, "event": "SetTransform",
         "field": "SetTransform.inputs[src].datasetRef", "original": ref_a,
         "reproduced": ref_b, "identity_only": True},
        {"sequence_number": 3, "reproduced_sequence_number": 3, "event": "ExecuteTransform",
         "field": "ExecuteTransform.queryInputs[0].datasetId", "original": ref_a,
         "reproduced": ref_b, "identity_only": True},
    ]
    text = run("compare", tmp_path / "a", tmp_path / "b").out
    assert "contents    2 differences (2 only in input dataset ids)" in text
    assert "input identity only" in text
    # The same input pulled from one origin: nothing differs.
    write_derivative(tmp_path / "c", input_name="src-in-workspace-1", minutes=5)
    assert differences(run, tmp_path / "a", tmp_path / "c") == (0, [])
    assert "contents    the same transform, inputs, schema and sources" in run(
        "compare", tmp_path / "a", tmp_path / "c").out


def test_query_schema_and_consumed_offsets_named(run, tmp_path):
    other = "SELECT id, v * 3 AS v FROM src"
    write_derivative(tmp_path / "a", input_name="src")
    write_derivative(tmp_path / "b", input_name="src", query=other, v_type=corpus.DT_INT32,
                     consumed=7)
    rc, diffs = differences(run, tmp_path / "a", tmp_path / "b")
    assert rc == 0  # the records are the same: only they decide the exit code
    # The same input (one id): the blocks of it consumed are compared too.
    new_9, new_7 = (gen.multibase16(input_blocks("src", n)[1]) for n in (9, 7))
    assert [(d["field"], d["original"], d["reproduced"], d["identity_only"]) for d in diffs] == [
        ("SetTransform.transform.queries[0].query", QUERY, other, False),
        ("SetDataSchema.schema.v.type", "Int64", "Int32", False),
        ("ExecuteTransform.queryInputs[0].newBlockHash", new_9, new_7, False),
        ("ExecuteTransform.queryInputs[0].newOffset", "9", "7", False),
    ]
    text = run("compare", tmp_path / "a", tmp_path / "b").out
    assert "block 1 SetTransform.transform.queries[0].query" in text
    assert f"original    {QUERY}" in text and f"reproduced  {other}" in text


def test_events_paired_by_occurrence_across_an_extra_block(run, tmp_path):
    # The reproduction has a SetInfo after its Seed: the kinds diverge at block 1, yet its
    # SetTransform (block 2) and SetDataSchema (block 3) are compared with the original's
    # (blocks 1 and 2); ExecuteTransforms only line up before the divergence.
    other = "SELECT 7 AS v"
    info = (gen.EV_SET_INFO, lambda b: gen.fb_set_info(b, {"description": "again",
                                                           "keywords": []}))
    write_derivative(tmp_path / "a", input_name="src")
    write_derivative(tmp_path / "b", input_name="src", query=other, v_type=corpus.DT_INT32,
                     consumed=3, extra_event=info)
    r = run("compare", "--json", tmp_path / "a", tmp_path / "b")
    doc = json.loads(r.out)
    assert doc["chain_divergence"] == {"sequence_number": 1, "original": "SetTransform",
                                       "reproduced": "SetInfo"}
    assert [(d["sequence_number"], d["reproduced_sequence_number"], d["field"], d["original"],
             d["reproduced"]) for d in doc["chain_differences"]] == [
        (1, 2, "SetTransform.transform.queries[0].query", QUERY, other),
        (2, 3, "SetDataSchema.schema.v.type", "Int64", "Int32"),
    ]
    assert "block 1 (reproduced 2) SetTransform.transform.queries[0].query" in run(
        "compare", tmp_path / "a", tmp_path / "b").out


def test_inputs_matched_by_alias_and_long_values_cut_in_text(run, tmp_path):
    long_query = "SELECT\n" + ", ".join(f"c{i}" for i in range(400)) + "\nFROM src"
    ref = gen.did(gen.dataset_id("src"))
    write_derivative(tmp_path / "a", input_name="src", transform=corpus.set_transform(
        [(ref, "src"), ("did:odf:fed01aa", "dim")], engine="datafusion",
        queries=[(None, long_query)]))
    write_derivative(tmp_path / "b", input_name="src", transform=corpus.set_transform(
        [("did:odf:fed01bb", "other"), (ref, "src")], engine="spark",
        queries=[(None, long_query + " WHERE 1")]))
    rc, diffs = differences(run, tmp_path / "a", tmp_path / "b")
    assert [(d["field"], d["original"], d["reproduced"]) for d in diffs] == [
        ("SetTransform.inputs[dim]", "did:odf:fed01aa", "(absent)"),
        ("SetTransform.inputs[other]", "(absent)", "did:odf:fed01bb"),
        ("SetTransform.transform.engine", "datafusion", "spark"),
        ("SetTransform.transform.queries[0].query", long_query, long_query + " WHERE 1"),
    ]
    assert not any(d["identity_only"] for d in diffs)
    text = run("compare", tmp_path / "a", tmp_path / "b").out
    # Cut and escaped in the text report (the newline as \x0a), whole in the JSON.
    assert f"... ({len(long_query)} bytes)" in text
    assert "original    SELECT\\x0ac0, c1, c2" in text
    assert max(len(line) for line in text.splitlines()) < 400


def test_shared_strings_cannot_blow_up_the_reader(run, tmp_path):
    # A temporal table whose primary key repeats one offset to one string 1.2 million times:
    # a 5 MB block describing 130 MB of text. Refused as too large, not read.
    def huge(b):
        key = b.CreateString("k" * 100)
        b.StartVector(4, 1_200_000, 4)
        for _ in range(1_200_000):
            b.PrependUOffsetTRelative(key)
        keys = b.EndVector()
        name = b.CreateString("t")
        b.StartObject(2)
        b.PrependUOffsetTRelativeSlot(0, name, 0)
        b.PrependUOffsetTRelativeSlot(1, keys, 0)
        table = b.EndObject()
        tables = corpus.fb_tables(b, [table])
        b.StartObject(5)
        b.PrependUOffsetTRelativeSlot(4, tables, 0)
        sql = b.EndObject()
        b.StartObject(3)
        b.PrependUint8Slot(1, corpus.TRANSFORM_SQL, 0)
        b.PrependUOffsetTRelativeSlot(2, sql, 0)
        return b.EndObject()

    write_derivative(tmp_path / "a", input_name="src", transform=huge)
    write_derivative(tmp_path / "b", input_name="src")
    r = run("verify", "--json", tmp_path / "a")
    assert r.rc != 0
    assert "SetTransform.transform.temporalTables is too large to read" in r.out + r.err
