"""odf_hash: the hashes of the Open Data Fabric (ODF), for Python.

- :func:`logical` -- the ODF logical hash (``arrow0-sha3-256``) of any Arrow data in memory:
  pyarrow tables, record batches, readers, arrays; polars data frames; DuckDB relations;
  nanoarrow; anything implementing the Arrow PyCapsule protocol. Byte for byte the hash of
  the reference implementation (the Rust crate ``arrow-digest``), whatever the encoding
  (string views, large offsets, dictionaries) and however the records are split into batches.
  Caveats: nullable structs with nullable children hash by batch boundaries (as the
  reference does); the reference, so kamu, cannot hash Dictionary (pandas / polars
  categorical), Null-typed, run-end encoded or list-view columns, so hashes covering them
  are warned about (:class:`ReferenceCompatibilityWarning`); a timestamp's time zone is part
  of its hash, and DuckDB gives ``TIMESTAMPTZ`` in the session's ``TimeZone``.
- :func:`logical_file`, :func:`physical`, :func:`slice`, :func:`compare` -- data files
  (Parquet, Arrow IPC) as the main ODF implementation reads them; :func:`compare` gives two
  verdicts, arrow0's (what ODF checks) and the records' (compared value by value, since
  arrow0 has blind spots), and says where (rows, values) and why (schema, column order, null
  slots, row order, arrow0's blind spots) files differ,
  and with ``ignore_order=True`` whether they hold the same records in any order
  (:func:`unordered_digest`: an order-independent digest, not the ODF hash).
- :func:`verify` -- an ODF dataset folder: metadata chain, data files, checkpoints;
  :func:`verify_workspace` -- every dataset of a kamu workspace.
- :func:`plan`, :func:`check`, :func:`merge` -- the same verification split for a cluster:
  plan once, check each file anywhere (Dask: :mod:`odf_hash.dask`, Ray: :mod:`odf_hash.ray`),
  merge into the :class:`Report` :func:`verify` gives.
- :func:`verify_query` -- a kamu node's signed query answer checked offline: its hashes,
  its Ed25519 signature, whose key signed it, and the blocks it read on verified copies.
- :class:`Multihash` -- parse and format the hash strings ODF metadata holds.

Hashing releases the GIL: hash several tables from several threads at once.

Remote locations: wherever a path is taken (:func:`verify`, :func:`plan`,
:func:`physical`, :func:`logical_file`, :func:`slice`, :func:`compare`), a URL may be given,
as to the ``odf-hash`` command: ``s3://bucket/prefix`` (the AWS credential chain:
environment, ``~/.aws``, instance metadata), ``http(s)://host/path`` (the ODF Simple
Transfer Protocol's layout; a server cannot be listed, so unreferenced files are not looked
for; a kamu node works too), or ``ipfs://CID/path`` (through an IPFS HTTP gateway, anchored
by the CID: every block is asked for as a verifiable response and checked against it, and
folders are listed) / ``ipns://NAME/path`` (only with ``trust_gateway=True``). Objects are
streamed and hashed as they arrive; nothing is written. Keyword arguments,
named as the command's options: ``endpoint_url`` (S3; default ``$AWS_ENDPOINT_URL_S3``,
``$AWS_ENDPOINT_URL``), ``region`` (S3), ``no_sign_request`` (S3, anonymous),
``connect_timeout`` and ``read_timeout`` (seconds, default 10 and 30), ``max_attempts``
(per request, default 4), ``ipfs_gateway`` (IPFS: the gateway's URL; default
``$ODF_HASH_IPFS_GATEWAY``, kamu's ``$KAMU_CONFIG__protocol__ipfs__httpGateway``, else
``http://localhost:8080``), ``trust_gateway`` (IPFS: read ``GATEWAY/ipfs/CID/path`` as plain
HTTP, trusting the gateway to serve what the CID names, for ``ipns://`` and for gateways
without verifiable responses; a report's ``scope["ipfs"]`` then says ``"verified": False``).
The user information of a URL (``https://user:pass@host``) never
appears in a message, a report or a :class:`Task`.
"""
from __future__ import annotations

import atexit
import dataclasses
import enum
import json
import os
import warnings
from typing import Any, Dict, Iterable, Iterator, List, Literal, Optional, Tuple, Union, overload

from . import _odf_hash
from ._compare import (
    Cause,
    ColumnDifference,
    Comparison,
    RowDifference,
    SchemaDifference,
    UnorderedComparison,
    UnorderedRecord,
    compare,
    unordered_digest,
)
from ._datasets import (
    ChainDifference,
    DatasetComparison,
    SideCheck,
    SliceComparison,
    SliceFile,
    compare_datasets,
)
from ._errors import (
    Error,
    InvalidInputError,
    IoError,
    NotFoundError,
    ReferenceCompatibilityWarning,
    UnsupportedTypeError,
)
from ._query import (
    DatasetTie,
    HashCheck,
    QueryCheck,
    QueryPart,
    SignatureCheck,
    verify_query,
)

