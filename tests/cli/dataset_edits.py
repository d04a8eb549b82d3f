"""Edits of ODF dataset folders that the CLI and Python tests make to break or copy one: the
example datasets copied, a chain's blocks found by their links, a byte flipped."""
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "datasets"


def copy_example(name, dest):
    shutil.copytree(EXAMPLES / name, dest)
    return dest


def head_block(ds):
    return ds / "blocks" / (ds / "refs" / "head").read_text().strip()


def block_below(ds, block):
    """The block file whose name (a multihash) the bytes of `block` hold: its prevBlockHash."""
    raw = block.read_bytes()
    (below,) = [p for p in (ds / "blocks").iterdir() if bytes.fromhex(p.name[1:]) in raw]
    return below


def flip_middle_byte(path):
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 1
    path.write_bytes(bytes(raw))
