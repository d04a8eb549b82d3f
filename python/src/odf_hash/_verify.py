"""Validation of a dataset against its own metadata (verify), of a kamu workspace
(verify_workspace), and the report, problems and file checks they give."""
from __future__ import annotations

import copy
import dataclasses
import enum
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Union

from . import _odf_hash
from ._args import _MAX_JOBS, PathLike, _count, _modes, _path, _progress, _store

ProblemKind = enum.Enum(  # type: ignore[misc]
    "ProblemKind",
    {name.upper().replace("-", "_"): name for name in _odf_hash.problem_kinds()},
    type=str,
    module="odf_hash",
)
ProblemKind.__doc__ = """What a dataset problem is about; the value is the stable kebab-case
name that ``odf-hash verify`` prints (e.g. ``ProblemKind.PHYSICAL_HASH_MISMATCH.value ==
"physical-hash-mismatch"``)."""


@dataclasses.dataclass(frozen=True)
class Link:
    """Where a linked object (ODF RFC-017) is linked from: the first reference found
    (newest data file first, then column, then row)."""

    data_file: str  #: the data file, ``"data/f1620..."``
    column: str  #: the ObjectLink column (``"a.b"`` inside a struct)
    row: int  #: the row of the data file, from 0


@dataclasses.dataclass(frozen=True)
class Problem:
    """One finding of :func:`verify`: the same kinds and fields ``odf-hash verify`` prints."""

    kind: ProblemKind
    block: Optional[str]  #: the block concerned (multihash text), if any
    sequence_number: Optional[int]  #: its sequence number, when known
    file: Optional[str]  #: relative path in the dataset (``"data/f1620..."``), if any
    #: what was expected: a ``str`` (a hash, a dataset id, a column) or an ``int`` (a size, a
    #: count, an offset, a sequence number: :attr:`unit` says which unit), or None
    expected: Union[int, str, None]
    actual: Union[int, str, None]  #: what was found, as :attr:`expected`
    message: str  #: one human sentence
    #: for linked-object and link problems: where the object is linked from
    link: Optional[Link] = None
    #: the unit of :attr:`expected` and :attr:`actual` when they are numbers: ``"bytes"``,
    #: ``"rows"``, ``"link-values"``; None for texts and for numbers that are their own unit
    #: (an offset, a sequence number)
    unit: Optional[str] = None

    def __str__(self) -> str:
        where = self.file or self.block or ""
        return f"{self.kind.value}: {where}: {self.message}" if where else f"{self.kind.value}: {self.message}"

    def to_dict(self) -> Dict[str, Any]:
        """The problem as ``odf-hash verify --json`` prints it."""
        d = {"kind": self.kind.value, "message": self.message, "block": self.block,
             "sequence_number": self.sequence_number, "file": self.file,
             "expected": self.expected, "actual": self.actual, "unit": self.unit}
        if self.link is not None:
            d["link"] = dataclasses.asdict(self.link)
        return d

    @classmethod
    def _from_dict(cls, d: Dict[str, Any]) -> "Problem":
        link = d.get("link")
        def value(v: Any) -> Union[int, str, None]:
            return None if v is None or v == "" else v  # 0 is a number, "" no value

        return cls(ProblemKind(d["kind"]), d["block"], d["sequence_number"], d["file"] or None,
                   value(d["expected"]), value(d["actual"]), d["message"],
                   Link(link["data_file"], link["column"], link["row"]) if link else None,
                   d.get("unit"))


@dataclasses.dataclass(frozen=True)
class FileCheck:
    """A data or checkpoint file, or a linked object, that :func:`verify` checked."""

    role: str  #: ``"data"``, ``"checkpoint"`` or ``"linked-object"``
    file: str  #: relative path in the dataset
    block: str  #: the newest block referencing it (a linked object: its first reference's)
    sequence_number: int
    outcome: str  #: ``"physical-match"``, ``"logical-match"`` (derivative fallback) or ``"failed"``
    size: Optional[int] = None  #: a linked object that matched: its size in bytes


