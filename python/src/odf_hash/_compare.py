"""Comparing a reproduced data file with the original: :func:`compare` and its results, and
the order-independent digest (:func:`unordered_digest`). Re-exported by :mod:`odf_hash`."""
from __future__ import annotations

import dataclasses
import math
import os
import tempfile
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

from . import _odf_hash
from ._args import _path, _progress, _store, _threads
from ._errors import InvalidInputError

if TYPE_CHECKING:
    from ._keyed import KeyedComparison

_ROW_FIELDS = ("column", "row", "offset", "original", "reproduced")


@dataclasses.dataclass(frozen=True)
class RowDifference:
    """One row where a column differs (row index from 0 in both files; for lists of files,
    from 0 at the start of each list)."""

    column: str  #: the leaf column's path (``"a.b"`` inside a struct)
    row: int
    offset: Optional[int]  #: the ODF ``offset`` column's value there, when the file has one
    #: the values as text: ``"null"``, strings quoted, control characters escaped, cut
    original: str
    reproduced: str
    #: lists of files compared as one table (a run of dataset slices: the files of
    #: :attr:`SliceComparison.original_files`): the index of the file holding the row on each
    #: side; 0 for two files
    original_file: int = 0
    reproduced_file: int = 0


@dataclasses.dataclass(frozen=True)
class ColumnDifference:
    """Where one column differs: how many rows, and the first of them."""

    column: str
    differing_rows: int  #: among the rows both files have
    rows: List[RowDifference]  #: the first ones (``rows=`` of :func:`compare` of them)
    #: segments whose digest differs while none of their rows does (bytes under null slots)
    hidden_segments: int = 0
    #: an ``"equivalent"`` pair's records (``column`` a top-level field): of the differing
    #: rows, those null on one side only (a null struct against a struct of nulls...)
    null_on_one_side: int = 0


@dataclasses.dataclass(frozen=True)
class SchemaDifference:
    """One field-by-field difference between the two schemas."""

    field: str  #: path of field names (``"a.b"``)
    #: ``"only-in-original"``, ``"only-in-reproduced"``, ``"type"``, ``"nullability"``,
    #: ``"position"``
    kind: str
    original: str  #: the original's type (``"timestamp[us, tz=UTC]"``), nullability, position
    reproduced: str
    #: ``"type"`` only: two encodings of one type (``utf8`` / ``large_utf8``, a dictionary and
    #: its values...), which arrow0 hashes alike
    encoding_only: bool = False
    #: Whether this difference changes the arrow0 hash, as the column digests show (a field on
    #: one side only or at another position always does; another type or nullability when a
    #: column under the field hashes differently); ``None`` where no hash was computed
    #: (``ignore_order``)
    changes_hash: Optional[bool] = None


@dataclasses.dataclass(frozen=True)
class Cause:
    """Why the two verdicts disagree: why arrow0 differs although the records do not
    (``"different"``: ``"column-order"``, ``"nullability"``, ``"encoding"``, ``"null-slots"``,
    ``"row-order"``), or the blind spot of arrow0 that hides how the records differ
    (``"equivalent"``: ``"row-count"``, ``"struct-null"``, ``"null-or-value"``,
    ``"row-order"``, ``"values"``)."""

    kind: str
    column: str  #: the column concerned, ``""`` for the whole table
    text: str  #: one sentence


@dataclasses.dataclass(frozen=True)
class CastCheck:
    """A top-level field's type or nullability difference neutralised: one side's field cast
    (Arrow's safe cast: no value changed or lost) to the other side's type and hashed again."""

    field: str
    cast: bool  #: one side's field could be cast to the other's type
    side_cast: str  #: ``"reproduced"`` (to the original's type) or ``"original"``
    from_type: str  #: the type cast from (``"timestamp[us, tz=UTC]"``)
    to_type: str  #: the type cast to
    values_equal: bool  #: the values are equal after the cast
    changes_hash: bool  #: the field's type or nullability changes the arrow0 hash
    error: str = ""  #: when neither type casts to the other: why
    #: when the values differ after the cast (and ``rows`` > 0): where, per leaf column
    differences: List[ColumnDifference] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True)
