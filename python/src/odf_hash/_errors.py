"""The exceptions of odf_hash. Every error the library reports is an :class:`Error`; the
subclasses also derive from the built-in exception a Python user would catch for that kind
of failure (``ValueError``, ``TypeError``, ``OSError``)."""

__all__ = ["Error", "InvalidInputError", "UnsupportedTypeError", "IoError", "NotFoundError"]


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
