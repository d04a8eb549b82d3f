"""Shell completions and the man page (issue 25), written from the CLI's own definitions:
every command and every long option of each is in each of them, the bash script completes
in a real bash, and the build writes the same files `cmake --install` installs."""
import os
import pathlib
import re
import shutil
import subprocess

import pytest


def commands(run):
    """The commands `odf-hash --help` lists (CLI11's own listing)."""
    out = run("--help").out
    listed = out.split("Subcommands:\n", 1)[1]
    return [m.group(1) for m in re.finditer(r"^  ([a-z]+) ", listed, re.M)]


def long_options(run, command):
    out = run(command, "--help").out
    # The option lines of the listing: "  -j,--jobs N   ...", "  --json   ...".
    return sorted(set(re.findall(r"^  (?:-[a-z],)?(--[a-z][a-z0-9-]*)", out, re.M)))


def test_help_lists_the_commands(run):
    assert {"physical", "logical", "decode", "verify", "compare", "slice", "help",
            "completions"} <= set(commands(run))


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish", "man"])
def test_every_command_and_option_is_in_the_reference(run, shell):
    r = run("completions", shell)
    assert r.rc == 0 and r.err == ""
    text = r.out.replace("\\-", "-")  # roff escapes dashes
    for command in commands(run):
        assert re.search(rf"\b{command}\b", text), (shell, command)
        for option in long_options(run, command):
            bare = option[2:]
            assert option in text or f"-l {bare}" in text, (shell, command, option)


def test_unknown_shell_is_a_usage_error(run):
    r = run("completions", "powershell")
    assert r.rc == 2
    assert "one of bash, zsh, fish, man" in r.err


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
@pytest.mark.parametrize(
    "words, expected",
    [
        (["lo"], {"logical"}),
        (["logical", "--column-streams", ""], {"auto", "on", "off"}),
        (["physical", "--ch"], {"--check"}),
        (["verify", "--int"], {"--integrity-only"}),
    ],
)
def test_bash_completes(run, odf_hash_bin, words, expected):
    script = run("completions", "bash").out
    words = ["odf-hash"] + words
    line = "COMP_WORDS=(" + " ".join(f"'{w}'" for w in words) + f"); COMP_CWORD={len(words) - 1}"
    r = subprocess.run(["bash", "-c", f"{script}\n{line}; _odf_hash; printf '%s\\n' \"${{COMPREPLY[@]}}\""],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert set(r.stdout.split()) == expected


@pytest.mark.skipif(shutil.which("zsh") is None, reason="no zsh")
def test_zsh_script_parses(run, tmp_path):
    (tmp_path / "_odf-hash").write_text(run("completions", "zsh").out)
    r = subprocess.run(["zsh", "-n", str(tmp_path / "_odf-hash")], capture_output=True, timeout=30)
    assert r.returncode == 0, r.stderr


@pytest.mark.skipif(shutil.which("fish") is None, reason="no fish")
def test_fish_script_parses(run, tmp_path):
    (tmp_path / "odf-hash.fish").write_text(run("completions", "fish").out)
    r = subprocess.run(["fish", "-n", str(tmp_path / "odf-hash.fish")], capture_output=True,
                       timeout=30)
    assert r.returncode == 0, r.stderr


@pytest.mark.skipif(shutil.which("man") is None, reason="no man")
def test_man_page_renders(run, tmp_path):
    page = tmp_path / "odf-hash.1"
    page.write_text(run("completions", "man").out)
    r = subprocess.run(["man", "-l", str(page)], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"})
    assert r.returncode == 0, r.stderr
    assert "ODF-HASH(1)" in r.stdout
    assert "--require-reference-compatible" in r.stdout
    assert "EXIT STATUS" in r.stdout


def test_build_writes_and_installs_them(run, odf_hash_bin):
    build = pathlib.Path(odf_hash_bin).resolve().parent
    share = build / "share"
    if not (share / "man" / "man1" / "odf-hash.1").exists():
        pytest.skip("not a CMake build tree of the CLI")
    for shell, rel in [("bash", "bash-completion/completions/odf-hash"),
                       ("zsh", "zsh/site-functions/_odf-hash"),
                       ("fish", "fish/vendor_completions.d/odf-hash.fish"),
                       ("man", "man/man1/odf-hash.1")]:
        assert (share / rel).read_text() == run("completions", shell).out, rel
    rules = (build / "tools" / "odf-hash" / "cmake_install.cmake").read_text()
    for dest in ("share/bash-completion/completions", "share/zsh/site-functions",
                 "share/fish/vendor_completions.d", "share/man/man1"):
        assert dest in rules, dest
