"""odf_hash.verify_query: kamu nodes' signed query answers checked offline, over the answers
recorded from kamu 0.265 nodes (tests/data/query/, each accepted by the node's own POST
/verify) and kamu's published answer. Changed answers are rebuilt and signed again by
tests/cli/kamu_answers.py (hashlib, cryptography), never by odf_hash."""
import json
import pathlib
import sys

import pytest

import odf_hash

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "query"
MANIFEST = json.loads((DATA / "vectors.json").read_text())
DID = {k: v["did"] for k, v in MANIFEST["keys"].items()}
FOLDERS = {name: DATA / d["folder"] for name, d in MANIFEST["datasets"].items()}


@pytest.fixture(scope="module")
def ka():
    sys.path.insert(0, str(ROOT / "tests" / "cli"))
    try:
        import kamu_answers
    finally:
        sys.path.pop(0)
    return kamu_answers


def raw(name):
    return (DATA / "answers" / f"{name}.json").read_bytes()


@pytest.mark.parametrize("name", [a["name"] for a in MANIFEST["answers"]])
def test_recorded_answers_verify(ka, name):
    doc = ka.load(raw(name))
    check = odf_hash.verify_query(raw(name), trust=[DID["A"], DID["B"]])
    assert check and check.verdict == "valid", check.summary
    q = check.queries[0]
    assert q.path == "" and q.query == doc["input"]["query"]
    assert q.input.computed == doc["commitment"]["inputHash"]
    assert q.output.computed == doc["commitment"]["outputHash"]
    assert q.sub_queries.computed == doc["commitment"]["subQueriesHash"]
    assert q.signature.status == "valid" and q.signature.trusted
    assert [t.alias for t in q.datasets] == [d["alias"] for d in doc["input"]["datasets"]]
    assert check.to_dict()["verdict"] == "valid"


def test_untrusted_key_and_trust_file(tmp_path):
    check = odf_hash.verify_query(raw("aos"))
    assert not check and check.verdict == "untrusted"
    assert check.findings == [f"key {DID['A']}"]
    assert check.queries[0].signature.status == "valid"
    trust = tmp_path / "trusted"
    trust.write_text(f"{DID['A']} kamu node\n")
    check = odf_hash.verify_query(DATA / "answers" / "aos.json", trust_files=[trust])
    assert check.verdict == "valid"
    assert check.queries[0].signature.trusted_name == "kamu node"
    assert check.queries[0].signature.trusted_source == f"{trust}:1"


def test_changes_fail_naming_their_part(ka):
    doc = ka.load(raw("aos"))
    doc["output"]["data"][0]["s"] = "Be"
    check = odf_hash.verify_query(ka.dump(doc), trust=[DID["A"]])
    assert check.verdict == "mismatch" and check.findings == ["output hash"]
    assert check.queries[0].output.computed == ka.multihash(ka.canonical(doc["output"]))
    # Signed again by the node's key (as a node would): valid.
    signer = ka.Signer(bytes.fromhex(MANIFEST["keys"]["A"]["seed"]))
    assert odf_hash.verify_query(ka.dump(ka.resign(doc, signer)), trust=[DID["A"]])
    doc = ka.load(raw("sub-queries"))
    doc["subQueries"][1]["subQueries"][0]["input"]["query"] += " "
    check = odf_hash.verify_query(ka.dump(doc), trust=[DID["A"], DID["B"]])
    assert check.findings == ["sub-queries hash", "subQueries[1]: sub-queries hash",
                              "subQueries[1].subQueries[0]: input hash"]


def test_dataset_ties():
    check = odf_hash.verify_query(raw("join"), trust=[DID["A"]],
                                  datasets={"mix": FOLDERS["mix"], "cities": FOLDERS["cities"]})
    assert check.verdict == "valid"
    assert [t.tie for t in check.queries[0].datasets] == ["on-chain", "on-chain"]
    assert check.queries[0].datasets[1].copy["valid"] is True
    check = odf_hash.verify_query(raw("aos"), trust=[DID["A"]],
                                  datasets=[f"mix={FOLDERS['mix-rewritten']}"])
    assert check.verdict == "mismatch"
    tie = check.queries[0].datasets[0]
    assert tie.tie == "not-on-chain"
    assert "computed over a history this copy does not contain" in tie.message


def test_errors():
    with pytest.raises(odf_hash.InvalidInputError, match="malformed JSON"):
        odf_hash.verify_query(b'{"input":')
    with pytest.raises(odf_hash.InvalidInputError, match="nested deeper"):
        odf_hash.verify_query(b"[" * 100000)
    with pytest.raises(odf_hash.InvalidInputError, match="parsed document"):
        odf_hash.verify_query(json.loads(raw("aos")))
    with pytest.raises(odf_hash.InvalidInputError, match="more than"):
        odf_hash.verify_query(raw("aos"), max_bytes=100)
    with pytest.raises(odf_hash.InvalidInputError, match="not an Ed25519 did:key"):
        odf_hash.verify_query(raw("aos"), trust=["did:key:nope"])
    with pytest.raises(odf_hash.InvalidInputError, match="no input dataset of that id or alias"):
        odf_hash.verify_query(raw("aos"), datasets={"cities": FOLDERS["cities"]})
    with pytest.raises(odf_hash.NotFoundError):
        odf_hash.verify_query(DATA / "answers" / "nowhere.json")
