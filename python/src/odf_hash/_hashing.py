"""Hashing: the logical hash of Arrow data in memory and of data files, their records as
kamu reads them, the physical hash, and a data file's DataSlice."""
from __future__ import annotations

import dataclasses
import os
import warnings
from typing import Any, Callable, Dict, List, Literal, Optional, Union, overload

from . import _odf_hash
from ._args import PathLike, _path, _progress, _store, _threads
from ._errors import (
    HashTrapWarning,
    InvalidInputError,
    ReferenceCompatibilityWarning,
    UnsupportedTypeError,
)

@dataclasses.dataclass(frozen=True)
class ColumnDigest:
    """The digest of one leaf column, as fed into the combined logical hash."""

    path: str  #: field names from the top level down, joined with ``.`` (``""`` for a lone column)
    type: str  #: the Arrow format string of the leaf (``"l"`` int64, ``"u"`` utf8, ``"+l"`` list)
    digest: bytes  #: 32 bytes of SHA3-256
    #: ``""``, or why the reference (arrow-digest, so kamu) cannot hash this column's type
    #: (``"dictionary-encoded, ..."``, ``"Null type, ..."``): see :class:`ReferenceCompatibilityWarning`
    reference_gap: str = ""
    #: ``""``, or what this column's hash depends on that its values do not show (a time zone
    #: that is another name of UTC; bytes under null struct slots): see
    #: :class:`HashTrapWarning`
    hash_note: str = ""


@dataclasses.dataclass(frozen=True)
class LogicalDigest:
    """A logical hash with its parts: ``hash`` is what :func:`logical` returns by default."""

    hash: str  #: the arrow0-sha3-256 multihash, ``f9680c00120`` + 64 hex digits
    num_rows: int  #: records hashed (values, for a single column)
    columns: List[ColumnDigest]  #: leaf columns, depth-first, in the order they are combined

    def __str__(self) -> str:
        return self.hash

    @property
    def reference_gaps(self) -> List[ColumnDigest]:
        """The columns the reference implementation (so kamu) cannot hash; empty when it can
        reproduce this hash."""
        return [c for c in self.columns if c.reference_gap]

    @property
    def reference_compatible(self) -> bool:
        """Whether the reference implementation (so kamu) can compute, and check, this hash."""
        return not self.reference_gaps


def _say_reference_gaps(what: str, gaps: List[ColumnDigest], require: bool,
                        stacklevel: int) -> None:
    """Warns (or, with ``require``, raises) when a hash covers columns kamu cannot hash."""
    if not gaps:
        return
    cols = ", ".join(f"{c.path!r} ({c.reference_gap})" for c in gaps)
    noun = "column" if len(gaps) == 1 else "columns"
    if require:
        raise UnsupportedTypeError(
            f"{what}: the reference arrow-digest (and so kamu) cannot hash {noun} {cols} "
            "(require_reference_compatible=True)"
        )
    warnings.warn(
        f"{what}: the reference arrow-digest (and so kamu) cannot hash {noun} {cols}: kamu "
        "cannot check this hash (cast such columns to a plain type to record one it can check)",
        ReferenceCompatibilityWarning,
        stacklevel=stacklevel,
    )


def _digest(raw: Any, columns: bool, what: str, require: bool) -> Union[str, LogicalDigest]:
    text, rows, cols = raw
    d = LogicalDigest(text, rows, [ColumnDigest(*c) for c in cols])
    _say_reference_gaps(what, d.reference_gaps, require, stacklevel=4)  # the caller of logical*
    notes: Dict[str, List[str]] = {}  # one warning per note, naming its columns
    for c in d.columns:
        if c.hash_note:
            notes.setdefault(c.hash_note, []).append(repr(c.path))
    for note, cols in notes.items():
        noun = "column" if len(cols) == 1 else "columns"
        warnings.warn(f"{what}: {noun} {', '.join(cols)}: {note}", HashTrapWarning,
                      stacklevel=3)
    return d if columns else text


@overload
def logical(obj: Any, *, columns: Literal[False] = ..., threads: Optional[int] = ...,
            require_reference_compatible: bool = ...) -> str: ...
@overload
def logical(obj: Any, *, columns: Literal[True], threads: Optional[int] = ...,
            require_reference_compatible: bool = ...) -> LogicalDigest: ...


