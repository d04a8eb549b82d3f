"""Hash traps (issue 36, item 1): a hash that depends on something the data does not show is
warned about (HashTrapWarning, ColumnDigest.hash_note), and what cannot be hashed meaningfully
is refused with what to do. The expectations come from how each test builds its data (the
zone string DuckDB is told to use, where the nulls are), and each warned hash is checked to
be the hash itself, unchanged by the warning (the same as with the warning silenced)."""
import warnings

import pytest

import odf_hash

pa = pytest.importorskip("pyarrow")


def no_warning(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn()


@pytest.mark.parametrize("zone", ["Etc/UTC", "GMT", "Zulu"])
def test_a_duckdb_session_in_a_utc_alias_warns(zone):
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.execute(f"SET TimeZone = '{zone}'")
    rel = con.sql("SELECT TIMESTAMPTZ '2024-01-01 00:00:00+00' AS ts")
    with pytest.warns(odf_hash.HashTrapWarning,
                      match=rf"column 'ts': time zone '{zone}' is another name of UTC"):
        d = odf_hash.logical(rel, columns=True)
    assert d.columns[0].hash_note.startswith(f"time zone '{zone}'")
    con.execute("SET TimeZone = 'UTC'")
    utc = no_warning(lambda: odf_hash.logical(con.sql(
        "SELECT TIMESTAMPTZ '2024-01-01 00:00:00+00' AS ts")))
    assert utc != d.hash  # the trap: the same instant, another hash


def test_a_real_zone_and_no_zone_do_not_warn():
    for tz in ("UTC", "Europe/Berlin", None):
        t = pa.table({"ts": pa.array([0, 1], pa.timestamp("ms", tz=tz))})
        d = no_warning(lambda: odf_hash.logical(t, columns=True))
        assert d.columns[0].hash_note == ""


def test_nulls_at_two_struct_levels_warn_and_one_level_does_not():
    child = pa.array([1, None, 3], pa.int64())
    both = pa.StructArray.from_arrays([child], ["c"], mask=pa.array([False, False, True]))
    with pytest.warns(odf_hash.HashTrapWarning, match=r"column 's.c': a nullable struct above"):
        d = odf_hash.logical(pa.table({"s": both}), columns=True)
    assert "bytes under null slots" in d.columns[0].hash_note
    parent_only = pa.StructArray.from_arrays([pa.array([1, 2, 3], pa.int64())], ["c"],
                                             mask=pa.array([False, False, True]))
    child_only = pa.StructArray.from_arrays([child], ["c"])
    for s in (parent_only, child_only):
        d = no_warning(lambda: odf_hash.logical(pa.table({"s": s}), columns=True))
        assert d.columns[0].hash_note == ""


def test_polars_objects_lazy_frames_and_int128_are_refused_with_what_to_do():
    pl = pytest.importorskip("polars")
    df = pl.DataFrame({"o": pl.Series([object(), object()], dtype=pl.Object), "i": [1, 2]})
    with pytest.raises(odf_hash.UnsupportedTypeError, match="'o' is of type Object: .*memory"):
        odf_hash.logical(df)
    with pytest.raises(odf_hash.UnsupportedTypeError, match="Object"):
        odf_hash.logical(df["o"])
    with pytest.raises(odf_hash.UnsupportedTypeError, match=r"LazyFrame .*collect it first"):
        odf_hash.logical(pl.DataFrame({"i": [1]}).lazy())
    big = pl.DataFrame({"x": pl.Series([1], dtype=pl.Int128)})
    with pytest.raises(odf_hash.UnsupportedTypeError, match="Int128, which has no Arrow type"):
        odf_hash.logical(big)
    fine = big.with_columns(pl.col("x").cast(pl.Int64))
    assert no_warning(lambda: odf_hash.logical(fine)) == odf_hash.logical(
        pa.table({"x": pa.array([1], pa.int64())}))