class Deviation:
    """A floating-point column whose values differ somewhere (:class:`ToleranceCheck`)."""

    column: str  #: a top-level float16, float32 or float64 column (on both sides)
    differing_rows: int  #: rows (among those both have) whose values differ
    outside_rows: int  #: of those, the ones beyond the tolerance (or null on one side only)
    #: the largest ``|reproduced - original|`` among them (``inf`` for a NaN or an infinity
    #: against another value, or a null against a value)
    max_deviation: float
    row: int  #: where it is: its row, from 0
    offset: Optional[int]  #: its ODF ``offset`` value, when the file has one
    original: str  #: the two values there, as text
    reproduced: str


@dataclasses.dataclass(frozen=True)
class ToleranceCheck:
    """The records compared again in order with a tolerance on floating-point values
    (:func:`compare` with ``rtol`` / ``atol``): ``|reproduced - original| <= atol + rtol *
    |original|`` (``numpy.isclose``, the original the reference; NaN close to NaN, an infinity
    to the same infinity, a null to a null), every other column exactly."""

    rtol: float
    atol: float
    #: as many rows on both sides, each the same record but for floating-point values within
    #: the tolerance: the comparison is then :attr:`Comparison.verified`
    within: bool
    deviations: List[Deviation]  #: the floating-point columns whose values differ somewhere
    original_rows: int = 0
    reproduced_rows: int = 0
    differing_records: int = 0  #: rows holding a value beyond the tolerance, or another value
    #: where: per column, the values beyond the tolerance (floating-point) or different (the
    #: other columns)
    differences: List[ColumnDifference] = dataclasses.field(default_factory=list)
    error: str = ""  #: why no value could be compared (the columns' names differ)


@dataclasses.dataclass(frozen=True)
class Comparison:
    """The two verdicts on a reproduced data file (see :func:`compare`): what ODF checks
    (:attr:`verdict`, the arrow0 hash) and what the records are (:attr:`records`, compared
    value by value), with where and why they differ, as data. Truthy when
    :attr:`verified`."""

    #: what ODF checks: ``"identical"`` (same bytes), ``"equivalent"`` (the same arrow0 hash)
    #: or ``"different"``
    verdict: str
    #: path, physical, size, logical (or None), rows (or None); for a list of files: their
    #: paths joined by ``" + "``, physical None, their total size
    original: Dict[str, Any]
    reproduced: Dict[str, Any]
    differing_columns: List[str]  #: for ``"different"``: the leaf columns that differ
    #: per differing column, where (``rows=0``: not looked for): for ``"different"``, the leaf
    #: columns whose digests differ; for ``"equivalent"`` whose records differ, the top-level
    #: fields whose values differ (a struct whole)
    differences: List[ColumnDifference] = dataclasses.field(default_factory=list)
    schema_differences: List[SchemaDifference] = dataclasses.field(default_factory=list)
    #: what the records are, compared value by value: ``"equal"`` (in order; also for
    #: ``"identical"``), ``"same-other-order"``, ``"different"``, or ``"unknown"``
    #: (``"different"`` with ``rows=0``). An ``"equivalent"`` pair's records are always
    #: compared: arrow0 has blind spots (it does not hash the row count...), so an equal hash
    #: does not make equal records
    records: str = ""
    #: why the two verdicts disagree (:class:`Cause`)
    causes: List[Cause] = dataclasses.field(default_factory=list)
    #: the reproduction is verified: ``"identical"``, or ``"equivalent"`` with ``"equal"``
    #: records (what ``odf-hash compare`` exits 0 for)
    verified: bool = False
    #: for ``"different"`` with row counts that differ: when the records differ by one run
    #: of rows only one side has (rows dropped, inserted or appended), every other row the
    #: same record at the same place: ``{"side": "original" | "reproduced", "row", "rows",
    #: "at_end", "first": [{"row", "offset", "values"}]}`` (its first rows, for single
    #: files); else None
    row_block: Optional[Dict[str, Any]] = None
    #: the columns left out of :attr:`records` as asked (``ignore_columns``,
    #: ``ignore_time_columns``) that either file has; arrow0 (:attr:`verdict`) covers them
    ignored_columns: List[str] = dataclasses.field(default_factory=list)
    #: for ``"different"``: each top-level field with a type or nullability difference,
    #: neutralised (:class:`CastCheck`): whether it changes the hash, and whether the values
    #: are equal once cast
    casts: List[CastCheck] = dataclasses.field(default_factory=list)
    #: with ``rtol`` / ``atol``, the bytes differing and the records not equal: the records
    #: compared with that tolerance on floating-point values (:class:`ToleranceCheck`); a
    #: comparison ``within`` it is :attr:`verified`, its :attr:`verdict` still arrow0's. None
    #: otherwise
    tolerance: Optional[ToleranceCheck] = None

    @property
    def same_records(self) -> bool:
        """:attr:`verified`: the same bytes, or the same arrow0 hash (what ODF checks) and
        the records compared equal, in order."""
        return self.verified

    def __bool__(self) -> bool:
        return self.verified

    def __repr__(self) -> str:
        what = f"{self.verdict}, records {self.records or 'unknown'}"
        if self.tolerance is not None:
            what += ", within tolerance" if self.tolerance.within else ", beyond tolerance"
        if self.differing_columns:
            what += f", {len(self.differing_columns)} column(s) differ"
        return (f"<odf_hash.Comparison {what}: "
                f"{'verified' if self.verified else 'NOT verified'}>")

    @property
    def differing_rows(self) -> List[RowDifference]:
        """Every row shown, column by column."""
        return [r for d in self.differences for r in d.rows]

    def to_arrow(self, typed: bool = False) -> Any:
        """The rows shown as a ``pyarrow.Table`` (columns ``column``, ``row``, ``offset``,
        ``original``, ``reproduced``: the values as text), for a DataFrame:
        ``comparison.to_arrow().to_pandas()`` or ``polars.from_arrow(...)``. Needs pyarrow.

        ``typed=True``: the values with their own Arrow types instead, joinable with the
        data: one row per row shown (``row``, ``offset``) and, per column shown, its values
        on each side (``original.<column>``, ``reproduced.<column>``), read back from the two
        files with pyarrow (only the row groups or batches holding those rows). For two local
        files compared whole (not lists, windows, URLs or data in memory: those raise
        :class:`InvalidInputError`)."""
        import pyarrow as pa

        if typed:
            from ._typed_rows import _typed_rows

            return _typed_rows(self)
        rows = self.differing_rows
        return pa.table({
            "column": pa.array([r.column for r in rows], pa.string()),
            "row": pa.array([r.row for r in rows], pa.uint64()),
            "offset": pa.array([r.offset for r in rows], pa.int64()),
            "original": pa.array([r.original for r in rows], pa.string()),
            "reproduced": pa.array([r.reproduced for r in rows], pa.string()),
        })


