"""Arrow is loaded only by commands that read records (issue 12 item 2).

The odf-hash program does not link libarrow or libparquet; the readers live in the module
libodf_hash_arrow.so, loaded on first use. These tests check that from the outside: the
dynamic loader's own trace (LD_DEBUG=files) of which libraries a run loads, and runs with
the module made unavailable (ODF_HASH_ARROW_MODULE pointing nowhere), where every command
that only hashes bytes must still work and a command that reads records must fail with a
clear error (exit 2), never a crash and never a hash.
"""
import hashlib
import os
import pathlib
import shutil
import socket
import subprocess

import pytest

from conftest import physical_hash

SOURCE = pathlib.Path(__file__).resolve().parents[2]
DATASETS = SOURCE / "examples" / "datasets"
DATA = pathlib.Path(__file__).resolve().parent / "data"
NOWHERE = "/nonexistent/libodf_hash_arrow.so"


def loaded_libraries(odf_hash_bin, *args, env=None):
    """Names of the shared objects the dynamic loader opened during one run."""
    proc = subprocess.run([odf_hash_bin, *map(str, args)], capture_output=True, timeout=120,
                          env={**os.environ, **(env or {}), "LD_DEBUG": "files"})
    names = set()
    for line in proc.stderr.decode("utf-8", "replace").splitlines():
        if "file=" in line:
            name = line.split("file=", 1)[1].split()[0].rstrip(";")
            names.add(pathlib.Path(name).name)
    return proc.returncode, names


def test_program_does_not_link_arrow(odf_hash_bin):
    out = subprocess.run(["ldd", odf_hash_bin], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "libarrow" not in out.stdout and "libparquet" not in out.stdout, out.stdout


# Neither Arrow nor libcurl (and the ~30 libraries libcurl needs) is loaded by work on local
# files: both are loaded on first use (src/remote/http/curl_api.h for libcurl).
NOT_FOR_LOCAL_WORK = ("libarrow", "libparquet", "libodf_hash_arrow", "libcurl")


def test_physical_and_valid_verify_load_no_arrow(odf_hash_bin, tmp_path):
    f = tmp_path / "f.bin"
    f.write_bytes(b"x" * 1000)
    rc, libs = loaded_libraries(odf_hash_bin, "physical", f)
    assert rc == 0
    assert "libcrypto.so.3" in libs  # the trace works
    assert not any(n.startswith(NOT_FOR_LOCAL_WORK) for n in libs), libs
    rc, libs = loaded_libraries(odf_hash_bin, "verify", DATASETS / "root", DATASETS / "derivative")
    assert rc == 0
    assert not any(n.startswith(NOT_FOR_LOCAL_WORK) for n in libs), libs


def test_program_does_not_link_libcurl(odf_hash_bin):
    out = subprocess.run(["ldd", odf_hash_bin], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "libcurl" not in out.stdout, out.stdout


def test_an_http_url_loads_libcurl(odf_hash_bin):
    # A port on 127.0.0.1 nobody listens on: libcurl is loaded, the connection is refused,
    # and that is an I/O error naming the URL (exit 2).
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/ds/data/f"
    rc, libs = loaded_libraries(odf_hash_bin, "physical", "--max-attempts", "1", url)
    assert rc == 2
    assert "libcurl.so.4" in libs, libs
    assert not any(n.startswith(("libarrow", "libparquet", "libodf_hash_arrow")) for n in libs), libs


def test_logical_loads_the_module(odf_hash_bin):
    rc, libs = loaded_libraries(odf_hash_bin, "logical", DATA / "records.parquet")
    assert rc == 0
    assert "libodf_hash_arrow.so" in libs, libs
    assert any(n.startswith("libarrow.so") for n in libs), libs
    # Arrow's S3 file system is a module of its own, for s3:// URLs only.
    assert not any(n.startswith(("libarrow_s3", "libodf_hash_s3")) for n in libs), libs


def test_an_s3_url_loads_the_s3_module(odf_hash_bin):
    # An endpoint on 127.0.0.1 nobody listens on: the S3 module is loaded (from the Arrow
    # module's directory), the connection fails, and that is an error (exit 2).
    if not (pathlib.Path(odf_hash_bin).parent / "libodf_hash_s3.so").exists():
        pytest.skip("this build has no S3 module (no Arrow S3 support found)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}", "AWS_ACCESS_KEY_ID": "x",
           "AWS_SECRET_ACCESS_KEY": "x", "AWS_EC2_METADATA_DISABLED": "true",
           "AWS_REGION": "us-east-1"}
    rc, libs = loaded_libraries(odf_hash_bin, "physical", "s3://bucket/ds/data/f", env=env)
    assert rc == 2
    assert "libodf_hash_s3.so" in libs, libs
    assert any(n.startswith("libarrow_s3") for n in libs), libs


def test_byte_commands_work_without_the_module(run, tmp_path):
    env = {**os.environ, "ODF_HASH_ARROW_MODULE": NOWHERE}
    f = tmp_path / "f.bin"
    f.write_bytes(b"some bytes")
    r = run("physical", f, env=env)
    assert r.rc == 0, r
    assert r.out.split()[0] == physical_hash(b"some bytes")
    (tmp_path / "list.sha3").write_text(f"{physical_hash(b'some bytes')}  f.bin\n")
    r = run("physical", "--check", "list.sha3", cwd=tmp_path, env=env)
    assert r.rc == 0, r
    r = run("decode", physical_hash(b"some bytes"), env=env)
    assert r.rc == 0, r
    r = run("verify", DATASETS / "root", DATASETS / "derivative", env=env)
    assert r.rc == 0, r
    assert r.out.count("result       VALID\n") == 2


def test_reading_records_without_the_module_is_a_clear_error(run, tmp_path):
    env = {**os.environ, "ODF_HASH_ARROW_MODULE": NOWHERE}
    r = run("logical", DATA / "records.parquet", env=env)
    assert r.rc == 2, r
    assert r.out == ""
    assert "records.parquet" in r.err
    assert "libodf_hash_arrow.so" in r.err and "ODF_HASH_ARROW_MODULE" in r.err, r.err
    assert NOWHERE in r.err


def test_a_foreign_library_is_never_called_into(run, tmp_path):
    """A file that is not an odf-hash Arrow module (here: an ordinary shared library without the
    entry point) is never called into."""
    libcrypto = next(p for p in ("/lib/x86_64-linux-gnu/libcrypto.so.3",
                                 "/usr/lib/x86_64-linux-gnu/libcrypto.so.3",
                                 "/usr/lib64/libcrypto.so.3") if os.path.exists(p))
    fake = tmp_path / "libodf_hash_arrow.so"
    shutil.copyfile(libcrypto, fake)
    r = run("logical", DATA / "records.parquet", env={**os.environ, "ODF_HASH_ARROW_MODULE": str(fake)})
    assert r.rc == 2, r
    assert "not an odf-hash Arrow module" in r.err, r.err
