"""Messages a new user meets (issue 25): every error names the file and, for data, the column
and what was being done; `decode` says what to fix; a mistyped command gets the nearest one;
`help [COMMAND]`; help text without parser internals.

Expected multihashes are built here from hashlib (conftest.py), never by odf-hash.
"""
import hashlib
import os
import re
import subprocess

import pytest

from conftest import ARROW0_PREFIX, encode, physical_hash, physical_multihash

ABC = physical_hash(b"abc")  # f1620 + SHA3-256("abc")
ABC_DIGEST = hashlib.sha3_256(b"abc").hexdigest()
COMMANDS = ["physical", "logical", "decode", "verify", "compare", "slice", "help"]


# ---- decode: what to fix ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, hint",
    [
        (ABC[:-1], "one character is missing (a sha3-256 multihash in base16 has 69 characters, "
                   "this has 68)"),
        (ABC[:20] + ABC[21:], "one character is missing"),
        (ABC + "0", "one character too many"),
        ("f" + (ARROW0_PREFIX + b"\x11" * 32).hex()[:-1],
         "one character is missing (an arrow0-sha3-256 multihash in base16 has 75 characters"),
        (encode("z", physical_multihash(b"abc"))[:-1],
         "one character is missing (a sha3-256 multihash in base58btc has 47"),
        (ABC_DIGEST, f"this is a bare SHA3-256 digest (64 hex digits), not a multihash; as a "
                     f"physical hash it is {ABC} (as a logical hash, f9680c0012{ABC_DIGEST})"),
        (ABC_DIGEST.upper(), f"as a physical hash it is {ABC}"),
        (ABC[1:], f"the multibase prefix is missing: {ABC}"),
        (f" {ABC}\n", f"remove the spaces or quotes around it: '{ABC}'"),
        (f'"{ABC}"', f"remove the spaces or quotes around it: '{ABC}'"),
    ],
    ids=["last-missing", "middle-missing", "extra", "logical-missing", "base58-missing",
         "bare-digest", "bare-upper", "no-prefix", "spaces", "quotes"],
)
def test_decode_suggests_the_fix(run, text, hint):
    r = run("decode", text)
    assert r.rc == 2, r
    assert r.out == ""
    lines = r.err.splitlines()
    assert len(lines) == 2, r.err
    assert lines[1].startswith("odf-hash: hint: ")
    assert hint in lines[1]
    # The first line is the error, quoting the hash once (it used to be quoted twice).
    assert lines[0].count("hash '") == 1


def test_decode_hint_is_a_hash_that_decodes(run):
    r = run("decode", ABC_DIGEST)
    suggested = r.err.split("as a physical hash it is ")[1].split(" ")[0]
    ok = run("decode", suggested)
    assert ok.rc == 0
    assert f"digest:    {ABC_DIGEST}\n" in ok.out


def test_decode_no_hint_for_nonsense(run):
    r = run("decode", "xyz")
    assert r.rc == 2
    assert "hint" not in r.err


# ---- data errors name the file, the column, and what was done -----------------------------