@dataclasses.dataclass(frozen=True)
class Unreferenced:
    """An entry of ``blocks/``, ``data/`` or ``checkpoints/`` that the chain does not
    reference (what kamu leaves after ``system compact --hard``, ``reset`` or an aborted
    ingest; a file under a non-canonical spelling of its hash; anything else). Listed, never
    opened; a problem only with ``strict=True``."""

    file: str  #: relative path in the dataset (untrusted bytes: escape before printing)
    #: ``"file"``, ``"directory"``, ``"symlink"``, ``"fifo"``, ``"socket"``,
    #: ``"char-device"``, ``"block-device"`` or ``"other"``
    kind: str
    size: int  #: bytes of a regular file (0 for any other kind)
    link_target: Optional[str] = None  #: where a link leaving the dataset leads
    broken_link: bool = False  #: a link that leads nowhere or loops
    #: for a name that is a multihash spelled another way: its canonical name (``"f1620..."``)
    canonical_name: Optional[str] = None

    @classmethod
    def _from_dict(cls, d: Dict[str, Any]) -> "Unreferenced":
        return cls(d["file"], d["kind"], d["size"], d["link_target"], d["broken_link"],
                   d["canonical_name"])


class Report:
    """The result of :func:`verify`. ``report.ok`` is True when the dataset is valid; iterating
    gives the :class:`Problem` objects in report order (metadata, then files newest block
    first, then unexpected files); ``report.unreferenced`` lists what the chain does not
    reference (never a problem unless ``strict``); ``report.to_dict()`` is the object
    ``odf-hash verify --json`` prints for the dataset. ``report.verdict`` and
    ``report.scope`` say what the verify modes checked and skipped; ``report.complete`` is
    False for a partial pass (``since``, ``sample``), where ``ok`` means that nothing wrong
    was found in what was read."""

    def __init__(self, built: Dict[str, Any]):
        # As the extension builds it (verify_bindings.cpp): "document", the object `odf-hash
        # verify --json` prints for the dataset; "problems", its problems with the system's
        # bytes (a file name that is not UTF-8 round-trips through os.fsencode).
        self._dict: Dict[str, Any] = built["document"]
        self.problems: List[Problem] = [Problem._from_dict(p) for p in built["problems"]]
        d = self._dict
        self.path: str = d["path"]
        self.kind: Optional[str] = d["kind"]  #: ``"root"`` / ``"derivative"`` (None if unknown)
        self.head: Optional[str] = d["head"]
        self.blocks: int = d["blocks"]
        self.chain_complete: bool = d["chain_complete"]
        self.files: List[FileCheck] = [
            FileCheck(f["role"], f["file"], f["block"], f["sequence_number"], f["outcome"],
                      f.get("size"))
            for f in d["files"]
        ]
        #: linked objects (ODF RFC-017) checked, and those that matched their name
        self.linked_objects: Dict[str, int] = dict(d["linked_objects"])
        #: False when the store cannot list (HTTP): unreferenced entries were not looked for
        self.unexpected_checked: bool = d["unexpected_checked"]
        u = d["unreferenced"]
        #: entries no block references, in path order
        self.unreferenced: List[Unreferenced] = [Unreferenced._from_dict(e) for e in u["entries"]]
        self.unreferenced_bytes: int = u["bytes"]  #: their total size
        self.strict: bool = u["strict"]  #: verified with ``strict=True``
        #: "VALID", "INVALID (2 problems)", "VALID (sampled: 3 of 40 files, 12.0 MiB of
        #: 900.0 MiB read)", "VALID (since block 41: 1 new block, 2 files checked)": a partial
        #: pass never reads as a plain "VALID"
        self.verdict: str = d["verdict"]
        #: what the modes checked and skipped (``odf-hash verify --json``'s "scope"):
        #: expected_head(_found, _sequence), since(_found, _sequence), kind_inferred, deep,
        #: sample ({"spec", "seed", "files_checked", "files_total", "bytes_checked",
        #: "bytes_total"} or None), ipfs (None, or {"gateway", "verified"}: an ipfs://
        #: dataset's gateway, and whether its blocks were checked against the CID, False
        #: with ``trust_gateway=True``), skipped (one sentence per check not made), complete
        self.scope: Dict[str, Any] = d["scope"]

    @property
    def complete(self) -> bool:
        """False when only part of the dataset was checked (``since``, ``sample``): then
        ``ok`` means that nothing wrong was found in what was read."""
        return bool(self.scope["complete"])

    @property
    def ok(self) -> bool:
        return not self.problems

    def __bool__(self) -> bool:
        return self.ok

    def __iter__(self) -> Iterator[Problem]:
        return iter(self.problems)

    def __len__(self) -> int:
        return len(self.problems)

    def to_dict(self) -> Dict[str, Any]:
        return copy.deepcopy(self._dict)  # a copy the caller may change

    def __eq__(self, other: object) -> bool:
        """Reports are equal when everything they say is: the same files with the same
        outcomes, the same problems in the same order (``to_dict()`` equal)."""
        if not isinstance(other, Report):
            return NotImplemented
        return self._dict == other._dict and self.problems == other.problems

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<odf_hash.Report {self.path!r}: {self.verdict}>"


