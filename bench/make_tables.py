#!/usr/bin/env python3
"""Benchmark tables for bench/logical.sh, made once and cached.

    make_tables.py logical [--scale S] DIR [CASE...]   Arrow IPC files DIR/<case>.arrow
    make_tables.py parquet FILE [--mib N]              one Parquet file of about N MiB

Data is deterministic (pyarrow.compute.random with fixed seeds) and vectorised (no numpy
needed). A file that exists is kept; files are written under a temporary name and renamed,
so an interrupted run never leaves a truncated table behind. At --scale 1 each logical
case holds about 100-200 MB of Arrow buffers; the scale multiplies the row counts.
"""
import argparse
import os
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

BATCH_ROWS = 65536


class Source:
    """Deterministic random columns; each call draws from its own seed."""

    def __init__(self, seed):
        self.seed = seed

    def uniform(self, n):
        self.seed += 1
        return pc.random(n, initializer=self.seed)

    def mask(self, n, null_fraction):
        """True where the value is null (pyarrow's mask convention), or None."""
        if null_fraction <= 0:
            return None
        return pc.less(self.uniform(n), null_fraction)

    def with_nulls(self, arr, null_fraction):
        mask = self.mask(len(arr), null_fraction)
        if mask is None:
            return arr
        return pc.if_else(mask, pa.scalar(None, arr.type), arr)

    def ints(self, n, typ=pa.int64(), bound=2.0**62, null_fraction=0.0):
        v = pc.cast(pc.multiply(self.uniform(n), bound), typ, safe=False)
        return self.with_nulls(v, null_fraction)

    def floats(self, n, null_fraction=0.0):
        return self.with_nulls(pc.multiply(self.uniform(n), 1e6), null_fraction)

    def short_strings(self, n, null_fraction=0.0):
        """Decimal digits of a random number below 1e8: 1..8 bytes, about 7.9 on average."""
        v = pc.cast(self.ints(n, bound=1e8), pa.utf8())
        return self.with_nulls(v, null_fraction)

    def long_strings(self, n, null_fraction=0.0, repeat=25):
        """A short string repeated: about 200 bytes at the default repeat."""
        v = pc.binary_repeat(self.short_strings(n), repeat)
        return self.with_nulls(v, null_fraction)

    def booleans(self, n, null_fraction=0.0):
        return self.with_nulls(pc.less(self.uniform(n), 0.5), null_fraction)

    def int32_lists(self, n, max_len=8, null_fraction=0.0):
        lengths = pc.cast(pc.multiply(self.uniform(n), max_len), pa.int32(), safe=False)
        offsets = pa.concat_arrays([pa.array([0], pa.int32()), pc.cumulative_sum(lengths)])
        total = offsets[-1].as_py()
        values = self.ints(total, pa.int32(), bound=2.0**31)
        return pa.ListArray.from_arrays(offsets, values, mask=self.mask(n, null_fraction))

    def nested_struct(self, n):
        """struct<id: int64, inner: struct<name: utf8, score: float64>> with nulls at every
        level: 5% of the outer structs, 10% of the inner ones, 10% of each leaf."""
        inner = pa.StructArray.from_arrays(
            [self.short_strings(n, 0.1), self.floats(n, 0.1)],
            names=["name", "score"],
            mask=self.mask(n, 0.1),
        )
        return pa.StructArray.from_arrays(
            [self.ints(n, null_fraction=0.1), inner],
            names=["id", "inner"],
            mask=self.mask(n, 0.05),
        )


def wide_columns(src, n):
    """20 columns of mixed types, a third of them nullable."""
    cols = {}
    for k in range(2):
        cols[f"i64_{k}"] = src.ints(n)
        cols[f"i64_null_{k}"] = src.ints(n, null_fraction=0.2)
        cols[f"i32_{k}"] = src.ints(n, pa.int32(), bound=2.0**31)
        cols[f"f64_{k}"] = src.floats(n)
        cols[f"f64_null_{k}"] = src.floats(n, null_fraction=0.2)
        cols[f"str_{k}"] = src.short_strings(n)
        cols[f"str_null_{k}"] = src.short_strings(n, null_fraction=0.2)
        cols[f"bool_{k}"] = src.booleans(n, null_fraction=0.1)
    cols["date"] = pc.cast(src.ints(n, pa.int32(), bound=20000.0), pa.date32())
    cols["ts"] = pc.cast(src.ints(n, bound=2.0**50), pa.timestamp("us"))
    cols["u8"] = src.ints(n, pa.uint8(), bound=256.0)
    cols["i16_null"] = src.ints(n, pa.int16(), bound=2.0**15, null_fraction=0.1)
    return cols


