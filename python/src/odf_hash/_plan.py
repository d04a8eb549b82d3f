"""Verification at cluster scale: plan once, check each file anywhere, merge into the
report verify gives (the Dask and Ray adapters run it)."""
from __future__ import annotations

import dataclasses
import json
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from . import _odf_hash
from ._args import PathLike, _modes, _path, _store, _text
from ._errors import InvalidInputError
from ._verify import Problem, Report, Unreferenced

_PLAN_VERSION = _odf_hash.plan_json_version()


@dataclasses.dataclass(frozen=True)
class Task:
    """One file check of a :class:`Plan`: plain data (strings, integers, booleans), cheap to
    pickle and to send to a worker, where :func:`check` runs it. ``to_json()`` /
    ``Task.from_json()`` give its versioned JSON form (validated when read: a malformed task
    raises :class:`InvalidInputError`)."""

    id: int  #: position in the plan; :func:`merge` matches results by it
    #: the dataset's location, as the plan was made from it (a URL without its user
    #: information: a worker uses its own credentials, e.g. its AWS credential chain)
    dataset: str
    role: str  #: ``"data"``, ``"checkpoint"`` or ``"linked-object"``
    file: str  #: key in the dataset (``"data/f1620..."``)
    size: int  #: recorded size in bytes (0 for a linked object: none is recorded)
    physical: str  #: recorded physical hash
    logical: Optional[str]  #: recorded logical hash (data files only)
    block: str  #: the newest block referencing the file
    sequence_number: int
    known_missing: bool = False  #: the plan's listing has no such file
    #: with ``known_missing``: a file holding the hash under a non-canonical name (named in
    #: the problem's message, never read)
    misnamed: str = ""
    derivative: bool = False  #: derivative dataset: data may match logically
    integrity_only: bool = False
    follow_symlinks: bool = False
    #: how the plan opened the dataset (see the module's documentation): a worker opens it
    #: the same way
    endpoint_url: str = ""
    region: str = ""
    no_sign_request: bool = False
    connect_timeout: float = 10.0
    read_timeout: float = 30.0
    max_attempts: int = 4
    ipfs_gateway: str = ""
    trust_gateway: bool = False  #: read through the IPFS gateway without checking the CID
    #: a linked object: its first reference, {"data_file", "column", "row"}
    link: Optional[Dict[str, Any]] = None
    #: ``deep=True``: the records are checked against the block too (the offset column's
    #: name and the block's offset interval)
    deep: bool = False
    offset_column: str = ""
    offset_start: int = 0
    offset_end: int = 0

    def to_dict(self) -> Dict[str, Any]:
        return {"version": _PLAN_VERSION, **dataclasses.asdict(self)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> "Task":
        return cls._from_dict(json.loads(_odf_hash.normalize_task(_text(text, "Task.from_json"))))

    @classmethod
    def _from_dict(cls, d: Dict[str, Any]) -> "Task":
        return cls(**{f.name: d.get(f.name) if f.name == "link" else d[f.name]
                      for f in dataclasses.fields(cls)})


@dataclasses.dataclass(frozen=True)
class CheckResult:
    """What :func:`check` found for one :class:`Task`: plain data, picklable, with a
    versioned JSON form like :class:`Task`."""

    task: int  #: the :attr:`Task.id` it answers
    role: str
    file: str
    block: str
    sequence_number: int
    outcome: str  #: ``"physical-match"``, ``"logical-match"`` or ``"failed"``
    #: binds the result to the task it was computed against (its dataset, file, recorded
    #: size and hashes): :func:`merge` refuses a result of another dataset or plan
    task_digest: str
    actual_physical: Optional[str] = None  #: for a logical match: the physical hash found
    logical: Optional[str] = None  #: for a logical match: the logical hash that matched
    size: Optional[int] = None  #: a linked object that matched: its size in bytes
    problem: Optional[Problem] = None  #: for ``"failed"``: what is wrong

    @property
    def ok(self) -> bool:
        return self.problem is None

    def to_dict(self) -> Dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d["problem"] = self.problem.to_dict() if self.problem is not None else None
        return {"version": _PLAN_VERSION, **d}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> "CheckResult":
        return cls._from_dict(
            json.loads(_odf_hash.normalize_result(_text(text, "CheckResult.from_json"))))

    @classmethod
    def _from_dict(cls, d: Dict[str, Any]) -> "CheckResult":
        kw = {f.name: d.get(f.name) if f.name == "size" else d[f.name]
              for f in dataclasses.fields(cls)}
        kw["problem"] = Problem._from_dict(d["problem"]) if d["problem"] is not None else None
        return cls(**kw)


class Plan:
    """The verification of one dataset, planned (:func:`plan`): the metadata findings and
    the ordered :class:`Task` of every data and checkpoint file. A sequence of tasks
    (``len(plan)``, ``plan[i]``, iteration); picklable (as its JSON text, ``to_json()``);
    ``Plan.from_json(text)`` validates. Two plans are equal when their JSON is."""

    def __init__(self, json_text: str):
        self._json = json_text
        d = json.loads(json_text)
        self.path: str = d["path"]
        self.head: Optional[str] = d["head"]
        self.kind: Optional[str] = d["kind"]
        self.blocks: int = d["blocks"]
        self.chain_complete: bool = d["chain_complete"]
        #: metadata problems (the chain), reported before the files'
        self.problems: List[Problem] = [Problem._from_dict(p) for p in d["problems"]]
        #: problems reported after the files' (a folder of the layout that is not a folder;
        #: with ``strict``, every unreferenced entry)
        self.unexpected: List[Problem] = [Problem._from_dict(p) for p in d["unexpected"]]
        u = d.get("unreferenced") or {"entries": [], "strict": False}
        #: entries no block references (see :class:`Report`)
        self.unreferenced: List[Unreferenced] = [Unreferenced._from_dict(e) for e in u["entries"]]
        self.strict: bool = u["strict"]
        self.tasks: List[Task] = [Task._from_dict(t) for t in d["tasks"]]

    @classmethod
    def from_json(cls, text: str) -> "Plan":
        return cls(_odf_hash.normalize_plan(_text(text, "Plan.from_json")))

    def to_json(self) -> str:
        return self._json

    @property
    def bytes_total(self) -> int:
        """The recorded sizes of all the files to check."""
        return sum(t.size for t in self.tasks)

    def __len__(self) -> int:
        return len(self.tasks)

    def __iter__(self) -> Iterator[Task]:
        return iter(self.tasks)

    def __getitem__(self, i: int) -> Task:
        return self.tasks[i]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Plan):
            return NotImplemented
        return json.loads(self._json) == json.loads(other._json)

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> str:
        return self._json

    def __setstate__(self, state: str) -> None:
        self.__init__(state)  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"<odf_hash.Plan {self.path!r}: {len(self.tasks)} tasks>"


