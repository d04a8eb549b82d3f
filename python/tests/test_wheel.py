"""The binary wheel (make python: build-python/dist, scripts/repair-wheel.sh) installs with
pip into a fresh venv that has nothing but pyarrow, without building anything, and works
there (wheel_smoke.py). make test-python names the wheel in $ODF_HASH_WHEEL; run by hand
without it, the test is skipped (and says why)."""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WHEEL = os.environ.get("ODF_HASH_WHEEL", "").strip()


@pytest.fixture(scope="module")
def wheel():
    if not WHEEL:
        pytest.skip("ODF_HASH_WHEEL is not set (make test-python sets it to the built wheel)")
    path = pathlib.Path(WHEEL)
    assert path.is_file(), path
    return path


def test_wheel_is_manylinux_and_vendors_its_libraries(wheel):
    assert "manylinux" in wheel.name, wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("odf_hash.libs/libcrypto") for n in names), names
    # pyarrow's libraries come from the pyarrow wheel, never a second copy.
    assert not any("libarrow" in n or "libparquet" in n for n in names if "odf_hash.libs" in n)


def test_wheel_installs_without_building_into_a_venv_with_only_pyarrow(wheel):
    import pyarrow
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="odf_hash_wheel_test_"))
    try:
        subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True)
        py = tmp / "venv" / "bin" / "python"
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "VIRTUAL_ENV")}
        pip = [str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check",
               "--only-binary=:all:"]
        subprocess.run(pip + [f"pyarrow=={pyarrow.__version__}"], check=True, env=env,
                       timeout=600)
        t0 = time.monotonic()
        # --no-index: the wheel alone, nothing fetched or built (pyarrow is already there).
        subprocess.run(pip + ["--no-index", str(wheel)], check=True, env=env, timeout=300)
        took = time.monotonic() - t0
        listed = subprocess.run([str(py), "-m", "pip", "list", "--format=freeze"], check=True,
                                env=env, capture_output=True, text=True).stdout
        names = {line.split("==")[0].lower() for line in listed.split()}
        assert names <= {"pyarrow", "odf-hash", "odf_hash", "pip", "setuptools"}, names
        out = subprocess.run([str(py), str(ROOT / "python" / "tests" / "wheel_smoke.py"),
                              str(ROOT)], env=env, cwd=tmp, capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "wheel smoke test: ok" in out.stdout
        print(f"pip install of the wheel took {took:.1f} s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
