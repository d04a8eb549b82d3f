"""Every `--json` document odf-hash prints names its JSON Schema in a `schema` field
("odf-hash/<name>/<version>", tools/odf-hash/output.h); the schemas are published in
docs/schemas/<name>.schema.json. check_document validates a document against the schema it
names (the CLI tests' `run` fixture calls it on every --json output they produce)."""
import functools
import json
import pathlib

import jsonschema

SCHEMAS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "schemas"


@functools.lru_cache(maxsize=None)
def validator(schema_id):
    _, name, version = schema_id.split("/")
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    assert schema["$id"] == schema_id, (schema["$id"], schema_id)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def check_document(text):
    """The document `text` (one JSON document) validated against the schema it names;
    returns it parsed. Raises AssertionError naming the first mismatch."""
    doc = json.loads(text)
    assert isinstance(doc, dict) and isinstance(doc.get("schema"), str), \
        f"a --json document without its schema field: {text[:200]!r}"
    errors = sorted(validator(doc["schema"]).iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, (f"{doc['schema']}: {errors[0].message} at "
                        f"{'/'.join(map(str, errors[0].path))}")
    return doc
