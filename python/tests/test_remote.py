"""odf_hash over URLs, against real servers on 127.0.0.1 started and stopped here (moto's S3
server and the static HTTP server of tests/cli/remote_servers.py): odf_hash.verify and
plan / check / merge over s3:// give the local report for the examples and their broken
copies, locations aside; so do odf_hash.dask.verify on a 2-process LocalCluster and
odf_hash.ray.verify on a local Ray, whose workers read S3 with their own credentials (the
environment) and the store options the tasks carry. The local reports are themselves
checked against independent values in test_scale.py and tests/cli/test_verify.py.
"""
import json
import os
import pathlib
import shutil
import sys
import tempfile

import pytest

import odf_hash
from datasets import make_variants

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests" / "cli"))
from remote_servers import S3_ENV, http_server, moto_s3, upload_tree  # noqa: E402

pytest.importorskip("moto", reason="moto is not installed (scripts/bootstrap.sh installs it)")

PREFIX = "odf/v2"
# A directory in place of a data file cannot be stored in S3: that copy is local only.
LOCAL_ONLY = {"root-not-a-regular-file"}


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    return {k: v for k, v in make_variants(tmp_path_factory.mktemp("remote")).items()
            if k not in LOCAL_ONLY}


@pytest.fixture(scope="module")
def s3(variants):
    with moto_s3() as (endpoint, client):
        client.create_bucket(Bucket="datasets")
        for name, ds in variants.items():
            upload_tree(client, "datasets", f"{PREFIX}/{name}", ds)
        yield endpoint


def url_of(name):
    return f"s3://datasets/{PREFIX}/{name}"


def normalised(report, location):
    """The report's JSON with its location aside (messages name it)."""
    d = json.loads(json.dumps(report.to_dict()).replace(location, "<DATASET>"))
    d.pop("path")
    for p in d["problems"]:
        p["message"] = p["message"].split(": <DATASET>")[0]
    return d


def assert_same(remote, local, name):
    assert normalised(remote, url_of(name)) == normalised(local, str(local.path)), name
    assert remote.path == url_of(name)


def test_s3_verify_and_plan_check_merge_equal_local(s3, variants):
    kinds = set()
    for name, ds in variants.items():
        local = odf_hash.verify(ds)
        remote = odf_hash.verify(url_of(name), endpoint_url=s3, jobs=4)
        assert_same(remote, local, name)
        plan = odf_hash.plan(url_of(name), endpoint_url=s3)
        assert all(t.dataset == url_of(name) and t.endpoint_url == s3 for t in plan)
        # Through JSON, as a worker process receives a task and sends its result.
        results = [odf_hash.CheckResult.from_json(odf_hash.check(
            odf_hash.Task.from_json(t.to_json())).to_json()) for t in plan]
        merged = odf_hash.merge(odf_hash.Plan.from_json(plan.to_json()), results[::-1])
        assert merged == remote, name
        kinds |= {p.kind for p in local.problems}
    # The broken copies break in the ways the comparison is about.
    assert {"physical-hash-mismatch", "file-missing", "block-missing",
            "size-mismatch", "logical-hash-mismatch"} <= {k.value for k in kinds}
    # The bucket is listed: the stray file is unreferenced there as locally, with its size;
    # strict makes it a problem in both, planned or not.
    name = "root-flipped-data-and-stray-file"
    remote = odf_hash.verify(url_of(name), endpoint_url=s3)
    assert [u.file for u in remote.unreferenced] == ["data/stray.txt"]
    strict = odf_hash.verify(url_of(name), endpoint_url=s3, strict=True)
    assert_same(strict, odf_hash.verify(variants[name], strict=True), name)
    assert "unexpected-file" in [p.kind.value for p in strict]
    plan = odf_hash.plan(url_of(name), endpoint_url=s3, strict=True)
    assert odf_hash.merge(plan, [odf_hash.check(t) for t in plan]) == strict
    ds = variants["derivative-reencoded"]
    assert_same(odf_hash.verify(url_of("derivative-reencoded"), endpoint_url=s3,
                                integrity_only=True),
                odf_hash.verify(ds, integrity_only=True), "derivative-reencoded")


