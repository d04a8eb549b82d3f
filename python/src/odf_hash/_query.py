"""A kamu node's signed query answer checked offline: :func:`verify_query` and its result.
Re-exported by :mod:`odf_hash`. The checks are the library's (include/odf_hash/query/
verify_query.h), as ``odf-hash verify-query`` runs them; this module only passes the
arguments and reads the result's JSON (query_json.h) into dataclasses."""
from __future__ import annotations

import dataclasses
import json
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union

from . import _odf_hash
from ._args import _count, _path, _store
from ._errors import InvalidInputError, IoError, NotFoundError

#: The largest answer read by default (``kMaxAnswerBytes``).
_MAX_ANSWER_BYTES = 256 << 20


@dataclasses.dataclass(frozen=True)
class HashCheck:
    """One hash of a commitment: ``status`` is ``"valid"``, ``"mismatch"`` or
    ``"not-checked"`` (a sub-query's output: it carries none)."""

    status: str
    committed: str  #: the commitment's multihash, ``"f1620…"``
    computed: Optional[str]  #: SHA3-256 of the part's canonical JSON (None: not checked)


@dataclasses.dataclass(frozen=True)
class SignatureCheck:
    """The proof: ``status`` ``"valid"``, ``"mismatch"`` or ``"unsupported"`` (a signature
    type odf-hash does not check, such as ``EcdsaSecp256k1Signature2019``: never valid)."""

    status: str
    type: str
    key: str  #: the did:key that signed, as the answer names it
    trusted: bool  #: among the trusted keys (said of a valid signature only)
    trusted_name: Optional[str]
    trusted_source: Optional[str]  #: ``"--trust"`` or ``"FILE:LINE"``
    message: Optional[str]


@dataclasses.dataclass(frozen=True)
class DatasetTie:
    """An input dataset of the query and, when ``datasets=`` names it, its copy: ``tie`` is
    ``"not-tied"``, ``"no-block-hash"``, ``"on-chain"`` (the block is on the copy's verified
    chain), ``"not-on-chain"`` (computed over a history the copy does not contain) or
    ``"copy-invalid"``."""

    id: str
    alias: str
    block_hash: Optional[str]
    tie: str
    location: Optional[str]
    message: Optional[str]
    #: the copy's verification, as ``odf-hash verify --json`` writes a dataset (None: not tied)
    copy: Optional[Dict[str, Any]]


@dataclasses.dataclass(frozen=True)
class QueryPart:
    """One query: the answer itself (``path`` ``""``) or a sub-query
    (``"subQueries[0]"``, ...)."""

    path: str
    query: str  #: the SQL as the answer gives it (untrusted text)
    input: HashCheck
    output: HashCheck
    sub_queries: HashCheck
    sub_query_count: int
    signature: SignatureCheck
    datasets: List[DatasetTie]


@dataclasses.dataclass(frozen=True)
class QueryCheck:
    """The check of a signed query answer (see :func:`verify_query`). Truthy only when
    :attr:`verdict` is ``"valid"``."""

    #: ``"valid"`` (every hash, signature and tie valid, every signer trusted),
    #: ``"untrusted"`` (all valid, but a signer is not among the trusted keys),
    #: ``"unsupported"`` (nothing failed, but a signature could not be checked) or
    #: ``"mismatch"``; as ``odf-hash verify-query`` exits 0, 3, 2 and 1
    verdict: str
    summary: str  #: one line: ``"INVALID: output hash, signature"``, ...
    findings: List[str]  #: each part that failed, was not checked or whose key is untrusted
    queries: List[QueryPart]  #: the answer first, then its sub-queries depth first

    def __bool__(self) -> bool:
        return self.verdict == "valid"

    def to_dict(self) -> Dict[str, Any]:
        """The object ``odf-hash verify-query --json`` prints."""
        return json.loads(self._json)

    _json: str = dataclasses.field(default="", repr=False, compare=False)


def _hash(d: Dict[str, Any]) -> HashCheck:
    return HashCheck(d["status"], d["committed"], d["computed"])


