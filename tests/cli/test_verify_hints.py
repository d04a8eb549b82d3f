"""What a failed file check may mean for the user holding the dataset (issue 33 item 10):
a file whose bytes (or records) are those recorded for another file of the chain says so, a
file shorter than recorded was cut short, and a missing or cut file is fetched again. The
expected hashes are hashlib's (physical_hash) and the recorded ones read from a valid
verification of the untouched copy."""
import json
import shutil

from conftest import physical_hash
from test_verify import blocks_by_sequence, copy_dataset


def problems_of(run, ds):
    r = run("verify", "--json", ds)
    assert r.rc == 1, r
    return {p["file"]: p for p in json.loads(r.out)["datasets"][0]["problems"]}


def checks(info, role):
    return sorted((seq, e[role]) for seq, e in info.items() if role in e)


def test_swapped_checkpoints_name_the_file_they_are(run, tmp_path):
    ds = copy_dataset(tmp_path, "root")
    info = blocks_by_sequence(run, ds)
    (sa, a), (sb, b) = checks(info, "checkpoint")[:2]
    da, db = (ds / a).read_bytes(), (ds / b).read_bytes()
    assert len(da) == len(db)  # a swap the sizes do not show
    (ds / a).write_bytes(db)
    (ds / b).write_bytes(da)
    problems = problems_of(run, ds)
    pa, pb = problems[a], problems[b]
    assert pa["kind"] == pb["kind"] == "physical-hash-mismatch"
    assert pa["actual"] == physical_hash(db) == b.split("/")[1]
    assert pa["message"].endswith(
        f"; these are the bytes of the checkpoint file recorded for block {sb} ({b}): the files "
        "were swapped, or one was copied under the other's name")
    assert f"recorded for block {sa} ({a})" in pb["message"]


def test_data_file_of_another_size_names_the_file_of_that_size(run, tmp_path):
    ds = copy_dataset(tmp_path, "root")
    info = blocks_by_sequence(run, ds)
    (sa, a), (sb, b) = checks(info, "data")[:2]
    assert (ds / a).stat().st_size != (ds / b).stat().st_size
    shutil.copyfile(ds / b, ds / a)
    p = problems_of(run, ds)[a]
    assert p["kind"] == "size-mismatch"
    assert p["message"].endswith(
        f"; its size is that of the data file recorded for block {sb} ({b}): perhaps that "
        "file under this name")


def test_derivative_data_file_holding_another_slice_names_it(run, tmp_path):
    ds = copy_dataset(tmp_path, "derivative")
    info = blocks_by_sequence(run, ds)
    (sa, a), (sb, b) = checks(info, "data")[:2]
    shutil.copyfile(ds / b, ds / a)
    p = problems_of(run, ds)[a]
    # A derivative falls back to the records: they are the other slice's.
    assert p["kind"] == "logical-hash-mismatch", p
    assert f"; these are the records of the data file recorded for block {sb} ({b})" in p["message"]


def test_truncated_and_missing_files_are_fetched_again(run, tmp_path):
    ds = copy_dataset(tmp_path, "root")
    info = blocks_by_sequence(run, ds)
    (_, a), (_, b) = checks(info, "data")[:2]
    (ds / a).write_bytes((ds / a).read_bytes()[:100])
    (ds / b).unlink()
    problems = problems_of(run, ds)
    assert problems[a]["kind"] == "size-mismatch" and problems[a]["actual"] == 100
    assert problems[a]["message"].endswith(
        "; it is shorter than recorded: cut short (an interrupted download or copy?); fetch it "
        "again from the dataset's source")
    assert problems[b]["kind"] == "file-missing"
    assert problems[b]["message"] == ("the data file does not exist; fetch it again from the "
                                      "dataset's source")


def test_truncated_derivative_file_is_fetched_again(run, tmp_path):
    ds = copy_dataset(tmp_path, "derivative")
    info = blocks_by_sequence(run, ds)
    (_, a) = checks(info, "data")[0]
    (ds / a).write_bytes((ds / a).read_bytes()[:100])
    p = problems_of(run, ds)[a]
    assert p["kind"] == "file-unreadable", p
    assert p["message"].endswith(
        "; it is shorter than recorded: cut short (an interrupted download or copy?); fetch it "
        "again from the dataset's source")
