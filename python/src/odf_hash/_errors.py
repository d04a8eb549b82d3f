"""The exceptions of odf_hash. Every error the library reports is an :class:`Error`; the
subclasses also derive from the built-in exception a Python user would catch for that kind
of failure (``ValueError``, ``TypeError``, ``OSError``)."""

__all__ = [
    "Error",
    "InvalidInputError",
    "UnsupportedTypeError",
    "IoError",
    "NotFoundError",
    "ReferenceCompatibilityWarning",
    "HashTrapWarning",
]


class Error(Exception):
    """Base class of every odf_hash error."""


class InvalidInputError(Error, ValueError):
    """Malformed input: a bad hash string, a corrupt Parquet / IPC file, a malformed Arrow
    array, a stream that fails mid-way."""


class UnsupportedTypeError(Error, TypeError):
    """Valid input that odf_hash cannot hash: an Arrow type the logical hash does not define
    (Map, Union, Interval, Duration, a struct inside a list), or an object that is not Arrow
    data."""


class IoError(Error, OSError):
    """The system refused an open or a read (permission denied, a directory, a failed
    stream)."""


class NotFoundError(IoError, FileNotFoundError):
    """A file or dataset that should exist does not."""


class ReferenceCompatibilityWarning(UserWarning):
    """A logical hash covers a column the reference (arrow-digest, which kamu uses) cannot
    hash: a Dictionary column (a pandas / polars Categorical or Enum), a Null-typed (all-null)
    column, a run-end encoded one or a list view. odf_hash hashes it as the spec says, but
    kamu cannot check that hash. ``require_reference_compatible=True`` makes it an
    :class:`UnsupportedTypeError` instead."""


class HashTrapWarning(UserWarning):
    """A logical hash depends on something the data does not show, which the user may not
    mean to hash (:attr:`ColumnDigest.hash_note` says what): a timestamp column whose time
    zone is another name of UTC (``Etc/UTC``, as a DuckDB session may give ``TIMESTAMPTZ``:
    the same instants under ``UTC`` hash otherwise), or a nullable struct above a column that
    both hold nulls (by the reference's rule the hash then depends on the bytes under null
    slots and on the batch split, which writing the data to a file and reading it back, or
    reading it with another library, can change)."""
