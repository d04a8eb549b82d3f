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

import functools
import os
import uuid
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

import dask
import dask.bag

import odf_hash
from odf_hash import _engine

__all__ = ["compare_datasets", "logical_hashes", "verify"]


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


def _threads(client: Any) -> int:
    if client is None:
        return os.cpu_count() or 1
    return max(1, sum(client.nthreads().values()))


def _map(fn: Callable[[Any], Any], items: Sequence[Any], client: Any, retries: int,
         progress: bool, name: str) -> List[Any]:
    """``[fn(x) for x in items]`` on Dask (the resolved client, or a bag without one), in
    order; each item is one Dask task."""
    if not items:
        return []
    if client is None:
        bag = dask.bag.from_sequence(items, npartitions=len(items)).map(fn)
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
           strict: bool = False, expect_head: Optional[str] = None, since: Optional[str] = None,
           deep: bool = False, sample: Any = None, seed: Optional[int] = None,
           retries: int = 2, progress: bool = True,
           batch_size: Optional[int] = None, **store: Any) -> odf_hash.Report:
    """Verifies ``dataset`` as :func:`odf_hash.verify` does, with the data and checkpoint
    files checked by Dask tasks: the report is the same (same files, problems, order, the
    same unreferenced entries; ``strict`` and the modes, ``expect_head``, ``since``, ``deep``,
    ``sample`` and ``seed``, as :func:`odf_hash.verify`: only the files they leave are
    sent to the workers).

    ``client`` is a ``distributed.Client`` (default: the current one; without any, the local
    scheduler runs a ``dask.bag``). ``retries``: how often Dask re-runs a task that raised
    (a worker that dies is handled by the scheduler anyway). ``progress``: show Dask's
    progress bar while the checks run. ``batch_size``: files per Dask task (default: 4 to 16
    tasks per worker thread, of about equal recorded bytes and at most ~32 MiB each where
    that fits, so that Dask's per-task overhead stays small and the workers finish together).
    ``dataset`` may be a URL, with the store options of
    :func:`odf_hash.verify` as keyword arguments; each task carries them (never credentials:
    the workers reading S3 use their own AWS credential chain)."""
    plan = odf_hash.plan(dataset, integrity_only=integrity_only, strict=strict,
                         expect_head=expect_head, since=since, deep=deep, sample=sample,
                         seed=seed, **store)
    client = _current_client(client)
    batches = _engine.split(plan.tasks, _threads(client), batch_size)
    # The workers run only what this client asked for: tasks are messages, and a forged one
    # must not steer a worker to another dataset or endpoint (odf_hash.Allow).
    check = functools.partial(_engine.check_batch, allow=odf_hash.Allow.dataset(plan.path, **store))
    results = _map(check, batches, client, retries, progress, "odf-hash-check")
    return odf_hash.merge(plan, [r for batch in results for r in batch])


def _slices(paths: List[str]) -> List[Dict[str, Any]]:
    return [odf_hash.slice(p, threads=1) for p in paths]


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
    client = _current_client(client)
    per_task = max(1, -(-len(names) // (_engine.MIN_BATCHES_PER_THREAD * _threads(client))))
    batches = [names[i:i + per_task] for i in range(0, len(names), per_task)]
    slices = [s for batch in _map(_slices, batches, client, retries, progress, "odf-hash-slice")
              for s in batch]
    if start_offset is not None:
        offset = start_offset
        for s in slices:
            records = s["offsetInterval"]["end"] - s["offsetInterval"]["start"] + 1
            s["offsetInterval"] = {"start": offset, "end": offset + records - 1}
            offset += records
    return dict(zip(names, slices))


def compare_datasets(original: odf_hash.PathLike, reproduced: odf_hash.PathLike,
                     client: Any = None, *, rows: int = 5, retries: int = 2,
                     progress: bool = False, **store: Any) -> "odf_hash.DatasetComparison":
    """:func:`odf_hash.compare_datasets` with the slices compared on Dask: the chains are read
    and the slices grouped into runs on the client (one file a side, or the files of both
    sides covering one offset range when the datasets split their records at other
    boundaries, or the parts of them holding the offsets both hold), each run compared by one
    task (one worker reads its files, one at a time). The chains are verified on the client
    and each task checks the files it reads against the hashes their chain records (the
    verify tasks of those files, on a thread beside the comparison, under an
    :class:`odf_hash.Allow` of the two datasets only): the same
    :class:`odf_hash.DatasetComparison` as on one machine, ``"unverified"`` when a side fails.
    Every worker must reach both datasets at the locations given."""
    from odf_hash import _datasets

    paired = _datasets._pair_dataset_slices(original, reproduced, **store)
    fn = functools.partial(_datasets._compare_run, rows=rows, store=store, allow=paired[2])
    return _datasets._compare_slices(
        paired, lambda runs: _map(fn, runs, _current_client(client), retries, progress,
                                  "odf-hash-compare"))
