"""odf_hash: the hashes of the Open Data Fabric (ODF), for Python.

- :func:`logical` -- the ODF logical hash (``arrow0-sha3-256``) of any Arrow data in memory:
  pyarrow tables, record batches, readers, arrays; polars data frames; DuckDB relations;
  nanoarrow; anything implementing the Arrow PyCapsule protocol. Byte for byte the hash of
  the reference implementation (the Rust crate ``arrow-digest``), whatever the encoding
  (string views, large offsets, dictionaries) and however the records are split into batches.
- :func:`logical_file`, :func:`physical`, :func:`slice`, :func:`compare` -- data files
  (Parquet, Arrow IPC) as the main ODF implementation reads them.
- :func:`verify` -- an ODF dataset folder: metadata chain, data files, checkpoints.
- :class:`Multihash` -- parse and format the hash strings ODF metadata holds.

Hashing releases the GIL: hash several tables from several threads at once.
"""
from __future__ import annotations

import dataclasses
import enum
import json
import os
from typing import Any, Dict, Iterator, List, Literal, Optional, Union, overload

from . import _odf_hash
from ._errors import Error, InvalidInputError, IoError, NotFoundError, UnsupportedTypeError

__all__ = [
    "ColumnDigest",
    "Comparison",
    "Error",
    "FileCheck",
    "InvalidInputError",
    "IoError",
    "LogicalDigest",
    "Multihash",
    "NotFoundError",
    "Problem",
    "ProblemKind",
    "Report",
    "UnsupportedTypeError",
    "cli_path",
    "compare",
    "logical",
    "logical_file",
    "open_records",
    "RecordStream",
    "physical",
    "slice",
    "verify",
]

__version__ = _odf_hash.library_version()

Multihash = _odf_hash.Multihash
PathLike = Union[str, "os.PathLike[str]"]

ProblemKind = enum.Enum(  # type: ignore[misc]
    "ProblemKind",
    {name.upper().replace("-", "_"): name for name in _odf_hash.problem_kinds()},
    type=str,
    module=__name__,
)
ProblemKind.__doc__ = """What a dataset problem is about; the value is the stable kebab-case
name that ``odf-hash verify`` prints (e.g. ``ProblemKind.PHYSICAL_HASH_MISMATCH.value ==
"physical-hash-mismatch"``)."""


def _threads(threads: Optional[int]) -> int:
    if threads is None:
        return 0  # every core
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise InvalidInputError(f"threads must be a positive integer or None, not {threads!r}")
    return threads


def _path(path: PathLike, what: str) -> str:
    try:
        return os.fsdecode(os.fspath(path))
    except TypeError:
        raise InvalidInputError(
            f"{what}: expected a path (str or os.PathLike), not {type(path).__name__}"
        ) from None


@dataclasses.dataclass(frozen=True)
class ColumnDigest:
    """The digest of one leaf column, as fed into the combined logical hash."""

    path: str  #: field names from the top level down, joined with ``.`` (``""`` for a lone column)
    type: str  #: the Arrow format string of the leaf (``"l"`` int64, ``"u"`` utf8, ``"+l"`` list)
    digest: bytes  #: 32 bytes of SHA3-256


@dataclasses.dataclass(frozen=True)
class LogicalDigest:
    """A logical hash with its parts: ``hash`` is what :func:`logical` returns by default."""

    hash: str  #: the arrow0-sha3-256 multihash, ``f9680c00120`` + 64 hex digits
    num_rows: int  #: records hashed (values, for a single column)
    columns: List[ColumnDigest]  #: leaf columns, depth-first, in the order they are combined

    def __str__(self) -> str:
        return self.hash


def _digest(raw: Any, columns: bool) -> Union[str, LogicalDigest]:
    text, rows, cols = raw
    if not columns:
        return text
    return LogicalDigest(text, rows, [ColumnDigest(p, t, d) for p, t, d in cols])


@overload
def logical(obj: Any, *, columns: Literal[False] = ..., threads: Optional[int] = ...) -> str: ...
@overload
def logical(obj: Any, *, columns: Literal[True], threads: Optional[int] = ...) -> LogicalDigest: ...


