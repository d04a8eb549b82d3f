#!/usr/bin/env python3
"""Records a real kamu node's signed query answers as test vectors for `odf-hash verify-query`.

    .venv/bin/python tests/kamu/make_query_vectors.py [OUT_DIR]     # default tests/data/query

kamu ($ODF_KAMU, else ../shared/tools/kamu/kamu) writes two datasets in a fresh workspace whose
.kamuconfig holds an identity key, then `kamu system api-server` (on 127.0.0.1, stopped at the
end) answers queries with proofs; every answer is kept byte for byte as the node sent it:

  mix     Parquet files (pyarrow) polled twice: floats written as 1e+21, 1e-7, -0.0, NaN
          and infinities (null), float32, decimals, timestamps (ms, us, ns), dates, binary,
          booleans, nested lists and structs, strings with non-ASCII characters (2, 3 and
          4-byte UTF-8, U+2028, U+FEFF), control characters, quotes, backslashes and U+007F,
          signed and unsigned 64-bit extremes
  cities  NDJSON pushed with `kamu ingest`: names in several scripts, for joins

Queries: every dataFormat (JsonAoS, JsonAoA, JsonSoA; kamu answers JsonSoA only for tables
without struct columns) with and without each schemaFormat, a join of both datasets, query
text holding non-ASCII and control characters, SQL literals (1.0, -0.0, 1e21), skip and
limit, an empty result, GET /query, and one answer computed before the second pull of mix
(its block is on the final chain but is not the head). A second node with another key answers
once (key "B"). Then:
  - each answer's hashes and signature are recomputed here (kamu_answers.py: hashlib,
    cryptography) and must match: an answer that cannot be reproduced stops the script;
  - each answer (output removed) is sent back to the node's POST /verify, which reruns the
    query: kamu must say ok;
  - answers with sub-queries are composed from real answers (a node sends none today): the
    parent's subQueriesHash recomputed and signed again with the node's key, nested two
    levels; the node's POST /verify must accept them too (it checks the subQueriesHash).
The dataset folders are copied as they were when answered (datasets/mix, datasets/cities),
and a copy of mix whose history was rewritten (`kamu reset` to the block of the first pull,
then pulled again: new blocks above it) as datasets/mix-rewritten.

OUT_DIR/vectors.json lists them (files, requests, keys, datasets, what kamu's /verify said);
OUT_DIR/kamu_published.json (written by hand from kamu's sources, not by this script) holds
kamu's own published answer. The tests read both; they never run this script.
"""
import datetime as dt
import decimal
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

import yaml

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "cli"))
import kamu_answers as ka  # noqa: E402
import make_workspace as mw  # noqa: E402
from remote_servers import kamu_node  # noqa: E402

DEFAULT_OUT = HERE.parent / "data" / "query"
FORMAT = 1
# Node keys: kamu's own test key (seed [123; 32]) and a second one.
SEEDS = {"A": ka.KAMU_TEST_SEED, "B": bytes(range(1, 33))}
HTTP_TIMEOUT = 60