@dataclasses.dataclass(frozen=True)
class UnorderedRecord:
    """A record only one side has (:func:`compare` with ``ignore_order=True``)."""

    row: int  #: its row in its file, from 0
    offset: Optional[int]  #: its ODF ``offset`` value, when the file has one
    values: str  #: ``"name=value, ..."``, each value rendered as in :class:`RowDifference`


@dataclasses.dataclass(frozen=True)
class UnorderedComparison:
    """Whether two files hold the same multiset of records, in any row and column order.
    NOT the ODF hash: ODF metadata records arrow0, which depends on the order."""

    #: the same multiset of records, and the same schema (the order of top-level columns
    #: aside)
    same_records: bool
    original: Dict[str, Any]  #: path, rows, unordered (the digest), only_here (count)
    reproduced: Dict[str, Any]
    only_in_original: List[UnorderedRecord]  #: the first (by row) of the records it alone has
    only_in_reproduced: List[UnorderedRecord]
    schema_differences: List[SchemaDifference]
    #: every record's values matched by one of the other side: when :attr:`same_records` is
    #: False, only the schemas differ (:attr:`schema_differences`, e.g. a time zone)
    same_values: bool = False

    def __bool__(self) -> bool:
        return self.same_records

    def __repr__(self) -> str:
        if self.same_records:
            what = "same records"
        elif self.same_values:
            what = "different schemas, the same values"
        else:
            what = (f"different records: {self.original['only_here']} only in the original, "
                    f"{self.reproduced['only_here']} only in the reproduction")
        return f"<odf_hash.UnorderedComparison {what} (row order ignored)>"

    def to_arrow(self) -> Any:
        """The records shown as a ``pyarrow.Table`` (``side``, ``row``, ``offset``,
        ``values``). Needs pyarrow."""
        import pyarrow as pa

        recs = [("original", r) for r in self.only_in_original] + [
            ("reproduced", r) for r in self.only_in_reproduced]
        return pa.table({
            "side": pa.array([s for s, _ in recs], pa.string()),
            "row": pa.array([r.row for _, r in recs], pa.uint64()),
            "offset": pa.array([r.offset for _, r in recs], pa.int64()),
            "values": pa.array([r.values for _, r in recs], pa.string()),
        })


