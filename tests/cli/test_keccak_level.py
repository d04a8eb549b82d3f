"""ODF_HASH_KECCAK_LEVEL: every Keccak level the CPU has gives the same physical hashes
(hashlib's) and logical hashes (the Rust reference's, as committed in test_logical.py); a
level the CPU lacks and an unknown name are reported on stderr and ignored. Levels this CPU
lacks are skipped with a message naming them.
"""
import os

import pytest

from conftest import physical_hash
from test_logical import DATA, RECORDS

LEVELS = ["portable", "bmi2", "avx2", "avx512"]


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def supported(level):
    flags = cpu_flags()
    need = {
        "portable": set(),
        "bmi2": {"bmi1", "bmi2"},
        "avx2": {"avx2"},
        "avx512": {"avx512f", "avx512vl"},
    }[level]
    return need <= flags


def env_with(level):
    env = dict(os.environ)
    env["ODF_HASH_KECCAK_LEVEL"] = level
    return env


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_hashes_the_same(run, tmp_path, level):
    if not supported(level):
        pytest.skip(f"Keccak level {level} is not supported by this CPU")
    # Sizes around the rate and past the read buffer, several files at once (two jobs).
    files = []
    for i, size in enumerate([0, 135, 136, 137, 100_000, 3 << 20]):
        data = bytes((j * 31 + i * 7) % 251 for j in range(size))
        path = tmp_path / f"f{i}.bin"
        path.write_bytes(data)
        files.append((path, data))
    r = run("physical", "--jobs", "2", *[p for p, _ in files], env=env_with(level))
    assert r.rc == 0, r
    assert "ignoring" not in r.err, r
    lines = r.out.splitlines()
    assert len(lines) == len(files)
    for line, (path, data) in zip(lines, files):
        assert line == f"{physical_hash(data)}  {path}"
    r = run("logical", os.path.join(DATA, "records.parquet"), env=env_with(level))
    assert r.rc == 0, r
    assert r.out.split()[0] == RECORDS


@pytest.mark.parametrize("value", ["avx1024", "AVX2"] + [l for l in LEVELS if not supported(l)])
def test_bad_or_unsupported_level_is_reported_and_ignored(run, tmp_path, value):
    data = b"abc" * 1000
    path = tmp_path / "f.bin"
    path.write_bytes(data)
    r = run("physical", path, env=env_with(value))
    assert r.rc == 0, r
    assert r.out.split()[0] == physical_hash(data)
    assert f"ignoring ODF_HASH_KECCAK_LEVEL={value}" in r.err, r