def logical(obj: Any, *, columns: bool = False, threads: Optional[int] = None):
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
    validity bitmaps (one exception, inherited from the reference: nested structs with nulls at
    two levels; see the project's docs/divergences.md).

    ``columns=True`` returns a :class:`LogicalDigest` with the record count and every leaf
    column's digest instead of the hash string. ``threads`` caps the threads hashing the
    columns of a batch (default: every core); it never changes the result. The GIL is released
    while hashing.

    Raises :class:`UnsupportedTypeError` for an object that is not Arrow data or a type the
    logical hash does not define (the message names the column), :class:`InvalidInputError`
    for malformed arrays, :class:`IoError` when the stream fails mid-way.
    """
    n = _threads(threads)
    if hasattr(obj, "__arrow_c_stream__"):
        capsule = obj.__arrow_c_stream__()
        return _digest(_odf_hash.logical_stream_capsule(capsule, n), columns)
    if hasattr(obj, "__arrow_c_array__"):
        schema, array = obj.__arrow_c_array__()
        return _digest(_odf_hash.logical_array_capsules(schema, array, n), columns)
    raise UnsupportedTypeError(
        f"odf_hash.logical: {type(obj).__module__}.{type(obj).__qualname__} is not Arrow data: "
        "expected an object implementing the Arrow PyCapsule protocol (__arrow_c_stream__ or "
        "__arrow_c_array__), such as a pyarrow Table, RecordBatch, RecordBatchReader or "
        "ChunkedArray, a polars DataFrame, a DuckDB relation or a nanoarrow array"
    )


@overload
def logical_file(path: PathLike, *, columns: Literal[False] = ..., threads: Optional[int] = ...) -> str: ...
@overload
def logical_file(path: PathLike, *, columns: Literal[True], threads: Optional[int] = ...) -> LogicalDigest: ...


def logical_file(path: PathLike, *, columns: bool = False, threads: Optional[int] = None):
    """The logical hash of the records in a Parquet or Arrow IPC file (format detected from its
    bytes), read exactly as the main ODF implementation reads it (arrow-rs types, batches of
    10,000 rows), so it equals the ``logicalHash`` ODF metadata records for the file.

    ``columns`` and ``threads`` as in :func:`logical`. Raises :class:`NotFoundError`,
    :class:`IoError`, :class:`InvalidInputError` (corrupt file) or
    :class:`UnsupportedTypeError`, with the path in the message."""
    p = _path(path, "odf_hash.logical_file")
    return _digest(_odf_hash.logical_file(p, _threads(threads)), columns)


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


def physical(source: Union[PathLike, bytes, bytearray, memoryview, Any]) -> str:
    """The ODF physical hash (SHA3-256 as a ``sha3-256`` multihash, ``f1620`` + 64 hex digits)
    of a file or of bytes.

    ``source`` is a path (``str`` or ``os.PathLike``: the file is streamed in constant
    memory), a bytes-like object (``bytes``, ``bytearray``, ``memoryview``: those exact bytes),
    or a binary file object opened for reading (read from its current position to its end).
    Note that a ``str`` is always a path, never data. The GIL is released while hashing."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        h = _odf_hash.Sha3Hasher()
        h.update(source)
        return str(h.finalize())
    if isinstance(source, (str, os.PathLike)):
        digest, _size = _odf_hash.physical_file(_path(source, "odf_hash.physical"))
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
    return str(h.finalize())


def slice(path: PathLike, *, offset: int = 0, threads: Optional[int] = None) -> Dict[str, Any]:  # noqa: A001
    """The ODF ``DataSlice`` of a data file, as ODF metadata records it for a new data part::

        {"logicalHash": "f9680c00120...", "physicalHash": "f1620...",
         "offsetInterval": {"start": offset, "end": offset + records - 1}, "size": bytes}

    Raises :class:`InvalidInputError` for a file without records (ODF records no slice for
    it), and the errors of :func:`logical_file`."""
    if not isinstance(offset, int) or offset < 0:
        raise InvalidInputError(f"offset must be a non-negative integer, not {offset!r}")
    return _odf_hash.data_slice(_path(path, "odf_hash.slice"), offset, _threads(threads))


@dataclasses.dataclass(frozen=True)
class Comparison:
    """The verdict on a reproduced data file (see :func:`compare`)."""

    verdict: str  #: ``"identical"``, ``"equivalent"`` or ``"different"``
    original: Dict[str, Any]  #: path, physical, size, logical (or None), rows (or None)
    reproduced: Dict[str, Any]
    differing_columns: List[str]  #: for ``"different"``: the leaf columns that differ

    @property
    def same_records(self) -> bool:
        """True for ``identical`` and ``equivalent``: the reproduction is verified."""
        return self.verdict != "different"

    def __bool__(self) -> bool:
        return self.same_records


def compare(original: PathLike, reproduced: PathLike, *, threads: Optional[int] = None) -> Comparison:
    """Verifies a reproduced data file as the ODF specification describes it: physical hashes
    first (``identical``: same bytes); when they differ, logical hashes (``equivalent``: same
    records, different encoding; ``different``: different records, with the leaf columns that
    differ). The comparison is truthy when the records are the same."""
    d = _odf_hash.compare_files(
        _path(original, "odf_hash.compare"), _path(reproduced, "odf_hash.compare"), _threads(threads)
    )
    return Comparison(d["verdict"], d["original"], d["reproduced"], list(d["differing_columns"]))


@dataclasses.dataclass(frozen=True)
class Problem:
    """One finding of :func:`verify`: the same kinds and fields ``odf-hash verify`` prints."""

    kind: ProblemKind
    block: Optional[str]  #: the block concerned (multihash text), if any
    sequence_number: Optional[int]  #: its sequence number, when known
    file: Optional[str]  #: relative path in the dataset (``"data/f1620..."``), if any
    expected: Optional[str]
    actual: Optional[str]
    message: str  #: one human sentence

    def __str__(self) -> str:
        where = self.file or self.block or ""
        return f"{self.kind.value}: {where}: {self.message}" if where else f"{self.kind.value}: {self.message}"


@dataclasses.dataclass(frozen=True)
class FileCheck:
    """A data or checkpoint file that :func:`verify` checked."""

    role: str  #: ``"data"`` or ``"checkpoint"``
    file: str  #: relative path in the dataset
    block: str  #: the newest block referencing it
    sequence_number: int
    outcome: str  #: ``"physical-match"``, ``"logical-match"`` (derivative fallback) or ``"failed"``


class Report:
    """The result of :func:`verify`. ``report.ok`` is True when the dataset is valid; iterating
    gives the :class:`Problem` objects in report order (metadata, then files newest block
    first, then unexpected files); ``report.to_dict()`` is the object ``odf-hash verify
    --json`` prints for the dataset."""

    def __init__(self, json_text: str, problems: List[tuple]):
        self._dict = json.loads(json_text)
        self.problems: List[Problem] = [
            Problem(ProblemKind(k), b, s, f or None, e or None, a or None, m)
            for k, b, s, f, e, a, m in problems
        ]
        d = self._dict
        self.path: str = d["path"]
        self.kind: Optional[str] = d["kind"]  #: ``"root"`` / ``"derivative"`` (None if unknown)
        self.head: Optional[str] = d["head"]
        self.blocks: int = d["blocks"]
        self.chain_complete: bool = d["chain_complete"]
        self.files: List[FileCheck] = [
            FileCheck(f["role"], f["file"], f["block"], f["sequence_number"], f["outcome"])
            for f in d["files"]
        ]

    @property
    def ok(self) -> bool:
        return not self.problems

    def __bool__(self) -> bool:
        return self.ok

    def __iter__(self) -> Iterator[Problem]:
        return iter(self.problems)

    def __len__(self) -> int:
        return len(self.problems)

    def to_dict(self) -> Dict[str, Any]:
        return json.loads(json.dumps(self._dict))  # a copy the caller may change

    def __repr__(self) -> str:
        state = "VALID" if self.ok else f"INVALID, {len(self.problems)} problems"
        return f"<odf_hash.Report {self.path!r}: {state}>"


def verify(
    dataset: PathLike, *, jobs: Optional[int] = None, integrity_only: bool = False
) -> Report:
    """Verifies the ODF dataset folder ``dataset`` (``refs/head``, ``blocks/``, ``data/``,
    ``checkpoints/``): every block hashes to its name and the chain links down to the seed;
    every data file and checkpoint exists with its recorded size and physical hash; derivative
    data that differs physically must match logically (unless ``integrity_only``); files no
    block references are reported. Every problem is reported; nothing is modified.

    ``jobs`` files are hashed in parallel (default: every core). Raises :class:`Error` only
    when verification cannot run (the folder does not exist); findings are in the report."""
    n = (os.cpu_count() or 1) if jobs is None else jobs
    if not isinstance(n, int) or n < 1:
        raise InvalidInputError(f"jobs must be a positive integer or None, not {jobs!r}")
    json_text, problems = _odf_hash.verify(_path(dataset, "odf_hash.verify"), n, bool(integrity_only))
    return Report(json_text, problems)


def cli_path() -> str:
    """The path of the ``odf-hash`` command line tool shipped in this package (what
    ``python -m odf_hash`` runs)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "odf-hash")