def _schema(raw: Any) -> List[SchemaDifference]:
    return [SchemaDifference(*t) for t in raw]


def _side(raw: Dict[str, Any]) -> tuple:
    side = {k: raw[k] for k in ("path", "rows", "unordered", "only_here")}
    return side, [UnorderedRecord(*e) for e in raw["examples"]]


def _rows(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidInputError(f"rows must be a non-negative integer, not {value!r}")
    return min(value, 1 << 20)


def compare(original: Any, reproduced: Any, *, threads: Optional[int] = None, rows: int = 5,
            ignore_order: bool = False, original_window: Optional[Tuple[int, Optional[int]]] = None,
            reproduced_window: Optional[Tuple[int, Optional[int]]] = None,
            ignore_columns: Optional[Iterable[str]] = None, ignore_time_columns: bool = False,
            rtol: Optional[float] = None, atol: Optional[float] = None,
            progress: Optional[Callable[[int], Any]] = None,
            key: Optional[Union[str, Iterable[str]]] = None,
            **store: Any) -> Union[Comparison, UnorderedComparison, KeyedComparison]:
    """Verifies a reproduced data file as the ODF specification describes it: physical hashes
    first (``identical``: same bytes); when they differ, logical hashes (``equivalent``: the
    same arrow0 hash; ``different``: different hashes, with the leaf columns that differ).
    That is what ODF checks (:attr:`Comparison.verdict`); what the records are is a second
    verdict (:attr:`Comparison.records`): an ``equivalent`` pair's records are compared value
    by value too (one more read of both files), because arrow0 has blind spots (it does not
    hash the row count; a null struct and a struct of nulls hash alike: docs/divergences.md),
    and where they differ the result says where and which blind spot hid it. The comparison
    is truthy (:attr:`Comparison.verified`) only for the same bytes, or the same arrow0 hash
    and equal records. Either file may be a URL (the store options as keyword arguments, see
    the module's documentation).

    Either side may also be a list (or tuple) of files read as one table, their records one
    file after the other: the consecutive slices of an ODF dataset whose records were split
    into files at other boundaries than the other side's (what :func:`compare_datasets` does
    with such runs). Two lists of one file each are two files; otherwise there are no bytes
    to compare (``physical`` is None, never ``identical``): ``equivalent`` when the logical
    hashes of both tables are the same (arrow0 does not depend on how records are split),
    else ``different`` with where and why (rows counted from each list's start,
    :attr:`RowDifference.original_file` the file holding it). Every file of a list must have
    the first's schema: else an error naming both.

    ``original_window`` / ``reproduced_window`` = ``(skip, limit)`` compare only those rows of
    a side's table (``limit`` None: to the end): the offsets both datasets hold where one
    side's slices go on past the other's (:attr:`SliceFile.window`). Rows are counted from
    the window's start; a window with a limit or a skip is never ``identical`` (a file's
    bytes are hashed whole; ``(0, None)`` is the whole table);
    once the window's last row is read, no later file of the list is opened.

    For ``different``, the result also says where and why, as data:
    :attr:`Comparison.differences` (per column: how many rows differ and the first ``rows``
    of them, with their ``offset`` and both values), :attr:`Comparison.schema_differences`
    (field by field), :attr:`Comparison.records` and :attr:`Comparison.causes` (``"equal"``
    when the records are equal and only arrow0 differs: column order, bytes under null struct
    slots; ``"same-other-order"`` for the same records in another order).
    :meth:`Comparison.to_arrow` gives the rows as a table. ``rows=0`` skips looking for rows
    (a second read of the differing columns).

    For ``equivalent`` whose records are not ``"equal"``, :attr:`Comparison.differences`
    lists the top-level fields whose values differ (a struct whole, ``{a=null}`` against
    ``null``) and :attr:`Comparison.causes` the blind spot (``"row-count"``,
    ``"struct-null"``, ``"null-or-value"``, ``"row-order"``, ``"values"``).

    ``ignore_order=True`` asks another question, and answers it with an
    :class:`UnorderedComparison`: do the files hold the same multiset of records, in any row
    and column order? It is NOT the ODF hash (docs/unordered-digest.md): one read of each
    file, bounded memory, the records only one side has named (``rows`` of them per side).

    ``ignore_columns`` (top-level column names) leaves those columns out when the records are
    compared, and ``ignore_time_columns=True`` the time columns ODF stamps (``system_time``,
    ``event_time``), which differ in a reproduction run at another time: a comparison whose
    other columns hold equal records, in order, is then :attr:`Comparison.verified`, its
    :attr:`Comparison.verdict` still arrow0's (which covers every column) and
    :attr:`Comparison.ignored_columns` naming what was left out (two files, lists of files and
    windows alike).

    ``rtol`` / ``atol`` (numbers >= 0; either alone means the other is 0) accept floating-point
    values a few ulps apart, as a recomputation through another engine or a sum in another
    order gives: when the records are not equal, they are compared again in order, float16,
    float32 and float64 columns within ``|reproduced - original| <= atol + rtol * |original|``
    (``numpy.isclose``), every other column exactly (:attr:`Comparison.tolerance`: the largest
    deviation per column and where it is). Within it, the comparison is
    :attr:`Comparison.verified`, its :attr:`Comparison.verdict` still arrow0's ("different").

    Either side may also be Arrow data in memory (anything with the Arrow PyCapsule stream
    interface: a pyarrow ``Table`` or ``RecordBatchReader``, a polars or pandas ``DataFrame``, a
    DuckDB relation), compared with a file or with other data in memory: its records are
    written once to a temporary Arrow IPC file (batch by batch; a reader is consumed), never
    ``identical`` (there are no bytes of a file to compare), ``equivalent`` when the arrow0
    hashes are equal and the records then compared, else ``different`` with where and why; its
    side's ``path`` says ``"<in memory: pyarrow.lib.Table>"`` and its ``size`` is None. Not in
    lists or with windows.

    ``key`` (a column name, or several) asks another question again, and answers it with a
    :class:`KeyedComparison`: rows matched by the values of those top-level columns, in any
    row order, as data-diff tools do: the keys only one side holds, the keys several rows
    hold, and the matched rows whose other columns differ, column by column with both values
    (``rows`` examples of each). Not the ODF hash; bounded memory (spills to ``$TMPDIR``);
    ``ignore_columns`` / ``ignore_time_columns`` leave columns out of the values compared.
    Two files or data in memory, not lists or windows; not with ``ignore_order``, ``rtol`` or
    ``atol``.

    ``progress``: a callable, called every 100 ms on the calling thread with the bytes read
    so far from both sides (a comparison reads them once or more: the bytes, the logical
    hashes, then where they differ), for a progress bar; an exception it raises stops the
    comparison and is raised by ``compare``.
    """
    opts = _store("compare", store)
    n = _rows(rows)
    ignore = _ignored(ignore_columns, ignore_time_columns)
    tolerance = _tolerance(rtol, atol)
    _progress(progress)
    wa, wb = (_window(w, "odf_hash.compare") for w in (original_window, reproduced_window))
    keyed = None
    if key is not None:
        from ._keyed import _key

        if ignore_order or tolerance is not None:
            raise InvalidInputError("odf_hash.compare: key= matches rows by key in any order and "
                                    "compares values exactly; ignore_order, rtol and atol do "
                                    "not apply")
        keyed = (_key(key), _ignored(ignore_columns, False), _flag(ignore_time_columns,
                                                                   "ignore_time_columns"))
    if (isinstance(original, (list, tuple)) or isinstance(reproduced, (list, tuple))
            or wa is not None or wb is not None):
        if _in_memory(original) or _in_memory(reproduced):
            raise InvalidInputError("odf_hash.compare: Arrow data in memory is compared whole, "
                                    "with a file or other data in memory, not with lists of "
                                    "files or windows")
        if ignore_order or keyed:
            raise InvalidInputError("odf_hash.compare: ignore_order and key compare two files, "
                                    "not lists of files or windows")
        ga, gb = (_paths(x, "odf_hash.compare") for x in (original, reproduced))
        return _comparison(_odf_hash.compare_file_groups(ga, gb, _threads(threads), n, opts,
                                                         wa, wb, tolerance, progress, ignore))
    if ignore_order and (ignore or tolerance is not None):
        raise InvalidInputError("odf_hash.compare: ignore_order=True compares whole records; "
                                "ignore_columns, rtol and atol do not apply")
    in_memory = (_in_memory(original), _in_memory(reproduced))
    if not any(in_memory):
        return _compare_two(_path(original, "odf_hash.compare"),
                            _path(reproduced, "odf_hash.compare"), ignore_order, n, opts, ignore,
                            tolerance, progress, _threads(threads), (False, False), keyed)
    # Arrow data in memory: its records written once to an Arrow IPC file (batch by batch),
    # which compare reads as often as it needs; never compared as a file's bytes.
    with tempfile.TemporaryDirectory(prefix="odf_hash_compare_") as tmp:
        paths = []
        for side, x, mem in zip(("original", "reproduced"), (original, reproduced), in_memory):
            paths.append(_spill(x, os.path.join(tmp, side + ".arrow")) if mem
                         else _path(x, "odf_hash.compare"))
        c = _compare_two(paths[0], paths[1], ignore_order, n, opts, ignore, tolerance, progress,
                         _threads(threads), in_memory, keyed)
    labels = {}
    for side, x, mem in zip(("original", "reproduced"), (original, reproduced), in_memory):
        if mem:
            labels[side] = dict(getattr(c, side), path=_memory_label(x))
            if "size" in labels[side]:
                labels[side]["size"] = None  # the spilled file's size is nobody's
    return dataclasses.replace(c, **labels)


def _compare_two(a: str, b: str, ignore_order: bool, n: int, opts: tuple, ignore: List[str],
                 tolerance: Optional[Tuple[float, float]], progress: Any, threads: int,
                 records_only: Tuple[bool, bool], keyed: Optional[tuple] = None
                 ) -> Union[Comparison, UnorderedComparison, KeyedComparison]:
    """compare() of two paths or URLs (a side in memory: its spilled file, records_only);
    `keyed`: (key, ignore_columns, ignore_time_columns) for a keyed comparison."""
    if keyed is not None:
        import json

        from ._keyed import _keyed

        return _keyed(json.loads(_odf_hash.compare_keyed(a, b, keyed[0], keyed[1], keyed[2], n,
                                                         opts, progress)))
    if ignore_order:
        d = _odf_hash.compare_unordered(a, b, n, opts, progress)
        oa, ea = _side(d["original"])
        ob, eb = _side(d["reproduced"])
        return UnorderedComparison(d["same_records"], oa, ob, ea, eb,
                                   _schema(d["schema_differences"]), d["same_values"])
    return _comparison(_odf_hash.compare_files(a, b, threads, n, opts, ignore, tolerance,
                                               progress, records_only))


def _in_memory(x: Any) -> bool:
    """Arrow data in memory (the Arrow PyCapsule protocol), not a path or a list of them."""
    if isinstance(x, (str, bytes, os.PathLike, list, tuple)):
        return False
    return hasattr(x, "__arrow_c_stream__") or hasattr(x, "__arrow_c_array__")


def _memory_label(x: Any) -> str:
    return f"<in memory: {type(x).__module__}.{type(x).__qualname__}>"


def _spill(x: Any, path: str) -> str:
    """The records of Arrow data in memory written to an Arrow IPC file at `path`, one batch
    at a time (a reader or a stream is consumed: memory stays bounded by a batch)."""
    import pyarrow as pa
    import pyarrow.ipc

    what = f"odf_hash.compare: {type(x).__module__}.{type(x).__qualname__}"
    try:
        if hasattr(x, "__arrow_c_stream__"):
            reader = pa.RecordBatchReader.from_stream(x)
        else:
            batch = pa.record_batch(x)
            reader = pa.RecordBatchReader.from_batches(batch.schema, [batch])
    except (pa.ArrowException, TypeError, ValueError) as e:
        raise InvalidInputError(f"{what} holds no records (a table, a data frame, a relation: "
                                f"not a single column): {e}") from None
    with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, reader.schema) as w:
        for batch in reader:
            w.write_batch(batch)
    return path