def logical(obj: Any, *, columns: bool = False, threads: Optional[int] = None,
            require_reference_compatible: bool = False):
    """The ODF logical hash (``arrow0-sha3-256``) of Arrow data in memory.

    ``obj`` is anything that implements the Arrow PyCapsule protocol
    (``__arrow_c_stream__`` or ``__arrow_c_array__``): a pyarrow ``Table``, ``RecordBatch``,
    ``RecordBatchReader``, ``Array`` or ``ChunkedArray``; a polars ``DataFrame`` or
    ``Series``; a DuckDB relation; a nanoarrow array or stream; a pandas ``DataFrame``
    (pandas >= 2.2, or through ``pyarrow.Table.from_pandas``). A reader or stream is consumed
    batch by batch: memory stays bounded by a batch or two.

    Records (a table, a batch, a struct-typed stream) get the logical hash ODF metadata
    records for a data file with the same records: the reference's ``RecordDigestV0``. A
    single column (an array, a chunked array, a series) gets the reference's
    ``ArrayDigestV0``, which is also that column's digest inside a table.

    The hash depends on the records and their logical types only: not on batch sizes, string
    or list encodings (``utf8`` / ``large_utf8`` / ``string_view``...), dictionaries or
    validity bitmaps (one exception, inherited from the reference: nullable structs with
    nullable children, whose hash depends on the batch boundaries; see the project's
    docs/divergences.md).

    Hashes kamu cannot check: the reference (arrow-digest) cannot hash Dictionary columns
    (every pandas / polars ``Categorical`` or ``Enum``), Null-typed (all-null) columns,
    run-end encoded columns and list views. odf_hash hashes them as the spec says and warns
    (:class:`ReferenceCompatibilityWarning`); ``require_reference_compatible=True`` raises
    :class:`UnsupportedTypeError` instead. :attr:`LogicalDigest.reference_compatible` tells.

    Time zones: a timestamp column's zone is part of its type, so part of the hash (as the
    spec says). DuckDB returns ``TIMESTAMPTZ`` in the session's ``TimeZone`` setting: the same
    relation hashes differently under another ``SET TimeZone``; fix the zone (e.g.
    ``SET TimeZone = 'UTC'``) before hashing.

    ``columns=True`` returns a :class:`LogicalDigest` with the record count and every leaf
    column's digest instead of the hash string. ``threads`` caps the threads hashing the
    columns of a batch (default: every core); it never changes the result. The GIL is released
    while hashing.

    Raises :class:`UnsupportedTypeError` (a ``TypeError``) for an object that is not Arrow data
    (a path among them: use :func:`logical_file`) or a type the logical hash does not define
    (the message names the column), :class:`InvalidInputError` for malformed arrays,
    :class:`IoError` when the stream fails mid-way.
    """
    n = _threads(threads)
    what = "odf_hash.logical"
    if isinstance(obj, (str, bytes, os.PathLike)):
        raise UnsupportedTypeError(
            f"odf_hash.logical takes Arrow data in memory, not a path ({obj!r}): for the "
            f"records of a Parquet or Arrow IPC file, use odf_hash.logical_file({obj!r})"
        )
    _check_polars(obj, what)
    if hasattr(obj, "__arrow_c_stream__"):
        capsule = obj.__arrow_c_stream__()
        return _digest(_odf_hash.logical_stream_capsule(capsule, n), columns, what,
                       require_reference_compatible)
    if hasattr(obj, "__arrow_c_array__"):
        schema, array = obj.__arrow_c_array__()
        return _digest(_odf_hash.logical_array_capsules(schema, array, n), columns, what,
                       require_reference_compatible)
    raise UnsupportedTypeError(
        f"odf_hash.logical: {type(obj).__module__}.{type(obj).__qualname__} is not Arrow data: "
        "expected an object implementing the Arrow PyCapsule protocol (__arrow_c_stream__ or "
        "__arrow_c_array__), such as a pyarrow Table, RecordBatch, RecordBatchReader or "
        "ChunkedArray, a polars DataFrame, a DuckDB relation or a nanoarrow array"
    )


