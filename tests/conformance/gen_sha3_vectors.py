#!/usr/bin/env python3
"""Generates tests/conformance/sha3_vectors.json: SHA3-256 of deterministic messages,
computed by Python's hashlib (OpenSSL or Python's own Keccak, independent of odf-hash's
code). The C++ test tests/unit/core/sha3_test.cpp rebuilds each message from its pattern
and length and compares our digest.

Usage:
  gen_sha3_vectors.py            write the JSON next to this script
  gen_sha3_vectors.py --check F  regenerate in memory; exit 1 unless F is identical
"""
import hashlib
import json
import sys
from pathlib import Path

# Message patterns; the C++ test implements the same three formulas.
PATTERNS = {
    "mix": "byte i of a message of n bytes is (i * 167 + n * 13 + 7) mod 256",
    "zeros": "n bytes 0x00",
    "ones": "n bytes 0xff",
}

RATE = 136  # SHA3-256 absorbs 136 bytes per Keccak-f[1600] permutation


def message(pattern: str, n: int) -> bytes:
    if pattern == "mix":
        return bytes((i * 167 + n * 13 + 7) % 256 for i in range(n))
    if pattern == "zeros":
        return bytes(n)
    if pattern == "ones":
        return b"\xff" * n
    raise ValueError(pattern)


def lengths() -> list:
    out = set(range(0, 301))
    for blocks in (3, 4, 7, 8, 30, 31, 100):
        out.update((blocks * RATE - 1, blocks * RATE, blocks * RATE + 1))
    out.update((1000, 4095, 4096, 4097, 65535, 65536, 65537, 100000, 1 << 20, (1 << 20) + 1))
    return sorted(out)


def render() -> str:
    vectors = []
    for n in lengths():
        vectors.append(("mix", n))
    for n in (0, 1, 135, 136, 137, 272, 1000, 1 << 16):
        vectors.append(("zeros", n))
        vectors.append(("ones", n))
    lines = []
    for pattern, n in vectors:
        digest = hashlib.sha3_256(message(pattern, n)).hexdigest()
        entry = {"pattern": pattern, "length": n, "sha3_256": digest}
        lines.append("    " + json.dumps(entry))
    head = {
        "description": "SHA3-256 (FIPS 202) of deterministic messages, from Python hashlib",
        "generator": "tests/conformance/gen_sha3_vectors.py",
        "patterns": PATTERNS,
    }
    body = json.dumps(head, indent=2)[:-2]  # drop the closing "\n}"
    return body + ',\n  "vectors": [\n' + ",\n".join(lines) + "\n  ]\n}\n"


def main(argv: list) -> int:
    text = render()
    if len(argv) == 3 and argv[1] == "--check":
        committed = Path(argv[2]).read_text(encoding="utf-8")
        if committed != text:
            print(f"{argv[2]} differs from what {argv[0]} generates; regenerate and commit it")
            return 1
        print(f"{argv[2]}: {text.count('sha3_256')} vectors match the generator")
        return 0
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(__file__).with_name("sha3_vectors.json")
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