def _tolerance(rtol: Any, atol: Any) -> Optional[Tuple[float, float]]:
    """(rtol, atol) checked: finite numbers >= 0; None when neither is given."""
    if rtol is None and atol is None:
        return None
    out = []
    for name, v in (("rtol", rtol), ("atol", atol)):
        if v is None:
            out.append(0.0)
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) \
                or v < 0:
            raise InvalidInputError(f"{name} must be a finite number >= 0, not {v!r}")
        out.append(float(v))
    return out[0], out[1]


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInputError(f"{name} must be True or False, not {value!r}")
    return value


def _ignored(columns: Optional[Iterable[str]], time_columns: bool) -> List[str]:
    """The column names to leave out, checked: strings, not empty."""
    if isinstance(columns, str):
        columns = [columns]
    names = [] if columns is None else list(columns)
    for c in names:
        if not isinstance(c, str) or not c:
            raise InvalidInputError(f"ignore_columns: column names (non-empty str), not {c!r}")
    if _flag(time_columns, "ignore_time_columns"):
        names += [t for t in ("system_time", "event_time") if t not in names]
    return names


def _window(w: Any, what: str) -> Optional[Tuple[int, Optional[int]]]:
    """(skip, limit) checked: non-negative integers, limit None for every row to the end."""
    if w is None:
        return None

    if not isinstance(w, (tuple, list)) or len(w) != 2:
        raise InvalidInputError(f"{what}: a window is (skip, limit), got {w!r}")
    skip, limit = w
    for v in (skip, limit):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0
                              or v >= 1 << 64):
            raise InvalidInputError(f"{what}: a window's skip and limit are row counts, "
                                    f"got {w!r}")
    if skip is None:
        raise InvalidInputError(f"{what}: a window's skip is a row count, got {w!r}")
    return (skip, limit)


