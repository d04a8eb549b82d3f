"""Writes root ODF datasets whose blocks say what the test wants about real data files: a
Seed, then one AddData per slice, each recording the file's real physical hash and size
(hashlib) and whatever offset interval and logical hash the test gives, prevOffset chained so
that the chain itself is consistent. Blocks through the example generator's writers
(scripts/generate_example_datasets.py, the `flatbuffers` builder)."""
import datetime as dt
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import generate_example_datasets as gen  # noqa: E402

T0 = dt.datetime(2025, 9, 1, 12, 0, 0, tzinfo=dt.timezone.utc)


def multihash(text: str) -> bytes:
    """The bytes of a multihash given as "f1620..." (multibase base16)."""
    return gen.multibase16_decode(text)


def forge(path: pathlib.Path, slices):
    """slices: [(data bytes, (start, end), logical multihash bytes)]. Returns the data files'
    keys ("data/f1620..."), in slice order."""
    w = gen.DatasetWriter(path)
    w.commit(T0, gen.EV_SEED, {"dataset_id": gen.dataset_id(f"forged-{path.name}"),
                               "dataset_kind": gen.DATASET_KIND_ROOT})
    keys, prev_offset = [], None
    for i, (data, interval, logical) in enumerate(slices):
        f = w.add_file("data", data)
        w.commit(T0 + dt.timedelta(minutes=i + 1), gen.EV_ADD_DATA, {
            "prev_offset": prev_offset,
            "new_data": {"logical_hash": logical, "physical_hash": f["physical_hash"],
                         "offset_interval": interval, "size": f["size"]}})
        prev_offset = interval[1]
        keys.append("data/" + gen.multibase16(f["physical_hash"]))
    return keys
