#!/usr/bin/env python3
"""Writes the seed corpus of verify_plan_fuzz (tests/fuzz/corpus/verify_plan/): the plans,
tasks and results of the example datasets and of a broken copy (every outcome and problem
shape, unreferenced entries of every kind, a data file under a non-canonical name), also
planned with strict, planned with the verify modes, each prefixed with the byte that selects its parser (0 task, 1 result,
2 plan), plus malformed variants. Needs the odf_hash package (make python).

    .venv/bin/python tests/fuzz/make_verify_plan_corpus.py
"""
import json
import os
import pathlib
import shutil
import tempfile

import odf_hash

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fuzz" / "corpus" / "verify_plan"


def main():
    seeds = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # relative dataset paths in the seeds
        shutil.copytree(ROOT / "examples" / "datasets" / "root", "root")
        shutil.copytree(ROOT / "examples" / "datasets" / "derivative", "derivative")
        shutil.copytree("root", "broken")
        data = sorted(pathlib.Path("broken/data").iterdir())
        data[0].write_bytes(b"changed")
        data[1].unlink()
        pathlib.Path("broken/data/stray.txt").write_text("x")
        os.mkdir("broken/checkpoints/folder")
        os.symlink("/etc/hostname", "broken/blocks/link")
        data[2].rename(data[2].with_name("F" + data[2].name[1:].upper()))  # misnamed
        fixture = ROOT / "tests" / "data" / "odf" / "derivative-slice0-reencoded.parquet"
        for f in pathlib.Path("derivative/data").iterdir():
            shutil.copyfile(fixture, f)
        for name in ("root", "derivative", "broken"):
            plan = odf_hash.plan(name)
            seeds[f"plan-{name}"] = b"\x02" + plan.to_json().encode()
            for t in plan:
                seeds[f"task-{name}-{t.id}"] = b"\x00" + t.to_json().encode()
                seeds[f"result-{name}-{t.id}"] = b"\x01" + odf_hash.check(t).to_json().encode()
        seeds["plan-broken-strict"] = b"\x02" + odf_hash.plan("broken", strict=True).to_json().encode()
        # The verify modes (issue 26): a deep, sampled plan with a trusted head and --since
        # (its scope and the deep tasks' offset fields).
        head = pathlib.Path("root/refs/head").read_text().strip()
        modes = odf_hash.plan("root", deep=True, sample=3, seed=1, expect_head=head)
        seeds["plan-modes"] = b"\x02" + modes.to_json().encode()
        seeds["task-deep"] = b"\x00" + next(t for t in modes if t.deep).to_json().encode()
        seeds["plan-since"] = b"\x02" + odf_hash.plan("root", since=head).to_json().encode()
    task = json.loads(seeds["task-root-0"][1:])
    seeds["task-bad-version"] = b"\x00" + json.dumps({**task, "version": 9}).encode()
    seeds["task-bad-file"] = b"\x00" + json.dumps({**task, "file": "data/../refs/head"}).encode()
    seeds["task-bad-hash"] = b"\x00" + json.dumps({**task, "physical": "f1620zz"}).encode()
    seeds["task-not-json"] = b"\x00{\"version\": 2, "
    # A task of an S3 dataset carries the store options it was planned with (optional in v1).
    remote = {**task, "dataset": "s3://datasets/odf/v2/root", "endpoint_url": "http://127.0.0.1:9000",
              "region": "eu-central-1", "no_sign_request": True, "connect_timeout": 2.5,
              "read_timeout": 30, "max_attempts": 3}
    seeds["task-s3-store-options"] = b"\x00" + json.dumps(remote).encode()
    seeds["task-https-no-options"] = b"\x00" + json.dumps(
        {**task, "dataset": "https://example.org/datasets/root"}).encode()
    seeds["task-bad-attempts"] = b"\x00" + json.dumps({**remote, "max_attempts": 0}).encode()
    seeds["task-bad-timeout"] = b"\x00" + json.dumps({**remote, "read_timeout": -1}).encode()
    seeds["task-bad-sign"] = b"\x00" + json.dumps({**remote, "no_sign_request": "yes"}).encode()
    # Issue 23's shapes: a NUL in the dataset, a forged location, links followed, a secret in a
    # URL, timeouts that never fire; results bound to another task or to none.
    seeds["task-nul-dataset"] = b"\x00" + json.dumps(
        {**task, "dataset": "root\u0000/../../etc"}).encode()
    seeds["task-forged-dataset"] = b"\x00" + json.dumps(
        {**task, "dataset": "/etc", "follow_symlinks": True}).encode()
    seeds["task-url-secret"] = b"\x00" + json.dumps(
        {**task, "dataset": "http://user:it's-s3cr3t@127.0.0.1:1/ds"}).encode()
    seeds["task-huge-timeout"] = b"\x00" + json.dumps({**remote, "read_timeout": 1e308}).encode()
    result = json.loads(seeds["result-root-0"][1:])
    seeds["result-bad-digest"] = b"\x01" + json.dumps({**result, "task_digest": "zz"}).encode()
    seeds["result-no-digest"] = b"\x01" + json.dumps(
        {k: v for k, v in result.items() if k != "task_digest"}).encode()
    plan = json.loads(seeds["plan-root"][1:])
    store = ("dataset", "endpoint_url", "region", "no_sign_request", "connect_timeout",
             "read_timeout", "max_attempts")
    plan_remote = {**plan, "tasks": [{**t, **{k: remote[k] for k in store}}
                                     for t in plan["tasks"]]}
    seeds["plan-s3-store-options"] = b"\x02" + json.dumps(plan_remote).encode()
    # Issue 33: the Seed's dataset id and a pin's (both optional: plans written before them
    # lack them), a dataset-id-mismatch problem, and ids of the wrong type.
    pinned_id, seed_id = "did:odf:fed01" + "dd" * 32, plan["dataset_id"]
    mismatch = {"kind": "dataset-id-mismatch", "message": "another dataset was put in its place",
                "block": None, "sequence_number": None, "file": "refs/head",
                "expected": pinned_id, "actual": seed_id}
    seeds["plan-dataset-id-mismatch"] = b"\x02" + json.dumps(
        {**plan, "problems": [mismatch],
         "scope": {**plan["scope"], "expected_dataset_id": pinned_id}}).encode()
    seeds["plan-without-dataset-ids"] = b"\x02" + json.dumps(
        {**{k: v for k, v in plan.items() if k != "dataset_id"},
         "scope": {k: v for k, v in plan["scope"].items() if k != "expected_dataset_id"}}).encode()
    seeds["plan-bad-dataset-id"] = b"\x02" + json.dumps({**plan, "dataset_id": 7}).encode()
    seeds["plan-bad-expected-dataset-id"] = b"\x02" + json.dumps(
        {**plan, "scope": {**plan["scope"], "expected_dataset_id": ["x"]}}).encode()
    # Written before the store options existed: they are optional.
    seeds["task-without-store-options"] = b"\x00" + json.dumps(
        {k: v for k, v in task.items() if k not in store[1:]}).encode()
    # Linked objects (RFC-017, plan version 2): a linked-object task and its results, and a
    # plan with one and a linkedObjects summary (made from a data task: the example datasets
    # link no objects).
    link = {"data_file": task["file"], "column": "content_hash", "row": 3}
    obj = "f1620" + "ab" * 32
    linked = {**task, "id": len(plan["tasks"]), "role": "linked-object", "file": f"data/{obj}",
              "physical": obj, "logical": None, "size": 0, "link": link}
    seeds["task-linked-object"] = b"\x00" + json.dumps(linked).encode()
    seeds["task-linked-object-without-link"] = b"\x00" + json.dumps(
        {**linked, "link": None}).encode()
    seeds["task-data-with-link"] = b"\x00" + json.dumps({**task, "link": link}).encode()
    result = {"version": task["version"], "task": linked["id"], "role": "linked-object",
              "file": linked["file"], "block": task["block"],
              "sequence_number": task["sequence_number"], "outcome": "physical-match",
              "actual_physical": None, "logical": None, "size": 5, "problem": None}
    seeds["result-linked-object-match"] = b"\x01" + json.dumps(result).encode()
    seeds["result-linked-object-missing"] = b"\x01" + json.dumps({
        **result, "outcome": "failed", "size": None, "problem": {
            "kind": "linked-object-missing", "message": "the linked object does not exist",
            "block": task["block"], "sequence_number": task["sequence_number"],
            "file": linked["file"], "expected": obj, "actual": None, "link": link}}).encode()
    seeds["result-data-with-size"] = b"\x01" + json.dumps(
        {**json.loads(seeds["result-root-0"][1:]), "size": 5}).encode()
    summary = {"block": task["block"], "sequence_number": task["sequence_number"],
               "data_file": task["file"], "num_objects_naive": 2, "size_naive": 10, "values": 2,
               "objects": [[linked["id"], 2]]}
    seeds["plan-linked"] = b"\x02" + json.dumps(
        {**plan, "tasks": plan["tasks"] + [linked], "linked_summaries": [summary]}).encode()
    seeds["plan-linked-summary-bad-task"] = b"\x02" + json.dumps(
        {**plan, "linked_summaries": [{**summary, "objects": [[0, 1]]}]}).encode()
    seeds["plan-nested"] = b"\x02" + b"[" * 5000 + b"]" * 5000
    broken = json.loads(seeds["plan-broken"][1:])
    seeds["plan-unreferenced-bad-bytes"] = b"\x02" + json.dumps(
        {**broken, "unreferenced": {**broken["unreferenced"], "bytes": 2**64 - 1}}).encode()
    seeds["plan-without-unreferenced"] = b"\x02" + json.dumps(
        {k: v for k, v in broken.items() if k != "unreferenced"}).encode()
    deep = json.loads(seeds["task-deep"][1:])
    seeds["task-deep-checkpoint"] = b"\x00" + json.dumps(
        {**deep, "role": "checkpoint", "file": "checkpoints/" + deep["file"][5:],
         "logical": None}).encode()
    seeds["task-deep-no-column"] = b"\x00" + json.dumps({**deep, "offset_column": ""}).encode()
    modes = json.loads(seeds["plan-modes"][1:])
    # Written before the modes existed: no scope, tasks without the deep fields.
    seeds["plan-without-scope"] = b"\x02" + json.dumps(
        {**{k: v for k, v in modes.items() if k != "scope"},
         "tasks": [{k: v for k, v in t.items()
                    if k not in ("deep", "offset_column", "offset_start", "offset_end")}
                   for t in modes["tasks"]]}).encode()
    seeds["plan-scope-bad-sample"] = b"\x02" + json.dumps(
        {**modes, "scope": {**modes["scope"], "sample": {"spec": 3}}}).encode()
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in seeds.items():
        (OUT / name).write_bytes(data)
    print(f"wrote {len(seeds)} seeds to {OUT}")


if __name__ == "__main__":
    main()
