"""kamu's signed query answers in Python, independently of odf-hash: kamu's canonical JSON
(as measured on kamu 0.265 nodes: tests/kamu/make_query_vectors.py checks it against every
answer it records, and kamu's published answer), SHA3-256 multihashes (hashlib), did:key and
Ed25519 (the `cryptography` package). The tests use it to change an answer and sign it again
the way a node would, and to compute the hashes they expect.

The canonical form: no whitespace; object members sorted by the UTF-8 bytes of their keys;
numbers as the document writes them; strings with \\" \\\\ \\b \\f \\n \\r \\t, \\u00XX for the
other control characters and U+007F, \\uXXXX (lower-case hex) for every code point above
U+007F, surrogate pairs above U+FFFF. Load answers with `load` (numbers kept as text).
"""
import base64
import copy
import hashlib
import json

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
                 "\t": "\\t"}
# The seed of the key kamu's own tests sign with (test_data_query.rs: PrivateKey::from_bytes(
# &[123; _])), which the recorded nodes use too.
KAMU_TEST_SEED = bytes([123] * 32)


class Number(str):
    """A JSON number kept as its text."""


def load(data):
    """A JSON document (bytes or str) with every number kept as a Number."""
    return json.loads(data, parse_int=Number, parse_float=Number, parse_constant=_refuse)


def _refuse(name):
    raise ValueError(f"not JSON: {name}")


def dump(value) -> bytes:
    """A document as a node writes it (compact, members in their order, UTF-8)."""
    return _write(value, sort=False, ascii_only=False).encode()


def canonical(value) -> bytes:
    """kamu's canonical JSON of a value (from `load`)."""
    return _write(value, sort=True, ascii_only=True).encode()


def _string(s: str, ascii_only: bool) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch in SHORT_ESCAPES:
            out.append(SHORT_ESCAPES[ch])
        elif o < 0x20 or (ascii_only and o == 0x7F):
            out.append("\\u%04x" % o)
        elif o < 0x7F or not ascii_only:
            out.append(ch)
        elif o <= 0xFFFF:
            out.append("\\u%04x" % o)
        else:
            v = o - 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)))
    out.append('"')
    return "".join(out)


def _write(v, sort: bool, ascii_only: bool) -> str:
    if isinstance(v, dict):
        keys = sorted(v, key=lambda k: k.encode()) if sort else list(v)
        return "{" + ",".join(_string(k, ascii_only) + ":" + _write(v[k], sort, ascii_only)
                              for k in keys) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_write(x, sort, ascii_only) for x in v) + "]"
    if isinstance(v, Number):
        return str(v)
    if isinstance(v, str):
        return _string(v, ascii_only)
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    raise TypeError(f"not a JSON value from load(): {v!r}")


def multihash(data: bytes) -> str:
    """The sha3-256 multihash of `data`, "f1620" + hex."""
    return "f1620" + hashlib.sha3_256(data).hexdigest()


def base58btc(raw: bytes) -> str:
    n, out = int.from_bytes(raw, "big"), ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def base58btc_decode(text: str) -> bytes:
    n = 0
    for c in text:
        n = n * 58 + B58.index(c)
    body = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
    return b"\0" * (len(text) - len(text.lstrip("1"))) + body


def did_key(public_key: bytes) -> str:
    """did:key of an Ed25519 public key (multicodec ed25519-pub, varint ed 01)."""
    return "did:key:z" + base58btc(b"\xed\x01" + public_key)


def public_key(did: str) -> bytes:
    assert did.startswith("did:key:z"), did
    raw = base58btc_decode(did[len("did:key:z"):])
    assert raw[:2] == b"\xed\x01" and len(raw) == 34, did
    return raw[2:]


class Signer:
    """An Ed25519 key from a 32-byte seed (kamu's identity privateKey)."""

    def __init__(self, seed: bytes):
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        self.key = Ed25519PrivateKey.from_private_bytes(seed)
        raw = self.key.public_key().public_bytes(serialization.Encoding.Raw,
                                                 serialization.PublicFormat.Raw)
        self.did = did_key(raw)

    def sign(self, message: bytes) -> str:
        """The proofValue of a signature: 'u' + base64url without padding."""
        return "u" + base64.urlsafe_b64encode(self.key.sign(message)).decode().rstrip("=")


def signature_valid(did: str, proof_value: str, message: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    assert proof_value.startswith("u"), proof_value
    sig = base64.urlsafe_b64decode(proof_value[1:] + "=" * (-len(proof_value[1:]) % 4))
    try:
        Ed25519PublicKey.from_public_bytes(public_key(did)).verify(sig, message)
        return True
    except InvalidSignature:
        return False


def commitment_of(query: dict) -> dict:
    """The commitment of a query (an answer: input, output, subQueries; a sub-query: no
    output, its outputHash kept), recomputed."""
    c = dict(query["commitment"])
    c["inputHash"] = multihash(canonical(query["input"]))
    if "output" in query:
        c["outputHash"] = multihash(canonical(query["output"]))
    c["subQueriesHash"] = multihash(canonical(query["subQueries"]))
    return c


def check(query: dict) -> list:
    """The parts of a query (and of its sub-queries, recursively) that do not verify: [] for
    a consistent one."""
    bad = []
    c = commitment_of(query)
    for part in ("inputHash", "outputHash", "subQueriesHash"):
        if c[part] != query["commitment"][part]:
            bad.append(part)
    proof = query["proof"]
    if not signature_valid(proof["verificationMethod"], proof["proofValue"],
                           canonical(query["commitment"])):
        bad.append("signature")
    for i, sub in enumerate(query["subQueries"]):
        bad += [f"subQueries[{i}].{p}" for p in check(sub)]
    return bad


def resign(query: dict, signer: Signer) -> dict:
    """A copy of `query` with its commitment recomputed and signed by `signer`, as a node
    holding that key would answer it."""
    q = copy.deepcopy(query)
    q["commitment"] = commitment_of(q)
    q["proof"] = {"type": "Ed25519Signature2020", "verificationMethod": signer.did,
                  "proofValue": signer.sign(canonical(q["commitment"]))}
    return q


def as_sub_query(answer: dict) -> dict:
    """An answer as a sub-query carries it (kamu's SubQuery: no output)."""
    return {k: copy.deepcopy(answer[k]) for k in ("input", "subQueries", "commitment", "proof")}
