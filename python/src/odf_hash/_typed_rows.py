"""Comparison.to_arrow(typed=True): the rows a comparison shows, their values read back typed
from the two files with pyarrow."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict, List, Tuple

from ._errors import InvalidInputError

if TYPE_CHECKING:
    from ._compare import Comparison


def _typed_rows(c: "Comparison") -> Any:
    """Comparison.to_arrow(typed=True): the rows shown, their values read back typed."""
    import pyarrow as pa

    for side in (c.original, c.reproduced):
        path = side.get("path") or ""
        if side.get("physical") is None or "://" in path or not os.path.isfile(path):
            raise InvalidInputError(
                "to_arrow(typed=True) reads the values back from two local files compared "
                f"whole, not from {path!r} (a list, a window, a URL or data in memory): use "
                "to_arrow() for the values as text")
    shown = c.differing_rows
    rows = sorted({r.row for r in shown})
    offsets = {r.row: r.offset for r in shown}
    columns = list(dict.fromkeys(d.column for d in c.differences))
    out = {"row": pa.array(rows, pa.uint64()),
           "offset": pa.array([offsets[r] for r in rows], pa.int64())}
    for label, side in (("original", c.original), ("reproduced", c.reproduced)):
        values = _take_rows(side["path"], columns, rows)
        for col in columns:
            out[f"{label}.{col}"] = values[col]
    return pa.table(out)


def _take_rows(path: str, columns: List[str], rows: List[int]) -> Dict[str, Any]:
    """The values of leaf `columns` ("a.b": member b of struct a) at `rows` (ascending) of a
    Parquet or Arrow IPC file, read with pyarrow one row group or batch at a time."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    with open(path, "rb") as f:
        magic = f.read(6)
    if magic[:4] == b"PAR1":
        pf = pq.ParquetFile(path)
        names = pf.schema_arrow.names
        tops = sorted({_leaf_path(names, col)[0] for col in columns})
        sizes = [pf.metadata.row_group(g).num_rows for g in range(pf.num_row_groups)]
        chunks = (lambda g: pf.read_row_group(g, columns=tops)), len(sizes)
    else:
        source = pa.memory_map(path)
        reader = (pa.ipc.open_file(source) if magic == b"ARROW1"
                  else pa.ipc.open_stream(source).read_all())
        batches = ([reader.get_batch(i) for i in range(reader.num_record_batches)]
                   if magic == b"ARROW1" else reader.to_batches())
        names = batches[0].schema.names if batches else []
        sizes = [b.num_rows for b in batches]
        chunks = (lambda g: batches[g]), len(sizes)
    parts, start, i = [], 0, 0
    for g in range(chunks[1]):
        end = start + sizes[g]
        local = []
        while i < len(rows) and rows[i] < end:
            local.append(rows[i] - start)
            i += 1
        if local:
            parts.append(pa.table(chunks[0](g)).take(pa.array(local, pa.int64())))
        start = end
    table = pa.concat_tables(parts)
    out = {}
    for col in columns:
        top, members = _leaf_path(names, col)
        arr = table.column(top).combine_chunks()
        for m in members:
            arr = pc.struct_field(arr, m)
        out[col] = arr
    return out


def _leaf_path(names: List[str], column: str) -> Tuple[str, List[str]]:
    """A leaf column's path ("a.b") split into its top-level field and the struct members
    below it (names holding dots matched whole, as the comparison names them)."""
    if column in names:
        return column, []
    for top in sorted(names, key=len, reverse=True):
        if column.startswith(top + "."):
            return top, [m for m in column[len(top) + 1:].split(".")]
    raise InvalidInputError(f"to_arrow(typed=True): no column {column!r} in the file")