__all__ = [
    "Allow",
    "Cause",
    "ChainDifference",
    "CheckResult",
    "ColumnDifference",
    "ColumnDigest",
    "Comparison",
    "DatasetComparison",
    "DatasetTie",
    "Error",
    "FileCheck",
    "HashCheck",
    "InvalidInputError",
    "IoError",
    "Link",
    "LogicalDigest",
    "Multihash",
    "NotFoundError",
    "Plan",
    "Problem",
    "ProblemKind",
    "QueryCheck",
    "QueryPart",
    "ReferenceCompatibilityWarning",
    "Report",
    "SideCheck",
    "SignatureCheck",
    "Task",
    "Unreferenced",
    "UnsupportedTypeError",
    "check",
    "cli_path",
    "compare",
    "compare_datasets",
    "logical",
    "logical_file",
    "merge",
    "open_records",
    "RecordStream",
    "RowDifference",
    "SchemaDifference",
    "SliceComparison",
    "SliceFile",
    "UnorderedComparison",
    "UnorderedRecord",
    "unordered_digest",
    "physical",
    "plan",
    "slice",
    "verify",
    "verify_query",
    "verify_workspace",
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


#: The most threads one call hashes on, and the most files ``verify`` checks at once (the
#: library's bound, ``kMaxVerifyJobs``): larger values are taken as these.
_MAX_THREADS = 4096
_MAX_JOBS = 256


def _count(name: str, value: Any, maximum: int) -> int:
    """A positive integer argument, capped at ``maximum`` (so that 2**32 and more reach the
    extension as a number it takes, not as nanobind's "incompatible function arguments")."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidInputError(f"{name} must be a positive integer or None, not {value!r}")
    return min(value, maximum)


def _threads(threads: Optional[int]) -> int:
    if threads is None:
        return 0  # every core
    return _count("threads", threads, _MAX_THREADS)


def _path(path: PathLike, what: str) -> str:
    try:
        return os.fsdecode(os.fspath(path))
    except TypeError:
        raise InvalidInputError(
            f"{what}: expected a path or URL (str or os.PathLike), not {type(path).__name__}"
        ) from None


#: The store options (see the module's documentation) and their defaults.
_STORE_DEFAULTS: Dict[str, Any] = {
    "endpoint_url": None,
    "region": None,
    "no_sign_request": False,
    "connect_timeout": 10.0,
    "read_timeout": 30.0,
    "max_attempts": 4,
    "ipfs_gateway": None,
    "trust_gateway": False,
}


def _store(what: str, options: Dict[str, Any]) -> tuple:
    """The store options as the extension takes them, checked as the command checks them."""
    unknown = sorted(set(options) - set(_STORE_DEFAULTS))
    if unknown:
        raise TypeError(f"{what}() got an unexpected keyword argument {unknown[0]!r}")
    o = {**_STORE_DEFAULTS, **{k: v for k, v in options.items() if v is not None}}
    for key in ("endpoint_url", "region", "ipfs_gateway"):
        if o[key] is None:
            o[key] = ""  # not given: the default (the environment, ...)
        elif not isinstance(o[key], str):
            raise InvalidInputError(f"{what}: {key} must be a string, not {o[key]!r}")
        elif o[key] == "":
            # Given empty: refused, as the command refuses it, never taken as "not given".
            raise InvalidInputError(f"{what}: {key}: an empty value is refused (it would mean "
                                    "nothing, not \"off\"): give a value, or leave it out")
    for key in ("connect_timeout", "read_timeout"):
        v = o[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.1 <= v <= 3600:
            raise InvalidInputError(f"{what}: {key} must be seconds from 0.1 to 3600, not {v!r}")
    n = o["max_attempts"]
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 20:
        raise InvalidInputError(f"{what}: max_attempts must be an integer from 1 to 20, not {n!r}")
    if not isinstance(o["trust_gateway"], bool):
        raise InvalidInputError(f"{what}: trust_gateway must be True or False, not "
                                f"{o['trust_gateway']!r}")
    return (o["endpoint_url"], o["region"], bool(o["no_sign_request"]), float(o["connect_timeout"]),
            float(o["read_timeout"]), n, o["ipfs_gateway"], o["trust_gateway"])


@dataclasses.dataclass(frozen=True)
class ColumnDigest:
    """The digest of one leaf column, as fed into the combined logical hash."""

    path: str  #: field names from the top level down, joined with ``.`` (``""`` for a lone column)
    type: str  #: the Arrow format string of the leaf (``"l"`` int64, ``"u"`` utf8, ``"+l"`` list)
    digest: bytes  #: 32 bytes of SHA3-256
    #: ``""``, or why the reference (arrow-digest, so kamu) cannot hash this column's type
    #: (``"dictionary-encoded, ..."``, ``"Null type, ..."``): see :class:`ReferenceCompatibilityWarning`
    reference_gap: str = ""


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
    d = LogicalDigest(text, rows, [ColumnDigest(p, t, dg, gap) for p, t, dg, gap in cols])
    _say_reference_gaps(what, d.reference_gaps, require, stacklevel=4)  # the caller of logical*
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


@overload
def logical_file(path: PathLike, *, columns: Literal[False] = ..., threads: Optional[int] = ...,
                 require_reference_compatible: bool = ..., **store: Any) -> str: ...
@overload
def logical_file(path: PathLike, *, columns: Literal[True], threads: Optional[int] = ...,
                 require_reference_compatible: bool = ..., **store: Any) -> LogicalDigest: ...


def logical_file(path: PathLike, *, columns: bool = False, threads: Optional[int] = None,
                 require_reference_compatible: bool = False, **store: Any):
    """The logical hash of the records in a Parquet or Arrow IPC file (format detected from its
    bytes), read exactly as the main ODF implementation reads it (arrow-rs types, batches of
    10,000 rows), so it equals the ``logicalHash`` ODF metadata records for the file.

    ``path`` may be a URL (``s3://``, ``http(s)://``: read by range requests, the store
    options as keyword arguments, see the module's documentation). ``columns``, ``threads``
    and ``require_reference_compatible`` as in :func:`logical` (a file whose Arrow schema
    says ``dictionary``, as pandas categoricals are written, or with an all-null column, gets
    a hash kamu cannot check: warned). Raises :class:`NotFoundError`, :class:`IoError`,
    :class:`InvalidInputError` (corrupt file) or :class:`UnsupportedTypeError`, with the path
    in the message."""
    p = _path(path, "odf_hash.logical_file")
    opts = _store("logical_file", store)
    return _digest(_odf_hash.logical_file(p, _threads(threads), opts), columns, p,
                   require_reference_compatible)


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


def physical(source: Union[PathLike, bytes, bytearray, memoryview, Any], **store: Any) -> str:
    """The ODF physical hash (SHA3-256 as a ``sha3-256`` multihash, ``f1620`` + 64 hex digits)
    of a file or of bytes.

    ``source`` is a path (``str`` or ``os.PathLike``: the file is streamed in constant
    memory), a bytes-like object (``bytes``, ``bytearray``, ``memoryview``: those exact bytes),
    or a binary file object opened for reading (read from its current position to its end).
    Note that a ``str`` is always a path, never data: a local path or a URL (``s3://``,
    ``http(s)://``: streamed; the store options as keyword arguments, see the module's
    documentation). The GIL is released while hashing."""
    opts = _store("physical", store)
    if isinstance(source, (bytes, bytearray, memoryview)):
        h = _odf_hash.Sha3Hasher()
        h.update(source)
        return str(h.finalize())
    if isinstance(source, (str, os.PathLike)):
        digest, _size = _odf_hash.physical_file(_path(source, "odf_hash.physical"), opts)
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


def slice(path: PathLike, *, offset: int = 0, threads: Optional[int] = None,  # noqa: A001
          require_reference_compatible: bool = False, **store: Any) -> Dict[str, Any]:
    """The ODF ``DataSlice`` of a data file, as ODF metadata records it for a new data part::

        {"logicalHash": "f9680c00120...", "physicalHash": "f1620...",
         "offsetInterval": {"start": offset, "end": offset + records - 1}, "size": bytes}

    ``path`` and the store options as in :func:`logical_file`. A ``logicalHash`` kamu cannot
    check (a column the reference cannot hash) is warned about
    (:class:`ReferenceCompatibilityWarning`), or refused with
    ``require_reference_compatible=True``. Raises :class:`InvalidInputError` for a file
    without records (ODF records no slice for it), and the errors of :func:`logical_file`."""
    if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset < 2**64:
        raise InvalidInputError(f"offset must be an integer from 0 to 2**64 - 1, not {offset!r}")
    opts = _store("slice", store)
    p = _path(path, "odf_hash.slice")
    d, gaps = _odf_hash.data_slice(p, offset, _threads(threads), opts)
    _say_reference_gaps(p, [ColumnDigest(c, t, dg, gap) for c, t, dg, gap in gaps],
                        require_reference_compatible, stacklevel=3)
    return d


@dataclasses.dataclass(frozen=True)
class Link:
    """Where a linked object (ODF RFC-017) is linked from: the first reference found
    (newest data file first, then column, then row)."""

    data_file: str  #: the data file, ``"data/f1620..."``
    column: str  #: the ObjectLink column (``"a.b"`` inside a struct)
    row: int  #: the row of the data file, from 0


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
    #: for linked-object and link problems: where the object is linked from
    link: Optional[Link] = None

    def __str__(self) -> str:
        where = self.file or self.block or ""
        return f"{self.kind.value}: {where}: {self.message}" if where else f"{self.kind.value}: {self.message}"

    def to_dict(self) -> Dict[str, Any]:
        """The problem as ``odf-hash verify --json`` prints it."""
        d = {"kind": self.kind.value, "message": self.message, "block": self.block,
             "sequence_number": self.sequence_number, "file": self.file,
             "expected": self.expected, "actual": self.actual}
        if self.link is not None:
            d["link"] = dataclasses.asdict(self.link)
        return d

    @classmethod
    def _from_dict(cls, d: Dict[str, Any]) -> "Problem":
        link = d.get("link")
        return cls(ProblemKind(d["kind"]), d["block"], d["sequence_number"], d["file"] or None,
                   d["expected"] or None, d["actual"] or None, d["message"],
                   Link(link["data_file"], link["column"], link["row"]) if link else None)


@dataclasses.dataclass(frozen=True)
class FileCheck:
    """A data or checkpoint file, or a linked object, that :func:`verify` checked."""

    role: str  #: ``"data"``, ``"checkpoint"`` or ``"linked-object"``
    file: str  #: relative path in the dataset
    block: str  #: the newest block referencing it (a linked object: its first reference's)
    sequence_number: int
    outcome: str  #: ``"physical-match"``, ``"logical-match"`` (derivative fallback) or ``"failed"``
    size: Optional[int] = None  #: a linked object that matched: its size in bytes


@dataclasses.dataclass(frozen=True)
class Unreferenced:
    """An entry of ``blocks/``, ``data/`` or ``checkpoints/`` that the chain does not
    reference (what kamu leaves after ``system compact --hard``, ``reset`` or an aborted
    ingest; a file under a non-canonical spelling of its hash; anything else). Listed, never
    opened; a problem only with ``strict=True``."""

    file: str  #: relative path in the dataset (untrusted bytes: escape before printing)
    #: ``"file"``, ``"directory"``, ``"symlink"``, ``"fifo"``, ``"socket"``,
    #: ``"char-device"``, ``"block-device"`` or ``"other"``
    kind: str
    size: int  #: bytes of a regular file (0 for any other kind)
    link_target: Optional[str] = None  #: where a link leaving the dataset leads
    broken_link: bool = False  #: a link that leads nowhere or loops
    #: for a name that is a multihash spelled another way: its canonical name (``"f1620..."``)
    canonical_name: Optional[str] = None

    @classmethod
    def _from_dict(cls, d: Dict[str, Any]) -> "Unreferenced":
        return cls(d["file"], d["kind"], d["size"], d["link_target"], d["broken_link"],
                   d["canonical_name"])


class Report:
    """The result of :func:`verify`. ``report.ok`` is True when the dataset is valid; iterating
    gives the :class:`Problem` objects in report order (metadata, then files newest block
    first, then unexpected files); ``report.unreferenced`` lists what the chain does not
    reference (never a problem unless ``strict``); ``report.to_dict()`` is the object
    ``odf-hash verify --json`` prints for the dataset. ``report.verdict`` and
    ``report.scope`` say what the verify modes checked and skipped; ``report.complete`` is
    False for a partial pass (``since``, ``sample``), where ``ok`` means that nothing wrong
    was found in what was read."""

    def __init__(self, json_text: str, problems: List[tuple]):
        self._dict = json.loads(json_text)
        self.problems: List[Problem] = [
            Problem(ProblemKind(k), b, s, f or None, e or None, a or None, m,
                    Link(*link) if link is not None else None)
            for k, b, s, f, e, a, m, link in problems
        ]
        d = self._dict
        self.path: str = d["path"]
        self.kind: Optional[str] = d["kind"]  #: ``"root"`` / ``"derivative"`` (None if unknown)
        self.head: Optional[str] = d["head"]
        self.blocks: int = d["blocks"]
        self.chain_complete: bool = d["chain_complete"]
        self.files: List[FileCheck] = [
            FileCheck(f["role"], f["file"], f["block"], f["sequence_number"], f["outcome"],
                      f.get("size"))
            for f in d["files"]
        ]
        #: linked objects (ODF RFC-017) checked, and those that matched their name
        self.linked_objects: Dict[str, int] = dict(d["linked_objects"])
        #: False when the store cannot list (HTTP): unreferenced entries were not looked for
        self.unexpected_checked: bool = d["unexpected_checked"]
        u = d["unreferenced"]
        #: entries no block references, in path order
        self.unreferenced: List[Unreferenced] = [Unreferenced._from_dict(e) for e in u["entries"]]
        self.unreferenced_bytes: int = u["bytes"]  #: their total size
        self.strict: bool = u["strict"]  #: verified with ``strict=True``
        #: "VALID", "INVALID (2 problems)", "VALID (sampled: 3 of 40 files, 12.0 MiB of
        #: 900.0 MiB read)", "VALID (since block 41: 1 new block, 2 files checked)": a partial
        #: pass never reads as a plain "VALID"
        self.verdict: str = d["verdict"]
        #: what the modes checked and skipped (``odf-hash verify --json``'s "scope"):
        #: expected_head(_found, _sequence), since(_found, _sequence), kind_inferred, deep,
        #: sample ({"spec", "seed", "files_checked", "files_total", "bytes_checked",
        #: "bytes_total"} or None), ipfs (None, or {"gateway", "verified"}: an ipfs://
        #: dataset's gateway, and whether its blocks were checked against the CID, False
        #: with ``trust_gateway=True``), skipped (one sentence per check not made), complete
        self.scope: Dict[str, Any] = d["scope"]

    @property
    def complete(self) -> bool:
        """False when only part of the dataset was checked (``since``, ``sample``): then
        ``ok`` means that nothing wrong was found in what was read."""
        return bool(self.scope["complete"])

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

    def __eq__(self, other: object) -> bool:
        """Reports are equal when everything they say is: the same files with the same
        outcomes, the same problems in the same order (``to_dict()`` equal)."""
        if not isinstance(other, Report):
            return NotImplemented
        return self._dict == other._dict and self.problems == other.problems

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<odf_hash.Report {self.path!r}: {self.verdict}>"


def _modes(what: str, expect_head: Optional[str], since: Optional[str], deep: bool,
           sample: Union[None, int, float, str], seed: Optional[int]) -> tuple:
    """The verify modes as the extension takes them: text, parsed and checked by the library
    as it checks the command's flags (an empty value is refused, never "off")."""
    for name, value in (("expect_head", expect_head), ("since", since)):
        if value is not None and not isinstance(value, str):
            raise InvalidInputError(f"odf_hash.{what}: {name} must be a multihash string, "
                                    f"not {type(value).__name__}")
    if sample is not None and (isinstance(sample, bool) or
                               not isinstance(sample, (int, float, str))):
        raise InvalidInputError(f"odf_hash.{what}: sample must be a fraction in (0, 1] (0.01, "
                                f"'1%') or a number of files (25), not {sample!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidInputError(f"odf_hash.{what}: seed must be an integer in [0, 2**64)")
    sample_text = None if sample is None else repr(sample) if isinstance(sample, float) \
        else str(sample)
    return (expect_head, since, sample_text, None if seed is None else str(seed), bool(deep))


def verify(
    dataset: PathLike, *, jobs: Optional[int] = None, integrity_only: bool = False,
    strict: bool = False, expect_head: Optional[str] = None, since: Optional[str] = None,
    deep: bool = False, sample: Union[None, int, float, str] = None,
    seed: Optional[int] = None, pins: Optional[PathLike] = None,
    write_pins: Optional[PathLike] = None, **store: Any
) -> Report:
    """Verifies the ODF dataset ``dataset``, a folder or a URL (``refs/head``, ``blocks/``, ``data/``,
    ``checkpoints/``): every block hashes to its name and the chain links down to the seed;
    every data file and checkpoint exists, under the canonical name of its hash, with its
    recorded size and physical hash; derivative data that differs physically must match
    logically (unless ``integrity_only``). Entries no block references are listed in
    ``Report.unreferenced``; with ``strict`` each is also an ``unexpected-file`` problem. Every
    problem is reported; nothing is modified.

    A folder that is not a dataset (no ``refs/`` nor ``blocks/``) raises
    :class:`NotFoundError` saying what it looks like; for a kamu workspace, use
    :func:`verify_workspace`.

    ``dataset`` may be a URL (``s3://bucket/prefix``, ``http(s)://host/path``), with the
    store options as keyword arguments (see the module's documentation): the same report as
    for a local copy. ``jobs`` files are hashed in parallel (default: every core; 16 for a
    URL, whose transfers wait on the network, as the command does; at most 256, a larger
    value is taken as 256). Raises :class:`Error`
    only when verification cannot run (the folder does not exist, the server cannot be
    reached: :class:`IoError`); findings are in the report.

    Modes (``Report.scope`` says what each checked and skipped; README: "What each verify
    mode proves (and does not)"):

    - ``expect_head``: a trusted head (a multihash string): refs/head must be that block or
      a descendant of it, else a ``history-rewritten`` (or ``head-not-found``) problem;
    - ``since``: a head verified before: only the blocks above it, their files and the link
      down to it are checked, nothing older is read (``Report.head`` is the new head to
      keep);
    - ``deep``: each data file's records against its block: row count, offset column
      (SetVocab's, ``offset`` by default) and logical hash;
    - ``sample``: the whole chain but only a random, size-weighted subset of the files: a
      fraction of the bytes (``0.01``, ``"1%"``) or a number of files (``25``);
      deterministic for ``seed`` (default: a new one, in ``Report.scope``). A sampled report
      is never complete (``Report.complete``; ``Report.verdict`` says what was read);
    - ``pins``: a pin file (``<head> <dataset id>  <location>`` lines, as ``odf-hash verify
      --pins``): the dataset's pin, found by its canonical location (any spelling of the
      path or URL), is its ``expect_head``, and the pin's dataset id must be its Seed's
      (``dataset-id-mismatch``); a dataset the file does not name is verified without one,
      and ``Report.scope`` says so;
    - ``write_pins``: a pin file where the head of a valid pass is pinned (merged under a lock
      with the pins the file holds; a link is followed to its file). Not pinned (and
      ``Report.scope`` says why): a sampled pass, and a ``since`` pass whose chain below
      ``since`` nothing anchors; ``since`` with ``write_pins`` needs ``expect_head`` or
      ``pins``.

    An empty value (``expect_head=""``, ``pins=""``, ...) raises :class:`InvalidInputError`:
    it never turns a check off."""
    p = _path(dataset, "odf_hash.verify")
    opts = _store("verify", store)
    modes = _modes("verify", expect_head, since, deep, sample, seed)
    remote = _odf_hash.is_store_url(p)
    n = (16 if remote else (os.cpu_count() or 1)) if jobs is None else jobs
    n = _count("jobs", n, _MAX_JOBS)
    pin_files = [None if f is None else _path(f, f"odf_hash.verify: {name}")
                 for name, f in (("pins", pins), ("write_pins", write_pins))]
    json_text, problems = _odf_hash.verify(p, n, bool(integrity_only), bool(strict), opts,
                                           modes, *pin_files)
    return Report(json_text, problems)


def verify_workspace(
    workspace: PathLike, *, datasets: Optional[Iterable[str]] = None, jobs: Optional[int] = None,
    integrity_only: bool = False, strict: bool = False, deep: bool = False,
    sample: Union[None, int, float, str] = None, seed: Optional[int] = None,
    pins: Optional[PathLike] = None, write_pins: Optional[PathLike] = None, **store: Any
) -> Dict[str, Report]:
    """Verifies every dataset of the kamu workspace ``workspace`` (the folder holding
    ``.kamu/``, ``.kamu`` itself or ``.kamu/datasets``; also a folder holding only dataset
    folders), or only those whose alias (``info/alias``) or dataset id is in ``datasets``.
    Returns ``{alias: Report}`` in alias order (a dataset without ``info/alias`` is named by
    its folder; an alias that several of the returned datasets share, as ``"alias (dataset
    id)"``). Every entry of the workspace's folder of datasets is in it: one that is not a
    dataset (a file, a folder without ``refs/`` nor ``blocks/``, a link leaving the
    workspace) is a report with one ``not-a-dataset`` problem, so not ``ok``. Aliases are
    text from the datasets: escape them before printing to a terminal. Raises
    :class:`NotFoundError` when ``workspace`` is no workspace (a dataset: use :func:`verify`)
    or a requested alias is not in it, :class:`InvalidInputError` when a requested alias names
    several datasets (give the dataset id); the other arguments as :func:`verify`
    (``expect_head`` and ``since`` name one dataset's blocks: use :func:`verify` on that
    dataset; ``pins`` and ``write_pins`` find each dataset by its location, any spelling of
    it)."""
    p = _path(workspace, "odf_hash.verify_workspace")
    opts = _store("verify_workspace", store)
    wanted = None if datasets is None else [datasets] if isinstance(datasets, str) else list(datasets)
    ws = _odf_hash.workspace(p, opts, wanted)
    if ws is None:
        raise NotFoundError(f"{p}: not a kamu workspace (for one dataset, use odf_hash.verify)")
    _location, entries = ws
    aliases = [alias for alias, _, _, _ in entries]
    out: Dict[str, Report] = {}
    for alias, ident, where, not_a_dataset in entries:
        key = alias if aliases.count(alias) == 1 else f"{alias} ({ident})"
        if not_a_dataset is not None:
            out[key] = Report(*not_a_dataset)
            continue
        out[key] = verify(where, jobs=jobs, integrity_only=integrity_only, strict=strict,
                          deep=deep, sample=sample, seed=seed, pins=pins,
                          write_pins=write_pins, **store)
    return out


# ---- verification at cluster scale: plan, check, merge -----------------------------------------

_PLAN_VERSION = _odf_hash.plan_json_version()


@dataclasses.dataclass(frozen=True)
class Task:
    """One file check of a :class:`Plan`: plain data (strings, integers, booleans), cheap to
    pickle and to send to a worker, where :func:`check` runs it. ``to_json()`` /
    ``Task.from_json()`` give its versioned JSON form (validated when read: a malformed task
    raises :class:`InvalidInputError`)."""

    id: int  #: position in the plan; :func:`merge` matches results by it
    #: the dataset's location, as the plan was made from it (a URL without its user
    #: information: a worker uses its own credentials, e.g. its AWS credential chain)
    dataset: str
    role: str  #: ``"data"``, ``"checkpoint"`` or ``"linked-object"``
    file: str  #: key in the dataset (``"data/f1620..."``)
    size: int  #: recorded size in bytes (0 for a linked object: none is recorded)
    physical: str  #: recorded physical hash
    logical: Optional[str]  #: recorded logical hash (data files only)
    block: str  #: the newest block referencing the file
    sequence_number: int
    known_missing: bool = False  #: the plan's listing has no such file
    #: with ``known_missing``: a file holding the hash under a non-canonical name (named in
    #: the problem's message, never read)
    misnamed: str = ""
    derivative: bool = False  #: derivative dataset: data may match logically
    integrity_only: bool = False
    follow_symlinks: bool = False
    #: how the plan opened the dataset (see the module's documentation): a worker opens it
    #: the same way
    endpoint_url: str = ""
    region: str = ""
    no_sign_request: bool = False
    connect_timeout: float = 10.0
    read_timeout: float = 30.0
    max_attempts: int = 4
    ipfs_gateway: str = ""
    trust_gateway: bool = False  #: read through the IPFS gateway without checking the CID
    #: a linked object: its first reference, {"data_file", "column", "row"}
    link: Optional[Dict[str, Any]] = None
    #: ``deep=True``: the records are checked against the block too (the offset column's
    #: name and the block's offset interval)
    deep: bool = False
    offset_column: str = ""
    offset_start: int = 0
    offset_end: int = 0

    def to_dict(self) -> Dict[str, Any]:
        return {"version": _PLAN_VERSION, **dataclasses.asdict(self)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> "Task":
        return cls._from_dict(json.loads(_odf_hash.normalize_task(_text(text, "Task.from_json"))))

    @classmethod
    def _from_dict(cls, d: Dict[str, Any]) -> "Task":
        return cls(**{f.name: d.get(f.name) if f.name == "link" else d[f.name]
                      for f in dataclasses.fields(cls)})


@dataclasses.dataclass(frozen=True)
class CheckResult:
    """What :func:`check` found for one :class:`Task`: plain data, picklable, with a
    versioned JSON form like :class:`Task`."""

    task: int  #: the :attr:`Task.id` it answers
    role: str
    file: str
    block: str
    sequence_number: int
    outcome: str  #: ``"physical-match"``, ``"logical-match"`` or ``"failed"``
    #: binds the result to the task it was computed against (its dataset, file, recorded
    #: size and hashes): :func:`merge` refuses a result of another dataset or plan
    task_digest: str
    actual_physical: Optional[str] = None  #: for a logical match: the physical hash found
    logical: Optional[str] = None  #: for a logical match: the logical hash that matched
    size: Optional[int] = None  #: a linked object that matched: its size in bytes
    problem: Optional[Problem] = None  #: for ``"failed"``: what is wrong

    @property
    def ok(self) -> bool:
        return self.problem is None

    def to_dict(self) -> Dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d["problem"] = self.problem.to_dict() if self.problem is not None else None
        return {"version": _PLAN_VERSION, **d}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> "CheckResult":
        return cls._from_dict(
            json.loads(_odf_hash.normalize_result(_text(text, "CheckResult.from_json"))))

    @classmethod
    def _from_dict(cls, d: Dict[str, Any]) -> "CheckResult":
        kw = {f.name: d.get(f.name) if f.name == "size" else d[f.name]
              for f in dataclasses.fields(cls)}
        kw["problem"] = Problem._from_dict(d["problem"]) if d["problem"] is not None else None
        return cls(**kw)


class Plan:
    """The verification of one dataset, planned (:func:`plan`): the metadata findings and
    the ordered :class:`Task` of every data and checkpoint file. A sequence of tasks
    (``len(plan)``, ``plan[i]``, iteration); picklable (as its JSON text, ``to_json()``);
    ``Plan.from_json(text)`` validates. Two plans are equal when their JSON is."""

    def __init__(self, json_text: str):
        self._json = json_text
        d = json.loads(json_text)
        self.path: str = d["path"]
        self.head: Optional[str] = d["head"]
        self.kind: Optional[str] = d["kind"]
        self.blocks: int = d["blocks"]
        self.chain_complete: bool = d["chain_complete"]
        #: metadata problems (the chain), reported before the files'
        self.problems: List[Problem] = [Problem._from_dict(p) for p in d["problems"]]
        #: problems reported after the files' (a folder of the layout that is not a folder;
        #: with ``strict``, every unreferenced entry)
        self.unexpected: List[Problem] = [Problem._from_dict(p) for p in d["unexpected"]]
        u = d.get("unreferenced") or {"entries": [], "strict": False}
        #: entries no block references (see :class:`Report`)
        self.unreferenced: List[Unreferenced] = [Unreferenced._from_dict(e) for e in u["entries"]]
        self.strict: bool = u["strict"]
        self.tasks: List[Task] = [Task._from_dict(t) for t in d["tasks"]]

    @classmethod
    def from_json(cls, text: str) -> "Plan":
        return cls(_odf_hash.normalize_plan(_text(text, "Plan.from_json")))

    def to_json(self) -> str:
        return self._json

    @property
    def bytes_total(self) -> int:
        """The recorded sizes of all the files to check."""
        return sum(t.size for t in self.tasks)

    def __len__(self) -> int:
        return len(self.tasks)

    def __iter__(self) -> Iterator[Task]:
        return iter(self.tasks)

    def __getitem__(self, i: int) -> Task:
        return self.tasks[i]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Plan):
            return NotImplemented
        return json.loads(self._json) == json.loads(other._json)

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> str:
        return self._json

    def __setstate__(self, state: str) -> None:
        self.__init__(state)  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"<odf_hash.Plan {self.path!r}: {len(self.tasks)} tasks>"


def _text(text: Any, what: str) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if not isinstance(text, str):
        raise InvalidInputError(f"{what}: expected JSON text, not {type(text).__name__}")
    return text


def plan(dataset: PathLike, *, integrity_only: bool = False, strict: bool = False,
         expect_head: Optional[str] = None, since: Optional[str] = None, deep: bool = False,
         sample: Union[None, int, float, str] = None, seed: Optional[int] = None,
         **store: Any) -> Plan:
    """Plans the verification of ``dataset`` (what :func:`verify` takes: a folder or a URL,
    with the store options as keyword arguments): walks the metadata chain once and lists
    the dataset, then returns a :class:`Plan` whose tasks are the file checks :func:`verify`
    would run. Run each with :func:`check` (anywhere the dataset can be read at the same
    location: each task carries the store options, never credentials), then :func:`merge`.
    The modes (``expect_head``, ``since``, ``deep``, ``sample``, ``seed``) as :func:`verify`:
    the plan holds only the tasks they leave, and the merged report their scope. Errors as
    :func:`verify`."""
    p = _path(dataset, "odf_hash.plan")
    try:
        p.encode("utf-8")
    except UnicodeEncodeError:
        # Tasks travel as JSON, which is text: a location that is not UTF-8 would reach a
        # worker as another one. verify() reads such a folder in one process.
        raise InvalidInputError(
            f"odf_hash.plan: {p!r} is not UTF-8, so its tasks cannot name it (their JSON is "
            "text); verify it with odf_hash.verify(), in one process") from None
    opts = _store("plan", store)
    modes = _modes("plan", expect_head, since, deep, sample, seed)
    return Plan(_odf_hash.plan_verify(p, bool(integrity_only), bool(strict), opts, modes))


@dataclasses.dataclass(frozen=True)
class Allow:
    """What a worker lets a :class:`Task` make it do (``check(task, allow=...)``). A task is
    a message: without a policy, a forged one could make a worker hash any
    ``<dir>/data/<name>`` on its disk (the result discloses its size and SHA3), follow links
    out of a folder, or send signed S3 requests to any endpoint.

    ``datasets``: the locations a task may name (as :func:`plan` names them; empty: any);
    ``endpoints``: the S3 endpoint URLs and IPFS gateways a task may name (besides none, the
    defaults); ``follow_symlinks``: whether a task may ask to follow links leaving its folder.
    ``Allow.dataset(ds, **store)`` allows one dataset with the store options a client planned
    it with: what the Dask and Ray adapters give their workers."""

    datasets: Tuple[str, ...] = ()
    endpoints: Tuple[str, ...] = ()
    follow_symlinks: bool = False

    def __post_init__(self) -> None:
        for name in ("datasets", "endpoints"):
            v = getattr(self, name)
            if isinstance(v, (str, bytes)) or not all(isinstance(x, str) for x in v):
                raise InvalidInputError(f"Allow.{name} must be a sequence of str, not {v!r}")
            object.__setattr__(self, name, tuple(v))
        object.__setattr__(self, "follow_symlinks", bool(self.follow_symlinks))

    @classmethod
    def dataset(cls, dataset: PathLike, **store: Any) -> "Allow":
        """Allows the tasks of one dataset, planned with these store options, and nothing
        else."""
        p = _path(dataset, "Allow.dataset")
        endpoints = tuple(store[k] for k in ("endpoint_url", "ipfs_gateway") if store.get(k))
        return cls(datasets=(p,), endpoints=endpoints)


def check(task: Task, *, allow: Optional[Allow] = None) -> CheckResult:
    """Runs one :class:`Task` of a plan: size, physical hash and, for derivative data, the
    logical fallback. The dataset is opened as the task says (its location, a folder or a
    URL, and the store options it was planned with; S3 credentials come from this process's
    AWS credential chain). Every finding is in the result; raises only when the dataset
    cannot be opened at all (:class:`NotFoundError`, :class:`IoError`) or the task is
    malformed (:class:`InvalidInputError`). Releases the GIL while reading and hashing.

    ``allow`` (an :class:`Allow`): what this worker lets the task make it do; a task naming
    another dataset, endpoint or gateway, or asking to follow links, raises
    :class:`InvalidInputError`. Give it wherever tasks come from another process (the Dask
    and Ray adapters do, from the client's arguments); without it the task is trusted."""
    if isinstance(task, Task):
        text = task.to_json()
    else:
        raise InvalidInputError(f"odf_hash.check: expected an odf_hash.Task, not {type(task).__name__}")
    policy = None
    if allow is not None:
        if not isinstance(allow, Allow):
            raise InvalidInputError(
                f"odf_hash.check: allow must be an odf_hash.Allow or None, not {type(allow).__name__}")
        policy = (list(allow.datasets), list(allow.endpoints), allow.follow_symlinks)
    return CheckResult._from_dict(json.loads(_odf_hash.check_task(text, policy)))


def merge(plan: Plan, results: Iterable[CheckResult]) -> Report:
    """The :class:`Report` of a planned verification: ``merge(plan(d), [check(t) for t in
    plan(d)]) == verify(d)``. Results may come in any order; exactly one per task. Raises
    :class:`InvalidInputError` naming the task when one has no result or two, or a result
    does not belong to the plan."""
    if not isinstance(plan, Plan):
        raise InvalidInputError(f"odf_hash.merge: expected an odf_hash.Plan, not {type(plan).__name__}")
    texts = []
    for r in results:
        if not isinstance(r, CheckResult):
            raise InvalidInputError(
                f"odf_hash.merge: expected odf_hash.CheckResult objects, not {type(r).__name__}")
        texts.append(r.to_json())
    json_text, problems = _odf_hash.merge_checks(plan.to_json(), texts)
    return Report(json_text, problems)


def cli_path() -> str:
    """The path of the ``odf-hash`` command line tool shipped in this package (what
    ``python -m odf_hash`` runs)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "odf-hash")


# The AWS SDK behind s3:// must stop before the process's static destructors run.
atexit.register(_odf_hash.shutdown_remote_stores)
