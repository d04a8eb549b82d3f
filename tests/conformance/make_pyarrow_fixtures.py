#!/usr/bin/env python3
"""Parquet fixtures written by pyarrow (Arrow C++), for the conformance vectors.

Writers other than arrow-rs annotate Parquet differently; the logical hash of such a file is
what arrow-rs reads from it (the main ODF implementation's path). Run with the project venv:

    .venv/bin/python tests/conformance/make_pyarrow_fixtures.py

It writes tests/conformance/data/pyarrow/*.parquet and data/pyarrow/fixtures.json (file and
description of each). Then `odf-hash-conformance vectors --out tests/conformance` hashes
them with the reference and records the results in vectors.json. The data is fixed (no
randomness), so reruns with the same pyarrow produce the same records.
"""
import datetime as dt
import decimal
import json
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "pyarrow")


def ts_values(n):
    base = dt.datetime(2021, 3, 28, 0, 30, 15, 123456)
    return [None if i % 5 == 3 else base + dt.timedelta(hours=7 * i, microseconds=i) for i in range(n)]


def base_table(n=40):
    ints = [None if i % 7 == 2 else (i * 2654435761) % 2**31 - 2**30 for i in range(n)]
    strings = [None if i % 6 == 1 else ("" if i % 9 == 0 else "значення-" * (i % 4) + str(i)) for i in range(n)]
    return pa.table({
        "id": pa.array(range(n), pa.int64()),
        "i32": pa.array(ints, pa.int32()),
        "u16": pa.array([i * 1000 % 65536 for i in range(n)], pa.uint16()),
        "f64": pa.array([None if i % 8 == 0 else i / 3.0 for i in range(n)], pa.float64()),
        "flag": pa.array([None if i % 4 == 0 else i % 3 == 0 for i in range(n)], pa.bool_()),
        "name": pa.array(strings, pa.string()),
        "blob": pa.array([bytes(range(i % 20)) if i % 5 else None for i in range(n)], pa.binary()),
        "day": pa.array([dt.date(2020, 1, 1) + dt.timedelta(days=37 * i) for i in range(n)], pa.date32()),
        "amount": pa.array([None if i % 6 == 0 else decimal.Decimal(i * 1234567) / 100 for i in range(n)],
                           pa.decimal128(18, 2)),
    })


def nested_table(n=30):
    lists = [None if i % 7 == 3 else [[j, None if j == 2 else j * i] for j in range(i % 4)] if i % 5 else []
             for i in range(n)]
    structs = [None if i % 6 == 2 else {
        "a": None if i % 4 == 1 else i,
        "inner": None if i % 5 == 4 else {"s": "x" * (i % 3), "deep": {"v": None if i % 3 == 0 else float(i)}},
    } for i in range(n)]
    struct_type = pa.struct([
        ("a", pa.int32()),
        ("inner", pa.struct([("s", pa.string()), ("deep", pa.struct([("v", pa.float64())]))])),
    ])
    return pa.table({
        "lol": pa.array(lists, pa.list_(pa.list_(pa.int64()))),
        "st": pa.array(structs, struct_type),
        "large": pa.array([None if i % 4 == 0 else "L" * (i % 17) for i in range(n)], pa.large_string()),
        "fsl": pa.array([[i, i + 1] if i % 3 else None for i in range(n)], pa.list_(pa.int16(), 2)),
    })


def timestamp_table(n=24):
    vals = ts_values(n)
    cols = {}
    for unit in ("s", "ms", "us", "ns"):
        cols[f"ts_{unit}"] = pa.array(vals, pa.timestamp(unit))
        cols[f"ts_{unit}_utc"] = pa.array(vals, pa.timestamp(unit, tz="UTC"))
    cols["ts_us_kyiv"] = pa.array(vals, pa.timestamp("us", tz="Europe/Kyiv"))
    cols["ts_ms_plus2"] = pa.array(vals, pa.timestamp("ms", tz="+02:00"))
    cols["t32_ms"] = pa.array([None if i % 5 == 0 else i * 3_600_001 % 86_400_000 for i in range(n)], pa.time32("ms"))
    cols["t64_us"] = pa.array([i * 3_600_000_007 % 86_400_000_000 for i in range(n)], pa.time64("us"))
    return pa.table(cols)


