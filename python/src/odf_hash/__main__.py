"""``python -m odf_hash ARGS...`` (and the ``odf-hash`` script) runs the odf-hash command line
tool shipped in this package, with the same arguments, output and exit status."""
import os
import sys

from . import cli_path


def main() -> None:
    exe = cli_path()
    argv = [exe, *sys.argv[1:]]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(exe, argv)


if __name__ == "__main__":
    main()
