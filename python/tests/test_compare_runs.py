"""Slices split at other boundaries: odf_hash.compare of lists of files (read as one table
each) and compare_datasets grouping slices into runs that end at one offset on both sides,
also on Dask. Files are written here with pyarrow (the datasets with the CLI tests'
flatbuffers writer); the expected verdicts, rows and offsets come from the tables written."""
import sys

import pytest

import odf_hash

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def table(start, n, change=None, as_text=False):
    v = [i * 10 for i in range(start, start + n)]
    if change is not None:
        v[change - start] = -1
    values = pa.array([str(x) for x in v]) if as_text else pa.array(v, pa.int64())
    return pa.table({"offset": pa.array(range(start, start + n), pa.int64()), "v": values})


def write(path, t, row_group_size=None):
    pq.write_table(t, path, row_group_size=row_group_size)
    return str(path)


def test_lists_of_files_are_compared_as_tables(tmp_path):
    a = [write(tmp_path / "a1.parquet", table(0, 100)), write(tmp_path / "a2.parquet", table(100, 50))]
    b = [write(tmp_path / "b1.parquet", table(0, 120), row_group_size=7),
         write(tmp_path / "b2.parquet", table(120, 30))]
    c = odf_hash.compare(a, b)
    assert c and c.verdict == "equivalent"
    assert c.original["physical"] is None and c.original["rows"] == 150
    assert c.original["path"] == a[0] + " + " + a[1]
    # One table of the same 150 records, as one file: the same logical hash.
    one = write(tmp_path / "one.parquet", table(0, 150))
    assert odf_hash.compare(a, [one]).verdict == "equivalent"
    assert odf_hash.compare(a, [one]).original["logical"] == odf_hash.logical_file(one)


def test_a_changed_value_is_located_by_offset_and_file(tmp_path):
    a = [write(tmp_path / "a1.parquet", table(0, 100)), write(tmp_path / "a2.parquet", table(100, 50))]
    b = [write(tmp_path / "b1.parquet", table(0, 120, change=110)),
         write(tmp_path / "b2.parquet", table(120, 30))]
    c = odf_hash.compare(a, b)
    assert not c and c.verdict == "different" and c.differing_columns == ["v"]
    (col,) = c.differences
    # Offset 110: the original's second file (index 1), the reproduction's first (index 0).
    assert col.rows == [odf_hash.RowDifference("v", 110, 110, "1100", "-1", 1, 0)]
    assert c.records == "different"


def test_a_schema_change_inside_a_list_is_an_error(tmp_path):
    a = [write(tmp_path / "a1.parquet", table(0, 100)),
         write(tmp_path / "a2.parquet", table(100, 50, as_text=True))]
    b = [write(tmp_path / "b1.parquet", table(0, 150))]
    with pytest.raises(odf_hash.Error) as e:
        odf_hash.compare(a, b)
    assert a[1] + " has another schema than " + a[0] in str(e.value)
    assert 'column "v" is int64, then utf8' in str(e.value)
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.compare(a, b, ignore_order=True)
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.compare([], b)


def test_compare_datasets_groups_other_boundaries(dataset_writer, tmp_path):
    w = dataset_writer
    w.write_dataset(tmp_path / "a", [w.table(0, 100), w.table(100, 50), w.table(150, 10)])
    w.write_dataset(tmp_path / "b", [w.table(0, 120), w.table(120, 30, change=130),
                                     w.table(150, 10)])
    w.write_dataset(tmp_path / "c", [w.table(0, 150), w.table(150, 10)])
    same = odf_hash.compare_datasets(tmp_path / "a", tmp_path / "c")
    assert same and [(s.start, s.end, s.verdict) for s in same.slices] == [
        (0, 149, "equivalent"), (150, 159, "identical")]
    assert [(f.start, f.end) for f in same.slices[0].original_files] == [(0, 99), (100, 149)]
    assert [(f.start, f.end) for f in same.slices[0].reproduced_files] == [(0, 149)]
    assert all(f.file.startswith("data/") for f in same.slices[0].original_files)
    d = odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b")
    assert not d and [s.verdict for s in d.slices] == ["different", "identical"]
    run = d.slices[0]
    (row,) = run.comparison.differing_rows
    assert (row.row, row.offset, row.original, row.reproduced) == (130, 130, "1300", "-1")
    assert (run.original_files[row.original_file].end,
            run.reproduced_files[row.reproduced_file].start) == (149, 120)
    t = d.to_arrow()
    assert t.to_pylist() == [{
        "start": 0, "end": 149, "verdict": "different", "column": "v", "row": 130, "offset": 130,
        "original": "1300",
        "reproduced": "-1", "original_file": run.original_files[1].file,
        "reproduced_file": run.reproduced_files[1].file}]
    assert same.to_arrow().num_rows == 0