def write_parquet(path: pathlib.Path, first: bool):
    import pyarrow as pa
    import pyarrow.parquet as pq
    utc = dt.timezone.utc
    if first:
        rows = {
            "f": [0.5, 1e21, 1e-7, -0.0, float("nan")],
            "g": [1.0, 2537.07, 1e300, float("inf"), 123456789.125],
            "h": [0.1, 3.4e38, 1e-45, -1.5, 7.0],
            "s": ["Bé", 'tab\there\nnl"q\'\\', "\x01\x1f\x7f\x08\x0c\r", "😀 € 中文", "\u2028\ufeff"],
            "d": ["12.30", "-0.01", "99999999.99", None, "0.00"],
            "l": [[1, 2], [], None, [3], [4, 5, 6]],
            "st": [{"a": 1, "b": "x"}, {"a": None, "b": "y"}, None, {"a": 3, "b": "é"},
                   {"a": 4, "b": ""}],
            "big": [2**63 - 1, -2**63, 0, 1, -1],
            "u": [2**64 - 1, 0, 1, 2, 3],
        }
    else:
        rows = {
            "f": [-1e-7, -1e21, 5e-324, 1.7976931348623157e308, float("-inf")],
            "g": [0.0, -2.5, 1e16, 1e-300, 1e15 + 0.1],
            "h": [float("nan"), 0.0, -0.0, 1e-38, 2.5],
            "s": ["naïve café", "Ωμέγα", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "a\x00b", ""],
            "d": ["-99999999.99", "1.00", None, "0.10", "3.14"],
            "l": [[7], [8, 9], [], None, [10]],
            "st": [None, {"a": 5, "b": "ü"}, {"a": 6, "b": "\t"}, {"a": None, "b": None},
                   {"a": 7, "b": "z"}],
            "big": [42, -42, 2**53 + 1, -(2**53 + 1), 9007199254740993],
            "u": [4, 5, 6, 2**63, 7],
        }
    n = len(rows["f"])
    table = pa.table({
        "event_time": pa.array([dt.datetime(2024, 1, 1 if first else 2, tzinfo=utc)] * n,
                               pa.timestamp("ms", tz="UTC")),
        "f": pa.array(rows["f"], pa.float64()),
        "g": pa.array(rows["g"], pa.float64()),
        "h": pa.array(rows["h"], pa.float32()),
        "s": pa.array(rows["s"], pa.string()),
        "d": pa.array([None if x is None else decimal.Decimal(x) for x in rows["d"]],
                      pa.decimal128(10, 2)),
        "l": pa.array(rows["l"], pa.list_(pa.int64())),
        "st": pa.array(rows["st"], pa.struct([("a", pa.int64()), ("b", pa.string())])),
        "big": pa.array(rows["big"], pa.int64()),
        "u": pa.array(rows["u"], pa.uint64()),
        "b": pa.array([True, False, None, True, False]),
        "day": pa.array([dt.date(2024, 2, 29), dt.date(1970, 1, 1), None, dt.date(1900, 1, 1),
                         dt.date(9999, 12, 31)], pa.date32()),
        "bin": pa.array([b"\x00\xff", b"", None, b"odf", b"\x80"], pa.binary()),
        "ll": pa.array([[[1], [2, 3]], [], None, [[]], [[4]]], pa.list_(pa.list_(pa.int32()))),
        "ts_us": pa.array([dt.datetime(2024, 1, 1, 1, 2, 3, 456789, tzinfo=utc), None,
                           dt.datetime(1960, 1, 1, tzinfo=utc),
                           dt.datetime(2000, 2, 29, 23, 59, 59, 1, tzinfo=utc),
                           dt.datetime(1970, 1, 1, tzinfo=utc)], pa.timestamp("us", tz="UTC")),
        "ts_ns": pa.array([1, None, -1, 1_700_000_000_123_456_789, 0], pa.timestamp("ns")),
    })
    # "item" list elements, as kamu's own schema names them (pyarrow's default, "element",
    # makes the second pull an incompatible schema).
    pq.write_table(table, path, use_compliant_nested_type=False)


CITIES = [
    {"event_time": "2024-03-01T00:00:00Z", "id": 0, "name": "Zürich", "population": 421878},
    {"event_time": "2024-03-01T00:00:00Z", "id": 1, "name": "Москва", "population": 13010112},
    {"event_time": "2024-03-01T00:00:00Z", "id": 2, "name": "東京", "population": 13960000},
    {"event_time": "2024-03-01T00:00:00Z", "id": 3, "name": "São Paulo 🌆",
     "population": 11451245},
    {"event_time": "2024-03-01T00:00:00Z", "id": 4, "name": 'say "hi"\\', "population": 0},
]


def snapshots(inp: pathlib.Path) -> dict:
    mix = {"kind": "SetPollingSource",
           "fetch": {"kind": "FilesGlob", "path": str(inp / "mix-*.parquet")},
           "read": {"kind": "Parquet"}, "merge": {"kind": "Append"}}
    cities = {"kind": "AddPushSource", "sourceName": "default",
              "read": {"kind": "NdJson", "schema": mw.schema(
                  ("event_time", "Timestamp"), ("id", "Int64"), ("name", "String"),
                  ("population", "Int64"))},
              "merge": {"kind": "Append"}}
    return {"mix": mw.snapshot("mix", mix), "cities": mw.snapshot("cities", cities)}


def identity(ws: pathlib.Path, seed: bytes):
    (ws / ".kamuconfig").write_text(
        "kind: CLIConfig\nversion: 1\ncontent:\n  identity:\n"
        f"    privateKey: f{seed.hex()}\n")


def post(url: str, body: dict) -> bytes:
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT) as r:
        return r.read()


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=HTTP_TIMEOUT) as r:
        return r.read()


