"""`odf-hash verify-query`: kamu nodes' signed query answers checked offline.

Expected values come from the nodes: the answers recorded from kamu 0.265 api-servers with an
identity key (tests/data/query/, tests/kamu/make_query_vectors.py, each also accepted by the
node's own POST /verify) and kamu's published answer; changed answers are rebuilt and signed
again by kamu_answers.py (hashlib, cryptography), never by odf-hash. The last tests start a
kamu node here (../shared/tools/kamu/kamu) and check its fresh answer.
"""
import json
import os
import pathlib
import subprocess
import tempfile

import pytest

import kamu_answers as ka
from conftest import Ran
from json_schemas import check_document

SOURCE = pathlib.Path(__file__).resolve().parents[2]
DATA = SOURCE / "tests" / "data" / "query"
MANIFEST = json.loads((DATA / "vectors.json").read_text())
PUBLISHED = json.loads((DATA / "kamu_published.json").read_text())
DID = {k: v["did"] for k, v in MANIFEST["keys"].items()}
SIGNER_A = ka.Signer(bytes.fromhex(MANIFEST["keys"]["A"]["seed"]))
DATASETS = {name: DATA / d["folder"] for name, d in MANIFEST["datasets"].items()}
NAMES = [a["name"] for a in MANIFEST["answers"]]
KAMU = pathlib.Path(os.environ.get("ODF_KAMU", SOURCE.parent / "shared" / "tools" / "kamu" / "kamu"))


@pytest.fixture
def vq(odf_hash_bin, tmp_path):
    """Runs `odf-hash verify-query` on an answer given as bytes, a dict (written as a node
    writes it) or a path."""
    def run(answer, *args, stdin=None, env=None):
        if isinstance(answer, dict):
            answer = ka.dump(answer)
        if isinstance(answer, bytes):
            path = tmp_path / "answer.json"
            path.write_bytes(answer)
            answer = path
        p = subprocess.run([odf_hash_bin, "verify-query", *map(str, args), str(answer)],
                           capture_output=True, input=stdin, timeout=120, env=env)
        if "--json" in args and p.returncode in (0, 1) and p.stdout.strip():
            check_document(p.stdout.decode("utf-8"))  # held to its published schema
        return Ran(p)
    return run


def report_of(r: Ran) -> dict:
    assert r.rc in (0, 1, 2, 3), r
    return json.loads(r.out)


def load(name: str) -> dict:
    return ka.load((DATA / "answers" / f"{name}.json").read_bytes())


def signers(query: dict) -> list:
    out = [query["proof"]["verificationMethod"]]
    for sub in query["subQueries"]:
        out += signers(sub)
    return out


def trusting(*dids):
    return [a for d in dids for a in ("--trust", d)]


@pytest.mark.parametrize("name", NAMES)
def test_every_recorded_answer_verifies(vq, name):
    raw = (DATA / "answers" / f"{name}.json").read_bytes()
    doc = ka.load(raw)
    r = vq(raw, "--json", *trusting(*set(signers(doc))))
    assert r.rc == 0, r
    report = report_of(r)
    assert report["verdict"] == "valid" and report["findings"] == []
    q = report["queries"][0]
    for part, key in (("input", "inputHash"), ("output", "outputHash"),
                      ("sub_queries", "subQueriesHash")):
        assert q[part]["status"] == "valid"
        assert q[part]["computed"] == doc["commitment"][key]  # the node's own hash
    assert q["signature"]["status"] == "valid" and q["signature"]["trusted"] is True
    assert len(report["queries"]) == 1 + len(doc["subQueries"]) + sum(
        len(s["subQueries"]) for s in doc["subQueries"])
    # The same answer, no key trusted: valid signature, untrusted key, exit 3.
    r = vq(raw)
    assert r.rc == 3, r
    assert "not in your trusted keys" in r.out
    last = r.out.splitlines()[-1]
    assert last.startswith("result       UNTRUSTED KEY: all valid, signed by "), last
    for did in set(signers(doc)):
        assert last.count(did) == 1, last


