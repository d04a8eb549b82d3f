"""Verify ODF datasets and hash data files on a Dask cluster.

odf-hash plans the work on the client (the metadata chain, a few KB per block), Dask runs the
per-file checks on its workers, odf-hash merges the results into the :class:`odf_hash.Report`
that :func:`odf_hash.verify` gives on one machine. odf-hash has no scheduler of its own:
retries, placement and progress display are Dask's.

Needs ``pip install 'odf-hash[dask]'`` (``dask`` and ``distributed``); the core package never
imports this module. Every worker must have ``odf_hash`` installed and must be able to read the
dataset at the location given (a shared file system today; an object store URL once the
package reads those).

With a ``distributed`` client (passed, or the current one from ``distributed.get_client()``),
tasks are submitted as futures (``Client.map`` with ``retries``); a worker that dies while
running one is replaced and its tasks run elsewhere (the scheduler's own rescheduling), a task
that raises is retried ``retries`` times. Progress is ``distributed.progress``: a widget in a
notebook, a text bar in a terminal. Without a client, a ``dask.bag`` runs on the local
scheduler Dask is configured with, with ``dask.diagnostics.ProgressBar``.
"""
from __future__ import annotations

import os
import uuid
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

import dask
import dask.bag

import odf_hash

__all__ = ["logical_hashes", "verify"]


def _current_client(client: Any) -> Any:
    if client is not None:
        return client
    try:
        from distributed import get_client
    except ImportError:  # dask without distributed: the local schedulers
        return None
    try:
        return get_client()
    except ValueError:  # no client running
        return None


def _map(fn: Callable[[Any], Any], items: Sequence[Any], client: Any, retries: int,
         progress: bool, name: str) -> List[Any]:
    """``[fn(x) for x in items]`` on Dask, in order."""
    if not items:
        return []
    client = _current_client(client)
    if client is None:
        bag = dask.bag.from_sequence(items, npartitions=min(len(items), 4 * (os.cpu_count() or 1)))
        bag = bag.map(fn)
        if progress:
            from dask.diagnostics import ProgressBar

            with ProgressBar():
                return bag.compute()
        return bag.compute()
    # Unique keys: a second run (after a file was repaired) must not reuse the first's results.
    token = uuid.uuid4().hex[:12]
    futures = client.map(fn, items, key=[f"{name}-{token}-{i}" for i in range(len(items))],
                         retries=retries, pure=False)
    try:
        if progress:
            from distributed import progress as show_progress

            show_progress(futures)
        return client.gather(futures)
    finally:
        for f in futures:
            f.release()


def verify(dataset: odf_hash.PathLike, client: Any = None, *, integrity_only: bool = False,
           retries: int = 2, progress: bool = True) -> odf_hash.Report:
    """Verifies ``dataset`` as :func:`odf_hash.verify` does, with each data and checkpoint
    file checked by a Dask task: the report is the same (same files, problems, order).

    ``client`` is a ``distributed.Client`` (default: the current one; without any, the local
    scheduler runs a ``dask.bag``). ``retries``: how often Dask re-runs a task that raised
    (a worker that dies is handled by the scheduler anyway). ``progress``: show Dask's
    progress bar while the checks run."""
    plan = odf_hash.plan(dataset, integrity_only=integrity_only)
    results = _map(odf_hash.check, list(plan), client, retries, progress, "odf-hash-check")
    return odf_hash.merge(plan, results)


def _slice(path: str) -> Dict[str, Any]:
    return odf_hash.slice(path, threads=1)


def logical_hashes(paths: Iterable[odf_hash.PathLike], client: Any = None, *,
                   start_offset: Optional[int] = None, retries: int = 2,
                   progress: bool = True) -> Dict[str, Dict[str, Any]]:
    """The ODF ``DataSlice`` of each data file (see :func:`odf_hash.slice`), computed on Dask:
    ``{path: {"logicalHash", "physicalHash", "offsetInterval", "size"}}`` in the order of
    ``paths``, for building a dataset or re-checking many files.

    Each slice's offsets start at 0, unless ``start_offset`` is given: then the files are
    taken as consecutive slices of one dataset, the first starting at ``start_offset``, each
    next one right after the previous one's last record. Errors (a file without records, a
    corrupt file) are raised as :func:`odf_hash.slice` raises them, once the retries are
    spent. ``client``, ``retries`` and ``progress`` as in :func:`verify`."""
    names = [os.fsdecode(os.fspath(p)) for p in paths]
    if start_offset is not None and (not isinstance(start_offset, int) or start_offset < 0):
        raise odf_hash.InvalidInputError(
            f"start_offset must be a non-negative integer or None, not {start_offset!r}")
    slices = _map(_slice, names, client, retries, progress, "odf-hash-slice")
    if start_offset is not None:
        offset = start_offset
        for s in slices:
            records = s["offsetInterval"]["end"] - s["offsetInterval"]["start"] + 1
            s["offsetInterval"] = {"start": offset, "end": offset + records - 1}
            offset += records
    return dict(zip(names, slices))
