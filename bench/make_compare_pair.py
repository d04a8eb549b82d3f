"""Copies of a Parquet file for bench/compare.sh, written one row group at a time (bounded
memory): CHANGED (the same rows, one value of the first integer column changed in the middle
row group), SHUFFLED (the row groups in reverse order, the rows of each shuffled) and
REENCODED (the same rows in the same order, zstd instead of the default codec and row groups
of another size: other bytes, the same records); with --nudge SRC NUDGED, NUDGED (nudge())."""
import sys

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq


def main(src, changed, shuffled, reencoded):
    f = pq.ParquetFile(src)
    n = f.num_row_groups
    col = next(i for i, fld in enumerate(f.schema_arrow) if pa.types.is_integer(fld.type))
    with pq.ParquetWriter(changed, f.schema_arrow) as w:
        for g in range(n):
            t = f.read_row_group(g)
            if g == n // 2:
                values = t.column(col).combine_chunks()
                i = len(values) // 2
                mask = pa.array(np.arange(len(values)) == i)
                t = t.set_column(col, t.field(col),
                                 pc.if_else(mask, pa.scalar(-12345, values.type), values))
            w.write_table(t)
    rng = np.random.default_rng(1)
    with pq.ParquetWriter(shuffled, f.schema_arrow) as w:
        for g in reversed(range(n)):
            t = f.read_row_group(g)
            w.write_table(t.take(pa.array(rng.permutation(t.num_rows))))
    with pq.ParquetWriter(reencoded, f.schema_arrow, compression="zstd") as w:
        for g in range(n):
            w.write_table(f.read_row_group(g), row_group_size=300_000)


def nudge(src, nudged):
    """NUDGED: the same rows, the first float64 column's values times (1 + 1e-12) in every
    100th row: what a sum in another order gives, for `compare --rtol`."""
    f = pq.ParquetFile(src)
    col = next(i for i, fld in enumerate(f.schema_arrow) if pa.types.is_float64(fld.type))
    with pq.ParquetWriter(nudged, f.schema_arrow) as w:
        for g in range(f.num_row_groups):
            t = f.read_row_group(g)
            values = t.column(col).combine_chunks()
            mask = pa.array(np.arange(len(values)) % 100 == 0)
            t = t.set_column(col, t.field(col),
                             pc.if_else(mask, pc.multiply(values, 1.0 + 1e-12), values))
            w.write_table(t)


if __name__ == "__main__":
    if sys.argv[1] == "--nudge":
        nudge(*sys.argv[2:4])
    else:
        main(*sys.argv[1:5])
