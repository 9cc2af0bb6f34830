"""The Docker images' tests: the files and the image roots without an engine (always), and with a
Docker engine (marked `engine`) the image, its compose file and the Azurite-compatible image the
ways teams start Azurite.

    /usr/bin/python3 -m pytest tests/docker -m "not engine"   no engine needed
    /usr/bin/python3 -m pytest tests/docker -m engine         builds and runs the images

The build contexts come from scripts/package (run once per session; fast when its build is warm)
into MALACHITE_DIST (default dist/). The engine is the running one or Debian's dockerd started for
the session (engine.py); where none can run the engine tests skip with why, and fail when
MALACHITE_DOCKER_REQUIRED=1 (CI). MALACHITE_BINARY: the binary the host-side tests run (default
build/Release/malachite).
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests/support"))
sys.path.insert(0, str(REPO / "clients/python/src"))

from engine import Docker, Engine  # noqa: E402
from required import unavailable  # noqa: E402

WELL_KNOWN_KEY = ("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
                  "K1SZFPTOtr/KBHBeksoGMGw==")


def pytest_configure(config):
    config.addinivalue_line("markers", "engine: needs a Docker engine (started for the session "
                            "when none runs; MALACHITE_DOCKER_REQUIRED=1: its absence fails)")


@pytest.fixture(scope="session")
def binary():
    path = os.environ.get("MALACHITE_BINARY") or str(REPO / "build/Release/malachite")
    assert os.access(path, os.X_OK), "no malachite binary at %s (scripts/build Release, or set " \
        "MALACHITE_BINARY)" % path
    return path


@pytest.fixture(scope="session")
def version():
    return subprocess.run([str(REPO / "scripts/package"), "--version"], capture_output=True,
                          text=True, check=True).stdout.strip()


def _package(*flags):
    """Runs scripts/package into MALACHITE_DIST once per set of flags; returns the folder."""
    dist = Path(os.environ.get("MALACHITE_DIST") or REPO / "dist")
    done = subprocess.run([str(REPO / "scripts/package"), "--out", str(dist), *flags],
                          capture_output=True, text=True)
    assert done.returncode == 0, "scripts/package %s failed:\n%s" % (
        " ".join(flags), (done.stdout + done.stderr)[-3000:])
    return dist


@pytest.fixture(scope="session")
def image_context(version):
    """dist/malachite-<v>-image-<arch>/: rootfs.tar, the Dockerfile, build-args."""
    return _package() / ("malachite-%s-image-%s" % (version, os.uname().machine))


@pytest.fixture(scope="session")
def azurite_image_context(version):
    """dist/malachite-<v>-image-azurite-<arch>/ (scripts/package --image-azurite)."""
    return _package("--image-azurite") / ("malachite-%s-image-azurite-%s"
                                          % (version, os.uname().machine))


@pytest.fixture(scope="session")
def engine(tmp_path_factory):
    engine = Engine(Path("/tmp") / ("malachite-docker-%d" % os.getpid()))
    why = engine.start()
    if why is not None:
        engine.stop()
        unavailable("MALACHITE_DOCKER_REQUIRED", why)
    print("\ndocker engine: " + engine.what)
    yield engine
    engine.stop()


@pytest.fixture(scope="session")
def docker(engine):
    """The docker command line on the engine; removes what the session made through it."""
    os.environ["DOCKER_BUILDKIT"] = "0"
    os.environ["COMPOSE_DOCKER_CLI_BUILD"] = "0"
    docker = Docker("malachitetest%d" % os.getpid())
    yield docker
    docker.remove_all()