def test_dask_compares_each_run_in_one_task(dataset_writer, tmp_path):
    pytest.importorskip("dask")
    import odf_hash.dask

    w = dataset_writer
    w.write_dataset(tmp_path / "a", [w.table(0, 100), w.table(100, 50)])
    w.write_dataset(tmp_path / "b", [w.table(0, 120), w.table(120, 30, change=140)])
    w.write_dataset(tmp_path / "c", [w.table(0, 30), w.table(30, 120)])
    d = odf_hash.dask.compare_datasets(tmp_path / "a", tmp_path / "b")
    assert d == odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b")
    (run,) = d.slices
    assert not d and run.verdict == "different"
    assert [(r.offset, r.original_file, r.reproduced_file)
            for r in run.comparison.differing_rows] == [(140, 1, 1)]
    same = odf_hash.dask.compare_datasets(tmp_path / "a", tmp_path / "c")
    assert same and [(s.start, s.end, s.verdict) for s in same.slices] == [(0, 149, "equivalent")]


def test_long_lists_are_read_one_file_at_a_time(tmp_path):
    """60 files against one, compared in a process allowed 40 file descriptors: the files of
    a list are opened one at a time while their records are read (as Dask and Ray workers
    compare a run of many slices)."""
    import os
    import subprocess

    a = [write(tmp_path / f"a{i:02}.parquet", table(i * 5, 5)) for i in range(60)]
    b = write(tmp_path / "b.parquet", table(0, 300, change=123))
    code = (
        "import json, resource, sys, odf_hash\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (40, 40))\n"
        "a, b = json.loads(sys.argv[1]), sys.argv[2]\n"
        "c = odf_hash.compare(a, [b])\n"
        "(r,) = c.differing_rows\n"
        "print(json.dumps([c.verdict, r.offset, r.original_file, r.reproduced_file]))\n")
    import json

    proc = subprocess.run([sys.executable, "-c", code, json.dumps(a), b], capture_output=True,
                          text=True, timeout=120, env=os.environ.copy())
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == ["different", 123, 123 // 5, 0]


def test_windows_of_files(tmp_path):
    """(skip, limit) rows of each side: the offsets both datasets hold, as parts of files."""
    a = write(tmp_path / "a.parquet", table(0, 150))
    b = write(tmp_path / "b.parquet", table(0, 200), row_group_size=64)
    c = odf_hash.compare(a, b, reproduced_window=(0, 150))
    assert c and c.verdict == "equivalent"  # never identical: a part of a file
    assert c.original["physical"] is None and c.reproduced["rows"] == 150
    assert c.reproduced["logical"] == odf_hash.logical_file(a)
    assert odf_hash.compare(a, b).verdict == "different"  # 150 rows against 200
    # The original's [160, 199] against rows 60-99 of a reproduced [100, 199] whose offset
    # 170 changed: row 10 of the window, offset 170.
    a2 = write(tmp_path / "a2.parquet", table(160, 40))
    b2 = write(tmp_path / "b2.parquet", table(100, 100, change=170), row_group_size=16)
    c = odf_hash.compare([a2], [b2], reproduced_window=(60, 40))
    assert c.verdict == "different" and c.reproduced["rows"] == 40
    assert c.differing_rows == [odf_hash.RowDifference("v", 10, 170, "1700", "-1", 0, 0)]
    # No limit: every row from the skip on.
    assert odf_hash.compare(a2, b2, reproduced_window=(60, None)).verdict == "different"
    # (0, None) leaves no row out: the whole file, whose bytes can be compared.
    assert odf_hash.compare(a2, a2, original_window=(0, None)).verdict == "identical"
    assert odf_hash.compare(a2, a2, original_window=(0, 40)).verdict == "equivalent"
    for bad in [(1,), (-1, 3), (0, -2), ("0", 1), (None, 1), 5]:
        with pytest.raises(odf_hash.InvalidInputError):
            odf_hash.compare(a, b, original_window=bad)
    with pytest.raises(odf_hash.InvalidInputError):
        odf_hash.compare(a, b, original_window=(0, 1), ignore_order=True)


def test_compare_datasets_longer_reproduction_and_gap(dataset_writer, tmp_path):
    w = dataset_writer
    # The reproduction ran later: 200 records against 150 (the original in two slices).
    w.write_dataset(tmp_path / "a", [w.table(0, 100), w.table(100, 50)])
    w.write_dataset(tmp_path / "b", [w.table(0, 200)])
    d = odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b")
    assert not d and not d.same_records
    assert [(s.start, s.end, s.verdict) for s in d.slices] == [
        (0, 149, "equivalent"), (150, 199, "only-in-reproduced")]
    common, tail = d.slices
    assert [f.window for f in common.original_files] == [None, None]
    (f,) = common.reproduced_files
    assert (f.start, f.end, f.window, f.rows) == (0, 199, (0, 149), (0, 149))
    (g,) = tail.reproduced_files
    assert (g.file, g.window, g.rows) == (f.file, (150, 199), (150, 199))
    assert (d.only_in_original, d.only_in_reproduced) == (0, 50)
    # A gap in the reproduction (150-159, which verify calls an offset-mismatch) and offset
    # 170 changed after it: the offsets both hold compared, nothing vouched for.
    w.write_dataset(tmp_path / "c", [w.table(0, 100), w.table(100, 100)])
    w.write_dataset(tmp_path / "e", [w.table(0, 150), w.table(160, 40, change=170)])
    d = odf_hash.compare_datasets(tmp_path / "c", tmp_path / "e")
    assert d.verdict == "unverified" and not d
    assert [p.to_dict() for p in d.reproduced_check.problems] == [
        p.to_dict() for p in odf_hash.verify(tmp_path / "e").problems]
    assert [(s.start, s.end, s.verdict) for s in d.slices] == [
        (0, 149, "unverified"), (150, 159, "only-in-original"), (160, 199, "unverified")]
    assert [s.comparison.verdict for s in (d.slices[0], d.slices[2])] == [
        "equivalent", "different"]
    last = d.slices[2]
    (o,) = last.original_files
    assert (o.window, o.rows) == ((160, 199), (60, 99))
    (row,) = last.comparison.differing_rows
    assert (row.row, row.offset, row.original, row.reproduced) == (10, 170, "1700", "-1")
    assert last.original_files[row.original_file].start == 100
    assert (d.only_in_original, d.only_in_reproduced) == (10, 0)
    assert d.to_arrow().to_pylist() == [{
        "start": 160, "end": 199, "verdict": "unverified", "column": "v", "row": 10,
        "offset": 170, "original": "1700",
        "reproduced": "-1", "original_file": o.file,
        "reproduced_file": last.reproduced_files[0].file}]


def test_dask_compares_each_common_range_in_one_task(dataset_writer, tmp_path):
    pytest.importorskip("dask")
    import odf_hash.dask

    w = dataset_writer
    w.write_dataset(tmp_path / "a", [w.table(0, 100), w.table(100, 100)])
    w.write_dataset(tmp_path / "b", [w.table(0, 150), w.table(160, 40, change=170),
                                     w.table(200, 20)])
    d = odf_hash.dask.compare_datasets(tmp_path / "a", tmp_path / "b")
    assert d == odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b")
    # The gap makes the reproduction fail verify (offset-mismatch): nothing is vouched for.
    assert d.verdict == "unverified" and not d.reproduced_check.vouched
    assert [(s.start, s.end, s.verdict) for s in d.slices] == [
        (0, 149, "unverified"), (150, 159, "only-in-original"), (160, 199, "unverified"),
        (200, 219, "only-in-reproduced")]
    assert [r.offset for r in d.slices[2].comparison.differing_rows] == [170]


def test_only_the_time_columns_differ(dataset_writer, tmp_path):
    """A reproduction run at another time: its records differ in system_time alone; the
    slice is "different" (arrow0) and says that nothing else differs, here and on Dask."""
    pytest.importorskip("dask")
    import odf_hash.dask

    w = dataset_writer
    w.write_dataset(tmp_path / "a", [w.stamped(0, 40), w.stamped(40, 10)])
    w.write_dataset(tmp_path / "b", [w.stamped(0, 40, hours=2), w.stamped(40, 10, hours=2,
                                                                            change=45)])
    d = odf_hash.compare_datasets(tmp_path / "a", tmp_path / "b")
    assert not d and (d.system_time_column, d.event_time_column) == ("system_time", "event_time")
    assert [(s.verdict, s.only_time_columns_differ) for s in d.slices] == [
        ("different", True), ("different", False)]
    assert d.slices[0].comparison.differing_columns == ["system_time"]
    assert odf_hash.dask.compare_datasets(tmp_path / "a", tmp_path / "b") == d