def test_kamu_published_answer(vq):
    p = PUBLISHED["test_data_verify_handler"]
    r = vq(json.dumps(p["answer"]).encode(), *trusting(PUBLISHED["key"]["did"]))
    assert r.rc == 0, r
    assert r.out.splitlines()[-1].startswith("result       VALID")
    bad = json.loads(json.dumps(p["answer"]))
    bad["proof"]["proofValue"] = p["bad_proof_value"]
    r = vq(json.dumps(bad).encode(), *trusting(PUBLISHED["key"]["did"]))
    assert r.rc == 1, r
    assert "result       INVALID: signature" in r.out


def test_text_report_names_every_part(vq):
    r = vq(DATA / "answers" / "join.json", *trusting(DID["A"]))
    assert r.rc == 0, r
    doc = load("join")
    labels = [line[:13].strip() for line in r.out.splitlines()]
    for label in ("answer", "query", "dataset", "block", "tie", "input hash", "output hash",
                  "subqueries", "signature", "key", "result"):
        assert label in labels, (label, r.out)
    assert f"input hash   valid     {doc['commitment']['inputHash']}" in r.out
    assert f"signature    valid     Ed25519Signature2020 by {DID['A']}" in r.out
    assert "key          trusted (--trust)" in r.out


def changed(name, change, resign=False):
    doc = load(name)
    change(doc)
    return ka.resign(doc, SIGNER_A) if resign else doc


def _drop_dataset(d):
    d["input"]["datasets"].pop()


def _swap_signature(d):
    d["proof"]["proofValue"] = load("aoa")["proof"]["proofValue"]


def _swap_key(d):
    d["proof"]["verificationMethod"] = DID["B"]


def _change_value(d):
    d["output"]["data"][0]["s"] = "Be"


def _change_query(d):
    d["input"]["query"] = d["input"]["query"].replace("desc", "asc")


def _change_sub_query(d):
    d["subQueries"][0]["input"]["query"] += " "


@pytest.mark.parametrize("name,change,findings", [
    ("aos", _change_value, ["output hash"]),
    ("aos", _change_query, ["input hash"]),
    ("join", _drop_dataset, ["input hash"]),
    ("aos", _swap_signature, ["signature"]),
    ("aos", _swap_key, ["signature"]),
    ("sub-queries", _change_sub_query, ["sub-queries hash", "subQueries[0]: input hash"]),
], ids=["value", "query", "dataset", "signature", "key", "sub-query"])
def test_each_change_fails_naming_its_part(vq, name, change, findings):
    doc = changed(name, change)
    r = vq(doc, "--json", *trusting(DID["A"], DID["B"]))
    assert r.rc == 1, r
    report = report_of(r)
    assert report["verdict"] == "mismatch"
    assert report["findings"] == findings
    assert report["summary"] == "INVALID: " + ", ".join(findings)
    # A changed part's hash is the one hashlib computes over the changed part.
    q = report["queries"][0]
    assert q["input"]["computed"] == ka.multihash(ka.canonical(doc["input"]))
    assert q["output"]["computed"] == ka.multihash(ka.canonical(doc["output"]))
    # In text: the part, what the commitment says and what it hashes to.
    text = vq(doc, *trusting(DID["A"], DID["B"]))
    assert text.rc == 1 and "MISMATCH" in text.out, text


def test_a_changed_answer_signed_again_by_the_key_verifies(vq):
    """Values no node wrote (hashed and signed by kamu_answers.py, as a node would): the
    canonical form holds beyond the recorded answers."""
    def change(d):
        d["output"]["data"][0]["s"] = "\u00e9\u0000\u2028\U0001f600\"\\/\x7f"
        d["output"]["data"][0]["f"] = ka.Number("-1.50e-300")
        d["input"]["query"] += " -- \u4e2d\t"
    r = vq(changed("aos", change, resign=True), *trusting(DID["A"]))
    assert r.rc == 0, r


def test_signature_types_not_checked_are_unsupported(vq):
    doc = load("get")
    doc["proof"]["type"] = "EcdsaSecp256k1Signature2019"
    r = vq(doc, "--json", *trusting(DID["A"]))
    assert r.rc == 2, r
    report = report_of(r)
    assert report["verdict"] == "unsupported"
    assert report["queries"][0]["signature"]["status"] == "unsupported"
    assert report["queries"][0]["input"]["status"] == "valid"
    r = vq(doc, *trusting(DID["A"]))
    assert "UNSUPPORTED" in r.out and "VALID" not in r.out.splitlines()[-1].split(":")[0]


