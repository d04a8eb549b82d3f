"""The example datasets and broken copies of them (the breakages the verify tests use), for
the tests that verify them through plan / check / merge and the cluster engines."""
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "datasets"
FIXTURES = ROOT / "tests" / "data" / "odf"


def _flip(path: pathlib.Path) -> None:
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 1
    path.write_bytes(bytes(raw))


def _files(ds: pathlib.Path, folder: str):
    return sorted((ds / folder).iterdir())


def make_variants(base: pathlib.Path) -> dict:
    """{name: dataset folder} under `base`: both pristine examples and broken copies."""
    out = {}

    def copy(name: str, source: str) -> pathlib.Path:
        ds = base / name
        shutil.copytree(EXAMPLES / source, ds)
        out[name] = ds
        return ds

    copy("root", "root")
    copy("derivative", "derivative")
    ds = copy("root-flipped-data-and-stray-file", "root")
    _flip(_files(ds, "data")[0])
    (ds / "data" / "stray.txt").write_text("not part of the dataset")
    ds = copy("root-truncated-checkpoint-deleted-data", "root")
    cp = _files(ds, "checkpoints")[0]
    cp.write_bytes(cp.read_bytes()[:20])
    _files(ds, "data")[1].unlink()
    ds = copy("root-deleted-block", "root")
    _files(ds, "blocks")[2].unlink()
    ds = copy("root-not-a-regular-file", "root")
    victim = _files(ds, "data")[2]
    victim.unlink()
    victim.mkdir()
    # Every data file replaced by a fixture: slice 0 re-encoded (its records match
    # logically, the other slice's do not), or with a changed value (no file matches).
    for name, fixture in (("derivative-reencoded", "derivative-slice0-reencoded.parquet"),
                          ("derivative-changed-value", "derivative-slice0-changed-value.parquet")):
        ds = copy(name, "derivative")
        for f in _files(ds, "data"):
            shutil.copyfile(FIXTURES / fixture, f)
    return out
