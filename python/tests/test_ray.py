"""odf_hash.ray on a real local Ray instance (two CPUs, no dashboard; one session for the
module, Ray's start-up being slow): the reports equal the local odf_hash.verify on every
example dataset and broken copy."""
import shutil
import tempfile

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed (scripts/bootstrap.sh installs it)")

import odf_hash  # noqa: E402
import odf_hash.ray  # noqa: E402
from datasets import make_variants  # noqa: E402


@pytest.fixture(scope="module")
def session():
    # A short folder of its own (Ray's socket paths must stay under 108 bytes), removed after.
    temp = tempfile.mkdtemp(prefix="odfray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             _temp_dir=temp)
    yield
    ray.shutdown()
    shutil.rmtree(temp, ignore_errors=True)


def test_ray_reports_equal_local(session, tmp_path_factory, capsys):
    variants = make_variants(tmp_path_factory.mktemp("ray-data"))
    for name, ds in variants.items():
        assert odf_hash.ray.verify(ds, progress=False) == odf_hash.verify(ds), name
    ds = variants["derivative-reencoded"]
    assert (odf_hash.ray.verify(ds, integrity_only=True, max_retries=1)
            == odf_hash.verify(ds, integrity_only=True))
    capsys.readouterr()
    odf_hash.ray.verify(variants["root"], progress=True)
    err = capsys.readouterr().err
    assert "5/5" in err  # tqdm's bar, or the plain line without tqdm