def test_trust_file(vq, tmp_path):
    trust = tmp_path / "trusted"
    trust.write_text(f"# our nodes\n\n{DID['B']}\n{DID['A']}   data team node  \n")
    r = vq(DATA / "answers" / "aos.json", "--trust-file", trust)
    assert r.rc == 0, r
    assert f'key          trusted as "data team node" ({trust}:4)' in r.out
    r = vq(DATA / "answers" / "aos.json", "--json", "--trust-file", trust)
    sig = report_of(r)["queries"][0]["signature"]
    assert sig["trusted_name"] == "data team node" and sig["trusted_source"] == f"{trust}:4"
    # Only B trusted: A's answer is untrusted.
    trust.write_text(f"{DID['B']} other\n")
    assert vq(DATA / "answers" / "aos.json", "--trust-file", trust).rc == 3
    # A bad line: exit 2, naming the line.
    trust.write_text(f"{DID['B']}\nnot-a-did\n")
    r = vq(DATA / "answers" / "aos.json", "--trust-file", trust)
    assert r.rc == 2 and f"{trust}:2" in r.err, r
    r = vq(DATA / "answers" / "aos.json", "--trust", "did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme")
    assert r.rc == 2 and "secp256k1" in r.err, r


def test_dataset_ties(vq):
    mix = MANIFEST["datasets"]["mix"]
    # The answer's block is the copy's head.
    r = vq(DATA / "answers" / "aos.json", "--json", *trusting(DID["A"]),
           "--dataset", f"mix={DATASETS['mix']}")
    assert r.rc == 0, r
    tie = report_of(r)["queries"][0]["datasets"][0]
    assert tie["tie"] == "on-chain" and tie["block_hash"] == mix["head"]
    assert tie["copy"]["valid"] is True
    # Answered before the second pull: its block is on the chain below the head.
    before = load("before")
    assert before["input"]["datasets"][0]["blockHash"] == mix["first_head"]
    r = vq(DATA / "answers" / "before.json", *trusting(DID["A"]),
           "--dataset", f"{mix['id']}={DATASETS['mix']}")
    assert r.rc == 0 and "ON CHAIN" in r.out, r
    # A copy whose history was rewritten does not hold the block.
    r = vq(DATA / "answers" / "aos.json", *trusting(DID["A"]),
           "--dataset", f"mix={DATASETS['mix-rewritten']}")
    assert r.rc == 1, r
    assert "computed over a history this copy does not contain" in r.out
    assert "INVALID: dataset mix" in r.out.splitlines()[-1]
    # Another dataset's copy: the tie fails, naming it.
    r = vq(DATA / "answers" / "aos.json", "--json", *trusting(DID["A"]),
           "--dataset", f"mix={DATASETS['cities']}")
    assert r.rc == 1, r
    assert report_of(r)["queries"][0]["datasets"][0]["tie"] in ("copy-invalid", "not-on-chain")
    # A name the answer does not have, a location that is no dataset: exit 2.
    r = vq(DATA / "answers" / "aos.json", "--dataset", f"cities={DATASETS['cities']}")
    assert r.rc == 2 and "no input dataset of that id or alias" in r.err, r
    r = vq(DATA / "answers" / "aos.json", "--dataset", f"mix={DATA / 'nowhere'}")
    assert r.rc == 2 and "--dataset mix" in r.err, r


def test_standard_input(vq, odf_hash_bin):
    raw = (DATA / "answers" / "get.json").read_bytes()
    p = subprocess.run([odf_hash_bin, "verify-query", "--trust", DID["A"], "-"], input=raw,
                       capture_output=True, timeout=60)
    assert p.returncode == 0, p
    assert b"answer       (standard input)" in p.stdout


def test_untrusted_text_is_escaped(vq):
    """The query text holds control characters (unicode-query): never printed raw."""
    r = vq(DATA / "answers" / "unicode-query.json", *trusting(DID["A"]))
    assert r.rc == 0, r
    assert "\x01" not in r.out and "\x7f" not in r.out
    doc = load("unicode-query")
    r = vq(DATA / "answers" / "unicode-query.json", "--json", *trusting(DID["A"]))
    assert report_of(r)["queries"][0]["query"] == doc["input"]["query"]


