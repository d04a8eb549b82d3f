"""What the engine adapters (odf_hash.dask, odf_hash.ray) share, with no engine imported:
grouping the tasks of a plan into batches, one engine task each.

One engine task per file costs the engine's per-task overhead (scheduling, serialisation,
a round trip: about a millisecond or more) per file; for small files that is a good part of
the hashing time. Batches of neighbouring tasks of about equal recorded bytes, several per
worker thread, keep that overhead small and still balance the load.
"""
from __future__ import annotations

from typing import List, Optional, Sequence

import odf_hash

BATCHES_PER_THREAD = 4


def split(tasks: Sequence[odf_hash.Task], threads: int,
          batch_size: Optional[int] = None) -> List[List[odf_hash.Task]]:
    """The tasks in plan order, cut into batches: of ``batch_size`` tasks when given, else
    into about ``BATCHES_PER_THREAD * threads`` batches of about equal recorded bytes."""
    tasks = list(tasks)
    if not tasks:
        return []
    if batch_size is not None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
            raise odf_hash.InvalidInputError(
                f"batch_size must be a positive integer or None, not {batch_size!r}")
        return [tasks[i:i + batch_size] for i in range(0, len(tasks), batch_size)]
    count = max(1, min(len(tasks), BATCHES_PER_THREAD * max(1, threads)))
    # +1 per task: empty files and checkpoints still cost an open.
    weights = [t.size + 1 for t in tasks]
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


def check_batch(tasks: Sequence[odf_hash.Task]) -> List[odf_hash.CheckResult]:
    """:func:`odf_hash.check` over a batch, in order (what one engine task runs)."""
    return [odf_hash.check(t) for t in tasks]
