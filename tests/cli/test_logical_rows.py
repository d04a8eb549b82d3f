"""odf-hash logical never hashes fewer rows than a Parquet file holds.

Arrow C++ 26 (which odf-hash reads Parquet through) decodes some files that pyarrow itself
writes into fewer rows than their metadata says, without an error: a non-null
list<list<bool>> column written with data page v2, tiny pages and one-row row groups reads as
0 rows. arrow-rs reads all of them, so a hash of what Arrow C++ returns would be a wrong hash.
The cause is data pages holding no values, which odf-hash now skips (src/io/arrow/empty_pages.h), so
it reads such files in full (their reference hashes are checked by the conformance vectors
data/pyarrow/empty_data_pages*.parquet); were rows lost anyway, odf-hash must say it cannot
read the file (exit 2), never hash fewer rows.
"""
import json

import pyarrow as pa
import pyarrow.parquet as pq


def test_rows_lost_by_arrow_cpp_are_an_error_not_a_wrong_hash(run, tmp_path):
    n = 20
    items = [[[None, False], [None, None]] if i % 3 == 0 else [[]] if i % 3 == 1 else [None, [], [None]]
             for i in range(n)]
    column = pa.array(items, pa.large_list(pa.large_list(pa.bool_())))
    table = pa.Table.from_arrays([column], schema=pa.schema([pa.field("c0", column.type, nullable=False)]))
    path = tmp_path / "v2_tiny_pages.parquet"
    pq.write_table(table, path, row_group_size=1, use_dictionary=False, data_page_version="2.0",
                   data_page_size=64)
    assert pq.ParquetFile(path).metadata.num_rows == n

    r = run("logical", "--json", str(path))
    doc = json.loads(r.out)["files"][0]
    if r.rc == 0:  # an Arrow C++ that reads the file in full
        assert doc["rows"] == n
    else:
        assert r.rc == 2
        assert "rows of row group 0, whose metadata says 1" in doc["error"]
        assert "logical" not in doc
