"""Keyed comparison results (:func:`odf_hash.compare` with ``key=``): rows matched by key in
any order, read from the JSON of ``odf-hash compare --key`` (the C++ keyed_comparison_json).
Re-exported by :mod:`odf_hash`."""
from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Optional

from ._compare import SchemaDifference, UnorderedRecord
from ._errors import InvalidInputError


@dataclasses.dataclass(frozen=True)
class ValueChange:
    """A value that differs between the two rows of one key (:class:`KeyedChange`)."""

    column: str  #: a top-level column
    original: str  #: the values as text, as in :class:`RowDifference`
    reproduced: str


@dataclasses.dataclass(frozen=True)
class KeyedChange:
    """A key held by one row on each side whose other values differ."""

    key: str  #: ``"name=value, ..."`` over the key columns, in the order asked
    original_row: int
    reproduced_row: int
    original_offset: Optional[int]  #: the ODF ``offset`` values, when the files have them
    reproduced_offset: Optional[int]
    values: List[ValueChange]  #: the columns that differ, in the original's column order


@dataclasses.dataclass(frozen=True)
class KeyedComparison:
    """Two files compared by key (:func:`compare` with ``key=``): rows matched by the values
    of the key columns, in any row order. NOT the ODF hash: ODF metadata records arrow0,
    which depends on the order."""

    #: every key on both sides, each key's rows holding the same values (and the same
    #: schema, the column order aside)
    same_records: bool
    key: List[str]
    #: path, rows, only_here (rows whose key the other side lacks), duplicate_keys (keys
    #: held by several rows), duplicate_rows
    original: Dict[str, Any]
    reproduced: Dict[str, Any]
    only_in_original: List[UnorderedRecord]  #: the first (by row) of the rows ``only_here``
    only_in_reproduced: List[UnorderedRecord]
    duplicates_in_original: List[UnorderedRecord]  #: the first rows of duplicated keys
    duplicates_in_reproduced: List[UnorderedRecord]
    matched_keys: int  #: keys both sides hold
    #: of those, the keys whose rows differ (several rows of a key: as multisets of values)
    changed_keys: int
    changes: List[KeyedChange]  #: the first one-row-a-side changed keys, by original row
    compared_columns: List[str]  #: the columns compared (neither key nor ignored)
    ignored_columns: List[str]
    schema_differences: List[SchemaDifference]
    #: every key with the same values while the schemas differ in a way the values do not
    #: show (a time zone): :attr:`same_records` is then False
    same_values: bool = False

    def __bool__(self) -> bool:
        return self.same_records

    def __repr__(self) -> str:
        if self.same_records:
            what = "same records"
        elif self.same_values:
            what = "different schemas, the same values"
        else:
            what = (f"different records: {self.changed_keys} key(s) changed, "
                    f"{self.original['only_here']} row(s) only in the original, "
                    f"{self.reproduced['only_here']} only in the reproduction")
        return f"<odf_hash.KeyedComparison by {', '.join(self.key)}: {what}>"

    def to_arrow(self) -> Any:
        """The changed values shown as a ``pyarrow.Table`` (``key``, ``column``,
        ``original_row``, ``reproduced_row``, ``original``, ``reproduced``), one row per
        changed value. Needs pyarrow."""
        import pyarrow as pa

        vals = [(c, v) for c in self.changes for v in c.values]
        return pa.table({
            "key": pa.array([c.key for c, _ in vals], pa.string()),
            "column": pa.array([v.column for _, v in vals], pa.string()),
            "original_row": pa.array([c.original_row for c, _ in vals], pa.uint64()),
            "reproduced_row": pa.array([c.reproduced_row for c, _ in vals], pa.uint64()),
            "original": pa.array([v.original for _, v in vals], pa.string()),
            "reproduced": pa.array([v.reproduced for _, v in vals], pa.string()),
        })


def _keyed(doc: Dict[str, Any]) -> KeyedComparison:
    """A KeyedComparison from compare --key's JSON (the C++ keyed_comparison_json)."""
    def records(raw: List[Dict[str, Any]]) -> List[UnorderedRecord]:
        return [UnorderedRecord(e["row"], e["offset"], e["values"]) for e in raw]

    def side(raw: Dict[str, Any]) -> Dict[str, Any]:
        return {k: raw[k] for k in ("path", "rows", "only_here", "duplicate_keys",
                                    "duplicate_rows")}

    o, r = doc["original"], doc["reproduced"]
    changes = [KeyedChange(c["key"], c["original_row"], c["reproduced_row"],
                           c["original_offset"], c["reproduced_offset"],
                           [ValueChange(v["column"], v["original"], v["reproduced"])
                            for v in c["values"]]) for c in doc["changes"]]
    schema = [SchemaDifference(d["field"], d["kind"], d["original"], d["reproduced"],
                               d["encoding_only"], d.get("changes_hash"))
              for d in doc["schema_differences"]]
    return KeyedComparison(doc["same_records"], doc["key"], side(o), side(r),
                           records(o["only_examples"]), records(r["only_examples"]),
                           records(o["duplicate_examples"]), records(r["duplicate_examples"]),
                           doc["matched_keys"], doc["changed_keys"], changes,
                           doc["compared_columns"], doc["ignored_columns"], schema,
                           doc["same_values"])


def _key(key: Any) -> List[str]:
    """The key columns checked: a name or names (non-empty str), at least one."""
    try:
        names = [key] if isinstance(key, str) else list(key)
    except TypeError:
        names = []
    if not names or any(not isinstance(k, str) or not k for k in names):
        raise InvalidInputError(f"key: one or more column names (non-empty str), not {key!r}")
    return names