def _paths(x: Any, what: str) -> List[str]:
    """A list of paths or URLs (one path: a list of one)."""

    paths = [_path(p, what) for p in x] if isinstance(x, (list, tuple)) else [_path(x, what)]
    if not paths:
        raise InvalidInputError(f"{what}: an empty list of files")
    return paths


def _differences(raw: Any) -> List[ColumnDifference]:
    return [
        ColumnDifference(col, count, [RowDifference(col, *r) for r in shown], hidden, nulls)
        for col, count, hidden, shown, nulls in raw
    ]


def _cast(raw: Any) -> CastCheck:
    return CastCheck(*raw[:8], differences=_differences(raw[8]))


def _tolerance_check(t: Optional[Dict[str, Any]]) -> Optional[ToleranceCheck]:
    if t is None:
        return None
    return ToleranceCheck(t["rtol"], t["atol"], t["within"],
                          [Deviation(*x) for x in t["deviations"]], t["original_rows"],
                          t["reproduced_rows"], t["differing_records"],
                          _differences(t["differences"]), t["error"])


def _comparison(d: Dict[str, Any]) -> Comparison:
    differences = _differences(d["differences"])
    return Comparison(d["verdict"], d["original"], d["reproduced"],
                      list(d["differing_columns"]), differences,
                      _schema(d["schema_differences"]), d["records"],
                      [Cause(*c) for c in d["causes"]], d["verified"], d.get("row_block"),
                      list(d.get("ignored_columns", [])),
                      [_cast(k) for k in d.get("casts", [])],
                      _tolerance_check(d.get("tolerance")))


def unordered_digest(source: Any, **store: Any) -> str:
    """The order-independent digest of a table's records (``"unordered-sha3-256:<hex>"``):
    the same for any row order and any column order (docs/unordered-digest.md says every
    byte). NOT the ODF hash. ``source`` is a data file's path or URL (the store options as
    keyword arguments), or Arrow data in memory with records (a pyarrow ``Table`` or
    ``RecordBatchReader``, a polars ``DataFrame``, a DuckDB relation: anything with
    ``__arrow_c_stream__``), read batch by batch."""
    if hasattr(source, "__arrow_c_stream__"):
        return _odf_hash.unordered_stream_capsule(source.__arrow_c_stream__())[0]

    return _odf_hash.unordered_file(_path(source, "odf_hash.unordered_digest"),
                                    _store("unordered_digest", store))[0]