@pytest.mark.parametrize("text,message", [
    (b"", "malformed JSON"),
    (b'{"input":', "malformed JSON"),
    (b"[]", "the answer: an array, not an object"),
    (b"\xef\xbb\xbf{}", "malformed JSON"),
    (b'{"input":"\xff"}', "malformed JSON"),
    (b'{"a":1,"a":2}', 'the key "a" appears twice'),
    (b"[1e400]", "malformed JSON"),
    (b"[" * 1000000, "nested deeper than 256 levels"),
    (b'{"subQueries":[' + b"{}," * 200000 + b"{}]}", "more than 100000 values"),
], ids=["empty", "truncated", "array", "bom", "not-utf8", "duplicate", "overflow", "deep",
        "many-sub-queries"])
def test_malformed_and_hostile_answers_are_clear_errors(vq, text, message):
    r = vq(text)
    assert r.rc == 2, r
    assert r.out == ""
    assert message in r.err, r
    assert len(r.err) < 2000, r
    assert "\xff" not in r.err


def test_envelope_members_a_signature_cannot_cover_are_refused(vq):
    doc = load("get")
    doc["note"] = "trust me"
    r = vq(doc)
    assert r.rc == 2 and 'a member "note" that kamu does not write' in r.err, r
    doc = load("get")
    del doc["proof"]
    r = vq(doc)
    assert r.rc == 2 and "proof: missing" in r.err, r


def _measured(cmd, stdin=None):
    """Exit code and peak RSS (KiB) of `cmd` alone (/usr/bin/time, as test_hardening4.py)."""
    env = {**os.environ, "ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") +
           ":quarantine_size_mb=1:thread_local_quarantine_size_kb=64"}
    with tempfile.NamedTemporaryFile("r") as rss:
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name, *map(str, cmd)],
                           stdin=stdin, capture_output=True, env=env, timeout=300)
        return p, int(rss.read().split()[-1])


def test_huge_answers_bounded(odf_hash_bin, tmp_path):
    """The answer's output is never built as a tree: a 48 MiB answer costs a few times its
    size (the text, its canonical form, growing strings), not a node per value; more than --max-size is
    refused, also from an endless pipe."""
    doc = load("get")
    rows = [[ka.Number(str(i)), "x" * 8] for i in range(2_000_000)]
    doc["output"]["data"] = rows
    big = tmp_path / "big.json"
    big.write_bytes(ka.dump(ka.resign(doc, SIGNER_A)))
    size_kib = big.stat().st_size >> 10
    assert size_kib > 32 << 10
    small, base = _measured([odf_hash_bin, "verify-query", "--trust", DID["A"],
                             DATA / "answers" / "get.json"])
    assert small.returncode == 0, small
    p, peak = _measured([odf_hash_bin, "verify-query", "--trust", DID["A"], big])
    assert p.returncode == 0, p
    print(f"peak {peak} KiB, baseline {base} KiB, answer {size_kib} KiB")
    assert peak - base < 5 * size_kib, (peak, base, size_kib)  # measured 3.7 times
    p, _ = _measured([odf_hash_bin, "verify-query", "--max-size", "1M", big])
    assert p.returncode == 2 and b"larger than 1 MiB" in p.stderr, p
    yes = subprocess.Popen(["yes", "[1,"], stdout=subprocess.PIPE)
    try:
        p, peak = _measured([odf_hash_bin, "verify-query", "--max-size", "8M", "-"],
                            stdin=yes.stdout)
    finally:
        yes.kill()
        yes.wait(timeout=30)
    assert p.returncode == 2, p
    assert peak - base < 64 << 10, (peak, base)