# name -> (rows at scale 1, builder(src, n) -> {column: array}), with a one-line description.
CASES = {
    "int64": (16 << 20, lambda s, n: {"v": s.ints(n)}, "Int64, no nulls"),
    "int64_null50": (16 << 20, lambda s, n: {"v": s.ints(n, null_fraction=0.5)}, "Int64, 50% null"),
    "utf8_short": (12 << 20, lambda s, n: {"v": s.short_strings(n, 0.1)}, "Utf8 ~8 B, 10% null"),
    "utf8_long": (640 << 10, lambda s, n: {"v": s.long_strings(n, 0.1)}, "Utf8 ~200 B, 10% null"),
    "boolean": (128 << 20, lambda s, n: {"v": s.booleans(n, 0.1)}, "Boolean, 10% null"),
    "struct": (6 << 20, lambda s, n: {"v": s.nested_struct(n)}, "nested nullable struct"),
    "list_int32": (6 << 20, lambda s, n: {"v": s.int32_lists(n, null_fraction=0.1)},
                   "List<Int32> 0-7 items, 10% null"),
    "wide20": (1 << 20, wide_columns, "20 mixed columns"),
}


def write_ipc(path, table):
    tmp = path + ".tmp"
    with pa.OSFile(tmp, "wb") as sink, ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table, max_chunksize=BATCH_ROWS)
    os.replace(tmp, path)


def make_logical(out, scale, names):
    os.makedirs(out, exist_ok=True)
    for i, name in enumerate(names or CASES):
        if name not in CASES:
            sys.exit(f"make_tables.py: unknown case {name} (known: {', '.join(CASES)})")
        path = os.path.join(out, name + ".arrow")
        if os.path.exists(path):
            continue
        rows, build, _ = CASES[name]
        n = max(1, int(rows * scale))
        print(f"  making {path} ({n} rows)...", file=sys.stderr)
        table = pa.table(build(Source(1000 * (i + 1)), n))
        write_ipc(path, table)


def parquet_group(src, start, n):
    return pa.table({
        "offset": pa.array(range(start, start + n), pa.int64()),
        "event_time": pc.cast(src.ints(n, bound=2.0**50), pa.timestamp("us", tz="UTC")),
        "account": src.ints(n, null_fraction=0.1),
        "amount": src.floats(n, null_fraction=0.2),
        "code": src.short_strings(n, null_fraction=0.05),
        "note": src.long_strings(n, null_fraction=0.3, repeat=6),
        "flag": src.booleans(n, null_fraction=0.1),
        "qty": src.ints(n, pa.int32(), bound=1e4),
    })


def make_parquet(path, mib):
    """Flat columns with strings and nulls (snappy), in row groups of 2^20 rows: about
    105 MB of Arrow data and 50 MB on disk each. The group count is chosen from the
    compressed size of the first group so the file comes out near `mib` MiB."""
    if os.path.exists(path):
        return
    print(f"  making {path} (about {mib} MiB)...", file=sys.stderr)
    group_rows = 1 << 20
    src = Source(7)
    first = parquet_group(src, 0, group_rows)
    probe = pa.BufferOutputStream()
    pq.write_table(first, probe, row_group_size=group_rows, compression="snappy")
    groups = max(1, round((mib << 20) / probe.getvalue().size))
    tmp = path + ".tmp"
    with pq.ParquetWriter(tmp, first.schema, compression="snappy") as writer:
        writer.write_table(first, row_group_size=group_rows)
        for g in range(1, groups):
            writer.write_table(parquet_group(src, g * group_rows, group_rows),
                               row_group_size=group_rows)
    os.replace(tmp, path)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    lg = sub.add_parser("logical")
    lg.add_argument("dir")
    lg.add_argument("--scale", type=float, default=1.0)
    lg.add_argument("cases", nargs="*")
    pqp = sub.add_parser("parquet")
    pqp.add_argument("file")
    pqp.add_argument("--mib", type=int, default=1024)
    sub.add_parser("describe")
    a = p.parse_args()
    if a.cmd == "logical":
        make_logical(a.dir, a.scale, a.cases)
    elif a.cmd == "parquet":
        make_parquet(a.file, a.mib)
    else:
        for name, (_, _, desc) in CASES.items():
            print(f"{name}\t{desc}")


if __name__ == "__main__":
    main()