def verify(
    dataset: PathLike, *, jobs: Optional[int] = None, integrity_only: bool = False,
    strict: bool = False, expect_head: Optional[str] = None, since: Optional[str] = None,
    deep: bool = False, sample: Union[None, int, float, str] = None,
    seed: Optional[int] = None, pins: Optional[PathLike] = None,
    write_pins: Optional[PathLike] = None, progress: Optional[Callable[[int], Any]] = None,
    **store: Any
) -> Report:
    """Verifies the ODF dataset ``dataset``, a folder or a URL (``refs/head``, ``blocks/``, ``data/``,
    ``checkpoints/``): every block hashes to its name and the chain links down to the seed;
    every data file and checkpoint exists, under the canonical name of its hash, with its
    recorded size and physical hash; derivative data that differs physically must match
    logically (unless ``integrity_only``). Entries no block references are listed in
    ``Report.unreferenced``; with ``strict`` each is also an ``unexpected-file`` problem. Every
    problem is reported; nothing is modified.

    A folder that is not a dataset (no ``refs/`` nor ``blocks/``) raises
    :class:`NotFoundError` saying what it looks like; for a kamu workspace, use
    :func:`verify_workspace`.

    ``dataset`` may be a URL (``s3://bucket/prefix``, ``http(s)://host/path``), with the
    store options as keyword arguments (see the module's documentation): the same report as
    for a local copy. ``jobs`` files are hashed in parallel (default: every core; 16 for a
    URL, whose transfers wait on the network, as the command does; at most 256, a larger
    value is taken as 256). Raises :class:`Error`
    only when verification cannot run (the folder does not exist, the server cannot be
    reached: :class:`IoError`); findings are in the report.

    Modes (``Report.scope`` says what each checked and skipped; README: "What each verify
    mode proves (and does not)"):

    - ``expect_head``: a trusted head (a multihash string): refs/head must be that block or
      a descendant of it, else a ``history-rewritten`` (or ``head-not-found``) problem;
    - ``since``: a head verified before: only the blocks above it, their files and the link
      down to it are checked, nothing older is read (``Report.head`` is the new head to
      keep);
    - ``deep``: each data file's records against its block: row count, offset column
      (SetVocab's, ``offset`` by default) and logical hash;
    - ``sample``: the whole chain but only a random, size-weighted subset of the files: a
      fraction of the bytes (``0.01``, ``"1%"``) or a number of files (``25``);
      deterministic for ``seed`` (default: a new one, in ``Report.scope``). A sampled report
      is never complete (``Report.complete``; ``Report.verdict`` says what was read);
    - ``pins``: a pin file (``<head> <dataset id>  <location>`` lines, as ``odf-hash verify
      --pins``): the dataset's pin, found by its canonical location (any spelling of the
      path or URL), is its ``expect_head``, and the pin's dataset id must be its Seed's
      (``dataset-id-mismatch``); a dataset the file does not name is verified without one,
      and ``Report.scope`` says so;
    - ``write_pins``: a pin file where the head of a valid pass is pinned (merged under a lock
      with the pins the file holds; a link is followed to its file). Not pinned (and
      ``Report.scope`` says why): a sampled pass, and a ``since`` pass whose chain below
      ``since`` nothing anchors; ``since`` with ``write_pins`` needs ``expect_head`` or
      ``pins``.

    An empty value (``expect_head=""``, ``pins=""``, ...) raises :class:`InvalidInputError`:
    it never turns a check off.

    ``progress``: a callable, called every 100 ms on the calling thread (and once at the end)
    with the bytes of the data and checkpoint files hashed so far (their recorded sizes add
    up to the whole), for a progress bar; an exception it raises stops the verification and
    is raised."""
    p = _path(dataset, "odf_hash.verify")
    args = _verify_args("verify", jobs, integrity_only, strict, store,
                        _modes("verify", expect_head, since, deep, sample, seed), pins, write_pins)
    [(_name, report)] = _odf_hash.verify(p, False, None, *args, _progress(progress))
    return Report(report)


