"""The published JSON Schemas of the --json documents (docs/schemas/, json_schemas.py): each
is a valid Draft 2020-12 schema named after its file; one command of every kind prints a
document naming its schema, which the `run` fixture validates (as it does every --json
output of these tests); a document that breaks its schema is caught."""
import json

import pytest

from json_schemas import SCHEMAS, check_document
from test_compare_datasets import table, write_dataset

import jsonschema

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

KINDS = ["physical", "logical", "check", "slice", "decode", "verify", "verify-query",
         "compare-files", "compare-unordered", "compare-keyed", "compare-datasets", "fetch"]
# Version 2: problems' expected/actual values as numbers with a unit (verify, fetch; a dataset
# comparison's sides), a slice's offsets as start/end (compare-datasets).
VERSIONS = {kind: 1 for kind in KINDS} | {"verify": 2, "fetch": 2, "compare-datasets": 2}


def test_every_schema_is_valid_and_named_after_its_file():
    names = sorted(p.name[: -len(".schema.json")] for p in SCHEMAS.glob("*.schema.json"))
    assert names == sorted(KINDS)
    for name in names:
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$id"] == f"odf-hash/{name}/{VERSIONS[name]}"
        assert schema["properties"]["schema"]["const"] == schema["$id"]
        assert "schema" in schema["required"]


@pytest.fixture
def files(tmp_path):
    a = pa.table({"offset": pa.array(range(10), pa.int64()), "v": pa.array(range(10), pa.int64())})
    b = a.set_column(1, "v", pa.array([0] * 10, pa.int64()))
    pq.write_table(a, tmp_path / "a.parquet")
    pq.write_table(b, tmp_path / "b.parquet")
    return tmp_path / "a.parquet", tmp_path / "b.parquet"


def test_every_command_names_its_schema(run, tmp_path, files):
    a, b = files
    write_dataset(tmp_path / "da", [table(0, 10), table(10, 5)])
    write_dataset(tmp_path / "db", [table(0, 10), table(10, 5, change=12)])
    listed = run("physical", a)
    (tmp_path / "list").write_text(listed.out)
    cases = {
        "physical": ("physical", "--json", a),
        "logical": ("logical", "--json", a),
        "check": ("physical", "--json", "-c", tmp_path / "list"),
        "slice": ("slice", "--json", a),
        "decode": ("decode", "--json", listed.out.split()[0]),
        "verify": ("verify", "--json", tmp_path / "da"),
        "compare-files": ("compare", "--json", a, b),
        "compare-unordered": ("compare", "--json", "--ignore-order", a, b),
        "compare-keyed": ("compare", "--json", "--key", "offset", a, b),
        "compare-datasets": ("compare", "--json", tmp_path / "da", tmp_path / "db"),
        "fetch": ("fetch", "--json", tmp_path / "da", tmp_path / "fetched"),
    }
    for kind, args in cases.items():
        r = run(*args)  # validated against the schema it names by the fixture
        assert r.rc in (0, 1), (kind, r)
        assert json.loads(r.out)["schema"] == f"odf-hash/{kind}/{VERSIONS[kind]}", (
            kind, r.out[:200])


def test_a_document_that_breaks_its_schema_is_caught(run, files):
    a, _ = files
    doc = json.loads(run("physical", "--json", a).out)
    check_document(json.dumps(doc))
    for broken in (
        {k: v for k, v in doc.items() if k != "files"},           # a required field gone
        {**doc, "files": [{**doc["files"][0], "size": "72 bytes"}]},  # a number as text
        {**doc, "schema": "odf-hash/physical/2"},                  # another version
    ):
        with pytest.raises((AssertionError, FileNotFoundError)):
            check_document(json.dumps(broken))


def test_problem_values_are_numbers_in_version_2(run, tmp_path):
    """verify/2: a size is a number with its unit; version 1's "2044 bytes" text is caught."""
    write_dataset(tmp_path / "da", [table(0, 10)])
    data = next((tmp_path / "da" / "data").iterdir())
    size = data.stat().st_size
    with open(data, "ab") as f:
        f.write(b"xyz")
    r = run("verify", "--json", tmp_path / "da")  # validated by the fixture
    assert r.rc == 1, r
    doc = json.loads(r.out)
    (p,) = doc["datasets"][0]["problems"]
    assert (p["kind"], p["expected"], p["actual"], p["unit"]) == (
        "size-mismatch", size, size + 3, "bytes")
    for broken in ({**p, "expected": f"{size} bytes"}, {**p, "unit": "megabytes"},
                   {**p, "actual": -1}, {k: v for k, v in p.items() if k != "unit"}):
        bad = json.loads(r.out)
        bad["datasets"][0]["problems"] = [broken]
        with pytest.raises(AssertionError):
            check_document(json.dumps(bad))
