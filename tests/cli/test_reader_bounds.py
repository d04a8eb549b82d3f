"""The readers' bound on single buffers (src/io/arrow/memory_pool.h): a valid file whose one
value decompresses far beyond what its bytes can justify (200 MiB of one repeated byte is
6.8 KB of zstd Parquet) is refused with a message that names the bound and how to raise it,
and ODF_HASH_MAX_READER_BUFFER raises it for a trusted file (issue 33 item 8). Hash
correctness of string values is the conformance vectors' matter: here the raised bound must
read the same records as the uncompressed copy of the file, which the default bound reads."""
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

VALUE = 200 << 20


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("bounds")
    table = pa.table({"s": pa.array(["a" * VALUE])})
    pq.write_table(table, d / "zstd.parquet", compression="zstd")
    pq.write_table(table, d / "plain.parquet", compression="none", use_dictionary=False)
    assert (d / "zstd.parquet").stat().st_size < 16 << 10
    return d


def test_refused_naming_the_bound_and_how_to_raise_it(run, files):
    r = run("logical", files / "zstd.parquet")
    assert r.rc == 2, r
    assert f"a buffer of {VALUE + 64} bytes was asked for" in r.err, r.err
    assert "bytes the input can justify (corrupt sizes in the file?); if the file is trusted" in r.err
    assert "ODF_HASH_MAX_READER_BUFFER=201M allows it (the bound is 64 MiB plus 64 bytes" in r.err


def test_raised_bound_reads_the_records(run, files):
    plain = run("logical", files / "plain.parquet")
    assert plain.rc == 0, plain
    env = dict(os.environ, ODF_HASH_MAX_READER_BUFFER="201M")
    r = run("logical", files / "zstd.parquet", env=env)
    assert r.rc == 0, r
    assert r.out.split()[0] == plain.out.split()[0]
    env["ODF_HASH_MAX_READER_BUFFER"] = "200M"  # below the one buffer asked for
    r = run("logical", files / "zstd.parquet", env=env)
    assert r.rc == 2 and "more than ODF_HASH_MAX_READER_BUFFER=209715200 allows" in r.err, r


@pytest.mark.parametrize("value", ["1e9", "10k", "-1", "abc"])
def test_bound_that_does_not_parse_is_refused(run, files, value):
    env = dict(os.environ, ODF_HASH_MAX_READER_BUFFER=value)
    r = run("logical", files / "plain.parquet", env=env)
    assert r.rc == 2, r
    assert f'ODF_HASH_MAX_READER_BUFFER="{value}" is not a size' in r.err, r.err