def kamu_verify(url: str, answer: dict) -> dict:
    """The node's POST /verify of an answer (its output removed): {"ok": ...}."""
    body = {k: v for k, v in answer.items() if k != "output"}
    req = urllib.request.Request(f"{url}/verify", data=ka.dump(body),
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        return json.loads(e.read())


# Ordered by offset descending: kamu 0.265 answers `order by "offset"` (ascending) over several
# data files in either file order from one run to the next (the sort is dropped, the files
# being each sorted by offset), so its own POST /verify then fails on its own answer.
MIX_ALL = 'select * from mix order by "offset" desc'
# JsonSoA: kamu's writer has no struct columns (its SoA encoder panics on them).
MIX_SOA = ('select "offset", f, g, h, s, d, l, big, u, b, day, bin, ll, ts_us, ts_ns '
           'from mix order by "offset" desc')
QUERIES = [
    # (name, request body (POST) or query string (GET), note)
    ("aos", {"query": MIX_ALL, "include": ["proof"]}, "JsonAoS by default, no schema"),
    ("aos-arrowjson", {"query": MIX_ALL, "include": ["proof"], "schemaFormat": "ArrowJson"}, ""),
    ("aos-odfjson", {"query": MIX_ALL, "include": ["proof"], "dataFormat": "JsonAoS",
                     "schemaFormat": "OdfJson"}, ""),
    ("aos-odfyaml", {"query": MIX_ALL, "include": ["proof", "schema"],
                     "schemaFormat": "OdfYaml"}, ""),
    ("aos-parquet", {"query": MIX_ALL, "include": ["proof"], "schemaFormat": "Parquet"}, ""),
    ("aos-parquetjson", {"query": MIX_ALL, "include": ["proof"],
                         "schemaFormat": "ParquetJson"}, ""),
    ("aoa", {"query": MIX_ALL, "include": ["proof"], "dataFormat": "JsonAoA"}, ""),
    ("aoa-arrowjson", {"query": MIX_ALL, "include": ["proof"], "dataFormat": "JsonAoA",
                       "schemaFormat": "ArrowJson"}, ""),
    ("aoa-odfyaml", {"query": MIX_ALL, "include": ["proof"], "dataFormat": "JsonAoA",
                     "schemaFormat": "OdfYaml"}, ""),
    ("soa", {"query": MIX_SOA, "include": ["proof"], "dataFormat": "JsonSoA"}, ""),
    ("soa-odfjson", {"query": MIX_SOA, "include": ["proof"], "dataFormat": "JsonSoA",
                     "schemaFormat": "OdfJson"}, ""),
    ("soa-parquetjson", {"query": MIX_SOA, "include": ["proof"], "dataFormat": "JsonSoA",
                         "schemaFormat": "ParquetJson"}, ""),
    ("join", {"query": 'select m."offset", m.f, m.s, c.name from mix m join cities c '
                       'on m."offset" = c.id order by m."offset" desc',
              "include": ["proof"]}, "two input datasets"),
    ("unicode-query", {"query": "select 'é\u0001\t😀\\' as \"ключ \"\"q\"\"\", name, "
                                "population from cities where name <> 'x\u007f' order by id",
                       "include": ["proof"], "dataFormat": "JsonAoA"},
     "query text with non-ASCII and control characters"),
    ("literals", {"query": "select 1 as one, 1.0 as f, -0.0 as nz, 1e21 as big, "
                           "0.000001 as small, 'a/b' as slash",
                  "include": ["proof"]}, "no input dataset: SQL literals"),
    ("skip-limit", {"query": MIX_ALL, "include": ["proof"], "skip": 1, "limit": 2}, ""),
    ("empty", {"query": "select * from cities where id < 0", "include": ["proof"]},
     "an empty result"),
    ("get", "query=" + urllib.parse.quote('select id, name from cities order by id') +
     "&include=proof&dataFormat=JsonAoA", "GET /query"),
]


def ask(url: str, body) -> bytes:
    if isinstance(body, str):
        return get(f"{url}/query?{body}")
    return post(f"{url}/query", body)


def record(out: pathlib.Path, name: str, raw: bytes, request, key: str, note: str,
           url: str) -> dict:
    answer = ka.load(raw)
    bad = ka.check(answer)
    if bad:
        raise RuntimeError(f"{name}: the node's answer does not reproduce ({bad}): a bug to "
                           f"find, not a vector to drop")
    verdict = kamu_verify(url, answer)
    if verdict.get("ok") is not True:
        raise RuntimeError(f"{name}: the node's POST /verify says {verdict}")
    (out / "answers" / f"{name}.json").write_bytes(raw)
    return {"name": name, "file": f"answers/{name}.json", "key": key,
            "method": "GET" if isinstance(request, str) else "POST", "request": request,
            "note": note, "datasets": [d["alias"] for d in answer["input"].get("datasets", [])],
            "kamu_verify": verdict}


def compose(out: pathlib.Path, answers: dict, signers: dict, url: str) -> list:
    """Answers with sub-queries, from real ones; the node's /verify must accept them."""
    a = ka.load(answers["join"])
    b = ka.load(answers["literals"])
    c = ka.load(answers["get"])
    d = ka.load(answers["b-cities"])
    # Two levels: join's answer with [literals, get (holding B's answer as its sub-query)].
    inner = ka.as_sub_query(ka.resign(dict(c, subQueries=[ka.as_sub_query(d)]), signers["A"]))
    outer = ka.resign(dict(a, subQueries=[ka.as_sub_query(b), inner]), signers["A"])
    entries = []
    for name, doc, note in (
            ("sub-queries", outer, "join's answer with two sub-queries, one holding another "
                                   "(signed by key B), composed and signed again here"),):
        bad = ka.check(doc)
        if bad:
            raise RuntimeError(f"{name}: composed answer does not verify here: {bad}")
        verdict = kamu_verify(url, doc)
        if verdict.get("ok") is not True:
            raise RuntimeError(f"{name}: the node's POST /verify says {verdict}")
        raw = ka.dump(doc)
        (out / "answers" / f"{name}.json").write_bytes(raw)
        entries.append({"name": name, "file": f"answers/{name}.json", "key": "A",
                        "method": "composed", "request": None, "note": note,
                        "datasets": [x["alias"] for x in doc["input"]["datasets"]],
                        "kamu_verify": verdict})
    return entries


def copy_dataset(ws: pathlib.Path, alias: str, dest: pathlib.Path) -> dict:
    ids = mw.dataset_ids(ws)
    src = ws / ".kamu" / "datasets" / ids[alias]
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns(".pending-*", "config"))
    return {"id": "did:odf:" + ids[alias], "head": (src / "refs" / "head").read_text().strip()}


