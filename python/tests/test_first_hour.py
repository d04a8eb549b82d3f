"""What a new user meets first (issue 25): Multihash(str) and comparison with strings, a path
given to logical(), and hashes the reference (so kamu) cannot check, said aloud. Expected
multihashes come from hashlib."""
import hashlib
import warnings

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import odf_hash
from odf_hash import Multihash

DIGEST = hashlib.sha3_256(b"multihash").hexdigest()
KNOWN = "f1620" + DIGEST
KNOWN_Z = "zW1a3CNT52HXiJNniLkWMeev3CPRy9QiNRMWGyTrVNg4hY8"


# ---- Multihash -----------------------------------------------------------------------------


def test_multihash_constructor_parses_any_base():
    assert Multihash(KNOWN) == Multihash.parse(KNOWN)
    assert Multihash(KNOWN_Z).digest == bytes.fromhex(DIGEST)
    assert isinstance(Multihash(KNOWN), Multihash)


def test_multihash_equals_its_spellings_as_str():
    h = Multihash(KNOWN)
    assert h == KNOWN and KNOWN == h
    assert h == KNOWN_Z and h == KNOWN.upper().replace("F1620", "F1620")
    assert not (h != KNOWN)
    assert h != KNOWN[:-1]  # not a multihash: unequal, no exception
    assert h != "f1620" + hashlib.sha3_256(b"other").hexdigest()
    assert h != 42 and h is not None
    # Equal objects hash alike: a multihash finds its canonical string in a set or dict.
    assert hash(h) == hash(KNOWN)
    assert h in {KNOWN} and {KNOWN: 1}[h] == 1


@pytest.mark.parametrize(
    "text, hint",
    [
        (KNOWN[:-1], "one character is missing"),
        (DIGEST, f"as a physical hash it is {KNOWN}"),
        (KNOWN[1:], f"the multibase prefix is missing: {KNOWN}"),
    ],
)
def test_multihash_errors_suggest_the_fix(text, hint):
    with pytest.raises(odf_hash.InvalidInputError) as e:
        Multihash(text)
    assert "; hint: " in str(e.value) and hint in str(e.value)
    assert isinstance(e.value, ValueError)
    with pytest.raises(odf_hash.InvalidInputError, match="hint: "):
        Multihash.parse(text)


def test_multihash_docstring_says_how_str_compares():
    assert "Multihash(text)" in Multihash.__doc__
    assert "hash(h) == hash(str(h))" in Multihash.__doc__


# ---- logical() given a path --------------------------------------------------------------


@pytest.mark.parametrize("path", ["data.parquet", b"data.parquet"])
def test_logical_of_a_path_points_to_logical_file(path, tmp_path):
    with pytest.raises(odf_hash.UnsupportedTypeError) as e:
        odf_hash.logical(path)
    assert isinstance(e.value, TypeError)
    assert "use odf_hash.logical_file(" in str(e.value)


def test_logical_of_a_pathlike_points_to_logical_file(tmp_path):
    with pytest.raises(TypeError, match=r"odf_hash\.logical_file\("):
        odf_hash.logical(tmp_path / "data.parquet")


# ---- hashes the reference cannot compute ---------------------------------------------------


def gaps_table():
    return pa.table({
        "id": pa.array([1, 2, 3], pa.int64()),
        "cat": pa.array(["a", "b", "a"]).dictionary_encode(),
        "nothing": pa.nulls(3),
    })


def test_plain_table_is_reference_compatible():
    t = pa.table({"id": pa.array([1, 2, 3], pa.int64()), "s": ["a", "b", None]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = odf_hash.logical(t, columns=True, require_reference_compatible=True)
    assert d.reference_compatible and d.reference_gaps == []
    assert all(c.reference_gap == "" for c in d.columns)


def test_dictionary_and_null_columns_warn_and_are_marked():
    with pytest.warns(odf_hash.ReferenceCompatibilityWarning,
                      match=r"cannot hash columns 'cat' \(dictionary-encoded.*'nothing' \(Null"):
        d = odf_hash.logical(gaps_table(), columns=True)
    assert not d.reference_compatible
    assert [(c.path, c.reference_gap.split(",")[0]) for c in d.reference_gaps] == [
        ("cat", "dictionary-encoded"), ("nothing", "Null type")]
    # The hash is still the spec's: a dictionary hashes as the values it encodes.
    plain = gaps_table().set_column(1, "cat", pa.array(["a", "b", "a"]))
    with pytest.warns(odf_hash.ReferenceCompatibilityWarning):
        assert odf_hash.logical(plain) == d.hash


def test_require_reference_compatible_raises():
    with pytest.raises(odf_hash.UnsupportedTypeError, match="require_reference_compatible"):
        odf_hash.logical(gaps_table(), require_reference_compatible=True)


def test_polars_categorical_is_flagged():
    pl = pytest.importorskip("polars")
    df = pl.DataFrame({"c": pl.Series(["x", "y", "x"], dtype=pl.Categorical)})
    with pytest.warns(odf_hash.ReferenceCompatibilityWarning, match="'c'"):
        odf_hash.logical(df)


def test_files_and_slices_are_flagged(tmp_path):
    path = tmp_path / "gaps.parquet"
    pq.write_table(gaps_table(), path)
    with pytest.warns(odf_hash.ReferenceCompatibilityWarning, match="gaps.parquet"):
        d = odf_hash.logical_file(path, columns=True)
    assert {c.path for c in d.reference_gaps} == {"cat", "nothing"}
    with pytest.warns(odf_hash.ReferenceCompatibilityWarning, match="gaps.parquet"):
        s = odf_hash.slice(path)
    assert s["logicalHash"] == d.hash
    assert set(s) == {"logicalHash", "physicalHash", "offsetInterval", "size"}
    with pytest.raises(odf_hash.UnsupportedTypeError, match="'cat'"):
        odf_hash.slice(path, require_reference_compatible=True)
    with pytest.raises(odf_hash.UnsupportedTypeError, match="'nothing'"):
        odf_hash.logical_file(path, require_reference_compatible=True)


def test_docstrings_carry_the_caveats():
    for doc in (odf_hash.__doc__, odf_hash.logical.__doc__):
        assert "TimeZone" in doc
        assert "Dictionary" in doc
        assert "nullable children" in doc or "nested" in doc or "structs" in doc
