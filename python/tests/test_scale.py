"""odf_hash.plan / check / merge: the verification split for cluster engines. The split
report must equal odf_hash.verify's (whose findings test_api.py and the C++ tests check
against independent values) on every example dataset and broken copy; tasks, results and
plans survive pickle and JSON; results merge in any order; bad input is a clear error."""
import dataclasses
import json
import pickle
import random

import pytest

import odf_hash
from datasets import make_variants


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    return make_variants(tmp_path_factory.mktemp("scale"))


def split_verify(ds, **kw):
    plan = odf_hash.plan(ds, **kw)
    return odf_hash.merge(plan, [odf_hash.check(t) for t in plan])


def test_split_equals_verify_on_every_variant(variants):
    kinds = set()
    for name, ds in variants.items():
        local = odf_hash.verify(ds)
        assert split_verify(ds) == local, name
        assert split_verify(ds).to_dict() == local.to_dict(), name
        assert split_verify(ds, integrity_only=True) == odf_hash.verify(ds, integrity_only=True)
        strict = odf_hash.verify(ds, strict=True)
        assert split_verify(ds, strict=True) == strict, name
        assert len(strict) == len(local) + len(local.unreferenced), name
        kinds |= {p.kind for p in strict}
        kinds |= {f.outcome for f in local.files}
    # The variants cover the file findings a check can make.
    K = odf_hash.ProblemKind
    assert {K.PHYSICAL_HASH_MISMATCH, K.SIZE_MISMATCH, K.FILE_MISSING, K.NOT_A_REGULAR_FILE,
            K.LOGICAL_HASH_MISMATCH, K.UNEXPECTED_FILE, K.BLOCK_MISSING} <= kinds
    assert {"physical-match", "logical-match", "failed"} <= kinds


def test_report_equality_is_by_content(variants):
    a = odf_hash.verify(variants["root"])
    b = odf_hash.verify(variants["root-flipped-data-and-stray-file"])
    assert a == odf_hash.verify(variants["root"]) and a != b and a != "report"


def test_plan_is_a_sequence_of_plain_tasks(variants, root):
    ds = variants["root"]
    plan = odf_hash.plan(ds)
    assert len(plan) == 5 and [t.id for t in plan] == list(range(5))
    assert plan.path == str(ds) and plan.kind == "root" and plan.chain_complete
    assert plan.head == (ds / "refs" / "head").read_text().strip()
    data = sorted(p.name for p in (ds / "data").iterdir())
    assert sorted(t.file for t in plan if t.role == "data") == [f"data/{n}" for n in data]
    for t in plan:
        # The recorded hash is the file's name; its size on disk is the recorded size.
        assert t.file.endswith(t.physical) and t.size == (ds / t.file).stat().st_size
        assert t.dataset == str(ds) and (t.logical is None) == (t.role == "checkpoint")
    assert plan.bytes_total == sum(t.size for t in plan)


def test_pickle_and_json_round_trips(variants):
    ds = variants["derivative-reencoded"]
    plan = odf_hash.plan(ds)
    assert pickle.loads(pickle.dumps(plan)) == plan
    assert odf_hash.Plan.from_json(plan.to_json()) == plan
    results = []
    for t in plan:
        assert pickle.loads(pickle.dumps(t)) == t
        assert odf_hash.Task.from_json(t.to_json()) == t
        assert len(pickle.dumps(t)) < 1024  # cheap to ship
        r = odf_hash.check(pickle.loads(pickle.dumps(t)))
        assert pickle.loads(pickle.dumps(r)) == r
        assert odf_hash.CheckResult.from_json(r.to_json()) == r
        results.append(odf_hash.CheckResult.from_json(pickle.loads(pickle.dumps(r)).to_json()))
    assert {r.outcome for r in results} == {"physical-match", "logical-match", "failed"}
    report = odf_hash.merge(pickle.loads(pickle.dumps(plan)), results)
    assert report == odf_hash.verify(ds)
    assert pickle.loads(pickle.dumps(report)).to_dict() == report.to_dict()


def test_results_merge_in_any_order(variants):
    ds = variants["root-truncated-checkpoint-deleted-data"]
    plan = odf_hash.plan(ds)
    results = [odf_hash.check(t) for t in plan]
    rng = random.Random(14)
    for _ in range(5):
        rng.shuffle(results)
        assert odf_hash.merge(plan, results) == odf_hash.verify(ds)


