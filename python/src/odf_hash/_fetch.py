"""Obtaining a dataset and keeping only what verifies (fetch), and what a fetch did."""
from __future__ import annotations

import copy
import dataclasses
from typing import Any, Callable, Dict, List, Optional

from . import _odf_hash
from ._args import _MAX_JOBS, PathLike, _count, _path, _progress, _store
from ._errors import InvalidInputError
from ._verify import Problem


@dataclasses.dataclass(frozen=True)
class FetchedFile:
    """A data file, checkpoint or linked object a fetch brought into the destination."""

    file: str  #: ``"data/f1620..."``, its key in the destination and the source
    role: str  #: ``"data"``, ``"checkpoint"`` or ``"linked-object"``
    size: int  #: bytes
    #: ``"transferred"``, ``"resumed"`` (a partial object of an earlier fetch completed),
    #: ``"present"`` (already there, hashed and found right) or ``"rejected"`` (not stored)
    how: str
    bytes_transferred: int  #: bytes read from the source


class FetchReport:
    """The result of :func:`fetch`. ``report.fetched`` is True when the destination is at the
    source's head (fetched now, or already there); ``report.problems`` says why it is not
    (``report.rejected``: content that did not verify; otherwise files that could not be
    read, resumed by the next fetch). ``report.to_dict()`` is the document ``odf-hash fetch
    --json`` prints. Truthiness is not defined (``bool(report)`` raises): ask ``fetched``."""

    def __init__(self, built: Dict[str, Any]):
        self._dict: Dict[str, Any] = built["document"]
        d = self._dict
        self.problems: List[Problem] = [Problem._from_dict(p) for p in built["problems"]]
        self.source: str = d["source"]
        self.dest: str = d["dest"]
        #: "FETCHED (3 new blocks, 5 files, 12.3 MiB transferred)", "UP TO DATE",
        #: "UP TO DATE (the destination is ahead of the source)", "REJECTED (2 problems)",
        #: "INCOMPLETE (1 file could not be read)"
        self.verdict: str = d["verdict"]
        self.source_head: Optional[str] = d["source_head"]
        self.old_head: Optional[str] = d["old_head"]  #: the destination's head before
        self.head: Optional[str] = d["head"]  #: the destination's head now
        self.blocks_fetched: int = d["blocks_fetched"]
        self.up_to_date: bool = d["up_to_date"]
        self.dest_ahead: bool = d["dest_ahead"]
        self.forced: bool = d["forced"]  #: a rewritten history accepted (``force=True``)
        self.bytes_transferred: int = d["bytes_transferred"]
        self.files: List[FetchedFile] = [
            FetchedFile(f["file"], f["role"], f["size"], f["how"], f["bytes_transferred"])
            for f in d["files"]
        ]
        self.skipped: List[str] = list(d["skipped"])  #: checks not made, a sentence each
        self.dataset_id: Optional[str] = d["dataset_id"]  #: the Seed's id, when it was read
        #: into a kamu workspace: the dataset's alias there (None otherwise)
        self.alias: Optional[str] = built.get("alias")

    @property
    def fetched(self) -> bool:
        return not self.problems

    @property
    def rejected(self) -> bool:
        """Some content did not verify (not only files that could not be read, which the
        next fetch resumes)."""
        return bool(self._dict["rejected"])

    def __bool__(self) -> bool:
        raise TypeError("the truth value of a FetchReport is ambiguous: use .fetched")

    def to_dict(self) -> Dict[str, Any]:
        return copy.deepcopy(self._dict)

    def __repr__(self) -> str:
        return f"<odf_hash.FetchReport {self.source!r} -> {self.dest!r}: {self.verdict}>"


def fetch(
    source: PathLike, dest: PathLike, *, jobs: Optional[int] = None,
    expect_head: Optional[str] = None, force: bool = False, dataset: Optional[str] = None,
    alias: Optional[str] = None, pins: Optional[PathLike] = None, progress: Optional[Callable[[int], Any]] = None, **store: Any
) -> FetchReport:
    """Copies the ODF dataset at ``source`` (a folder, ``s3://``, ``http(s)://``,
    ``ipfs://``, with the store options of :func:`verify` as keyword arguments) into the local
    folder ``dest``, keeping only what verifies: the source's chain is checked as
    :func:`verify` checks it before anything is written; every data file, checkpoint and
    linked object is hashed while it streams into ``dest/.odf-hash-fetch/`` and renamed into
    ``data/`` or ``checkpoints/`` only when its size and physical hash are the recorded ones;
    the blocks, then ``refs/head``, are written last. A ``dest`` that holds the dataset gets
    only the blocks above its head; a source whose history does not contain that head is
    refused (``history-rewritten``) unless ``force``. An interrupted fetch leaves ``dest`` at
    its old head; the next one resumes partial objects.

    A ``source`` that is a kamu workspace needs ``dataset`` (the alias or id of the dataset
    to fetch). A ``dest`` that is a kamu workspace receives the dataset as kamu lays datasets
    out (``.kamu/datasets/<its id>`` with ``info/alias``), so that kamu uses it as its own:
    ``alias`` (default: the source dataset's alias, else the source's last path component)
    names it there, and an existing dataset of that alias is fetched into incrementally.

    ``expect_head``: a trusted head the source's refs/head must be or descend from; or
    ``pins``: a pin file (as :func:`verify` reads it) whose pin for the source (found by its
    location) gives its trusted head and dataset id.
    ``jobs``: files transferred at once (default: every core; 16 for a URL). ``progress``: a
    callable called every 100 ms with the bytes handled so far. Raises :class:`Error` when
    the fetch cannot run (the source unreachable, ``dest`` not a folder, or holding files but
    no dataset, or locked by another fetch); what the source holds is in the report."""
    s = _path(source, "odf_hash.fetch")
    d = _path(dest, "odf_hash.fetch")
    n = 0 if jobs is None else _count("jobs", jobs, _MAX_JOBS)
    if expect_head is not None and (not isinstance(expect_head, str) or not expect_head):
        raise InvalidInputError(f"odf_hash.fetch: expect_head must be a multihash string, not "
                                f"{expect_head!r}")
    names = [None if v is None else _path(v, f"odf_hash.fetch: {k}")
             for k, v in (("dataset", dataset), ("alias", alias), ("pins", pins))]
    built = _odf_hash.fetch(s, d, n, expect_head, bool(force), *names, _store("fetch", store),
                            _progress(progress))
    return FetchReport(built)