def _check_polars(obj: Any, what: str) -> None:
    """What polars hands over that cannot be hashed meaningfully, refused with what to do: a
    LazyFrame (no data yet), an ``Object`` column (exported as 8-byte memory addresses: a new
    hash every run) and ``Int128`` / ``UInt128`` (no Arrow type)."""
    module = type(obj).__module__ or ""
    if not module.startswith("polars"):
        return
    name = type(obj).__name__
    if name == "LazyFrame":
        raise UnsupportedTypeError(
            f"{what}: a polars LazyFrame holds no data yet: collect it first "
            "(odf_hash.logical(lf.collect()); for data larger than memory, "
            "lf.collect(engine='streaming') or lf.sink_parquet(...) then odf_hash.logical_file)")
    schema = getattr(obj, "schema", None)
    if name == "Series":
        items = [(obj.name, obj.dtype)]
    elif schema is not None and hasattr(schema, "items"):
        items = list(schema.items())
    else:
        return
    for col, dtype in items:
        kind = str(dtype)
        if kind.startswith("Object"):
            raise UnsupportedTypeError(
                f"{what}: polars column {col!r} is of type Object: it reaches Arrow as the "
                "Python objects' memory addresses (a new hash every run): convert it to a "
                "real type first (e.g. pl.col(...).map_elements(str, return_dtype=pl.String))")
        if kind in ("Int128", "UInt128"):
            raise UnsupportedTypeError(
                f"{what}: polars column {col!r} is of type {kind}, which has no Arrow type: "
                "cast it first (to pl.Int64 when the values fit, else to pl.Decimal(38, 0))")


@overload
def logical_file(path: PathLike, *, columns: Literal[False] = ..., threads: Optional[int] = ...,
                 require_reference_compatible: bool = ...,
                 progress: Optional[Callable[[int], Any]] = ..., **store: Any) -> str: ...
@overload
def logical_file(path: PathLike, *, columns: Literal[True], threads: Optional[int] = ...,
                 require_reference_compatible: bool = ...,
                 progress: Optional[Callable[[int], Any]] = ...,
                 **store: Any) -> LogicalDigest: ...


def logical_file(path: PathLike, *, columns: bool = False, threads: Optional[int] = None,
                 require_reference_compatible: bool = False,
                 progress: Optional[Callable[[int], Any]] = None, **store: Any):
    """The logical hash of the records in a Parquet or Arrow IPC file (format detected from its
    bytes), read exactly as the main ODF implementation reads it (arrow-rs types, batches of
    10,000 rows), so it equals the ``logicalHash`` ODF metadata records for the file.

    ``path`` may be a URL (``s3://``, ``http(s)://``: read by range requests, the store
    options as keyword arguments, see the module's documentation). ``columns``, ``threads``
    and ``require_reference_compatible`` as in :func:`logical` (a file whose Arrow schema
    says ``dictionary``, as pandas categoricals are written, or with an all-null column, gets
    a hash kamu cannot check: warned). Raises :class:`NotFoundError`, :class:`IoError`,
    :class:`InvalidInputError` (corrupt file) or :class:`UnsupportedTypeError`, with the path
    in the message.

    ``progress``: a callable, called every 100 ms on the calling thread (and once at the end)
    with the bytes of the file read so far, for a progress bar; an exception it raises stops
    the call and is raised. Every long call of the module takes one, with this meaning."""
    p = _path(path, "odf_hash.logical_file")
    opts = _store("logical_file", store)
    return _digest(_odf_hash.logical_file(p, _threads(threads), opts, _progress(progress)),
                   columns, p, require_reference_compatible)


class RecordStream:
    """The records of a data file exactly as the main ODF implementation reads them (the Arrow
    types arrow-rs produces, batches of 10,000 rows), as an Arrow stream: pass it to
    ``pyarrow.RecordBatchReader.from_stream``, ``pyarrow.table``, ``polars.from_arrow``,
    DuckDB, or :func:`logical`. It implements ``__arrow_c_stream__`` and can be consumed
    once; a second consumption raises :class:`InvalidInputError`."""

    def __init__(self, path: str):
        self.path = path
        self._capsule = _odf_hash.open_records_capsule(path)

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        if requested_schema is not None:
            raise UnsupportedTypeError(
                "odf_hash.RecordStream: a requested schema is not supported; the records keep "
                "the types the main ODF implementation reads"
            )
        capsule, self._capsule = self._capsule, None
        if capsule is None:
            raise InvalidInputError(f"odf_hash.RecordStream({self.path!r}) was already consumed")
        return capsule

    def __repr__(self) -> str:
        state = "consumed" if self._capsule is None else "unread"
        return f"<odf_hash.RecordStream {self.path!r} ({state})>"


