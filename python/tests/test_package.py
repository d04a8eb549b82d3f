"""The installed package as a wheel lays it out (make python installs the wheel it builds):
every file the wheel needs is there, it names no path of the machine that built it, and the
Arrow module is found beside the extension and loads pyarrow's libarrow, the package's
dependency."""
import importlib.metadata
import pathlib
import shutil
import subprocess

import pyarrow as pa
import pytest

import odf_hash

PACKAGE = pathlib.Path(odf_hash.__file__).resolve().parent


def installed_files():
    dist = importlib.metadata.distribution("odf-hash")
    return {str(f) for f in dist.files}


def test_wheel_contents():
    files = installed_files()
    for expected in ("odf_hash/__init__.py", "odf_hash/py.typed", "odf_hash/_odf_hash.pyi",
                     "odf_hash/libodf_hash_arrow.so", "odf_hash/libodf_hash_s3.so",
                     "odf_hash/bin/odf-hash"):
        assert expected in files, f"{expected} not in the installed wheel"
    assert any(f.startswith("odf_hash/_odf_hash.") and f.endswith(".so") for f in files)
    wheel = importlib.metadata.distribution("odf-hash").read_text("WHEEL")
    assert "Root-Is-Purelib: false" in wheel


def elf_files():
    return [p for p in PACKAGE.rglob("*") if p.is_file() and
            (p.suffix == ".so" or p.name == "odf-hash")]


def dynamic_section(path):
    out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True,
                         check=True).stdout
    needed, runpath = [], []
    for line in out.splitlines():
        if "(NEEDED)" in line:
            needed.append(line.split("[", 1)[1].rstrip("]"))
        if "(RUNPATH)" in line or "(RPATH)" in line:
            runpath += line.split("[", 1)[1].rstrip("]").split(":")
    return needed, runpath


@pytest.mark.skipif(shutil.which("readelf") is None, reason="readelf (binutils) not installed")
def test_no_build_machine_paths():
    files = elf_files()
    assert len(files) == 4, files  # the extension, the Arrow and S3 modules, the tool
    for path in files:
        needed, runpath = dynamic_section(path)
        for entry in runpath:
            assert entry.startswith("$ORIGIN"), f"{path.name} searches {entry}"
        if path.name not in ("libodf_hash_arrow.so", "libodf_hash_s3.so"):
            # Only the modules load Arrow (src/io/arrow_module.h, src/io/arrow/s3_module.h):
            # the extension and the tool start without it.
            assert not any(n.startswith(("libarrow", "libparquet")) for n in needed), \
                f"{path.name} links {needed}"
    for module in ("libodf_hash_arrow.so", "libodf_hash_s3.so"):
        _, module_runpath = dynamic_section(PACKAGE / module)
        assert module_runpath == ["$ORIGIN/../pyarrow"], module


def test_module_loads_pyarrows_libarrow(tmp_path):
    # Reading a file loads the module; the libarrow it brings is the one pyarrow imported.
    path = tmp_path / "t.arrow"
    with pa.ipc.new_file(str(path), pa.schema([("x", pa.int64())])) as w:
        w.write_table(pa.table({"x": [1, 2, 3]}))
    assert odf_hash.logical_file(str(path)) == odf_hash.logical(pa.table({"x": [1, 2, 3]}))
    maps = pathlib.Path("/proc/self/maps").read_text()
    loaded = {line.split()[-1] for line in maps.splitlines() if "libarrow.so" in line}
    pyarrow_dir = pathlib.Path(pa.__file__).resolve().parent
    assert loaded and all(pathlib.Path(p).resolve().parent == pyarrow_dir for p in loaded), loaded
