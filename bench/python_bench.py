"""The Python side of bench/python.sh: odf_hash.logical on pyarrow tables.

  python_bench.py overhead --runs N FILE...    per file: read it whole into a pyarrow Table,
      then time odf_hash.logical(table, threads=1) (one warm-up, N runs); one JSON line per
      file like build/bench/logical_compare's (seconds, cpu_seconds: medians; runs, cpu_runs:
      every run; logical).
  python_bench.py threads --runs N FILE...     N Python threads hashing the N tables at
      once against the same hashes one after the other (threads=1 each): median seconds of
      both, and whether every result is identical.
"""
import argparse
import json
import statistics
import sys
import threading
import time

import pyarrow as pa
import pyarrow.ipc

import odf_hash


def load(path):
    with pa.ipc.open_file(path) as f:
        return f.read_all()


def timed_runs(fn, runs):
    fn()  # warm-up
    wall, cpu, result = [], [], None
    for _ in range(runs):
        c0, t0 = time.process_time(), time.perf_counter()
        result = fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return wall, cpu, result


def timed(fn, runs):
    wall, cpu, result = timed_runs(fn, runs)
    return statistics.median(wall), statistics.median(cpu), result


def overhead(args):
    for path in args.files:
        table = load(path)
        wall, cpu, digest = timed_runs(lambda: odf_hash.logical(table, threads=1), args.runs)
        print(json.dumps({"path": path, "seconds": statistics.median(wall),
                          "cpu_seconds": statistics.median(cpu), "runs": wall, "cpu_runs": cpu,
                          "logical": digest}))


def concurrent(args):
    tables = [load(p) for p in args.files]

    def serial():
        return [odf_hash.logical(t, threads=1) for t in tables]

    def parallel():
        out = [None] * len(tables)

        def work(i):
            out[i] = odf_hash.logical(tables[i], threads=1)

        ts = [threading.Thread(target=work, args=(i,)) for i in range(len(tables))]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        return out

    s_wall, _, s_res = timed(serial, args.runs)
    p_wall, _, p_res = timed(parallel, args.runs)
    print(json.dumps({"tables": len(tables), "serial_seconds": s_wall, "threads_seconds": p_wall,
                      "identical": s_res == p_res, "logical": s_res}))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["overhead", "threads"])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    (overhead if args.mode == "overhead" else concurrent)(args)


if __name__ == "__main__":
    sys.exit(main())