def build(out: pathlib.Path, kamu: str) -> dict:
    if out.exists():
        shutil.rmtree(out / "answers", ignore_errors=True)
        shutil.rmtree(out / "datasets", ignore_errors=True)
    (out / "answers").mkdir(parents=True)
    (out / "datasets").mkdir()
    signers = {k: ka.Signer(seed) for k, seed in SEEDS.items()}
    with tempfile.TemporaryDirectory(prefix="kamu-query-") as tmp:
        tmp = pathlib.Path(tmp)
        inp, ws = tmp / "in", tmp / "ws"
        inp.mkdir()
        ws.mkdir()
        k = mw.Kamu(kamu, ws)
        k("init")
        identity(ws, SEEDS["A"])
        for name, snap in snapshots(inp).items():
            (tmp / f"{name}.yaml").write_text(yaml.safe_dump(snap, sort_keys=False))
        k("add", tmp / "mix.yaml", tmp / "cities.yaml")
        write_parquet(inp / "mix-001.parquet", first=True)
        k("pull", "mix")
        k("ingest", "cities", "--stdin",
          input="".join(json.dumps(c, ensure_ascii=False) + "\n" for c in CITIES))
        entries, raw = [], {}
        with kamu_node(kamu, ws, "mix") as url:
            raw["before"] = post(f"{url}/query", {"query": MIX_ALL, "include": ["proof"]})
            entries.append(record(out, "before", raw["before"],
                                  {"query": MIX_ALL, "include": ["proof"]}, "A",
                                  "answered before the second pull: its block is not the head",
                                  url))
        first_head = (ws / ".kamu" / "datasets" / mw.dataset_ids(ws)["mix"] / "refs" /
                      "head").read_text().strip()
        write_parquet(inp / "mix-002.parquet", first=False)
        k("pull", "mix")
        datasets = {"mix": copy_dataset(ws, "mix", out / "datasets" / "mix"),
                    "cities": copy_dataset(ws, "cities", out / "datasets" / "cities")}
        datasets["mix"]["first_head"] = first_head
        with kamu_node(kamu, ws, "mix") as url:
            for name, body, note in QUERIES:
                raw[name] = ask(url, body)
                entries.append(record(out, name, raw[name], body, "A", note, url))
        identity(ws, SEEDS["B"])
        with kamu_node(kamu, ws, "mix") as url:
            body = {"query": "select * from cities order by id", "include": ["proof"]}
            raw["b-cities"] = post(f"{url}/query", body)
            entries.append(record(out, "b-cities", raw["b-cities"], body, "B",
                                  "signed by the second key", url))
        identity(ws, SEEDS["A"])
        with kamu_node(kamu, ws, "mix") as url:
            entries += compose(out, raw, signers, url)
        # History rewritten: back to the first pull's block, then pulled again.
        k("--yes", "reset", "mix", first_head)
        k("pull", "mix")
        datasets["mix-rewritten"] = copy_dataset(ws, "mix", out / "datasets" / "mix-rewritten")
    for d in ("mix", "cities", "mix-rewritten"):
        datasets[d]["folder"] = f"datasets/{d}"
    manifest = {
        "format": FORMAT, "kamu": mw.kamu_version(kamu),
        "keys": {k: {"seed": s.hex(), "did": signers[k].did} for k, s in SEEDS.items()},
        "datasets": datasets, "answers": entries,
    }
    (out / "vectors.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return manifest


def main():
    out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT
    manifest = build(out.resolve(), mw.kamu_path())
    print(f"{len(manifest['answers'])} answers from {manifest['kamu']} in {out}")


if __name__ == "__main__":
    main()
