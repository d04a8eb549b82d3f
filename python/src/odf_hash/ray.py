"""Verify ODF datasets on a Ray cluster.

odf-hash plans the work in the driver (the metadata chain), Ray tasks run the per-file checks,
odf-hash merges the results into the :class:`odf_hash.Report` that :func:`odf_hash.verify`
gives on one machine. Retries are Ray's (``max_retries``: a task whose worker died runs
again); progress is a ``tqdm`` bar when tqdm is installed (as Ray's own libraries show one),
else a line on standard error every few seconds.

Needs ``pip install 'odf-hash[ray]'``; the core package never imports this module. Ray is used
as the caller set it up: ``ray.init(address=...)`` to join a cluster beforehand, otherwise the
first task starts a local instance. Every worker must have ``odf_hash`` installed and be able
to read the dataset at the location given.
"""
from __future__ import annotations

import sys
import time
from typing import Any, List, Optional

import ray

import odf_hash
from odf_hash import _engine

__all__ = ["compare_datasets", "verify"]


class _Progress:
    """tqdm when installed, else a plain line on stderr at most every 5 seconds."""

    def __init__(self, total: int, enabled: bool):
        self._bar = None
        self._total, self._done, self._last = total, 0, 0.0
        self._enabled = enabled
        if not enabled:
            return
        try:
            from tqdm.auto import tqdm
        except ImportError:
            return
        self._bar = tqdm(total=total, desc="odf-hash verify", unit="file")

    def update(self, n: int) -> None:
        self._done += n
        if self._bar is not None:
            self._bar.update(n)
        elif self._enabled and (time.monotonic() - self._last >= 5 or self._done == self._total):
            self._last = time.monotonic()
            print(f"odf-hash verify: {self._done}/{self._total} files checked", file=sys.stderr,
                  flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def verify(dataset: odf_hash.PathLike, *, integrity_only: bool = False, strict: bool = False,
           expect_head: Optional[str] = None, since: Optional[str] = None, deep: bool = False,
           sample: Any = None, seed: Optional[int] = None,
           max_retries: int = 3,
           num_cpus: float = 1, progress: bool = True,
           batch_size: Optional[int] = None, **store: Any) -> odf_hash.Report:
    """Verifies ``dataset`` as :func:`odf_hash.verify` does, with the data and checkpoint
    files checked by Ray tasks: the report is the same (same files, problems, order, the
    same unreferenced entries; ``strict`` and the modes, ``expect_head``, ``since``, ``deep``,
    ``sample`` and ``seed``, as :func:`odf_hash.verify`: only the files they leave are
    sent to the workers).

    ``max_retries``: how often Ray re-runs a task whose worker died. ``num_cpus``: the CPUs
    one task reserves (one SHA3 stream uses one core). ``progress``: show progress while
    the checks run. ``batch_size``: files per Ray task (default: 4 to 16 tasks per CPU of the
    cluster, of about equal recorded bytes and at most ~32 MiB each where that fits, so that
    Ray's per-task overhead stays small and the CPUs finish together). ``dataset`` may be a URL, with the store options of :func:`odf_hash.verify` as
    keyword arguments; each task carries them (never credentials: the workers reading S3 use
    their own AWS credential chain)."""
    plan = odf_hash.plan(dataset, integrity_only=integrity_only, strict=strict,
                         expect_head=expect_head, since=since, deep=deep, sample=sample,
                         seed=seed, **store)
    if not ray.is_initialized():
        ray.init()
    cpus = int(ray.cluster_resources().get("CPU", 1) // max(num_cpus, 1e-9))
    batches = _engine.split(plan.tasks, cpus, batch_size)
    remote = ray.remote(num_cpus=num_cpus, max_retries=max_retries)(_engine.check_batch)
    # The workers run only what this client asked for (odf_hash.Allow): see dask.verify.
    allow = odf_hash.Allow.dataset(plan.path, **store)
    refs = [remote.remote(b, allow) for b in batches]
    files = {ref: len(b) for ref, b in zip(refs, batches)}
    bar = _Progress(len(plan), progress)
    try:
        pending: List[Any] = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=len(pending), timeout=0.5)
            if ready:
                bar.update(sum(files[r] for r in ready))
        results = ray.get(refs)
    finally:
        bar.close()
    return odf_hash.merge(plan, [r for batch in results for r in batch])


def compare_datasets(original: odf_hash.PathLike, reproduced: odf_hash.PathLike, *,
                     rows: int = 5, max_retries: int = 3, num_cpus: float = 1,
                     **store: Any) -> "odf_hash.DatasetComparison":
    """:func:`odf_hash.compare_datasets` with each run of slices (one file a side, or the
    files of both sides covering one offset range when the datasets split their records at
    other boundaries, or the parts of them holding the offsets both hold) compared by a Ray
    task (the chains are read and the slices grouped
    here, the chains verified), each task checking the files it reads against the hashes
    their chain records (the verify tasks of those files, beside the comparison, under an
    :class:`odf_hash.Allow` of the two datasets only). The same
    :class:`odf_hash.DatasetComparison` as on one machine, ``"unverified"`` when a side
    fails. Every worker must reach both datasets at the locations given."""
    from odf_hash import _datasets

    paired = _datasets._pair_dataset_slices(original, reproduced, **store)

    def run(runs: List[Any]) -> List[Any]:
        if not runs:
            return []
        if not ray.is_initialized():
            ray.init()
        remote = ray.remote(num_cpus=num_cpus, max_retries=max_retries)(_datasets._compare_run)
        return ray.get([remote.remote(r, rows, store, paired[2]) for r in runs])

    return _datasets._compare_slices(paired, run)
