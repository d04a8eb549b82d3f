"""odf-hash decode, and the command line as a whole: --help, usage errors."""
import hashlib
import json

import pytest

from conftest import ARROW0_PREFIX, encode, physical_multihash

ABC_DIGEST = hashlib.sha3_256(b"abc").hexdigest()
ABC_CANONICAL = "f1620" + ABC_DIGEST


@pytest.mark.parametrize("base", ["f", "F", "b", "B", "z", "m", "M", "u", "U"])
def test_decode_any_base(run, base):
    text = encode(base, physical_multihash(b"abc"))
    r = run("decode", text)
    assert r.rc == 0, r
    fields = dict(line.split(":", 1) for line in r.out.splitlines())
    fields = {k: v.strip() for k, v in fields.items()}
    assert fields["codec"] == "sha3-256"
    assert fields["code"] == "0x16"
    assert fields["length"] == "32"
    assert fields["digest"] == ABC_DIGEST
    assert fields["canonical"] == ABC_CANONICAL
    assert fields["short"] == ABC_CANONICAL[-8:]


def test_decode_logical_hash(run):
    raw = ARROW0_PREFIX + bytes(range(32))
    r = run("decode", encode("z", raw), "--json")
    assert r.rc == 0, r
    doc = json.loads(r.out)
    assert doc["codec"] == "arrow0-sha3-256"
    assert doc["code"] == 0x300016
    assert doc["code_hex"] == "0x300016"
    assert doc["length"] == 32
    assert doc["digest"] == bytes(range(32)).hex()
    assert doc["canonical"] == "f9680c00120" + bytes(range(32)).hex()
    assert doc["base"] == "base58btc"


def test_decode_json(run):
    doc = json.loads(run("decode", ABC_CANONICAL, "--json").out)
    assert doc == {
        "schema": "odf-hash/decode/1",
        "codec": "sha3-256",
        "code": 0x16,
        "code_hex": "0x16",
        "length": 32,
        "digest": ABC_DIGEST,
        "base": "base16",
        "canonical": ABC_CANONICAL,
        "short": ABC_CANONICAL[-8:],
    }


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "xyz",
        "f1620",  # no digest
        "f1620" + ABC_DIGEST[:-2],  # digest one byte short
        "f1620" + ABC_DIGEST + "00",  # one byte too many
        "f1620" + ABC_DIGEST[:-1] + "g",  # not a hex digit
        "f1720" + ABC_DIGEST,  # unknown code
        "f" + "ff" * 12,  # varint overflow
        "z0OIl",  # not base58btc digits
    ],
)
def test_decode_malformed_exits_2_with_a_message(run, bad):
    r = run("decode", bad)
    assert r.rc == 2, r
    assert r.out == ""
    assert r.err.startswith("odf-hash: ")
    if bad:
        assert r.err.count(f"'{bad}'") == 1  # quoted once (test_messages.py has the hints)
    assert len(r.err.strip()) > len("odf-hash: ") + len(bad) + 4


@pytest.mark.parametrize(
    "args", [[], ["physical"], ["decode"], ["logical"]], ids=["root", "physical", "decode", "logical"]
)
def test_help_exits_0(run, args):
    r = run(*args, "--help")
    assert r.rc == 0
    assert "Usage:" in r.out
    assert "--help" in r.out


def test_physical_help_explains_the_check_flags(run):
    out = run("physical", "--help").out
    for flag in ("--check", "--quiet", "--status", "--strict", "--ignore-missing", "--jobs", "--json"):
        assert flag in out


@pytest.mark.parametrize(
    "args",
    [
        [],  # no command
        ["frobnicate"],
        ["physical", "--no-such-flag"],
        ["physical", "--jobs", "0"],
        ["physical", "--jobs", "many"],
        ["physical", "--quiet", "x"],  # --quiet needs --check
        ["physical", "--check", "no-such-list"],  # lists are operands; this one is missing
        ["logical"],  # FILE required
        ["decode"],  # HASH required
    ],
)
def test_usage_errors_exit_2(run, args):
    r = run(*args)
    assert r.rc == 2, r
    assert r.err != ""


def test_version(run):
    r = run("--version")
    assert r.rc == 0
    assert r.out.startswith("odf-hash ")
