"""The Python side of bench/scale.sh: verification on a Dask cluster against one core.

  scale_bench.py dataset OUT --files N --mib M
      writes a root ODF dataset of N Parquet data files of about M MiB each (incompressible
      binary values, no compression), with the example generator's block writer
      (scripts/generate_example_datasets.py); reused when OUT already holds one of that shape.
  scale_bench.py run DATASET --bin ODF_HASH --runs R --workers W
      wall time of `ODF_HASH verify --jobs 1 DATASET` (one core, the local peer) and of
      odf_hash.dask.verify(DATASET) on a LocalCluster of W one-thread worker processes (started
      before timing), alternating, files in the page cache; both reports must be valid and the
      cluster's equal to the local one. Also `verify --jobs W` (threads in one process), and
      what this machine gives W independent processes at all: `openssl speed -multi W` of
      SHA3-256 over one `openssl speed` (the ceiling of any scaling here). Each is reported as
      the median and the best of the R alternating runs: on a shared VM the speed of a core
      moves by tens of percent from one second to the next, and interference only ever slows a
      run, so the best runs of both sides are the fairest pair. Prints one JSON object.
"""
import argparse
import importlib.util
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def load_generator():
    spec = importlib.util.spec_from_file_location(
        "generate_example_datasets", ROOT / "scripts" / "generate_example_datasets.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen


def make_dataset(args):
    out = pathlib.Path(args.out)
    stamp = out / "info" / "shape.json"
    shape = {"files": args.files, "mib": args.mib, "format": 1}
    if stamp.exists() and json.loads(stamp.read_text()) == shape:
        return
    import numpy as np
    import pyarrow as pa

    import odf_hash

    gen = load_generator()
    # A benchmark dataset, not a test fixture: its recorded logical hashes come from odf-hash
    # (a root dataset's verification never reads them).
    gen.reference_logical_hash = lambda path: odf_hash.logical_file(path)
    # Parquet without compression or dictionaries: a file is about rows * value_bytes.
    gen.parquet_bytes = lambda t, **_: _parquet(t)
    writer = gen.DatasetWriter(out)
    writer.commit(gen.T0, gen.EV_SEED,
                  {"dataset_id": gen.dataset_id("scale-bench"), "dataset_kind": gen.DATASET_KIND_ROOT})
    rng = np.random.default_rng(14)
    value_bytes = 1024
    rows = max(1, int(args.mib * 1024 * 1024 / value_bytes))
    offset = 0
    for i in range(args.files):
        payload = rng.integers(0, 256, size=rows * value_bytes, dtype=np.uint8)
        table = pa.table({
            "offset": pa.array(range(offset, offset + rows), pa.int64()),
            "payload": pa.FixedSizeBinaryArray.from_buffers(
                pa.binary(value_bytes), rows, [None, pa.py_buffer(payload.tobytes())]),
        })
        when = gen.T0 + gen.hours(i + 1)
        event = writer.data_event(table, None, when)
        writer.commit(when, gen.EV_ADD_DATA, event)
        offset += rows
    stamp.parent.mkdir(exist_ok=True)
    stamp.write_text(json.dumps(shape))


def _parquet(table):
    import pyarrow as pa
    import pyarrow.parquet as pq
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="none", use_dictionary=False)
    return sink.getvalue().to_pybytes()


def run(args):
    import distributed

    import odf_hash
    import odf_hash.dask

    ds = args.dataset
    data = pathlib.Path(ds) / "data"
    files = sorted(data.iterdir())
    total = sum(f.stat().st_size for f in files)
    for f in files:  # into the page cache
        with open(f, "rb") as fh:
            while fh.read(1 << 24):
                pass

    def openssl_rate(processes):
        """MB/s of `processes` OpenSSL SHA3-256 streams at once (16 KiB blocks, 1 s)."""
        cmd = ["openssl", "speed", "-seconds", "1", "-bytes", "16384", "-evp", "sha3-256"]
        if processes > 1:
            cmd[2:2] = ["-multi", str(processes)]
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        rows = [line.split() for line in out.splitlines() if line.startswith("sha3-256")]
        return float(rows[-1][1].rstrip("k")) * 1000 / 1e6 if rows else float("nan")

    def local(jobs=1):
        t0 = time.perf_counter()
        p = subprocess.run([args.bin, "verify", "--jobs", str(jobs), "--json", ds],
                           capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if p.returncode != 0:
            sys.exit(f"scale_bench: {args.bin} verify failed ({p.returncode}): {p.stderr}")
        return dt, json.loads(p.stdout)["datasets"][0]

    t0 = time.perf_counter()
    cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                       processes=True, dashboard_address=None, host="127.0.0.1")
    client = distributed.Client(cluster)
    client.wait_for_workers(args.workers)
    startup = time.perf_counter() - t0
    try:
        def on_dask():
            t0 = time.perf_counter()
            r = odf_hash.dask.verify(ds, client, progress=False)
            return time.perf_counter() - t0, r

        on_dask()  # warm-up: workers import odf_hash
        local_s, dask_s, threads_s, one_rate, multi_rate = [], [], [], [], []
        local_report = dask_report = None
        for _ in range(args.runs):
            t, local_report = local()
            local_s.append(t)
            t, dask_report = on_dask()
            dask_s.append(t)
            threads_s.append(local(args.workers)[0])
            one_rate.append(openssl_rate(1))
            multi_rate.append(openssl_rate(args.workers))
    finally:
        client.close()
        cluster.close()
    reference = odf_hash.verify(ds, jobs=1)
    ok = (dask_report == reference and dask_report.ok and local_report == reference.to_dict())
    loc, dsk = statistics.median(local_s), statistics.median(dask_s)
    print(json.dumps({
        "files": len(files), "bytes": total, "workers": args.workers,
        "local_seconds": loc, "dask_seconds": dsk, "cluster_startup_seconds": startup,
        "threads_seconds": statistics.median(threads_s),
        "scaling": loc / dsk, "per_core_mb_per_s": total / 1e6 / loc,
        "best_local_seconds": min(local_s), "best_dask_seconds": min(dask_s),
        "best_threads_seconds": min(threads_s), "best_scaling": min(local_s) / min(dask_s),
        "best_per_core_mb_per_s": total / 1e6 / min(local_s),
        "machine_ceiling": max(multi_rate) / max(one_rate),
        "machine_ceiling_median": statistics.median(multi_rate) / statistics.median(one_rate),
        "reports_equal_and_valid": ok, "local_runs": local_s, "dask_runs": dask_s,
        "threads_runs": threads_s, "openssl_one_mb_per_s": one_rate,
        "openssl_multi_mb_per_s": multi_rate,
    }))
    if not ok:
        sys.exit("scale_bench: the Dask report differs from the local one, or is not valid")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="mode", required=True)
    d = sub.add_parser("dataset")
    d.add_argument("out")
    d.add_argument("--files", type=int, default=200)
    d.add_argument("--mib", type=float, default=8)
    r = sub.add_parser("run")
    r.add_argument("dataset")
    r.add_argument("--bin", required=True)
    r.add_argument("--runs", type=int, default=3)
    r.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    if args.mode == "dataset":
        make_dataset(args)
    else:
        run(args)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
