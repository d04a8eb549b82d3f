"""verify's modes on hand-built datasets (issue 26): --deep against data files whose bytes
match their block but whose records do not (forged_dataset.py writes the blocks; pyarrow the
Parquet files; hashlib the physical hashes), and --sample.

The recorded logical hashes here are placeholders that cannot be any table's (all zero
digests), so a deep check must call them misrecorded; expected offsets are the ones the test
writes into the files.
"""
import io
import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from forged_dataset import forge, gen

EXAMPLE = gen.ROOT_DIR / "examples" / "datasets" / "root"
ZERO_LOGICAL = bytes.fromhex("9680c00120") + bytes(32)


def parquet(offsets, values=None, column="offset"):
    values = values if values is not None else [f"v{o}" for o in offsets]
    table = pa.table({column: pa.array(offsets, pa.int64()), "value": pa.array(values)})
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


@pytest.fixture
def folder(tmp_path):
    yield tmp_path
    shutil.rmtree(tmp_path, ignore_errors=True)


def verify(run, *args):
    r = run("verify", "--json", *args)
    assert r.rc in (0, 1), r
    return r.rc, json.loads(r.out)["datasets"][0]


def test_deep_finds_what_the_bytes_cannot(run, folder):
    ds = folder / "forged"
    keys = forge(ds, [
        (parquet([0, 2, 1]), (0, 2), ZERO_LOGICAL),     # offsets out of order
        (parquet([3, 4]), (3, 5), ZERO_LOGICAL),        # 2 rows, interval of 3
        (parquet([6], column="row"), (6, 6), ZERO_LOGICAL),  # no "offset" column
    ])
    # Byte-level verification cannot see it: every file is the one recorded.
    rc, d = verify(run, ds)
    assert rc == 0 and d["verdict"] == "VALID", d

    rc, d = verify(run, "--deep", ds)
    assert rc == 1 and d["scope"]["deep"] is True
    by_file = {p["file"]: p for p in d["problems"]}
    assert set(by_file) == set(keys)
    p = by_file[keys[0]]
    assert p["kind"] == "offset-column-mismatch"
    assert (p["expected"], p["actual"], p["unit"]) == (1, 2, None)  # row 1 holds 2
    assert "logical-hash-misrecorded" in p["message"]
    p = by_file[keys[1]]
    assert p["kind"] == "row-count-mismatch"
    assert (p["expected"], p["actual"], p["unit"]) == (3, 2, "rows")
    p = by_file[keys[2]]
    assert p["kind"] == "offset-column-mismatch" and '"offset"' in p["message"]
    assert [f["outcome"] for f in d["files"]] == ["failed"] * 3


def test_deep_without_setvocab_looks_for_offset(run, folder):
    """Without a SetVocab the offset column is "offset" (ODF's default), so a file whose
    offsets are in another column fails; a SetVocab naming it is tested on a kamu dataset
    (tests/kamu/test_kamu_trust.py)."""
    ds = folder / "named"
    forge(ds, [(parquet([0, 1], column="rownum"), (0, 1), ZERO_LOGICAL)])
    rc, d = verify(run, "--deep", ds)
    kinds = [p["kind"] for p in d["problems"]]
    assert kinds == ["offset-column-mismatch"]


def test_sample_is_never_a_plain_valid(run, folder):
    ds = folder / "sampled"
    sizes = [1, 2, 4, 8, 16, 32, 64, 128]
    forge(ds, [(parquet(list(range(sum(sizes[:i]), sum(sizes[:i + 1])))),
                (sum(sizes[:i]), sum(sizes[:i + 1]) - 1), ZERO_LOGICAL)
               for i in range(len(sizes))])
    total = sum(p.stat().st_size for p in (ds / "data").iterdir())
    rc, d = verify(run, "--sample", "3", "--seed", "7", ds)
    assert rc == 0 and d["valid"]
    s = d["scope"]["sample"]
    assert (s["files_checked"], s["files_total"], s["seed"]) == (3, 8, 7)
    assert s["bytes_total"] == total
    checked = [f["file"] for f in d["files"]]
    assert len(checked) == 3
    assert s["bytes_checked"] == sum((ds / f).stat().st_size for f in checked)
    assert d["verdict"].startswith("VALID (sampled: 3 of 8 files, ")
    assert d["scope"]["complete"] is False
    # Deterministic for a seed; another seed may choose others.
    rc, again = verify(run, "--sample", "3", "--seed", "7", ds)
    assert [f["file"] for f in again["files"]] == checked
    # The text report says it too.
    r = run("verify", "--sample", "1", "--seed", "1", ds)
    assert r.rc == 0 and "VALID (sampled: 1 of 8 files" in r.out and "\nresult       VALID\n" not in r.out
    # A fraction is of the bytes: at least that many bytes are read.
    rc, d = verify(run, "--sample", "50%", "--seed", "3", ds)
    assert d["scope"]["sample"]["bytes_checked"] * 2 >= total
    # A corrupt file is found when sampled, and the pass is INVALID.
    victim = ds / checked[0]
    victim.write_bytes(victim.read_bytes()[:-1] + b"X")
    rc, d = verify(run, "--sample", "3", "--seed", "7", ds)
    assert rc == 1 and d["problems"][0]["file"] == checked[0]
    assert d["verdict"].startswith("INVALID (1 problem; sampled: 3 of 8 files")
    # The whole chain is read: a changed block is found whatever the sample.
    victim.write_bytes(victim.read_bytes()[:-1] + b"1")  # (the file as it was)
    head_block = next(p for p in (ds / "blocks").iterdir()
                if p.name == (ds / "refs" / "head").read_text().strip())
    head_block.write_bytes(head_block.read_bytes() + b"\0")
    rc, d = verify(run, "--sample", "1", "--seed", "1", ds)
    assert rc == 1 and d["problems"][0]["kind"] == "block-hash-mismatch"