def dictionary_table(n=50):
    cities = ["Kyiv", "Lviv", "", "Odesa", "Kharkiv"]
    cat = pa.array([None if i % 9 == 4 else cities[i % 5] for i in range(n)]).dictionary_encode()
    codes = pa.DictionaryArray.from_arrays(pa.array([i % 3 for i in range(n)], pa.int8()),
                                           pa.array(["low", "mid", "high"]))
    return pa.table({
        "city": cat,
        "level": codes,
        "plain": pa.array([cities[i % 5] for i in range(n)]),
        "n": pa.array([i % 4 for i in range(n)], pa.int64()),
    })


def pandas_categorical_table(n=30):
    """What pa.Table.from_pandas makes of a pandas Categorical (pandas is not needed): a
    dictionary<int8, string> column plus the 'pandas' schema metadata describing it."""
    values = ["a", "b", None, "a", "c", "b"]
    kind = pa.DictionaryArray.from_arrays(
        pa.array([None if values[i % 6] is None else "abc".index(values[i % 6]) for i in range(n)], pa.int8()),
        pa.array(["a", "b", "c"]))
    pandas_meta = {
        "index_columns": [], "column_indexes": [], "creator": {"library": "pyarrow", "version": pa.__version__},
        "pandas_version": "2.2.3",
        "columns": [
            {"name": "kind", "field_name": "kind", "pandas_type": "categorical", "numpy_type": "int8",
             "metadata": {"num_categories": 3, "ordered": False}},
            {"name": "x", "field_name": "x", "pandas_type": "int64", "numpy_type": "int64", "metadata": None},
        ],
    }
    table = pa.table({"kind": kind, "x": pa.array(range(n), pa.int64())})
    return table.replace_schema_metadata({b"pandas": json.dumps(pandas_meta).encode()})


def structs_across_row_groups_table(n=12345):
    """Nested nullable structs over more rows than one arrow-rs batch (10,000), for files
    whose row groups do not divide the batch: the reference's hash of such data depends on
    the batch boundaries and on the values arrow-rs leaves under null slots, which depend on
    the rows it decodes together (one run per row group within a batch)."""
    def inner(i):
        if i % 11 == 5:
            return None
        return {
            "v": None if i % 3 == 1 else i * 7 - 5000,
            "ok": None if i % 4 == 2 else i % 5 == 0,
            "s": None if i % 6 == 3 else "s" * (i % 5) + str(i),
            "ls": None if i % 5 == 1 else ("view-" * (i % 4)) + str(i),
            "fsb": None if i % 7 == 6 else (i % 65536).to_bytes(2, "little") + b"\x01\x02",
            "dec": None if i % 8 == 7 else decimal.Decimal(i * 31) / 100,
            "ts": None if i % 9 == 4 else dt.datetime(2020, 1, 1) + dt.timedelta(seconds=97 * i),
            "pair": None if i % 10 == 3 else [i, -i],
        }
    rows = [None if i % 13 == 7 else {"inner": inner(i), "w": None if i % 2 else i % 100} for i in range(n)]
    inner_type = pa.struct([
        ("v", pa.int32()), ("ok", pa.bool_()), ("s", pa.string()), ("ls", pa.large_string()),
        ("fsb", pa.binary(4)), ("dec", pa.decimal128(12, 2)), ("ts", pa.timestamp("us")),
        ("pair", pa.list_(pa.int64(), 2)),
    ])
    outer_type = pa.struct([("inner", inner_type), ("w", pa.int16())])
    return pa.table({"id": pa.array(range(n), pa.int64()), "st": pa.array(rows, outer_type)})