def plan(dataset: PathLike, *, integrity_only: bool = False, strict: bool = False,
         expect_head: Optional[str] = None, since: Optional[str] = None, deep: bool = False,
         sample: Union[None, int, float, str] = None, seed: Optional[int] = None,
         **store: Any) -> Plan:
    """Plans the verification of ``dataset`` (what :func:`verify` takes: a folder or a URL,
    with the store options as keyword arguments): walks the metadata chain once and lists
    the dataset, then returns a :class:`Plan` whose tasks are the file checks :func:`verify`
    would run. Run each with :func:`check` (anywhere the dataset can be read at the same
    location: each task carries the store options, never credentials), then :func:`merge`.
    The modes (``expect_head``, ``since``, ``deep``, ``sample``, ``seed``) as :func:`verify`:
    the plan holds only the tasks they leave, and the merged report their scope. Errors as
    :func:`verify`."""
    p = _path(dataset, "odf_hash.plan")
    try:
        p.encode("utf-8")
    except UnicodeEncodeError:
        # Tasks travel as JSON, which is text: a location that is not UTF-8 would reach a
        # worker as another one. verify() reads such a folder in one process.
        raise InvalidInputError(
            f"odf_hash.plan: {p!r} is not UTF-8, so its tasks cannot name it (their JSON is "
            "text); verify it with odf_hash.verify(), in one process") from None
    opts = _store("plan", store)
    modes = _modes("plan", expect_head, since, deep, sample, seed)
    return Plan(_odf_hash.plan_verify(p, bool(integrity_only), bool(strict), opts, modes))


