"""docker/Dockerfile, docker/docker-compose.yml and the image's root, without a Docker engine.

The image is the release's one static binary and nothing else: scripts/package makes its build
context (dist/malachite-<v>-image-<arch>/: rootfs.tar, the Dockerfile, build-args). The root is
also run chroot'ed as the image's user with the image's environment (no /proc), through the Python
client's launcher: it starts, answers the HEALTHCHECK's own command and stops cleanly on SIGTERM
with its data in /data.
"""
import os
import re
import shlex
import shutil
import subprocess
import tarfile

import pytest
import yaml

from conftest import REPO
from pytest_malachite import start_malachite
from required import unavailable


def _instructions(path):
    """The Dockerfile's instructions as (KEYWORD, arguments), continuations joined."""
    out, pending = [], ""
    for line in open(path):
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        keyword, _, args = (pending + stripped).partition(" ")
        pending = ""
        out.append((keyword.upper(), args.strip()))
    return out


@pytest.fixture(scope="module")
def dockerfile():
    by_keyword = {}
    for keyword, args in _instructions(REPO / "docker/Dockerfile"):
        by_keyword.setdefault(keyword, []).append(args)
    return by_keyword


@pytest.fixture(scope="module")
def image_root(image_context, tmp_path_factory):
    root = tmp_path_factory.mktemp("image-root")
    with tarfile.open(image_context / "rootfs.tar") as tar:
        tar.extractall(root, numeric_owner=True)  # noqa: S202 (our own artefact)
    return root


@pytest.fixture(scope="module")
def options(binary):
    """The malachite --help text: every MALACHITE_* variable it knows is named there."""
    return subprocess.run([binary, "--help"], capture_output=True, text=True, check=True).stdout


def _unknown_variables(names, options):
    return [n for n in names if n.startswith("MALACHITE_") and not re.search(r"\b%s\b" % n, options)]


def test_the_image_is_one_stage_from_scratch_holding_only_rootfs_tar(dockerfile):
    assert dockerfile.get("FROM") == ["scratch"], "expected one stage FROM scratch, got %s" % dockerfile.get("FROM")
    assert dockerfile.get("ADD") == ["rootfs.tar /"], "the image is not ADD rootfs.tar /: %s" % dockerfile.get("ADD")
    assert "COPY" not in dockerfile, "the image copies more than rootfs.tar: %s" % dockerfile["COPY"]


def test_the_image_runs_as_a_numeric_non_root_user_owning_data(dockerfile, image_root):
    uid = dockerfile.get("USER", ["root"])[-1].partition(":")[0]
    assert uid.isdigit() and uid != "0", "USER %s is not a numeric non-root uid (no /etc/passwd)" % uid
    assert str(os.stat(image_root / "data").st_uid) == uid, "/data is not owned by the image's uid %s" % uid


def test_the_root_holds_the_static_binary_data_and_tmp_only(image_root):
    files = sorted(os.path.relpath(os.path.join(d, f), image_root)
                   for d, dirs, names in os.walk(image_root) for f in names + dirs)
    assert files == ["data", "tmp", "usr", "usr/local", "usr/local/bin", "usr/local/bin/malachite"], \
        "the image's root holds more than the binary, /data and /tmp: %s" % files
    elf = subprocess.run(["readelf", "-l", "-d", str(image_root / "usr/local/bin/malachite")],
                         capture_output=True, text=True, check=True).stdout
    assert "program interpreter" not in elf and "(NEEDED)" not in elf, \
        "the image's binary is not static (it names a loader or shared libraries)"


def test_the_image_listens_on_10002_with_a_data_volume(dockerfile):
    env = " ".join(dockerfile.get("ENV", []))
    assert "MALACHITE_HOST=0.0.0.0" in env and "MALACHITE_DATA_DIR=/data" in env, \
        "the image does not listen on 0.0.0.0 with its data in /data: ENV %s" % env
    assert dockerfile.get("VOLUME") == ["/data"], "VOLUME is not /data"
    assert dockerfile.get("EXPOSE") == ["10002"], "the image does not EXPOSE 10002"
    assert dockerfile.get("ENTRYPOINT") == ['["malachite"]'], "ENTRYPOINT is not malachite"