def int96_struct_units_table(n=40):
    """Timestamps of every unit inside one struct, nested two deep: written as INT96, each is
    read in its own unit (from the embedded schema), which Parquet C++ takes per reader."""
    vals = ts_values(n)
    inner = pa.StructArray.from_arrays(
        [pa.array(vals, pa.timestamp("us", tz="UTC")), pa.array(vals, pa.timestamp("ns"))], ["c", "d"],
        mask=pa.array([i % 7 == 5 for i in range(n)]))
    st = pa.StructArray.from_arrays(
        [pa.array(vals, pa.timestamp("s")), pa.array(vals, pa.timestamp("ms", tz="Europe/Kyiv")), inner,
         pa.array(range(n), pa.int32())], ["a", "b", "inner", "k"],
        mask=pa.array([i % 9 == 4 for i in range(n)]))
    return pa.table({"st": st, "top_ms": pa.array(vals, pa.timestamp("ms"))})


def spark_int96_table():
    """Timestamps as Spark writes them (INT96), of dates far from 1970: as nanoseconds
    (arrow-rs's unit for INT96 without an embedded schema) years 1, 1000, 1582 and 9999
    overflow 64 bits, and arrow-rs wraps them; top-level, in a struct and in a list."""
    far = [dt.datetime(1, 1, 1), dt.datetime(1000, 6, 15, 12, 30, 45, 123456),
           dt.datetime(1582, 10, 4, 23, 59, 59, 999999), dt.datetime(1677, 9, 21, 0, 12, 43, 145224),
           dt.datetime(1970, 1, 1), dt.datetime(2262, 4, 11, 23, 47, 16, 854775),
           dt.datetime(9999, 12, 31, 23, 59, 59, 999999), None]
    n = len(far) * 3
    vals = [far[i % len(far)] for i in range(n)]
    st = pa.StructArray.from_arrays([pa.array(vals, pa.timestamp("us")), pa.array(range(n), pa.int32())],
                                    ["when", "k"], mask=pa.array([i % 5 == 2 for i in range(n)]))
    lists = pa.array([None if i % 7 == 6 else vals[i:i + i % 3] for i in range(n)], pa.list_(pa.timestamp("us")))
    return pa.table({"ts": pa.array(vals, pa.timestamp("us")), "st": st, "l": lists})


def int96_fixed_lists_table(n=20):
    """INT96 items of fixed-size lists (read as lists by Arrow C++ and rebuilt), in two units,
    top-level and inside a struct, with null lists and null items."""
    vals = ts_values(n * 2)
    pairs = [None if i % 6 == 4 else [vals[2 * i], vals[2 * i + 1]] for i in range(n)]
    fsl_ms = pa.array(pairs, pa.list_(pa.timestamp("ms", tz="UTC"), 2))
    fsl_s = pa.array(pairs, pa.list_(pa.timestamp("s"), 2))
    st = pa.StructArray.from_arrays([fsl_s, pa.array(range(n), pa.int16())], ["pair", "k"],
                                    mask=pa.array([i % 5 == 1 for i in range(n)]))
    return pa.table({"fsl": fsl_ms, "st": st})


def int96_lists_table(n=64):
    """Lists of timestamps with empty and null lists: written as INT96 with one row per data
    page v2, pyarrow emits pages holding no values (Parquet C++'s low-level reader stops at
    them, the Arrow reader does not)."""
    vals = [v for v in ts_values(n * 3) if v is not None]
    lists = [None if i % 9 == 4 else ([] if i % 5 == 0 else vals[i:i + 1 + i % 3]) for i in range(n)]
    return pa.table({"l": pa.array(lists, pa.large_list(pa.field("item", pa.timestamp("s", tz="UTC"), False))),
                     "k": pa.array(range(n), pa.int32())})


def empty_pages_table(n=9):
    """Fixed-size lists of booleans, one row per row group: with data page v2 and 64-byte
    pages pyarrow begins each list column chunk with a data page holding no values, after
    which Parquet C++ stops reading the chunk (pyarrow then fails to read its own file, or
    reads the lists back empty); arrow-rs reads them in full."""
    return pa.table({
        "f": pa.array([[None, None, None] if i % 3 else [i % 2 == 0, None, True] for i in range(n)],
                      pa.list_(pa.bool_(), 3)),
        "k": pa.array(range(n), pa.int16()),
    })


