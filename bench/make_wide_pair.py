"""For bench/wide.sh: two Parquet files of COLUMNS int64 columns and 3 rows, written by pyarrow,
the second differing in one value (`one`) or in a value of every column (`all`)."""
import sys

import pyarrow as pa
import pyarrow.parquet as pq

columns, kind, a, b = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
pq.write_table(pa.table({f"c{i}": pa.array([1, 2, 3], pa.int64()) for i in range(columns)}), a)
changed = {f"c{i}": pa.array([1, 2, 4 if kind == "all" or i == 7 else 3], pa.int64())
           for i in range(columns)}
pq.write_table(pa.table(changed), b)
