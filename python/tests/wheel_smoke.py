"""Run by test_wheel.py with the Python of a fresh venv that holds only pyarrow and the
odf-hash wheel: the package imports and hashes exactly, with no build tree, no compiler and
no LD_LIBRARY_PATH. Expected values: hashlib's SHA3-256 and the reference's (arrow-digest)
hashes in tests/conformance/vectors.json. Argument: the repository root."""
import hashlib
import json
import os
import pathlib
import subprocess
import sys

import odf_hash

root = pathlib.Path(sys.argv[1])
here = pathlib.Path(odf_hash.__file__).resolve().parent
assert "site-packages" in str(here) and str(root) not in str(here), here

# Physical: bytes, a file, and the CLI shipped in the wheel.
data = b"odf-hash wheel smoke test"
want = "f1620" + hashlib.sha3_256(data).hexdigest()
assert str(odf_hash.physical(data)) == want
sample = root / "examples" / "files" / "hello.txt"
want_file = "f1620" + hashlib.sha3_256(sample.read_bytes()).hexdigest()
assert str(odf_hash.physical(str(sample))) == want_file
out = subprocess.run([sys.executable, "-m", "odf_hash", "physical", str(sample)], check=True,
                     capture_output=True, text=True).stdout
assert out.split()[0] == want_file, out

# Logical: Parquet files the reference hashed (read through pyarrow's libarrow).
vectors = json.loads((root / "tests" / "conformance" / "vectors.json").read_text())["vectors"]
checked = 0
for v in vectors:
    if v["file"].startswith("data/pyarrow/base_") and v.get("logical"):
        path = root / "tests" / "conformance" / v["file"]
        assert odf_hash.logical_file(str(path)) == v["logical"], v["file"]
        assert str(odf_hash.physical(str(path))) == v["physical"], v["file"]
        checked += 1
assert checked >= 3, checked

# A whole ODF dataset.
report = odf_hash.verify(str(root / "examples" / "datasets" / "root"))
assert report.ok and not list(report), list(report)

# The extension runs on the vendored libcrypto (Python's own hashlib may load the system's
# beside it: auditwheel's unique name keeps them apart).
maps = pathlib.Path(f"/proc/{os.getpid()}/maps").read_text()
crypto = {line.split()[-1] for line in maps.splitlines() if "libcrypto" in line}
assert any("odf_hash.libs" in p for p in crypto), crypto
print(f"wheel smoke test: ok ({checked} reference vectors)")