def fixtures():
    base = base_table()
    nested = nested_table()
    ts = timestamp_table()
    dic = dictionary_table()
    f = []

    def add(name, table, description, equivalent=None, **kwargs):
        f.append((name, table, description, equivalent, kwargs))

    add("base_default.parquet", base, "primitive columns with nulls, pyarrow defaults (snappy, dictionary, embedded ARROW:schema)")
    add("base_no_arrow_schema.parquet", base, "the same table with store_schema=False (types from Parquet annotations only)",
        store_schema=False)
    add("base_v1_uncompressed.parquet", base, "format version 1.0, no compression, no dictionary",
        version="1.0", compression="NONE", use_dictionary=False)
    add("base_zstd_small_groups.parquet", base, "zstd, row groups of 7 rows, data page v2",
        compression="zstd", row_group_size=7, data_page_version="2.0")
    add("nested_default.parquet", nested, "list<list<int64>> with empty and null lists, struct nested three deep with nulls at every level, large_string, fixed_size_list")
    add("nested_no_arrow_schema.parquet", nested, "nested table with store_schema=False", store_schema=False)
    add("timestamps_default.parquet", ts, "timestamps in every unit with and without time zones (UTC, Europe/Kyiv, +02:00), time32/time64")
    add("timestamps_no_arrow_schema.parquet", ts, "timestamps with store_schema=False (tz and unit from Parquet annotations)",
        store_schema=False)
    add("timestamps_v1_coerce_ms.parquet", ts, "format version 1.0 with coerce_timestamps='ms' (legacy converted TIMESTAMP_MILLIS)",
        version="1.0", coerce_timestamps="ms", allow_truncated_timestamps=True)
    add("timestamps_v1_no_arrow_schema.parquet", ts, "format version 1.0, legacy converted types, store_schema=False",
        version="1.0", store_schema=False, coerce_timestamps="us", allow_truncated_timestamps=True)
    add("timestamps_int96.parquet", ts, "INT96 timestamps (use_deprecated_int96_timestamps=True)",
        use_deprecated_int96_timestamps=True)
    add("timestamps_int96_no_arrow_schema.parquet", ts, "INT96 timestamps with store_schema=False",
        use_deprecated_int96_timestamps=True, store_schema=False)
    add("dictionary_default.parquet", dic, "dictionary-typed columns (Arrow dictionary type in the embedded schema)",
        equivalent="dictionary_read_plain.parquet")
    add("dictionary_no_arrow_schema.parquet", dic, "dictionary-encoded pages read as plain strings (store_schema=False)",
        store_schema=False)
    add("dictionary_read_plain.parquet", dic.cast(pa.schema([("city", pa.string()), ("level", pa.string()),
                                                             ("plain", pa.string()), ("n", pa.int64())])),
        "dictionary-encoded pages (use_dictionary=True) of plain string columns", use_dictionary=True)
    big = structs_across_row_groups_table()
    add("structs_row_groups_7000.parquet", big,
        "nested nullable structs (int, bool, string, large_string, fixed binary, decimal, timestamp, "
        "fixed_size_list under null structs) over 12,345 rows in row groups of 7,000: arrow-rs batches "
        "of 10,000 rows span row groups", compression="zstd", row_group_size=7000)
    add("structs_row_groups_int96.parquet", big,
        "the same table with INT96 timestamps and row groups of 3,000 rows",
        compression="zstd", row_group_size=3000, use_deprecated_int96_timestamps=True)
    add("int96_struct_units.parquet", int96_struct_units_table(),
        "INT96 timestamps in s, ms, us and ns inside one nullable struct (and a nested one), plus a "
        "top-level ms column, row groups of 16", use_deprecated_int96_timestamps=True, row_group_size=16)
    spark = spark_int96_table()
    add("int96_spark_far_dates.parquet", spark,
        "Spark-style INT96 (store_schema=False): dates of years 1..9999 whose nanoseconds overflow "
        "64 bits, top-level, in a struct and in a list", use_deprecated_int96_timestamps=True,
        store_schema=False, row_group_size=10)
    add("int96_far_dates_schema_us.parquet", spark,
        "the same INT96 dates with the embedded schema (read in microseconds: no overflow)",
        use_deprecated_int96_timestamps=True)
    add("int96_fixed_size_lists.parquet", int96_fixed_lists_table(),
        "INT96 timestamps (ms with a zone, s) as items of fixed-size lists, top-level and in a "
        "struct, null lists and items", use_deprecated_int96_timestamps=True, row_group_size=6)
    add("int96_lists_empty_pages.parquet", int96_lists_table(),
        "INT96 items of large lists with empty and null lists, data page v2 of one row each "
        "(pages with no values)", use_deprecated_int96_timestamps=True, data_page_version="2.0",
        max_rows_per_page=1, write_batch_size=1, data_page_size=64)
    add("empty_data_pages.parquet", empty_pages_table(),
        "data page v2 with 64-byte pages: column chunks that begin with a data page holding no "
        "values (written by pyarrow, which cannot read them back correctly)",
        data_page_version="2.0", data_page_size=64, row_group_size=1)
    add("empty_data_pages_no_arrow_schema.parquet", empty_pages_table(),
        "the same without the embedded schema (lists of booleans)",
        data_page_version="2.0", data_page_size=64, row_group_size=1, store_schema=False)
    for codec in ("brotli", "gzip", "lz4"):
        add(f"base_{codec}.parquet", base, f"the base table compressed with {codec} (pyarrow's lz4 is LZ4_RAW)",
            compression=codec)
    add("base_delta_bss_encodings.parquet", base,
        "no dictionary, DELTA_BINARY_PACKED integers, DELTA_BYTE_ARRAY / DELTA_LENGTH_BYTE_ARRAY "
        "strings and binaries, BYTE_STREAM_SPLIT doubles, data page v2",
        use_dictionary=False, data_page_version="2.0",
        column_encoding={"id": "DELTA_BINARY_PACKED", "i32": "DELTA_BINARY_PACKED",
                         "name": "DELTA_BYTE_ARRAY", "blob": "DELTA_LENGTH_BYTE_ARRAY",
                         "f64": "BYTE_STREAM_SPLIT"})
    add("base_tiny_pages.parquet", base,
        "row groups of 3 rows, pages of at most 2 rows, 64-byte dictionary pages (dictionary "
        "fallback), decimals stored as integers",
        row_group_size=3, max_rows_per_page=2, write_batch_size=1, dictionary_pagesize_limit=64,
        store_decimal_as_integer=True)
    add("nested_legacy_list_names.parquet", nested,
        "nested table with use_compliant_nested_type=False (three-level lists named list/item)",
        use_compliant_nested_type=False)
    cat = pandas_categorical_table()
    add("pandas_categorical.parquet", cat,
        "pandas-style categorical column (dictionary<int8, string> + pandas metadata)",
        equivalent="pandas_categorical_plain.parquet")
    add("pandas_categorical_plain.parquet", cat.cast(pa.schema([("kind", pa.string()), ("x", pa.int64())])),
        "the categorical table with the column decoded to plain strings")
    return f


def main():
    os.makedirs(OUT, exist_ok=True)
    meta = []
    for name, table, description, equivalent, kwargs in fixtures():
        pq.write_table(table, os.path.join(OUT, name), **kwargs)
        entry = {"file": name, "description": description,
                 "writer": f"pyarrow {pa.__version__}", "options": {k: str(v) for k, v in kwargs.items()}}
        if equivalent:
            # Same records with the dictionary decoded: odf-hash must hash both alike.
            entry["equivalent"] = equivalent
        meta.append(entry)
    with open(os.path.join(OUT, "fixtures.json"), "w") as fh:
        json.dump({"fixtures": meta}, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    print(f"wrote {len(meta)} fixtures to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
