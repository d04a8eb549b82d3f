"""Shared fixtures of the odf_hash Python tests. Expected values come from the reference
(tests/conformance/*.json, printed by the Rust arrow-digest) or from Python's hashlib."""
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "tests" / "conformance"


def load_vectors():
    return json.loads((CONFORMANCE / "vectors.json").read_text())["vectors"]


def load_unit_vectors():
    return json.loads((CONFORMANCE / "logical_unit_vectors.json").read_text())


def known_failures():
    data = json.loads((CONFORMANCE / "known_failures.json").read_text())
    return set(data.get("vectors", {}))


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def dataset_writer():
    """The CLI tests' ODF dataset writer (tests/cli/test_compare_datasets.py: write_dataset,
    table, stamped), for the dataset comparisons of these tests."""
    pytest.importorskip("flatbuffers")
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "cli"))
    try:
        import test_compare_datasets as w
    finally:
        sys.path.pop(0)
    return w


@pytest.fixture(scope="session")
def vectors():
    return load_vectors()


@pytest.fixture(scope="session")
def unit_vectors():
    return load_unit_vectors()
