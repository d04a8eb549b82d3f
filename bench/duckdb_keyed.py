"""For bench/compare.sh: the keyed comparison in SQL, DuckDB's FULL OUTER JOIN of two Parquet
files on a key column, every other column compared with IS DISTINCT FROM; prints the rows only
in A, only in B and the keys whose values differ, as "N M K"."""
import sys

import duckdb
import pyarrow.parquet as pq

a, b, key = sys.argv[1], sys.argv[2], sys.argv[3]
cols = [f.name for f in pq.read_schema(a) if f.name != key]
differ = " OR ".join(f'a."{c}" IS DISTINCT FROM b."{c}"' for c in cols)
con = duckdb.connect()
con.execute("SET threads TO 1")  # one core, as odf-hash reads each file on one thread
q = (f'SELECT count(*) FILTER (WHERE b."{key}" IS NULL), count(*) FILTER (WHERE a."{key}" IS '
     f'NULL), count(*) FILTER (WHERE a."{key}" IS NOT NULL AND b."{key}" IS NOT NULL AND '
     f'({differ})) FROM read_parquet(\'{a}\') a FULL OUTER JOIN read_parquet(\'{b}\') b '
     f'ON a."{key}" = b."{key}"')
print(*con.execute(q).fetchone())
