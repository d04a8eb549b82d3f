"""For bench/compare.sh: the records only in A and only in B, counted by DuckDB with EXCEPT
ALL both ways (the order-insensitive comparison in SQL), printed as "N M"."""
import sys

import duckdb

a, b = sys.argv[1], sys.argv[2]
con = duckdb.connect()
con.execute("SET threads TO 1")  # one core, as odf-hash reads each file on one thread
q = ("SELECT count(*) FROM (SELECT * FROM read_parquet('{}') EXCEPT ALL "
     "SELECT * FROM read_parquet('{}'))")
print(con.execute(q.format(a, b)).fetchone()[0], con.execute(q.format(b, a)).fetchone()[0])