def test_s3_files_and_store_options(s3, variants):
    ds = variants["root"]
    for f in sorted((ds / "data").iterdir()):
        url = f"{url_of('root')}/data/{f.name}"
        assert odf_hash.physical(url, endpoint_url=s3) == f.name  # files named by hash
        assert odf_hash.logical_file(url, endpoint_url=s3) == odf_hash.logical_file(f)
        assert odf_hash.slice(url, endpoint_url=s3, offset=3) == odf_hash.slice(f, offset=3)
        assert odf_hash.compare(url, f, endpoint_url=s3).verdict == "identical"
    with pytest.raises(odf_hash.NotFoundError, match="no such dataset"):
        odf_hash.verify(url_of("nothing-here"), endpoint_url=s3)
    with pytest.raises(odf_hash.InvalidInputError, match="max_attempts"):
        odf_hash.plan(url_of("root"), endpoint_url=s3, max_attempts=0)
    with pytest.raises(TypeError, match="endpoint"):
        odf_hash.verify(url_of("root"), endpoint=s3)


def test_s3_check_reuses_its_store_per_process_and_options(s3, variants):
    """check() keeps a remote store per process (an engine worker checks many files of one
    dataset): the results stay those of verify, other store options get another store, and
    a forked child (multiprocessing's default here) checks with its own store."""
    import dataclasses
    import select
    import signal

    plan = odf_hash.plan(url_of("root-flipped-data-and-stray-file"), endpoint_url=s3)
    first = [odf_hash.check(t) for t in plan]
    assert [odf_hash.check(t) for t in plan] == first
    assert odf_hash.merge(plan, first) == odf_hash.verify(
        url_of("root-flipped-data-and-stray-file"), endpoint_url=s3)
    # Same dataset, an endpoint where nothing listens: not the store kept for the first.
    closed = [dataclasses.replace(t, endpoint_url="http://127.0.0.1:9", max_attempts=1,
                                  connect_timeout=2, read_timeout=2) for t in plan]
    for t in closed:
        try:
            r = odf_hash.check(t)
        except odf_hash.Error:
            continue
        assert r.problem is not None and r.outcome == "failed", r
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: check every task, send the results, leave at once
        code = 1
        try:
            os.close(read_end)
            out = json.dumps([odf_hash.check(t).to_json() for t in plan]).encode()
            os.write(write_end, out)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    got = b""
    try:
        while select.select([read_end], [], [], 60)[0]:
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            got += chunk
        else:
            os.kill(pid, signal.SIGKILL)
            pytest.fail("a forked child's check() did not finish within 60 s")
    finally:
        os.close(read_end)
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert [odf_hash.CheckResult.from_json(r) for r in json.loads(got)] == first


def test_http_verify_and_credentials_never_shown(variants, tmp_path):
    """Over HTTP too; a password in the URL is in no report, task, plan or exception."""
    root = next(iter(variants.values())).parent
    with http_server(root) as server:
        base = server.url.replace("http://", "http://reader-7f3a:s3cr3t-9b1c@")
        name = "root-flipped-data-and-stray-file"
        remote = odf_hash.verify(f"{base}/{name}")
        plan = odf_hash.plan(f"{base}/{name}")
        merged = odf_hash.merge(plan, [odf_hash.check(t) for t in plan])
        assert merged == remote
        texts = [json.dumps(remote.to_dict()), repr(remote), plan.to_json(), repr(plan)]
        texts += [t.to_json() for t in plan]
        with pytest.raises(odf_hash.IoError) as e:
            odf_hash.physical(f"{base}/403/{name}/data/{plan[0].file[5:]}", max_attempts=1)
        texts.append(str(e.value))
        with pytest.raises(odf_hash.Error) as e:
            odf_hash.verify("s3://reader-7f3a:s3cr3t-9b1c@datasets/x")
        texts.append(str(e.value))
        for text in texts:
            assert "s3cr3t-9b1c" not in text and "reader-7f3a" not in text, text
        assert remote.path == server.url.replace("http://", "http://***@") + f"/{name}"
        local = odf_hash.verify(variants[name]).to_dict()
        got = remote.to_dict()
        assert [p["kind"] for p in got["problems"]] == [
            p["kind"] for p in local["problems"] if p["kind"] != "unexpected-file"]