@dataclasses.dataclass(frozen=True)
class Allow:
    """What a worker lets a :class:`Task` make it do (``check(task, allow=...)``). A task is
    a message: without a policy, a forged one could make a worker hash any
    ``<dir>/data/<name>`` on its disk (the result discloses its size and SHA3), follow links
    out of a folder, or send signed S3 requests to any endpoint.

    ``datasets``: the locations a task may name (as :func:`plan` names them; empty: any);
    ``endpoints``: the S3 endpoint URLs and IPFS gateways a task may name (besides none, the
    defaults); ``follow_symlinks``: whether a task may ask to follow links leaving its folder.
    ``Allow.dataset(ds, **store)`` allows one dataset with the store options a client planned
    it with: what the Dask and Ray adapters give their workers."""

    datasets: Tuple[str, ...] = ()
    endpoints: Tuple[str, ...] = ()
    follow_symlinks: bool = False

    def __post_init__(self) -> None:
        for name in ("datasets", "endpoints"):
            v = getattr(self, name)
            if isinstance(v, (str, bytes)) or not all(isinstance(x, str) for x in v):
                raise InvalidInputError(f"Allow.{name} must be a sequence of str, not {v!r}")
            object.__setattr__(self, name, tuple(v))
        object.__setattr__(self, "follow_symlinks", bool(self.follow_symlinks))

    @classmethod
    def dataset(cls, dataset: PathLike, **store: Any) -> "Allow":
        """Allows the tasks of one dataset, planned with these store options, and nothing
        else."""
        p = _path(dataset, "Allow.dataset")
        endpoints = tuple(store[k] for k in ("endpoint_url", "ipfs_gateway") if store.get(k))
        return cls(datasets=(p,), endpoints=endpoints)


def check(task: Task, *, allow: Optional[Allow] = None) -> CheckResult:
    """Runs one :class:`Task` of a plan: size, physical hash and, for derivative data, the
    logical fallback. The dataset is opened as the task says (its location, a folder or a
    URL, and the store options it was planned with; S3 credentials come from this process's
    AWS credential chain). Every finding is in the result; raises only when the dataset
    cannot be opened at all (:class:`NotFoundError`, :class:`IoError`) or the task is
    malformed (:class:`InvalidInputError`). Releases the GIL while reading and hashing.

    ``allow`` (an :class:`Allow`): what this worker lets the task make it do; a task naming
    another dataset, endpoint or gateway, or asking to follow links, raises
    :class:`InvalidInputError`. Give it wherever tasks come from another process (the Dask
    and Ray adapters do, from the client's arguments); without it the task is trusted."""
    if isinstance(task, Task):
        text = task.to_json()
    else:
        raise InvalidInputError(f"odf_hash.check: expected an odf_hash.Task, not {type(task).__name__}")
    policy = None
    if allow is not None:
        if not isinstance(allow, Allow):
            raise InvalidInputError(
                f"odf_hash.check: allow must be an odf_hash.Allow or None, not {type(allow).__name__}")
        policy = (list(allow.datasets), list(allow.endpoints), allow.follow_symlinks)
    return CheckResult._from_dict(json.loads(_odf_hash.check_task(text, policy)))


def merge(plan: Plan, results: Iterable[CheckResult]) -> Report:
    """The :class:`Report` of a planned verification: ``merge(plan(d), [check(t) for t in
    plan(d)]) == verify(d)``. Results may come in any order; exactly one per task. Raises
    :class:`InvalidInputError` naming the task when one has no result or two, or a result
    does not belong to the plan."""
    if not isinstance(plan, Plan):
        raise InvalidInputError(f"odf_hash.merge: expected an odf_hash.Plan, not {type(plan).__name__}")
    texts = []
    for r in results:
        if not isinstance(r, CheckResult):
            raise InvalidInputError(
                f"odf_hash.merge: expected odf_hash.CheckResult objects, not {type(r).__name__}")
        texts.append(r.to_json())
    return Report(_odf_hash.merge_checks(plan.to_json(), texts))
