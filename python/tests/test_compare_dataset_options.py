"""compare_datasets(ignore_columns=, ignore_time_columns=, rtol=, atol=) and
DatasetComparison.summary, and ignore_columns for lists of files. The summary is checked against
`odf-hash compare --json`'s, which C++ counts on its own (compare::summarize); the verdicts
against the command's exit codes on the same datasets; the datasets are built by the CLI
tests' writer, a reproduction run five hours later (its system_time differs, nothing else)."""
import json
import subprocess

import pytest

import odf_hash

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def cli(*args):
    r = subprocess.run([odf_hash.cli_path(), *map(str, args)], capture_output=True, timeout=120)
    return r.returncode, r.stdout.decode()


def summary_dict(s):
    return {"runs": s.runs, "same": s.same, "within_tolerance": s.within_tolerance,
            "only_time_columns": s.only_time_columns, "different": s.different,
            "not_compared": s.not_compared,
            "offsets_only_in_original": s.offsets_only_in_original,
            "offsets_only_in_reproduced": s.offsets_only_in_reproduced}


def test_a_run_at_another_time_is_the_same_without_its_time_columns(dataset_writer, tmp_path):
    w = dataset_writer
    a, b = tmp_path / "a", tmp_path / "b"
    w.write_dataset(a, [w.stamped(0, 40), w.stamped(40, 10), w.stamped(50, 5)])
    w.write_dataset(b, [w.stamped(0, 40, hours=5), w.stamped(40, 10)])
    plain = odf_hash.compare_datasets(a, b)
    assert not plain and plain.verdict == "different"
    rc, out = cli("compare", "--json", a, b)
    assert rc == 1
    assert summary_dict(plain.summary) == json.loads(out)["summary"]
    assert (plain.summary.only_time_columns, plain.summary.same) == (1, 1)
    assert plain.summary.offsets_only_in_original == 5

    for kwargs, flags in (({"ignore_time_columns": True}, ["--ignore-time-columns"]),
                          ({"ignore_columns": ["system_time"]}, ["--ignore-columns",
                                                                 "system_time"])):
        c = odf_hash.compare_datasets(a, b, **kwargs)
        rc, out = cli("compare", "--json", *flags, a, b)
        assert rc == 1  # the original's offsets 50-54 are not in the reproduction
        assert summary_dict(c.summary) == json.loads(out)["summary"]
        assert (c.summary.same, c.summary.only_time_columns) == (2, 0)
        [first, second, tail] = c.slices
        assert first.comparison.verified and first.comparison.ignored_columns == ["system_time"]
        assert first.comparison.verdict == "different"  # arrow0 covers every column
        assert tail.verdict == "only-in-original"


def test_within_tolerance_is_counted(dataset_writer, tmp_path):
    w = dataset_writer

    def tables(rel):
        out = []
        for start in (0, 30):
            x = [1.0 + i / 3 for i in range(start, start + 30)]
            if rel and start == 0:
                x = [v * (1 + rel) for v in x]
            out.append(pa.table({"offset": pa.array(range(start, start + 30), pa.int64()),
                                 "x": pa.array(x, pa.float64())}))
        return out

    w.write_dataset(tmp_path / "a", tables(0))
    w.write_dataset(tmp_path / "b", tables(1e-13))
    assert not odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b")
    c = odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b", rtol=1e-9)
    assert c and c.verdict == "same-records"
    rc, out = cli("compare", "--json", "--rtol", "1e-9", tmp_path / "a", tmp_path / "b")
    assert rc == 0
    assert summary_dict(c.summary) == json.loads(out)["summary"]
    assert (c.summary.same, c.summary.within_tolerance) == (2, 1)


def test_ignore_columns_for_lists_of_files(tmp_path):
    n = 100
    t = pa.table({"offset": pa.array(range(n), pa.int64()), "v": pa.array(range(n), pa.int64()),
                  "t": pa.array(["a"] * n)})
    u = t.set_column(2, "t", pa.array(["b"] * n))
    pq.write_table(t.slice(0, 60), tmp_path / "a1.parquet")
    pq.write_table(t.slice(60), tmp_path / "a2.parquet")
    pq.write_table(u, tmp_path / "b.parquet")
    a = [tmp_path / "a1.parquet", tmp_path / "a2.parquet"]
    assert not odf_hash.compare(a, [tmp_path / "b.parquet"])
    c = odf_hash.compare(a, [tmp_path / "b.parquet"], ignore_columns=["t"])
    assert c and c.ignored_columns == ["t"] and c.verdict == "different"
    w = odf_hash.compare(a, [tmp_path / "b.parquet"], ignore_columns="t",
                         original_window=(10, 20), reproduced_window=(10, 20))
    assert w and w.original["rows"] == 20
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.compare_datasets(tmp_path, tmp_path, ignore_time_columns="yes")
