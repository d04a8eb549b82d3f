#!/usr/bin/env python3
"""Writes examples/files.sha3: the physical hash of every file in examples/files/.

The hashes come from Python's hashlib (SHA3-256) plus the sha3-256 multihash prefix
(varint code 0x16, varint length 32), independently of odf-hash, so `make example`
checks odf-hash against another implementation. Paths are relative to the repository
root, where scripts/example.sh runs. Re-run after changing the example files.
"""
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ROOT / "examples" / "files"
MULTIHASH_SHA3_256 = bytes([0x16, 0x20])


def physical_hash(path: Path) -> str:
    digest = hashlib.sha3_256(path.read_bytes()).digest()
    return "f" + (MULTIHASH_SHA3_256 + digest).hex()


def main() -> None:
    lines = ["# Physical hashes of the bundled example files (examples/make_files_sha3.py)\n"]
    for path in sorted(p for p in FILES.iterdir() if p.is_file()):
        lines.append(f"{physical_hash(path)}  {path.relative_to(ROOT).as_posix()}\n")
    (ROOT / "examples" / "files.sha3").write_text("".join(lines))


if __name__ == "__main__":
    main()