def test_one_object_of_many_members_bounded(odf_hash_bin, tmp_path):
    """An output object of a million small members (kamu writes rows of a few columns, but an
    answer may hold anything): its members are buffered as text plus 24 bytes each, then
    sorted; 9 times the text before (a pair of strings each), about 6.5 now."""
    doc = load("get")
    doc["output"]["data"] = {f"k{i}": ka.Number(str(i % 10)) for i in range(1_000_000)}
    big = tmp_path / "object.json"
    big.write_bytes(ka.dump(ka.resign(doc, SIGNER_A)))
    size_kib = big.stat().st_size >> 10
    small, base = _measured([odf_hash_bin, "verify-query", "--trust", DID["A"],
                             DATA / "answers" / "get.json"])
    assert small.returncode == 0, small
    p, peak = _measured([odf_hash_bin, "verify-query", "--trust", DID["A"], big])
    assert p.returncode == 0, p  # kamu_answers.py sorted the keys the same way
    print(f"peak {peak} KiB, baseline {base} KiB, answer {size_kib} KiB")
    assert peak - base < 8 * size_kib, (peak, base, size_kib)


def test_help_documents_exit_codes(odf_hash_bin):
    p = subprocess.run([odf_hash_bin, "verify-query", "--help"], capture_output=True,
                       timeout=30)
    assert p.returncode == 0
    out = p.stdout.decode()
    for text in ("Exit status: 0", "1 something does not match", "2 the answer is malformed",
                 "3 all valid, but signed by a key not in your trusted keys"):
        assert text in " ".join(out.split()), out


# ---------------------------------------------------------------------------------------
# A live kamu node


@pytest.fixture(scope="module")
def live_node(tmp_path_factory):
    """A kamu workspace with an identity key and one dataset pushed with `kamu ingest`,
    served by `kamu system api-server` on 127.0.0.1 (stopped at the end)."""
    if not KAMU.exists():
        pytest.skip(f"kamu is not at {KAMU}")
    from remote_servers import kamu_node
    ws = tmp_path_factory.mktemp("kamu-query")

    def kamu(*args, input=None):
        r = subprocess.run(["timeout", "180", str(KAMU), *map(str, args)], cwd=ws,
                           capture_output=True, input=input, timeout=200)
        assert r.returncode == 0, (args, r.stdout[-2000:], r.stderr[-2000:])
        return r.stdout.decode()

    kamu("init")
    (ws / ".kamuconfig").write_text(
        "kind: CLIConfig\nversion: 1\ncontent:\n  identity:\n"
        f"    privateKey: f{MANIFEST['keys']['A']['seed']}\n")
    schema = [{"name": "event_time", "type": "Timestamp"}, {"name": "name", "type": "String"},
              {"name": "pop", "type": "Int64"}]
    snapshot = {"kind": "DatasetSnapshot", "version": 1, "content": {
        "name": "towns", "kind": "Root", "metadata": [{
            "kind": "AddPushSource", "sourceName": "default",
            "read": {"kind": "NdJson", "schema": {"fields": schema}},
            "merge": {"kind": "Append"}}]}}
    (ws / "towns.yaml").write_text(json.dumps(snapshot))  # JSON is YAML
    kamu("add", ws / "towns.yaml")
    rows = [{"event_time": "2024-05-01T00:00:00Z", "name": n, "pop": p}
            for n, p in (("Genève", 203856), ("Kyiv \u041a", 2952301), ("x\"\\", 7))]
    kamu("ingest", "towns", "--stdin",
         input="".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode())
    folders = [p for p in (ws / ".kamu" / "datasets").iterdir() if (p / "refs").is_dir()]
    assert len(folders) == 1, folders
    with kamu_node(str(KAMU), ws, "towns") as url:
        yield url, folders[0]


def test_live_kamu_node_answer_verifies_offline(vq, live_node):
    import urllib.request
    url, folder = live_node
    body = json.dumps({"query": "select name, pop, pop / 7.0 as share from towns order by name",
                       "include": ["proof"]}).encode()
    req = urllib.request.Request(f"{url}/query", data=body,
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as resp:
        raw = resp.read()
    doc = ka.load(raw)
    assert ka.check(doc) == []  # the independent implementation agrees with the node
    r = vq(raw, "--json", *trusting(DID["A"]), "--dataset", f"towns={folder}")
    assert r.rc == 0, r
    report = report_of(r)
    assert report["queries"][0]["output"]["computed"] == doc["commitment"]["outputHash"]
    assert report["queries"][0]["datasets"][0]["tie"] == "on-chain"
    # One value changed in the node's answer: the output hash fails.
    r = vq(raw.replace("Genève".encode(), b"Geneve"), *trusting(DID["A"]))
    assert r.rc == 1 and "INVALID: output hash" in r.out, r