def _verify_args(what: str, jobs: Optional[int], integrity_only: bool, strict: bool,
                 store: Dict[str, Any], modes: tuple, pins: Optional[PathLike],
                 write_pins: Optional[PathLike]) -> tuple:
    """The extension's arguments after the location: the library's request layer decides
    the rest (the jobs of a URL, a workspace's entries and their names, the pins)."""
    n = 0 if jobs is None else _count("jobs", jobs, _MAX_JOBS)  # 0: 16 for a URL, else every core
    pin_files = [None if f is None else _path(f, f"odf_hash.{what}: {name}")
                 for name, f in (("pins", pins), ("write_pins", write_pins))]
    return (n, bool(integrity_only), bool(strict), _store(what, store), modes, *pin_files)


def verify_workspace(
    workspace: PathLike, *, datasets: Optional[Iterable[str]] = None, jobs: Optional[int] = None,
    integrity_only: bool = False, strict: bool = False, deep: bool = False,
    sample: Union[None, int, float, str] = None, seed: Optional[int] = None,
    pins: Optional[PathLike] = None, write_pins: Optional[PathLike] = None,
    progress: Optional[Callable[[int], Any]] = None, **store: Any
) -> Dict[str, Report]:
    """Verifies every dataset of the kamu workspace ``workspace`` (the folder holding
    ``.kamu/``, ``.kamu`` itself or ``.kamu/datasets``; also a folder holding only dataset
    folders), or only those whose alias (``info/alias``) or dataset id is in ``datasets``.
    Returns ``{alias: Report}`` in alias order (a dataset without ``info/alias`` is named by
    its folder; an alias that several of the returned datasets share, as ``"alias (dataset
    id)"``). Every entry of the workspace's folder of datasets is in it: one that is not a
    dataset (a file, a folder without ``refs/`` nor ``blocks/``, a link leaving the
    workspace) is a report with one ``not-a-dataset`` problem, so not ``ok``. Aliases are
    text from the datasets: escape them before printing to a terminal. Raises
    :class:`NotFoundError` when ``workspace`` is no workspace (a dataset: use :func:`verify`),
    holds no dataset (``datasets=[]`` selects none: ``{}``) or a requested alias is not in it, :class:`InvalidInputError` when a requested alias names
    several datasets (give the dataset id); the other arguments as :func:`verify`
    (``expect_head`` and ``since`` name one dataset's blocks: use :func:`verify` on that
    dataset; ``pins`` and ``write_pins`` find each dataset by its location, any spelling of
    it). ``progress`` as in :func:`verify`, the bytes of every dataset verified so far."""
    p = _path(workspace, "odf_hash.verify_workspace")
    wanted = None if datasets is None else [datasets] if isinstance(datasets, str) else list(datasets)
    args = _verify_args("verify_workspace", jobs, integrity_only, strict, store,
                        _modes("verify_workspace", None, None, deep, sample, seed), pins,
                        write_pins)
    return {name: Report(report)
            for name, report in _odf_hash.verify(p, True, wanted, *args, _progress(progress))}