def open_records(path: PathLike) -> RecordStream:
    """Opens a Parquet or Arrow IPC file as a stream of record batches with the Arrow types
    the main ODF implementation (arrow-rs) reads: the records its logical hash is computed
    on. ``logical(open_records(p)) == logical_file(p)``. Errors as in :func:`logical_file`."""
    return RecordStream(_path(path, "odf_hash.open_records"))


_CHUNK = 1 << 20


def physical(source: Union[PathLike, bytes, bytearray, memoryview, Any], *,
             progress: Optional[Callable[[int], Any]] = None, **store: Any) -> str:
    """The ODF physical hash (SHA3-256 as a ``sha3-256`` multihash, ``f1620`` + 64 hex digits)
    of a file or of bytes.

    ``source`` is a path (``str`` or ``os.PathLike``: the file is streamed in constant
    memory), a bytes-like object (``bytes``, ``bytearray``, ``memoryview``: those exact bytes),
    or a binary file object opened for reading (read from its current position to its end).
    Note that a ``str`` is always a path, never data: a local path or a URL (``s3://``,
    ``http(s)://``: streamed; the store options as keyword arguments, see the module's
    documentation). The GIL is released while hashing.

    ``progress`` as in :func:`logical_file`: the bytes hashed so far (for a file object, after
    each MiB read; for bytes, once)."""
    opts = _store("physical", store)
    _progress(progress)
    if isinstance(source, (bytes, bytearray, memoryview)):
        h = _odf_hash.Sha3Hasher()
        h.update(source)
        if progress is not None:
            progress(memoryview(source).nbytes)
        return str(h.finalize())
    if isinstance(source, (str, os.PathLike)):
        digest, _size = _odf_hash.physical_file(_path(source, "odf_hash.physical"), opts, progress)
        return str(digest)
    read = getattr(source, "read", None)
    if read is None:
        raise InvalidInputError(
            "odf_hash.physical: expected a path, a bytes-like object or a binary file object, "
            f"not {type(source).__name__}"
        )
    h = _odf_hash.Sha3Hasher()
    while True:
        chunk = read(_CHUNK)
        if isinstance(chunk, str):
            raise InvalidInputError(
                "odf_hash.physical: the file object is in text mode; open it with 'rb'"
            )
        if not chunk:
            break
        h.update(chunk)
        if progress is not None:
            progress(h.size)
    return str(h.finalize())


def slice(path: PathLike, *, offset: int = 0, threads: Optional[int] = None,  # noqa: A001
          require_reference_compatible: bool = False,
          progress: Optional[Callable[[int], Any]] = None, **store: Any) -> Dict[str, Any]:
    """The ODF ``DataSlice`` of a data file, as ODF metadata records it for a new data part::

        {"logicalHash": "f9680c00120...", "physicalHash": "f1620...",
         "offsetInterval": {"start": offset, "end": offset + records - 1}, "size": bytes}

    ``path`` and the store options as in :func:`logical_file`. A ``logicalHash`` kamu cannot
    check (a column the reference cannot hash) is warned about
    (:class:`ReferenceCompatibilityWarning`), or refused with
    ``require_reference_compatible=True``. Raises :class:`InvalidInputError` for a file
    without records (ODF records no slice for it), and the errors of :func:`logical_file`.
    ``progress`` as in :func:`logical_file` (the file is read twice: its bytes, its records)."""
    if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset < 2**64:
        raise InvalidInputError(f"offset must be an integer from 0 to 2**64 - 1, not {offset!r}")
    opts = _store("slice", store)
    p = _path(path, "odf_hash.slice")
    d, gaps = _odf_hash.data_slice(p, offset, _threads(threads), opts, _progress(progress))
    _say_reference_gaps(p, [ColumnDigest(*c) for c in gaps],
                        require_reference_compatible, stacklevel=3)
    return d
