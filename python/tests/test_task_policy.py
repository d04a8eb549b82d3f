"""Tasks are messages (issue 23): a forged task must not steer a worker to another dataset,
to an endpoint, or out of a folder through links; a result must not merge into another
dataset's plan. The adapters give their workers a policy from the client's own arguments."""
import dataclasses
import json
import shutil

import pytest

import odf_hash
from datasets import EXAMPLES
from odf_hash import _engine


@pytest.fixture()
def root(tmp_path):
    ds = tmp_path / "root"
    shutil.copytree(EXAMPLES / "root", ds)
    return ds


def test_allowed_task_runs_and_forged_ones_are_refused(root, tmp_path):
    plan = odf_hash.plan(root)
    allow = odf_hash.Allow.dataset(root)
    results = [odf_hash.check(t, allow=allow) for t in plan]
    assert odf_hash.merge(plan, results) == odf_hash.verify(root)

    # A forged task pointing a worker at another folder holding a data/ file: refused, and
    # nothing about that file is disclosed.
    secret = tmp_path / "elsewhere"
    (secret / "data").mkdir(parents=True)
    task = plan[0]
    (secret / task.file).write_bytes(b"secret")
    forged = dataclasses.replace(task, dataset=str(secret))
    assert odf_hash.check(forged).ok is False  # without a policy the task is trusted...
    with pytest.raises(odf_hash.InvalidInputError, match="not allowed to read"):
        odf_hash.check(forged, allow=allow)  # ...with one, it never runs
    for field, value, message in [("endpoint_url", "http://127.0.0.1:9", "S3 endpoint"),
                                  ("ipfs_gateway", "http://127.0.0.1:9", "IPFS gateway"),
                                  ("follow_symlinks", True, "follow symbolic links")]:
        with pytest.raises(odf_hash.InvalidInputError, match=message):
            odf_hash.check(dataclasses.replace(task, **{field: value}), allow=allow)
    # The same forgery arriving as JSON.
    j = json.loads(task.to_json())
    j["dataset"] = str(secret)
    with pytest.raises(odf_hash.InvalidInputError, match="not allowed to read"):
        odf_hash.check(odf_hash.Task.from_json(json.dumps(j)), allow=allow)
    # What is allowed, explicitly.
    wide = odf_hash.Allow(datasets=[str(root)], endpoints=["http://127.0.0.1:9"],
                          follow_symlinks=True)
    assert odf_hash.check(dataclasses.replace(task, follow_symlinks=True), allow=wide).ok
    with pytest.raises(odf_hash.InvalidInputError, match="sequence of str"):
        odf_hash.Allow(datasets="root")
    with pytest.raises(odf_hash.InvalidInputError, match="must be an odf_hash.Allow"):
        odf_hash.check(task, allow={"datasets": [str(root)]})


def test_a_result_of_another_dataset_does_not_merge(root, tmp_path):
    """merge(plan(bad_copy), [check(t) for t in plan(good_copy)]) was VALID."""
    bad = tmp_path / "bad"
    shutil.copytree(root, bad)
    victim = sorted((bad / "data").iterdir())[0]
    victim.write_bytes(b"changed")
    bad_plan = odf_hash.plan(bad)
    assert not odf_hash.verify(bad).ok
    good_results = [odf_hash.check(t) for t in odf_hash.plan(root)]
    with pytest.raises(odf_hash.InvalidInputError, match="computed against another task"):
        odf_hash.merge(bad_plan, good_results)
    # Through JSON (how results travel), and with the binding stripped: refused as well.
    sent = [odf_hash.CheckResult.from_json(r.to_json()) for r in good_results]
    with pytest.raises(odf_hash.InvalidInputError, match="computed against another task"):
        odf_hash.merge(bad_plan, sent)
    stripped = [dataclasses.replace(r, task_digest="0" * 64) for r in good_results]
    with pytest.raises(odf_hash.InvalidInputError, match="computed against another task"):
        odf_hash.merge(odf_hash.plan(root), stripped)


def test_engine_batches_run_under_the_clients_policy(root, tmp_path):
    plan = odf_hash.plan(root)
    allow = odf_hash.Allow.dataset(root)
    assert [r.to_json() for r in _engine.check_batch(plan.tasks, allow)] == \
        [odf_hash.check(t).to_json() for t in plan]
    forged = dataclasses.replace(plan[1], dataset=str(tmp_path))
    with pytest.raises(odf_hash.InvalidInputError, match="not allowed to read"):
        _engine.check_batch([plan[0], forged], allow)


@pytest.mark.parametrize("password", ["it's-S3CR3T", 'q"S3CR3T<>', "pa/S3CR3T", "my S3CR3T"])
def test_url_passwords_never_reach_python_objects(root, password):
    """Report.path, Plan.path and Task.dataset (shipped to every worker) and error messages
    show a URL without its password, whatever characters the password holds."""
    import functools
    import http.server
    import threading
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        url = f"http://user:{password}@127.0.0.1:{server.server_address[1]}/"
        try:
            report = odf_hash.verify(url, max_attempts=1)
            plan = odf_hash.plan(url, max_attempts=1)
        except odf_hash.Error as e:  # a URL curl refuses ('/', a space in the password)
            assert "S3CR3T" not in str(e) and "user:" not in str(e), str(e)
            return
        assert report.ok
        texts = [report.path, repr(report), json.dumps(report.to_dict()), plan.path,
                 plan.to_json()] + [t.dataset + t.to_json() for t in plan]
        for text in texts:
            assert "S3CR3T" not in text and "user:" not in text, text
        assert report.path.startswith("http://***@127.0.0.1:")
    finally:
        server.shutdown()
        server.server_close()
        t.join(timeout=30)
