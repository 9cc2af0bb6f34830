"""Malachite.Testcontainers against a Docker engine: the image from scripts/package's build context,
tagged malachite:<version>, and testcontainers/ (the README's Testcontainers example and the
module's behaviour: the image required, seed, reset, accounts through the mapped port) run with
MALACHITE_IMAGE naming it. The engine is the running one, or Debian's dockerd started by
tests/docker/engine.py; without one the tests skip saying why (MALACHITE_DOCKER_REQUIRED=1:
they fail). The containers and an image that did not exist before are removed.
"""
import subprocess

import pytest

from nuget_projects import ARCH, DIST, ROOT, figure
from required import unavailable

# tests/docker/engine.py: starts (or finds) the engine, prints "ready <DOCKER_HOST> <what>" or
# "unavailable: <why>", and holds the engine until its standard input closes, then stops it.
ENGINE = ROOT / "tests/docker/engine.py"


@pytest.fixture(scope="module")
def engine(dotnet, work):
    """The environment that reaches a Docker engine (DOCKER_HOST when one was started)."""
    (work / "engine").mkdir()
    holder = subprocess.Popen(["/usr/bin/python3", str(ENGINE), str(work / "engine")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = holder.stdout.readline().strip()
    if not line.startswith("ready "):
        holder.stdin.close()
        holder.wait()
        unavailable("MALACHITE_DOCKER_REQUIRED", "no Docker engine for Malachite.Testcontainers: " +
                    (line[len("unavailable: "):] if line.startswith("unavailable: ") else "the engine helper said nothing"))
    _, host, what = (line.split(" ", 2) + [""])[:3]
    print("engine: " + what)
    env = dict(dotnet.env, DOCKER_HOST=host) if host.startswith("unix://") else dict(dotnet.env)
    yield env
    holder.stdin.close()
    holder.wait(timeout=120)


def docker(env, *args):
    return subprocess.run(["docker"] + list(args), env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def image(engine, bundle, version, work):
    """malachite:<version>, built from dist/'s image context (removed afterwards unless it existed)."""
    context = DIST / ("malachite-%s-image-%s" % (version, ARCH))
    assert (context / "build-args").exists(), "no %s (scripts/package writes it)" % context
    tag = "malachite:" + version
    existed = docker(engine, "image", "inspect", tag).returncode == 0
    build_args = [a for line in (context / "build-args").read_text().splitlines() if line
                  for a in ("--build-arg", line)]
    built = subprocess.run(["docker", "build", "-q"] + build_args + ["-t", tag, str(context)],
                           env=dict(engine, DOCKER_BUILDKIT="0"), capture_output=True, text=True)
    assert built.returncode == 0, "docker build of %s failed:\n%s" % (tag, (built.stdout + built.stderr)[-3000:])
    yield tag
    leftover = docker(engine, "ps", "-aq", "--filter", "ancestor=" + tag).stdout.split()
    if leftover:
        docker(engine, "rm", "-f", *leftover)
    if not existed:
        docker(engine, "rmi", "-f", tag)


def test_the_testcontainers_example_and_module_pass_against_the_image(dotnet, examples, engine, image, capsys):
    # Debian's dockerd speaks API 1.41, older than the one the .NET client asks for by default.
    env = {"DOCKER_API_VERSION": "1.41", "MALACHITE_IMAGE": image}
    if "DOCKER_HOST" in engine:
        env["DOCKER_HOST"] = engine["DOCKER_HOST"]
    passed = dotnet.test(examples / "testcontainers", "testcontainers", env=env)
    figure(capsys, "Testcontainers example and module (%s): %d passed" % (image, passed))


def test_the_testcontainers_tests_leave_no_container_behind(engine, image):
    left = docker(engine, "ps", "-aq", "--filter", "ancestor=" + image).stdout.split()
    assert not left, "%d containers of %s left behind" % (len(left), image)
