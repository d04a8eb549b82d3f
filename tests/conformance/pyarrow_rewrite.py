#!/usr/bin/env python3
"""Rewrite Arrow IPC files as Parquet with pyarrow (Arrow C++'s writer), for the campaign.

    pyarrow_rewrite.py JOBS.json

JOBS.json is a list of {"src": IPC file, "dst": Parquet file, "options": write_table kwargs}.
Prints one JSON line per job that pyarrow could not write ({"dst": ..., "error": ...}); such
tables are skipped by the campaign (pyarrow cannot write every Arrow type arrow-rs can). A file
pyarrow writes but cannot read back itself is reported too, with "read_back": true (seen: data
page v2 with tiny pages, whose column chunks hold data pages with no values, after which Arrow
C++ stops reading a chunk); the campaign labels those, and odf-hash, which skips such pages,
must still hash them as the reference does.
"""
import json
import random
import sys

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq


def read_ipc(path):
    try:
        with ipc.open_file(path) as r:
            return r.read_all()
    except pa.ArrowInvalid:
        with ipc.open_stream(path) as r:
            return r.read_all()


def column_encodings(schema, seed):
    """An encoding (other than dictionary) for each top-level column whose Parquet physical
    type takes one besides PLAIN, chosen with `seed`."""
    rng = random.Random(seed)
    out = {}
    for f in schema:
        t = f.type
        if pa.types.is_integer(t) and t.bit_width >= 32 or pa.types.is_timestamp(t) \
                or pa.types.is_date(t) or pa.types.is_time(t):
            choices = ["DELTA_BINARY_PACKED", "BYTE_STREAM_SPLIT", "PLAIN"]
        elif pa.types.is_floating(t) and t.bit_width >= 32:
            choices = ["BYTE_STREAM_SPLIT", "PLAIN"]
        elif pa.types.is_string(t) or pa.types.is_binary(t) or pa.types.is_large_string(t) \
                or pa.types.is_large_binary(t):
            choices = ["DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "PLAIN"]
        elif pa.types.is_fixed_size_binary(t):
            choices = ["DELTA_BYTE_ARRAY", "BYTE_STREAM_SPLIT", "PLAIN"]
        else:
            continue
        out[f.name] = rng.choice(choices)
    return out


def main():
    with open(sys.argv[1]) as fh:
        jobs = json.load(fh)
    for job in jobs:
        try:
            table = read_ipc(job["src"])
            options = dict(job["options"])
            if isinstance(options.get("column_encoding"), dict) and "random" in options["column_encoding"]:
                options["column_encoding"] = column_encodings(table.schema, options["column_encoding"]["random"])
                if not options["column_encoding"]:
                    del options["column_encoding"]
            pq.write_table(table, job["dst"], **options)
        except Exception as e:  # pyarrow raises many kinds for unsupported types
            print(json.dumps({"dst": job["dst"], "error": f"{type(e).__name__}: {e}"[:300]}), flush=True)
            continue
        try:
            pq.read_table(job["dst"])
        except Exception as e:
            print(json.dumps({"dst": job["dst"], "read_back": True,
                              "error": f"{type(e).__name__}: {e}"[:300]}), flush=True)


if __name__ == "__main__":
    main()