def _part(q: Dict[str, Any]) -> QueryPart:
    s = q["signature"]
    return QueryPart(
        q["path"], q["query"], _hash(q["input"]), _hash(q["output"]), _hash(q["sub_queries"]),
        q["sub_query_count"],
        SignatureCheck(s["status"], s["type"], s["key"], s["trusted"], s["trusted_name"],
                       s["trusted_source"], s["message"]),
        [DatasetTie(t["id"], t["alias"], t["block_hash"], t["tie"], t["location"], t["message"],
                    t["copy"]) for t in q["datasets"]])


def _strings(value: Any, what: str) -> List[str]:
    if isinstance(value, (str, bytes)):
        value = [value]
    out = []
    for v in value:
        if not isinstance(v, str):
            raise InvalidInputError(f"verify_query: {what} must be strings, not {v!r}")
        out.append(v)
    return out


def verify_query(answer: Union[bytes, bytearray, memoryview, str, "os.PathLike[str]"], *,
                 trust: Iterable[str] = (), trust_files: Iterable[Any] = (),
                 datasets: Optional[Union[Mapping[str, Any], Iterable[str]]] = None,
                 jobs: Optional[int] = None, max_bytes: Optional[int] = None,
                 **store: Any) -> QueryCheck:
    """Checks a kamu node's signed query answer (``POST /query`` with ``"include":
    ["proof"]``) offline, as ``odf-hash verify-query`` does: the input, output and
    sub-queries hashes recomputed from kamu's canonical JSON, the Ed25519 signature over the
    commitment, whose key signed (``trust``: did:keys you trust; ``trust_files``: files of one
    did:key per line with an optional name), and with ``datasets`` (``{"alias or did:odf:…":
    "folder or URL"}``, or ``["NAME=LOCATION", ...]``) that each named input dataset's
    ``blockHash`` is a block on the verified chain of that copy. Sub-queries are checked
    recursively. ``jobs`` files of a copy are hashed at once (default: every core).

    ``answer`` is the answer's bytes exactly as the node sent them (a parsed and re-dumped
    answer has lost the text of its numbers, which is what the node hashed), or the path of
    a file holding them. Findings are in the result, never exceptions; a malformed answer,
    an answer over ``max_bytes`` (default 256 MiB), a bad DID or trust file, or a dataset
    copy that cannot be read raise :class:`InvalidInputError` or :class:`IoError`. The store
    options (see the module's documentation) apply to the dataset copies.
    """

    opts = _store("verify_query", store)
    limit = _MAX_ANSWER_BYTES if max_bytes is None else _count("max_bytes", max_bytes, 1 << 62)
    if isinstance(answer, (bytes, bytearray, memoryview)):
        data = bytes(answer)
    elif isinstance(answer, (str, os.PathLike)):
        path = _path(answer, "verify_query")
        try:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
        except FileNotFoundError as e:
            raise NotFoundError(f"{path}: no such file") from e
        except OSError as e:
            raise IoError(f"{path}: {e.strerror or e}") from e
    elif isinstance(answer, (dict, list)):
        raise InvalidInputError(
            "verify_query: give the answer's bytes as the node sent them (or a path), not a "
            "parsed document: parsing loses the text of its numbers, which the node hashed")
    else:
        raise InvalidInputError(
            f"verify_query: expected bytes or a path, not {type(answer).__name__}")
    if datasets is None:
        specs: List[str] = []
    elif isinstance(datasets, Mapping):
        specs = [f"{name}={_path(loc, 'verify_query')}" for name, loc in datasets.items()]
    else:
        specs = _strings(datasets, "datasets")
    files = [_path(f, "verify_query") for f in
             ([trust_files] if isinstance(trust_files, (str, os.PathLike)) else trust_files)]
    verdict, text = _odf_hash.verify_query(
        data, _strings(trust, "trust"), files, specs,
        _count("jobs", (os.cpu_count() or 1) if jobs is None else jobs, 256), limit, opts)
    d = json.loads(text)
    return QueryCheck(d["verdict"], d["summary"], list(d["findings"]),
                      [_part(q) for q in d["queries"]], _json=text)
