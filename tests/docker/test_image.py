"""docker/Dockerfile and docker/docker-compose.yml with a real Docker engine: the image from the
release bundle's context (FROM scratch: nothing to pull) builds, answers, stays healthy on another
port and over HTTPS, serves the Python SDK, keeps its data across a restart, says 409 on a full
/dev/shm, runs under compose, and its linux/arm64 twin answers under qemu.
"""
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from azure.core.exceptions import HttpResponseError
from azure.data.tables import TableServiceClient

from conftest import REPO, WELL_KNOWN_KEY
from required import unavailable

pytestmark = pytest.mark.engine
ROWS = {"a": 1, "b": 2, "c": 3}


@pytest.fixture(scope="module")
def image(docker, image_context):
    return docker.build("malachite-test:%s" % docker.run_id, image_context)


def tables(port):
    return TableServiceClient.from_connection_string(
        "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=%s;"
        "TableEndpoint=http://127.0.0.1:%d/devstoreaccount1;" % (WELL_KNOWN_KEY, port), retry_total=0)


def status(url, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def started(docker, name, port, *argv):
    """A container of the image, healthy, with `port` published on loopback: (name, host port)."""
    container = docker.run(name, "-p", "127.0.0.1::%d" % port, *argv)
    docker.wait_healthy(container)
    return container, docker.host_port(container, port)


def write_rows(port):
    table = tables(port).create_table_if_not_exists("dockercheck")
    for row, n in ROWS.items():
        table.upsert_entity({"PartitionKey": "p", "RowKey": row, "n": n})


def read_rows(port):
    return {e["RowKey"]: e["n"] for e in
            tables(port).get_table_client("dockercheck").query_entities("PartitionKey eq 'p'")}


def test_the_image_is_at_most_40_mb(docker, image):
    size = int(docker("image", "inspect", "-f", "{{.Size}}", image).stdout)
    assert size <= 40_000_000, "the image is %d MB, over 40 MB" % (size // 1_000_000)


def test_the_image_carries_the_release_version_label(docker, image, version):
    found = docker("image", "inspect", "-f", '{{index .Config.Labels "org.opencontainers.image.version"}}',
                   image).stdout.strip()
    assert found == version, "org.opencontainers.image.version is %r, not %s" % (found, version)


def test_a_container_answers_ready_within_20_s_of_docker_run(docker, image):
    begun = time.monotonic()
    container = docker.run("ready", "-p", "127.0.0.1::10002", image)
    port = docker.host_port(container, 10002)
    while not _ready(port):
        assert time.monotonic() - begun < 20, "no answer on /-/ready within 20 s of docker run"
        time.sleep(0.005)
    print("/-/ready answered %.0f ms after docker run" % ((time.monotonic() - begun) * 1000))
    docker("rm", "-f", container)


def _ready(port):
    try:
        return status("http://127.0.0.1:%d/-/ready" % port) == 200
    except OSError:  # not listening yet, or the connection reset while it starts
        return False


@pytest.fixture(scope="module")
def main(docker, image):
    """A healthy container with a named volume at /data: (container, host port)."""
    return started(docker, "main", 10002, "-v", docker.volume("data") + ":/data", image)


def test_a_healthy_container_serves_the_python_sdk(main):
    write_rows(main[1])
    assert read_rows(main[1]) == ROWS


def test_metrics_are_closed_to_the_host_unless_given_the_account_key(main):
    endpoint = "http://127.0.0.1:%d" % main[1]
    got = (status(endpoint + "/-/ready"), status(endpoint + "/-/metrics"),
           status(endpoint + "/-/metrics", {"Authorization": "Bearer " + WELL_KNOWN_KEY}))
    assert got == (200, 401, 200), "ready, metrics, metrics with the key answered %s" % (got,)


def test_the_data_survive_a_container_restart(docker, main):
    write_rows(main[1])
    docker("restart", main[0])
    docker.wait_healthy(main[0])
    found = read_rows(docker.host_port(main[0], 10002))
    assert found == ROWS, "after the restart the table holds %s" % found


def test_it_stays_healthy_on_another_port(docker, image):
    started(docker, "port", 10005, "-e", "MALACHITE_PORT=10005", image)


def test_it_stays_healthy_over_https(docker, image, tmp_path):
    certs = tmp_path / "certs"
    certs.mkdir(mode=0o755)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=localhost", "-keyout", str(certs / "key.pem"), "-out", str(certs / "cert.pem")],
                   capture_output=True, check=True)
    for pem in certs.iterdir():
        pem.chmod(0o644)  # the image runs as uid 10002
    started(docker, "tls", 10002, "-v", "%s:/certs:ro" % certs, "-e", "MALACHITE_CERT=/certs/cert.pem",
            "-e", "MALACHITE_KEY=/certs/key.pem", image)


def test_in_memory_on_a_full_dev_shm_answers_409_and_keeps_what_it_acknowledged(docker, image):
    _, port = started(docker, "shm", 10002, "--shm-size", "8m", "-e", "MALACHITE_IN_MEMORY=1", image)
    table = tables(port).create_table("shmfill")
    acknowledged = []
    for i in range(400):
        try:
            table.create_entity({"PartitionKey": "p", "RowKey": "r%04d" % i, "b": b"z" * 60000})
        except HttpResponseError as error:
            code = error.response.headers.get("x-ms-error-code")
            assert (error.status_code, code) == (409, "InsufficientAccountResources"), \
                "a full /dev/shm answered %s %s" % (error.status_code, code)
            break
        acknowledged.append("r%04d" % i)
    else:
        pytest.fail("400 entities of 60 KB fit in an 8 MB /dev/shm")
    listed = [e["RowKey"] for e in table.list_entities(select=["RowKey"])]
    assert listed == acknowledged, "listed %d of %d acknowledged entities" % (len(listed), len(acknowledged))


def test_the_compose_service_becomes_healthy_and_serves_the_sdk(docker, image):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    compose = ["docker-compose", "-p", docker.run_id, "-f", str(REPO / "docker/docker-compose.yml")]
    env = {**os.environ, "MALACHITE_IMAGE": image, "MALACHITE_PORT": str(port)}
    try:
        up = subprocess.run(compose + ["up", "-d"], env=env, capture_output=True, text=True, timeout=300)
        assert up.returncode == 0, "docker-compose up failed:\n%s" % up.stderr
        container = subprocess.run(compose + ["ps", "-q", "malachite"], env=env, capture_output=True,
                                   text=True).stdout.strip()
        docker.wait_healthy(container)
        write_rows(port)
        assert read_rows(port) == ROWS
    finally:
        subprocess.run(compose + ["down", "-v"], env=env, capture_output=True)


def test_the_arm64_image_builds_and_answers_version_under_qemu(docker, version):
    context = Path(os.environ.get("MALACHITE_DIST") or REPO / "dist") / ("malachite-%s-image-aarch64" % version)
    if not (context / "build-args").exists():
        unavailable("MALACHITE_DOCKER_REQUIRED", "no %s (scripts/package --arch aarch64)" % context)
    # --no-cache: the legacy builder would reuse the amd64 image's layers and refuse them.
    arm = docker.build("malachite-test:%s-arm64" % docker.run_id, context, "--no-cache", "--platform", "linux/arm64")
    assert docker("image", "inspect", "-f", "{{.Architecture}}", arm).stdout.strip() == "arm64"
    size = int(docker("image", "inspect", "-f", "{{.Size}}", arm).stdout)
    assert size <= 40_000_000, "the arm64 image is %d MB, over 40 MB" % (size // 1_000_000)
    registered = _register_qemu_aarch64()
    try:
        done = docker("run", "--rm", "--platform", "linux/arm64", arm, "--version", check=False)
    finally:
        if registered:
            registered.write_text("-1")
    assert done.stdout.strip() == "malachite " + version, "the arm64 image under qemu: %s" % (done.stdout + done.stderr)


def _register_qemu_aarch64():
    """Registers qemu-aarch64-static with binfmt_misc (F: opened now, so it works in containers)
    when the kernel has no handler; returns the entry to remove afterwards, or None."""
    binfmt = Path("/proc/sys/fs/binfmt_misc")
    if not (binfmt / "register").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(binfmt)], capture_output=True)
    qemu = subprocess.run(["sh", "-c", "command -v qemu-aarch64-static"], capture_output=True, text=True).stdout.strip()
    if (binfmt / "qemu-aarch64").exists() or not qemu or not os.access(binfmt / "register", os.W_OK):
        return None
    rule = open("/usr/lib/binfmt.d/qemu-aarch64.conf").read().strip()
    (binfmt / "register").write_text(rule.rsplit(":", 2)[0] + ":" + qemu + ":F")
    return binfmt / "qemu-aarch64"
