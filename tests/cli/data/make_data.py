"""Writes the small data files used by test_logical.py (run with pyarrow; committed output).

Their expected logical hashes in test_logical.py were printed by the Rust reference: a
scratch program reading each Parquet file with parquet 60.0.0's
ParquetRecordBatchReaderBuilder (default options) and each IPC file/stream with arrow-ipc
60.1, feeding arrow-digest 60.0.0 RecordDigestV0<Sha3_256>.
"""
import datetime as dt
import os

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

here = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(here, name)


ts = [dt.datetime(2020, 1, 1, 1, 2, 3, 456789), None, dt.datetime(1960, 5, 6, 7, 8, 9, 123456)]
timestamps = pa.table({
    "ms_berlin": pa.array(ts, pa.timestamp("ms", tz="Europe/Berlin")),
    "us_utc": pa.array(ts, pa.timestamp("us", tz="UTC")),
    "us_naive": pa.array(ts, pa.timestamp("us")),
})
pq.write_table(timestamps, path("timestamps.parquet"))
pq.write_table(timestamps, path("timestamps_noschema.parquet"), store_schema=False)
pq.write_table(pa.table({"t": pa.array(ts, pa.timestamp("ns"))}), path("int96.parquet"),
               use_deprecated_int96_timestamps=True, store_schema=False)

records = pa.table({
    "id": pa.array(range(1000), pa.int64()),
    "name": pa.array([None if i % 7 == 0 else f"name-{i}" for i in range(1000)], pa.utf8()),
    "point": pa.array([{"x": i, "y": None if i % 3 else float(i)} for i in range(1000)],
                      pa.struct([("x", pa.int32()), ("y", pa.float64())])),
    "tags": pa.array([[f"t{j}" for j in range(i % 4)] if i % 5 else None for i in range(1000)],
                     pa.list_(pa.utf8())),
})
pq.write_table(records, path("records.parquet"), row_group_size=300)
with ipc.new_file(path("records.arrow"), records.schema) as w:
    w.write_table(records, max_chunksize=256)
with ipc.new_stream(path("records.arrows"), records.schema) as w:
    w.write_table(records, max_chunksize=100)

pq.write_table(pa.table({"d": pa.array([1, None], pa.duration("s"))}), path("duration.parquet"))
with open(path("records.parquet"), "rb") as f:
    data = f.read()
with open(path("truncated.parquet"), "wb") as f:
    f.write(data[: len(data) // 2])
with open(path("garbage.parquet"), "wb") as f:
    f.write(b"not a data file\n")