def test_ipfs_through_a_gateway_and_kamu_like_server(variants, tmp_path):
    """ipfs://CID with trust_gateway=True is read as GATEWAY/ipfs/CID (the gateway here: the
    static server over a folder laid out that way), and the report says the gateway was
    trusted; without it such a server, which cannot answer verifiable block requests, is an
    error. Tasks carry the gateway and the trust. And a server that answers data without
    Content-Length or Range (as a kamu node does) gives the local report."""
    name = "root-flipped-data-and-stray-file"
    cid = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi"
    shutil.copytree(variants[name], tmp_path / "ipfs" / cid)
    local = odf_hash.verify(variants[name]).to_dict()
    expected = [p["kind"] for p in local["problems"] if p["kind"] != "unexpected-file"]
    with http_server(tmp_path) as server:
        remote = odf_hash.verify(f"ipfs://{cid}", ipfs_gateway=server.url, trust_gateway=True)
        assert remote.path == f"ipfs://{cid}"
        assert [p["kind"] for p in remote.to_dict()["problems"]] == expected
        assert remote.scope["ipfs"] == {"gateway": server.url, "verified": False}
        assert any("not checked against the CID" in s for s in remote.scope["skipped"])
        plan = odf_hash.plan(f"ipfs://{cid}", ipfs_gateway=server.url + "/", trust_gateway=True)
        assert all(t.ipfs_gateway == server.url + "/" and t.trust_gateway for t in plan)
        assert odf_hash.merge(plan, [odf_hash.check(t) for t in plan]) == remote
        with pytest.raises(odf_hash.InvalidInputError, match="ipfs_gateway"):
            odf_hash.verify(f"ipfs://{cid}", ipfs_gateway=8080)
        with pytest.raises(odf_hash.InvalidInputError, match="trust_gateway"):
            odf_hash.verify(f"ipfs://{cid}", ipfs_gateway=server.url, trust_gateway="yes")
        with pytest.raises(odf_hash.IoError, match="trust-gateway"):
            odf_hash.verify(f"ipfs://{cid}", ipfs_gateway=server.url, read_timeout=2,
                            max_attempts=1)
        with pytest.raises(odf_hash.InvalidInputError, match="not a CID"):
            odf_hash.verify("ipfs://bafyok", ipfs_gateway=server.url, trust_gateway=True)
    root = next(iter(variants.values())).parent
    with http_server(root) as server:
        remote = odf_hash.verify(f"{server.url}/chunked/{name}")
        assert [p["kind"] for p in remote.to_dict()["problems"]] == expected


def test_dask_over_s3_equals_local(s3, variants):
    distributed = pytest.importorskip("distributed", reason="distributed is not installed")
    import odf_hash.dask

    # Workers started now inherit the S3 environment (credentials, no config files, no
    # instance metadata); the endpoint travels in the tasks.
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, host="127.0.0.1")
    client = distributed.Client(cluster)
    try:
        for name, ds in variants.items():
            remote = odf_hash.dask.verify(url_of(name), client, progress=False, endpoint_url=s3)
            assert_same(remote, odf_hash.verify(ds), name)
    finally:
        client.close()
        cluster.close()


def test_ray_over_s3_equals_local(s3, variants):
    ray = pytest.importorskip("ray", reason="ray is not installed")
    import odf_hash.ray

    temp = tempfile.mkdtemp(prefix="odfray")
    if ray.is_initialized():
        ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             _temp_dir=temp, runtime_env={"env_vars": dict(S3_ENV)})
    try:
        for name in ("root", "root-flipped-data-and-stray-file", "derivative-reencoded"):
            remote = odf_hash.ray.verify(url_of(name), progress=False, endpoint_url=s3)
            assert_same(remote, odf_hash.verify(variants[name]), name)
    finally:
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
