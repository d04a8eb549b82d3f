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
  with ``ignore_order=True`` whether they hold the same records in any order
  (:func:`unordered_digest`: an order-independent digest, not the ODF hash), and with
  ``key=`` which rows, matched by key, were added, dropped or changed (column by column).
- :func:`verify` -- an ODF dataset folder: metadata chain, data files, checkpoints;
  :func:`verify_workspace` -- every dataset of a kamu workspace.
- :func:`fetch` -- copy a dataset from any of those locations into a local folder, keeping
  only what verifies (hashed as it streams, renamed into place when it matches, the head
  written last; incremental and resumable).
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
streamed and hashed as they arrive; nothing is written (but by :func:`fetch`, into its
destination). Keyword arguments,
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
import os

from . import _odf_hash
from ._accessors import register_accessors, register_loaded as _register_loaded
from ._args import PathLike  # noqa: F401  (odf_hash.PathLike, for type hints)
from ._compare import (
    CastCheck,
    Cause,
    ColumnDifference,
    Comparison,
    Deviation,
    RowDifference,
    SchemaDifference,
    ToleranceCheck,
    UnorderedComparison,
    UnorderedRecord,
    compare,
    unordered_digest,
)
from ._datasets import (
    ChainDifference,
    DatasetComparison,
    DatasetSummary,
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
    HashTrapWarning,
    ReferenceCompatibilityWarning,
    UnsupportedTypeError,
)
from ._hashing import (
    ColumnDigest,
    LogicalDigest,
    RecordStream,
    logical,
    logical_file,
    open_records,
    physical,
    slice,
)
from ._fetch import FetchedFile, FetchReport, fetch
from ._keyed import KeyedChange, KeyedComparison, ValueChange
from ._plan import Allow, CheckResult, Plan, Task, check, merge, plan
from ._query import (
    DatasetTie,
    HashCheck,
    QueryCheck,
    QueryPart,
    SignatureCheck,
    verify_query,
)
from ._verify import (
    FileCheck,
    Link,
    Problem,
    ProblemKind,
    Report,
    Unreferenced,
    verify,
    verify_workspace,
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
    "FetchedFile",
    "FetchReport",
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
    "HashTrapWarning",
    "register_accessors",
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
    "fetch",
    "logical",
    "logical_file",
    "merge",
    "open_records",
    "RecordStream",
    "RowDifference",
    "SchemaDifference",
    "CastCheck",
    "DatasetSummary",
    "Deviation",
    "ToleranceCheck",
    "SliceComparison",
    "SliceFile",
    "UnorderedComparison",
    "KeyedComparison",
    "KeyedChange",
    "ValueChange",
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


def cli_path() -> str:
    """The path of the ``odf-hash`` command line tool shipped in this package (what
    ``python -m odf_hash`` runs)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "odf-hash")


# The AWS SDK behind s3:// must stop before the process's static destructors run.
atexit.register(_odf_hash.shutdown_remote_stores)


# What the package exports lives in modules by concept (_hashing, _verify, _plan, _compare,
# _datasets, _query, _errors); it is named and pickled as odf_hash.<name>, as it always was.
for _name in __all__:
    _obj = globals()[_name]
    if getattr(_obj, "__module__", "").startswith("odf_hash._"):
        try:
            _obj.__module__ = __name__
        except (AttributeError, TypeError):  # a type that does not take one
            pass
del _name, _obj
_register_loaded()  # .odf on polars and pandas frames, when already imported