def test_corrupt_column_named_with_row_group_and_encoding(run, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    t = pa.table({"id": pa.array(range(100), pa.int64()),
                  "price": pa.array(range(0, 1000, 10), pa.int64())})
    good = tmp_path / "good.parquet"
    pq.write_table(t, good, use_dictionary=False, compression="none",
                   column_encoding={"id": "PLAIN", "price": "DELTA_BINARY_PACKED"})
    chunk = pq.ParquetFile(good).metadata.row_group(0).column(1)
    raw = good.read_bytes()
    bad = tmp_path / "bad.parquet"
    messages = []
    # Every byte of the DELTA_BINARY_PACKED column chunk in turn: some flips leave the values
    # decodable, the others must all be reported on that column.
    for at in range(chunk.data_page_offset, chunk.data_page_offset + chunk.total_compressed_size):
        b = bytearray(raw)
        b[at] ^= 0xFF
        bad.write_bytes(bytes(b))
        r = run("logical", str(bad))
        if r.rc != 0:
            assert r.err.startswith(f"odf-hash: {bad}: reading record batch 1: decoding "), r.err
            messages.append(r.err)
    assert messages
    on_column = [m for m in messages if "decoding column 'price' (row group 0 of 1; encodings "
                 in m and "DELTA_BINARY_PACKED" in m]
    # A flip can also make the page hold another row count, which Arrow C++ finds only when
    # putting the columns together ("decoding row group 0 of 1: ..."): still where.
    assert len(on_column) >= len(messages) * 3 // 4, messages
    assert all("column 'id'" not in m for m in messages)


# ---- commands ---------------------------------------------------------------------------


@pytest.mark.parametrize("typed, meant", [("logcal", "logical"), ("pyhsical", "physical"),
                                          ("verfy", "verify"), ("decod", "decode"),
                                          ("slcie", "slice")])
def test_mistyped_command_suggests_the_nearest(run, typed, meant):
    r = run(typed, "x")
    assert r.rc == 2
    assert r.out == ""
    assert r.err == f"odf-hash: unknown command '{typed}'; did you mean '{meant}'?\n"


def test_unknown_command_lists_the_commands(run):
    r = run("frobnicate")
    assert r.rc == 2
    for c in COMMANDS:
        assert c in r.err


def test_no_command_prints_the_overview_and_exits_2(run):
    r = run()
    assert r.rc == 2
    assert r.out == ""
    assert "Usage: odf-hash" in r.err
    assert "A subcommand is required" not in r.err


@pytest.mark.parametrize("command", COMMANDS[:-1])
def test_help_command_is_the_commands_help(run, command):
    r = run("help", command)
    assert (r.rc, r.err) == (0, "")
    assert r.out == run(command, "--help").out
    assert r.out.splitlines()[1].startswith(f"Usage: odf-hash {command} ")


def test_help_alone_and_unknown(run):
    r = run("help")
    assert r.rc == 0
    assert r.out == run("--help").out
    for c in COMMANDS:
        assert f"\n  {c} " in r.out
    r = run("help", "logcal")
    assert r.rc == 2
    assert r.err == "odf-hash: help: unknown command 'logcal'; did you mean 'logical'?\n"


@pytest.mark.parametrize("command", [[]] + [[c] for c in COMMANDS])
def test_help_shows_no_parser_internals(run, command):
    out = run(*command, "--help").out
    for internal in ("->", "UINT", "ENUM", "TEXT", " in [", "OR {"):
        assert internal not in out, (internal, out)


@pytest.mark.parametrize("args,message", [
    (["compare", "--ignore-colums", "x", "a", "b"],
     "odf-hash compare: unknown option '--ignore-colums'; did you mean '--ignore-columns'?"),
    (["logical", "--colums", "x"],
     "odf-hash logical: unknown option '--colums'; did you mean '--columns'?"),
    (["physical", "-y", "x"], "odf-hash physical: unknown option '-y'"),
    (["verify", "--zzzzzzzz", "x"], "odf-hash verify: unknown option '--zzzzzzzz'"),
    (["compare", "a", "b", "c", "d"], "odf-hash compare: unexpected arguments 'c', 'd'"),
    (["slice", "a", "b"], "odf-hash slice: unexpected argument 'b'"),
    (["verify"], "odf-hash verify: DATASET is required (or --pins FILE: the datasets it names)"),
    (["compare", "a"], "odf-hash compare: REPRODUCED is required"),
    (["compare", "--rows=abc", "a", "b"], "odf-hash compare: --rows: 'abc' is not a number >= 0"),
    (["compare", "--rtol", "-1", "a", "b"], "odf-hash compare: --rtol: '-1' is not a number >= 0"),
    (["--versoin"], "odf-hash: a command is required (physical, logical, verify, compare, ...)"),
])
def test_usage_errors_name_the_command_and_where_the_help_is(run, args, message):
    """A usage error says which command, what was wrong (the nearest option for a mistyped
    long one), and where the help is, as coreutils do; stdout stays empty, exit 2."""
    r = run(*args)
    assert (r.rc, r.out) == (2, ""), r
    who = message.split(":", 1)[0]
    assert r.err == f"{message}\nTry '{who} --help' for more information.\n", r.err


def test_store_options_are_named_once_and_explained_by_help_stores(run):
    """Each command's --help names the remote-store options on a few lines; `odf-hash help
    stores` explains every one of them and what a URL can be (issue 36, item 4)."""
    stores = run("help", "stores")
    assert stores.rc == 0, stores
    options = ["--endpoint-url", "--region", "--no-sign-request", "--connect-timeout",
               "--read-timeout", "--max-attempts", "--ipfs-gateway", "--trust-gateway"]
    for option in options:
        assert re.search(rf"^  {option}\b.*\S", stores.out, re.M), option
    assert "s3://bucket/prefix (the AWS credential chain" in stores.out
    for command in ("physical", "logical", "verify", "compare", "slice"):
        text = run(command, "--help").out
        section = text.split("Remote stores (s3://, http://, https://, ipfs://, ipns://):\n")[1]
        lines = section.split("\n\n")[0].splitlines()
        assert len(lines) <= 4 and lines[-1] == "  ('odf-hash help stores' explains them)", text
        assert all(option in section for option in options), (command, section)
        assert "help stores" in text.splitlines()[-1] or "help stores" in text