def test_the_healthcheck_is_the_binarys_own_exec_form_probe(dockerfile):
    assert any('CMD ["malachite", "--probe"' in h for h in dockerfile.get("HEALTHCHECK", [])), \
        "no exec-form HEALTHCHECK through malachite --probe (the image has no shell)"


def test_the_image_carries_the_oci_labels(dockerfile):
    labels = " ".join(dockerfile.get("LABEL", []))
    missing = [l for l in ("version", "revision", "source", "licenses")
               if "org.opencontainers.image.%s=" % l not in labels]
    assert not missing, "no org.opencontainers.image label for %s" % missing


def test_every_malachite_variable_the_image_sets_is_an_option(dockerfile, options):
    names = re.findall(r"(\w+)=", " ".join(dockerfile.get("ENV", [])))
    assert not _unknown_variables(names, options), "ENV names unknown options: %s" % _unknown_variables(names, options)


@pytest.fixture(scope="module")
def compose():
    return yaml.safe_load(open(REPO / "docker/docker-compose.yml"))


def test_compose_uses_the_released_image_with_the_exec_form_probe(compose):
    service = compose["services"]["malachite"]
    assert "build" not in service, "compose builds the image; it comes from scripts/package"
    assert "malachite" in service.get("image", ""), "compose names no malachite image"
    test = service.get("healthcheck", {}).get("test", [])
    assert test[:3] == ["CMD", "malachite", "--probe"], "compose healthcheck is not the exec-form probe: %s" % test


def test_compose_publishes_malachite_port_and_a_declared_data_volume(compose):
    service = compose["services"]["malachite"]
    assert any(str(p).endswith(":${MALACHITE_PORT:-10002}") for p in service.get("ports", [])), \
        "compose does not publish MALACHITE_PORT (default 10002): %s" % service.get("ports")
    assert service.get("volumes"), "compose mounts no volume"
    for volume in service["volumes"]:
        name, _, target = volume.partition(":")
        assert target == "/data", "compose volume %s is not mounted at /data" % volume
        assert name in (compose.get("volumes") or {}), "compose volume %s is not declared" % name


def test_every_variable_compose_sets_is_an_option(compose, options):
    names = list(compose["services"]["malachite"].get("environment") or {})
    assert not _unknown_variables(names, options), "compose sets unknown options: %s" % _unknown_variables(names, options)


@pytest.fixture(scope="module")
def as_the_image(dockerfile, image_root, tmp_path_factory):
    """as_the_image(*argv, env=()): a command running argv in the image's root, chroot'ed as its
    user with only the image's environment (its ENV lines, then `env`)."""
    if os.geteuid() != 0:
        unavailable("MALACHITE_DOCKER_REQUIRED", "chroot into the image's root needs root")
    image_env = re.findall(r"(\w+=\S+)", " ".join(dockerfile["ENV"]))
    chroot = [shutil.which("chroot"), "--userspec=" + dockerfile["USER"][-1], str(image_root)]
    return lambda *argv, env=(): ["env", "-i", *image_env, *env, *chroot, *argv]


def test_the_root_starts_as_its_user_answers_its_healthcheck_and_stops_cleanly(as_the_image, image_root,
                                                                              tmp_path):
    entrypoint = tmp_path / "entrypoint"
    entrypoint.write_text("#!/bin/sh\nexec %s \"$@\"\n"
                          % " ".join(map(shlex.quote, as_the_image("/usr/local/bin/malachite"))))
    entrypoint.chmod(0o755)
    server = start_malachite(binary=entrypoint, in_memory=False, data_dir="/data")
    try:
        # The HEALTHCHECK's own command, the image's environment naming the port the server got.
        probe = subprocess.run(as_the_image("malachite", "--probe", "/-/ready",
                                            env=["MALACHITE_PORT=%d" % server.port]),
                               capture_output=True, text=True)
        assert probe.returncode == 0, "the HEALTHCHECK's command did not get 200 from /-/ready: %s\n%s" % (
            probe.stderr, server.output())
    finally:
        status = server.stop()
    assert status == 0, "SIGTERM stop exited %s; its last lines:\n%s" % (status, server.output())
    assert (image_root / "data/data.mdb").is_file(), "no data.mdb in the image's /data"