@pytest.mark.parametrize("bad", ["0", "-1", "1.5", "0%", "abc", "2x"])
def test_sample_refuses_what_is_neither_a_fraction_nor_a_count(run, bad):
    r = run("verify", "--sample", bad, EXAMPLE)
    assert r.rc == 2 and "--sample" in r.err


def test_bad_hashes_are_usage_errors(run):
    for flag in ("--expect-head", "--since"):
        r = run("verify", flag, "f1620zz", EXAMPLE)
        assert r.rc == 2 and flag in r.err


def test_modes_over_http_and_s3(run, folder):
    """Every mode gives the local report's verdict, scope, files and problems from a static
    HTTP server and from S3 (moto), both on 127.0.0.1."""
    from remote_servers import http_server, moto_s3, upload_tree
    ds = folder / "remote"
    forge(ds, [(parquet([0, 1]), (0, 1), ZERO_LOGICAL), (parquet([2, 3, 4]), (2, 4), ZERO_LOGICAL),
               (parquet([5]), (5, 5), ZERO_LOGICAL), (parquet([6, 7]), (6, 7), ZERO_LOGICAL)])
    blocks = {json.loads(run("verify", "--json", ds).out)["datasets"][0]["files"][i]["block"]
              for i in range(4)}
    head = (ds / "refs" / "head").read_text().strip()
    older = sorted(blocks - {head})[0]
    modes = [["--deep"], ["--sample", "2", "--seed", "4"], ["--sample", "30%", "--seed", "1"],
             ["--since", older, "--expect-head", older], ["--expect-head", "f1620" + "ef" * 32]]

    def facts(d):
        return (d["verdict"], d["scope"], [(f["file"], f["outcome"]) for f in d["files"]],
                [(p["kind"], p["file"]) for p in d["problems"]])

    local = [facts(verify(run, *m, ds)[1]) for m in modes]
    with http_server(folder) as server:
        for m, want in zip(modes, local):
            assert facts(verify(run, *m, f"{server.url}/remote")[1]) == want, m
    with moto_s3() as (endpoint, client):
        client.create_bucket(Bucket="modes")
        upload_tree(client, "modes", "ds", ds)
        for m, want in zip(modes, local):
            got = verify(run, "--endpoint-url", endpoint, *m, "s3://modes/ds")[1]
            assert facts(got) == want, m


def test_since_reads_nothing_below_it(run, folder):
    """A grown dataset verified from a head checked before: the blocks and files below it
    are not read (here they are gone, which a full verify reports), nor are the folders
    listed (a stray file is not looked for)."""
    ds = folder / "grown"
    forge(ds, [(parquet([i]), (i, i), ZERO_LOGICAL) for i in range(30)])
    rc, d = verify(run, ds)
    by_seq = {f["sequence_number"]: f for f in d["files"]}
    since = by_seq[29]["block"]  # the block adding offset 28: one block above it
    for seq in range(1, 29):
        (ds / "blocks" / by_seq[seq]["block"]).unlink()
        (ds / by_seq[seq]["file"]).unlink()
    (ds / "data" / "stray.txt").write_text("not part of the chain")
    rc, d = verify(run, "--since", since, ds)
    assert rc == 0, d
    assert [f["file"] for f in d["files"]] == [by_seq[30]["file"]]
    assert d["unexpected_checked"] is False and d["unreferenced"]["count"] == 0
    assert d["verdict"] == "VALID (since block 29: 1 new block, 1 file checked)"
    rc, d = verify(run, ds)
    assert rc == 1 and d["problems"][0]["kind"] == "block-missing"


def test_a_block_hash_names_one_dataset(run):
    derivative = EXAMPLE.parent / "derivative"
    r = run("verify", "--expect-head", "f1620" + "ab" * 32, EXAMPLE, derivative)
    assert r.rc == 2 and "one dataset" in r.err
    # Many datasets at once: a pin file, each dataset against its own pin.
    r = run("verify", "--json", "--sample", "1", "--seed", "2", EXAMPLE, derivative)
    assert r.rc == 0 and json.loads(r.out)["summary"]["partial"] == 2
