"""``.odf`` on polars DataFrames, LazyFrames and Series and on pandas DataFrames: the hashes
and comparisons of :mod:`odf_hash` where the data already is (``df.odf.logical()``).
Registered when :mod:`odf_hash` is imported after polars or pandas, or by
:func:`register_accessors` (which imports whichever of the two is installed)."""
from __future__ import annotations

import sys
from typing import Any

from ._errors import UnsupportedTypeError


class _Odf:
    """The ``.odf`` namespace: ``logical()``, ``unordered_digest()``, ``compare(other)``."""

    def __init__(self, data: Any) -> None:
        self._data = data

    def _arrow(self) -> Any:
        return self._data

    def logical(self, **kwargs: Any) -> Any:
        """:func:`odf_hash.logical` of this data (the same keyword arguments)."""
        from ._hashing import logical

        return logical(self._arrow(), **kwargs)

    def unordered_digest(self) -> str:
        """:func:`odf_hash.unordered_digest` of this data: its records in any order."""
        from ._compare import unordered_digest

        return unordered_digest(self._arrow())

    def compare(self, other: Any, **kwargs: Any) -> Any:
        """:func:`odf_hash.compare` with this data as the original, ``other`` (a path or
        other data in memory) as the reproduction (the same keyword arguments)."""
        from ._compare import compare

        return compare(self._arrow(), other, **kwargs)


class _PandasOdf(_Odf):
    def _arrow(self) -> Any:
        import pyarrow as pa

        # preserve_index=False: the records, not the index (a RangeIndex is never data).
        return pa.Table.from_pandas(self._data, preserve_index=False)


class _LazyOdf(_Odf):
    """A LazyFrame's ``.odf``: the frame is collected first (``lf.collect()``: its result must
    fit in memory; for more, ``lf.sink_parquet(path)`` then :func:`odf_hash.logical_file`)."""

    def _arrow(self) -> Any:
        try:
            return self._data.collect()
        except MemoryError:
            raise UnsupportedTypeError(
                "odf_hash: the LazyFrame does not fit in memory once collected: write it with "
                "lf.sink_parquet(path) and hash the file with odf_hash.logical_file(path)"
            ) from None


_registered: set = set()


def _register_polars() -> None:
    if "polars" in _registered:
        return
    import polars as pl

    pl.api.register_dataframe_namespace("odf")(_Odf)
    pl.api.register_series_namespace("odf")(_Odf)
    pl.api.register_lazyframe_namespace("odf")(_LazyOdf)
    _registered.add("polars")


def _register_pandas() -> None:
    if "pandas" in _registered:
        return
    import warnings

    import pandas as pd

    with warnings.catch_warnings():  # pandas warns when an accessor name is taken again
        warnings.simplefilter("ignore")
        pd.api.extensions.register_dataframe_accessor("odf")(_PandasOdf)
    _registered.add("pandas")


def register_loaded() -> None:
    """Registers ``.odf`` for polars and pandas if they are already imported (importing them
    here would slow every ``import odf_hash`` down)."""
    if "polars" in sys.modules:
        _register_polars()
    if "pandas" in sys.modules:
        _register_pandas()


def register_accessors() -> None:
    """Registers ``.odf`` on polars ``DataFrame``, ``LazyFrame`` and ``Series`` and on pandas
    ``DataFrame``, importing whichever of the two is installed: ``df.odf.logical()``,
    ``df.odf.unordered_digest()``, ``df.odf.compare(other)``. Done on ``import odf_hash`` for
    the libraries already imported."""
    for register in (_register_polars, _register_pandas):
        try:
            register()
        except ImportError:
            pass