def test_merge_refuses_missing_duplicated_and_foreign_results(variants):
    plan = odf_hash.plan(variants["root"])
    results = [odf_hash.check(t) for t in plan]
    with pytest.raises(odf_hash.InvalidInputError, match=r"no result for task 3 \(checkpoints/"):
        odf_hash.merge(plan, results[:3] + results[4:])
    with pytest.raises(odf_hash.InvalidInputError, match=r"two results for task 0 "):
        odf_hash.merge(plan, results + results[:1])
    other = odf_hash.plan(variants["derivative"])
    with pytest.raises(odf_hash.InvalidInputError, match="a result of another plan"):
        odf_hash.merge(other, [odf_hash.check(t) for t in plan][: len(other)])
    with pytest.raises(odf_hash.InvalidInputError, match="expected odf_hash.CheckResult"):
        odf_hash.merge(plan, [r.to_dict() for r in results])


@pytest.mark.parametrize("change, message", [
    ({"version": 9}, "version 9 is not supported"),
    ({"size": -1}, r"task.size: expected an unsigned integer"),
    ({"file": "refs/head"}, "is not a file of the data/ folder"),
    ({"file": "data/../../etc/passwd"}, "is not a file of the data/ folder"),
    ({"physical": "not a hash"}, "task.physical: "),
    ({"role": "block"}, "task.role: "),
])
def test_malformed_tasks_are_clear_errors(variants, change, message):
    task = odf_hash.plan(variants["root"])[0]
    d = {**task.to_dict(), **change}
    with pytest.raises(odf_hash.InvalidInputError, match=message):
        odf_hash.Task.from_json(json.dumps(d))
    if "version" not in change:  # a Task object always writes the version it knows
        with pytest.raises(odf_hash.InvalidInputError, match=message):
            odf_hash.check(odf_hash.Task(**{k: v for k, v in d.items() if k != "version"}))
    with pytest.raises(odf_hash.InvalidInputError, match="not valid JSON"):
        odf_hash.Task.from_json("{")
    with pytest.raises(odf_hash.InvalidInputError, match="expected an odf_hash.Task"):
        odf_hash.check(task.to_dict())


def test_a_task_whose_dataset_is_gone(tmp_path, variants):
    import shutil
    ds = tmp_path / "gone"
    shutil.copytree(variants["root"], ds)
    task = odf_hash.plan(ds)[0]
    shutil.rmtree(ds)
    with pytest.raises(odf_hash.NotFoundError, match="gone"):
        odf_hash.check(task)


def test_concurrent_checks_agree(variants):
    # check releases the GIL: checks on several threads at once give what one after the
    # other gives.
    from concurrent.futures import ThreadPoolExecutor
    plan = odf_hash.plan(variants["derivative-reencoded"])
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(odf_hash.check, list(plan) * 4))
    assert results == [odf_hash.check(t) for t in plan] * 4


def test_engine_batches_keep_plan_order_and_balance_bytes(variants):
    from odf_hash import _engine
    plan = odf_hash.plan(variants["root"])
    for threads in (1, 2, 3, 100):
        batches = _engine.split(plan.tasks, threads)
        assert [t for b in batches for t in b] == plan.tasks and all(batches)
        assert 1 <= len(batches) <= min(len(plan), _engine.MIN_BATCHES_PER_THREAD * threads)
    assert [len(b) for b in _engine.split(plan.tasks, 1, batch_size=2)] == [2, 2, 1]
    assert _engine.split([], 2) == []
    for bad in (0, -1, 1.5, True):
        with pytest.raises(odf_hash.InvalidInputError, match="batch_size"):
            _engine.split(plan.tasks, 2, batch_size=bad)
    # Equal recorded sizes: equal batches.
    same = [odf_hash.Task(**{**dataclasses.asdict(plan[0]), "id": i}) for i in range(12)]
    assert [len(b) for b in _engine.split(same, 1)] == [3, 3, 3, 3]
    # One large file among small ones gets a batch of its own.
    big = [odf_hash.Task(**{**dataclasses.asdict(plan[0]), "id": i, "size": 1000 if i == 4 else 1})
           for i in range(8)]
    assert any(b == [big[4]] for b in _engine.split(big, 1))
    # A large plan: more, smaller batches (up to 16 per thread), so that the workers finish
    # together; 200 files of 8 MiB on 2 threads is 32 batches of about 50 MiB.
    large = [odf_hash.Task(**{**dataclasses.asdict(plan[0]), "id": i, "size": 8 << 20})
             for i in range(200)]
    assert len(_engine.split(large, 2)) == 32
    assert len(_engine.split(large[:40], 2)) == 10  # 320 MiB: 5 per thread of 32 MiB
    assert len(_engine.split(large[:20], 2)) == 8  # never fewer than 4 per thread
    assert _engine.check_batch(list(plan)) == [odf_hash.check(t) for t in plan]
