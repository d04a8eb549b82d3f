"""The verify modes of issue 26, each next to what it saves or costs (bench/verify_modes.sh):

  1. `verify --since` on a chain of N blocks (10,000; quick 1,000) grown by one block, next to
     a full `verify` of it: what an incremental check saves;
  2. `verify --deep` on a dataset of Parquet files (about 256 MiB; quick 32 MiB), next to
     `odf-hash logical` of the same files (the logical hash is --deep's cost) and a plain
     `verify` (bytes only);
  3. `verify --sample 1%` of that dataset in moto's S3 server on 127.0.0.1 (started and stopped
     here), next to a full remote `verify`.

Wall time, median of BENCH_RUNS fresh processes. Every command must exit 0. Datasets are
written once into $ODF_HASH_BENCH_DATA (blocks through tests/cli/forged_dataset.py; logical
hashes recorded from `odf-hash logical`, so --deep's VALID only says odf-hash agrees with
itself: the benchmark measures time, the tests prove the checks). Rows go to the summary
table of bench/run.sh ($BENCH_SUMMARY) as "ODF rate / peer rate" = peer time / odf time.
"""
import io
import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "cli"))
import forged_dataset  # noqa: E402

BIN = os.environ.get("ODF_HASH_BIN", "build/odf-hash")
DATA = pathlib.Path(os.environ.get("ODF_HASH_BENCH_DATA", "build/bench-data"))
QUICK = os.environ.get("BENCH_QUICK") == "1"
RUNS = int(os.environ.get("BENCH_RUNS", "3" if QUICK else "5"))
BLOCKS = 1000 if QUICK else 10000
DEEP_MIB = 32 if QUICK else 256
ZERO_LOGICAL = bytes.fromhex("9680c00120") + bytes(32)


def timed(*args, env=None):
    """Median wall seconds of RUNS runs of odf-hash ARGS (each must exit 0)."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        p = subprocess.run([BIN, *map(str, args)], capture_output=True, env=env)
        times.append(time.perf_counter() - start)
        if p.returncode != 0:
            sys.exit(f"verify_modes: {' '.join(map(str, args))}: exit {p.returncode}\n"
                     f"{p.stdout.decode()[-2000:]}{p.stderr.decode()[-2000:]}")
    return statistics.median(times)


def parquet(offsets, rng):
    import pyarrow as pa
    import pyarrow.parquet as pq
    n = len(offsets)
    table = pa.table({
        "offset": pa.array(offsets, pa.int64()),
        "value": pa.array([rng.random() for _ in range(n)], pa.float64()),
        "name": pa.array([f"name-{rng.randrange(10**9)}" for _ in range(n)]),
    })
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="none")
    return sink.getvalue()


def chain_dataset():
    path = DATA / f"verify-chain-{BLOCKS}"
    done = path / ".complete"
    if not done.exists():
        rng = random.Random(1)
        forged_dataset.forge(path, [(parquet([i], rng), (i, i), ZERO_LOGICAL)
                                    for i in range(BLOCKS)])
        done.write_text("")
    full = json.loads(subprocess.run([BIN, "verify", "--json", path], check=True,
                                     capture_output=True).stdout)["datasets"][0]
    # Seed, then one block per slice: the block below the head is the head verified before.
    since = next(f["block"] for f in full["files"] if f["sequence_number"] == BLOCKS - 1)
    mb = sum(f.stat().st_size for f in (path / "data").iterdir()) / 1e6
    return path, since, mb


def deep_dataset():
    path = DATA / f"verify-deep-{DEEP_MIB}MiB"
    done = path / ".complete"
    if not done.exists():
        rng = random.Random(2)
        rows, files, offset = 200_000, [], 0
        total = 0
        while total < DEEP_MIB << 20:
            data = parquet(list(range(offset, offset + rows)), rng)
            files.append((data, (offset, offset + rows - 1)))
            offset += rows
            total += len(data)
        tmp = DATA / "verify-deep-tmp.parquet"
        slices = []
        for data, interval in files:
            tmp.write_bytes(data)
            out = json.loads(subprocess.run([BIN, "logical", "--json", tmp], check=True,
                                            capture_output=True).stdout)
            logical = forged_dataset.multihash(out["files"][0]["logical"])
            slices.append((data, interval, logical))
        tmp.unlink()
        forged_dataset.forge(path, slices)
        done.write_text("")
    return path


def summary(section, case, mb, peer_s, odf_s):
    out = os.environ.get("BENCH_SUMMARY")
    if not out:
        return
    peer, odf = mb / peer_s, mb / odf_s
    with open(out, "a") as f:
        f.write(f"{section}\t{case}\t{mb:.0f}\t{peer:.1f}\t{odf:.1f}\t{odf / peer:.2f}\t-\t-\t-\n")


def main():
    rows = []
    # 1. --since on a long chain grown by one block.
    path, since, chain_mb = chain_dataset()
    t_full = timed("verify", path)
    t_since = timed("verify", "--since", since, path)
    rows.append((f"verify, {BLOCKS} blocks", "full", t_full, "--since (1 new block)", t_since))
    summary("verify modes", f"--since, {BLOCKS}-block chain", chain_mb, t_full, t_since)

    # 2. --deep against logical of the same files.
    deep = deep_dataset()
    files = sorted((deep / "data").iterdir())
    mb = sum(f.stat().st_size for f in files) / 1e6
    t_plain = timed("verify", deep)
    t_logical = timed("logical", *files)
    t_deep = timed("verify", "--deep", deep)
    rows.append((f"{mb:.0f} MB Parquet", "logical", t_logical, "verify --deep", t_deep))
    # --deep reads every file twice (bytes, then records): its peer is both passes.
    rows.append((f"{mb:.0f} MB Parquet", "verify+logical", t_plain + t_logical, "verify --deep",
                 t_deep))
    summary("verify modes", "--deep vs logical", mb, t_logical, t_deep)

    # 3. --sample 1% of the same dataset over S3 (moto on 127.0.0.1).
    import logging
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's request log
    from remote_servers import moto_s3, upload_tree
    with moto_s3() as (endpoint, client):
        client.create_bucket(Bucket="bench")
        upload_tree(client, "bench", "ds", deep)
        url = "s3://bench/ds"
        t_remote = timed("verify", "--endpoint-url", endpoint, url)
        t_sample = timed("verify", "--endpoint-url", endpoint, "--sample", "1%", "--seed", "1",
                         url)
    rows.append((f"{mb:.0f} MB over S3 (moto)", "full", t_remote, "--sample 1%", t_sample))
    summary("verify modes", "--sample 1% over S3", mb, t_remote, t_sample)

    print(f"{'data':28} {'peer':14} {'s':>8}   {'odf-hash':22} {'s':>8}  speed-up")
    for what, peer, tp, mode, tm in rows:
        print(f"{what:28} {peer:14} {tp:8.3f}   {mode:22} {tm:8.3f}  {tp / tm:7.2f}x")


if __name__ == "__main__":
    main()
