"""The arguments every front of the Python package takes alike: paths and URLs, thread and
job counts, the store options and the verify modes, checked as the command checks them."""
from __future__ import annotations

import os
from typing import Any, Dict, Optional, Union

from ._errors import InvalidInputError

PathLike = Union[str, "os.PathLike[str]"]

#: The most threads one call hashes on, and the most files ``verify`` checks at once (the
#: library's bound, ``kMaxVerifyJobs``): larger values are taken as these.
_MAX_THREADS = 4096
_MAX_JOBS = 256


def _count(name: str, value: Any, maximum: int) -> int:
    """A positive integer argument, capped at ``maximum`` (so that 2**32 and more reach the
    extension as a number it takes, not as nanobind's "incompatible function arguments")."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidInputError(f"{name} must be a positive integer or None, not {value!r}")
    return min(value, maximum)


def _progress(progress: Any) -> Any:
    """A progress callback as every long call takes it: None, or a callable called every
    100 ms on the calling thread with the bytes read so far (and once at the end)."""
    if progress is not None and not callable(progress):
        raise InvalidInputError(f"progress must be a callable or None, not {progress!r}")
    return progress


def _threads(threads: Optional[int]) -> int:
    if threads is None:
        return 0  # every core
    return _count("threads", threads, _MAX_THREADS)


def _path(path: PathLike, what: str) -> str:
    try:
        return os.fsdecode(os.fspath(path))
    except TypeError:
        raise InvalidInputError(
            f"{what}: expected a path or URL (str or os.PathLike), not {type(path).__name__}"
        ) from None


#: The store options (see the module's documentation) and their defaults.
_STORE_DEFAULTS: Dict[str, Any] = {
    "endpoint_url": None,
    "region": None,
    "no_sign_request": False,
    "connect_timeout": 10.0,
    "read_timeout": 30.0,
    "max_attempts": 4,
    "ipfs_gateway": None,
    "trust_gateway": False,
}


def _store(what: str, options: Dict[str, Any]) -> tuple:
    """The store options as the extension takes them, checked as the command checks them."""
    unknown = sorted(set(options) - set(_STORE_DEFAULTS))
    if unknown:
        raise TypeError(f"{what}() got an unexpected keyword argument {unknown[0]!r}")
    o = {**_STORE_DEFAULTS, **{k: v for k, v in options.items() if v is not None}}
    for key in ("endpoint_url", "region", "ipfs_gateway"):
        if o[key] is None:
            o[key] = ""  # not given: the default (the environment, ...)
        elif not isinstance(o[key], str):
            raise InvalidInputError(f"{what}: {key} must be a string, not {o[key]!r}")
        elif o[key] == "":
            # Given empty: refused, as the command refuses it, never taken as "not given".
            raise InvalidInputError(f"{what}: {key}: an empty value is refused (it would mean "
                                    "nothing, not \"off\"): give a value, or leave it out")
    for key in ("connect_timeout", "read_timeout"):
        v = o[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.1 <= v <= 3600:
            raise InvalidInputError(f"{what}: {key} must be seconds from 0.1 to 3600, not {v!r}")
    n = o["max_attempts"]
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 20:
        raise InvalidInputError(f"{what}: max_attempts must be an integer from 1 to 20, not {n!r}")
    if not isinstance(o["trust_gateway"], bool):
        raise InvalidInputError(f"{what}: trust_gateway must be True or False, not "
                                f"{o['trust_gateway']!r}")
    return (o["endpoint_url"], o["region"], bool(o["no_sign_request"]), float(o["connect_timeout"]),
            float(o["read_timeout"]), n, o["ipfs_gateway"], o["trust_gateway"])


def _text(text: Any, what: str) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if not isinstance(text, str):
        raise InvalidInputError(f"{what}: expected JSON text, not {type(text).__name__}")
    return text


def _modes(what: str, expect_head: Optional[str], since: Optional[str], deep: bool,
           sample: Union[None, int, float, str], seed: Optional[int]) -> tuple:
    """The verify modes as the extension takes them: text, parsed and checked by the library
    as it checks the command's flags (an empty value is refused, never "off")."""
    for name, value in (("expect_head", expect_head), ("since", since)):
        if value is not None and not isinstance(value, str):
            raise InvalidInputError(f"odf_hash.{what}: {name} must be a multihash string, "
                                    f"not {type(value).__name__}")
    if sample is not None and (isinstance(sample, bool) or
                               not isinstance(sample, (int, float, str))):
        raise InvalidInputError(f"odf_hash.{what}: sample must be a fraction in (0, 1] (0.01, "
                                f"'1%') or a number of files (25), not {sample!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidInputError(f"odf_hash.{what}: seed must be an integer in [0, 2**64)")
    sample_text = None if sample is None else repr(sample) if isinstance(sample, float) \
        else str(sample)
    return (expect_head, since, sample_text, None if seed is None else str(seed), bool(deep))
