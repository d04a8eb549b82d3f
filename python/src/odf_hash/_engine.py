"""What the engine adapters (odf_hash.dask, odf_hash.ray) share, with no engine imported:
grouping the tasks of a plan into batches, one engine task each.

One engine task per file costs the engine's per-task overhead (scheduling, serialisation,
a round trip: about a millisecond or more) per file; for small files that is a good part of
the hashing time. Batches of neighbouring tasks of about equal recorded bytes, several per
worker thread, keep that overhead small and still balance the load.

How many: at least MIN_BATCHES_PER_THREAD per worker thread, and more for a large plan, up
to MAX_BATCHES_PER_THREAD, so that no batch holds much more than BATCH_BYTES. The last batch
to finish decides the wall time: a worker that is done waits, on average, for half a batch of
another. With 4 batches per thread of a 1.6 GB plan on 2 workers, that wait was ~10% of the
run (bench/scale.sh); batches of ~32 MiB (~0.1 s of hashing on one core) cost a few
milliseconds of engine overhead each and cut it to a few percent.
"""
from __future__ import annotations

from typing import List, Optional, Sequence

import odf_hash

MIN_BATCHES_PER_THREAD = 4
MAX_BATCHES_PER_THREAD = 16
BATCH_BYTES = 32 << 20


def batch_count(tasks: int, recorded_bytes: int, threads: int) -> int:
    """How many batches ``split`` cuts a plan of ``tasks`` tasks and ``recorded_bytes`` bytes
    into for ``threads`` worker threads (see the module's notes)."""
    threads = max(1, threads)
    per_thread = min(MAX_BATCHES_PER_THREAD,
                     max(MIN_BATCHES_PER_THREAD, recorded_bytes // (BATCH_BYTES * threads)))
    return max(1, min(tasks, per_thread * threads))


def split(tasks: Sequence[odf_hash.Task], threads: int,
          batch_size: Optional[int] = None) -> List[List[odf_hash.Task]]:
    """The tasks in plan order, cut into batches: of ``batch_size`` tasks when given, else
    into ``batch_count(...)`` batches of about equal recorded bytes."""
    tasks = list(tasks)
    if not tasks:
        return []
    if batch_size is not None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
            raise odf_hash.InvalidInputError(
                f"batch_size must be a positive integer or None, not {batch_size!r}")
        return [tasks[i:i + batch_size] for i in range(0, len(tasks), batch_size)]
    # +1 per task: empty files and checkpoints still cost an open.
    weights = [t.size + 1 for t in tasks]
    count = batch_count(len(tasks), sum(weights), threads)
    target = sum(weights) / count
    batches: List[List[odf_hash.Task]] = [[]]
    done = 0
    for t, w in zip(tasks, weights):
        # A task goes to the batch its middle byte falls in: a large file among small ones
        # starts a batch of its own rather than swelling the one before.
        if batches[-1] and done + w / 2 > target * len(batches) and len(batches) < count:
            batches.append([])
        batches[-1].append(t)
        done += w
    return batches


def check_batch(tasks: Sequence[odf_hash.Task],
                allow: Optional[odf_hash.Allow] = None) -> List[odf_hash.CheckResult]:
    """:func:`odf_hash.check` over a batch, in order (what one engine task runs), under the
    policy the client gave (the adapters always give one: :meth:`odf_hash.Allow.dataset` of
    the dataset and store options the client was asked to verify)."""
    return [odf_hash.check(t, allow=allow) for t in tasks]
