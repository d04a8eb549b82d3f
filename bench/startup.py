"""Start-up of short commands: wall time and peak RSS of whole processes, odf-hash next to
its peers on the same tiny file, runs alternating (bench/startup.sh runs this).

Each process is started with fork/exec and reaped with wait4, which gives its own peak RSS;
the wall time runs from fork to reaping. Prints a table and one JSON line per tool."""
import argparse
import json
import os
import statistics
import sys
import time


def run_once(argv):
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"startup.py: {' '.join(argv)} failed")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--tool", action="append", nargs=2, metavar=("NAME", "COMMAND"),
                    required=True, help="a name and a shell-split command line")
    args = ap.parse_args()
    tools = [(name, cmd.split()) for name, cmd in args.tool]
    for _, argv in tools:  # warm the page cache and the dynamic loader's caches
        for _ in range(5):
            run_once(argv)
    samples = {name: [] for name, _ in tools}
    for _ in range(args.runs):
        for name, argv in tools:
            samples[name].append(run_once(argv))
    print(f"  {'command':<44} {'median ms':>10} {'cpu ms':>8} {'peak RSS MiB':>13}")
    for name, argv in tools:
        s = samples[name]
        wall = statistics.median(x[0] for x in s) * 1000
        cpu = statistics.median(x[1] for x in s) * 1000
        rss = max(x[2] for x in s)
        print(f"  {' '.join(argv)[:44]:<44} {wall:>10.2f} {cpu:>8.2f} {rss:>13.1f}")
        print("JSON " + json.dumps({"name": name, "wall_ms": wall, "cpu_ms": cpu, "rss_mib": rss}))


if __name__ == "__main__":
    main()
