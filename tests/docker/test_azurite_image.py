"""The Azurite-compatible image (malachite:<version>-azurite, docker/azurite/) with a real Docker
engine, started the ways teams start Azurite: its commands, bad input, Node and .NET
Testcontainers, Aspire's command line with a volume and a restart, compose, environment only (a
GitHub Actions service container). Blob and Queue are compared with npm azurite (the same pinned
version) run on this host: one program's results must be equal.
"""
import json
import os
import re
import shutil
import subprocess
import time
from datetime import datetime

import pytest

from conftest import REPO, WELL_KNOWN_KEY

pytestmark = pytest.mark.engine
PUBLISH = ["-p", "127.0.0.1::10000", "-p", "127.0.0.1::10001", "-p", "127.0.0.1::10002"]
LISTENING = r"^Azurite (Blob|Queue|Table) service is successfully listening at "
ASPIRE = ["azurite", "-l", "/data", "--blobHost", "0.0.0.0", "--queueHost", "0.0.0.0", "--tableHost",
          "0.0.0.0", "--disableProductStyleUrl", "--skipApiVersionCheck"]


@pytest.fixture(scope="module")
def image(docker, azurite_image_context):
    return docker.build("malachite-azurite-test:%s" % docker.run_id, azurite_image_context)


def label(docker, image, name):
    return docker("image", "inspect", "-f", '{{index .Config.Labels "%s"}}' % name, image).stdout.strip()


def cli(*argv):
    """tests/e2e/azurite/cli.mjs: one step of the storage program against a connection string."""
    done = subprocess.run(["node", str(REPO / "tests/e2e/azurite/cli.mjs"), *argv], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, "cli.mjs %s exited %d:\n%s" % (argv[0], done.returncode, done.stdout + done.stderr)
    return done.stdout


def connection_string(docker, container, account=None, key=None):
    account, key = account or "devstoreaccount1", key or WELL_KNOWN_KEY
    ports = {s: docker.host_port(container, p) for s, p in (("Blob", 10000), ("Queue", 10001), ("Table", 10002))}
    return ("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;" % (account, key) +
            "".join("%sEndpoint=http://127.0.0.1:%d/%s;" % (s, p, account) for s, p in ports.items()))


def test_the_version_label_is_the_release_version_with_azurite(docker, image, version):
    assert label(docker, image, "org.opencontainers.image.version") == version + "-azurite"


def test_azurite_version_prints_the_pinned_azurite(docker, image):
    pinned = json.load(open(REPO / "package.json"))["dependencies"]["azurite"]
    printed = docker("run", "--rm", image, "azurite", "--version").stdout.strip()
    assert printed == pinned == label(docker, image, "io.github.malachite.azurite"), \
        "azurite --version printed %r; package.json pins %r" % (printed, pinned)


def test_malachite_version_prints_the_release_version(docker, image, version):
    printed = docker("run", "--rm", image, "malachite", "--version").stdout.strip()
    assert printed == "malachite " + version


@pytest.mark.parametrize("command, line", [
    (["azurite-blob", "--blobHost", "0.0.0.0"], r"Azurite Blob service successfully listens on http://0.0.0.0:10000"),
    (["azurite-queue", "--queueHost", "0.0.0.0"], r"Azurite Queue service successfully listens on http://0.0.0.0:10001"),
    (["azurite-table", "--tableHost", "0.0.0.0"], r"Azurite Table service successfully started on 0.0.0.0:10002"),
])
def test_each_single_service_command_starts_with_its_own_readiness_line(docker, image, command, line):
    container = docker.run(command[0], image, *command, "-l", "/data")
    docker.wait_lines(container, line, 1)
    docker("rm", "-f", container)


@pytest.mark.parametrize("needle, argv", [
    ("tablePort", ["azurite", "--tablePort", "notanumber"]),
    ("blobHost", ["azurite-table", "--blobHost", "x"]),
    ("blobPort", ["azurite", "--blobPort", "x"]),
    ("AZURITE_ACCOUNTS", ["-e", "AZURITE_ACCOUNTS=extra1"]),
])
def test_bad_input_exits_2_with_one_line_naming_it_and_starts_nothing(docker, image, needle, argv):
    options = argv[:2] if argv[0] == "-e" else []
    command = argv[2:] if options else argv
    done = docker("run", "--rm", *options, image, *command, check=False)
    lines = done.stderr.splitlines()
    assert done.returncode == 2, "%s exited %d, not 2:\n%s" % (argv, done.returncode, done.stdout + done.stderr)
    assert len(lines) == 1 and needle in lines[0], "%s: stderr is not one line naming %s: %r" % (argv, needle, lines)
    assert "successfully listening" not in done.stdout, "%s started a service before refusing" % argv


def test_node_testcontainers_sees_what_npm_azurite_answers(image):
    done = subprocess.run(["node", "--test", "--test-timeout=300000", "--test-reporter=spec",
                           str(REPO / "tests/e2e/azurite/testcontainers.test.mjs")],
                          env={**os.environ, "MALACHITE_AZURITE_IMAGE": image,
                               "TESTCONTAINERS_RYUK_DISABLED": "true"},
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, "tests/e2e/azurite/testcontainers.test.mjs failed:\n%s" % (done.stdout + done.stderr)[-6000:]


def test_dotnet_testcontainers_as_azuritebuilder_starts_it_and_uses_blob_queue_table(image):
    if shutil.which("dotnet") is None:
        from required import unavailable
        unavailable("MALACHITE_DOCKER_REQUIRED", "no dotnet on PATH for tests/e2e/azurite/dotnet")
    # Debian's dockerd speaks API 1.41.
    env = {**os.environ, "DOTNET_CLI_TELEMETRY_OPTOUT": "1", "DOTNET_NOLOGO": "1", "DOCKER_API_VERSION": "1.41",
           "TESTCONTAINERS_RYUK_DISABLED": "true"}
    done = subprocess.run(["dotnet", "run", "--project", str(REPO / "tests/e2e/azurite/dotnet"), "--", image],
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0 and re.search(r"^all steps ok", done.stdout, re.M), \
        "tests/e2e/azurite/dotnet:\n%s" % (done.stdout + done.stderr)[-6000:]


@pytest.fixture(scope="module")
def aspire(docker, image):
    """A container started with Aspire's command line and a named volume at /data."""
    container = docker.run("aspire", "-v", docker.volume("data") + ":/data", *PUBLISH, image, *ASPIRE)
    docker.wait_lines(container, LISTENING, 3)
    return container


def test_aspires_command_line_keeps_blob_queue_and_table_across_a_restart(docker, aspire):
    cli("write", connection_string(docker, aspire))
    docker("restart", aspire)
    docker.wait_lines(aspire, LISTENING, 6)
    cli("verify", connection_string(docker, aspire))


def test_the_data_volume_holds_both_emulators_files(docker, aspire):
    files = docker("exec", aspire, "ls", "/data").stdout.split()
    missing = [f for f in ("__blobstorage__", "__queuestorage__", "__malachite_table__",
                           "__azurite_db_blob__.json") if f not in files]
    assert not missing, "/data has no %s: %s" % (missing, files)


def test_malachite_probe_answers_inside_as_a_compose_health_check(docker, aspire):
    done = docker("exec", aspire, "sh", "-c", "malachite --probe http://127.0.0.1:10002/-/ready", check=False)
    assert done.returncode == 0, "malachite --probe /-/ready inside the container: %s" % done.stderr


def test_docker_stop_is_clean_and_fast(docker, aspire):
    started = time.monotonic()
    docker("stop", aspire)
    took = time.monotonic() - started
    status = docker.inspect(aspire, "{{.State.ExitCode}}")
    print("docker stop: exit status %s in %.0f ms" % (status, took * 1000))
    assert status == "0", "docker stop: exit status %s, not 0; its log:\n%s" % (status, docker.logs(aspire)[-3000:])
    assert took < 5, "docker stop took %.1f s" % took


def test_compose_with_azurites_usual_service_serves_a_python_client_by_service_name(docker, image, tmp_path):
    """Debian's docker-compose 1.29, tests/e2e/azurite/compose: --loose, a shell health check, and
    a client container (python3-azure on a Debian root) using http://azurite:1000x."""
    client_image = "malachite-azurite-client:%s" % docker.run_id
    rootfs = subprocess.run([str(REPO / "tests/e2e/azurite/compose/client-rootfs")], capture_output=True, text=True)
    assert rootfs.returncode == 0, "tests/e2e/azurite/compose/client-rootfs:\n%s" % rootfs.stderr[-3000:]
    docker.images.append(client_image)
    docker("import", rootfs.stdout.strip(), client_image)
    compose = ["docker-compose", "-p", docker.run_id, "-f", str(REPO / "tests/e2e/azurite/compose/docker-compose.yml")]
    env = {**os.environ, "MALACHITE_AZURITE_IMAGE": image, "CLIENT_IMAGE": client_image}
    try:
        done = subprocess.run(compose + ["up", "--exit-code-from", "client"], env=env, capture_output=True,
                              text=True, timeout=600)
    finally:
        subprocess.run(compose + ["down", "-v"], env=env, capture_output=True)
    assert done.returncode == 0 and "compose client: ok" in done.stdout, \
        "the compose client failed:\n%s" % (done.stdout + done.stderr)[-4000:]


def test_environment_only_serves_an_extra_account_as_npm_azurite_does(docker, image):
    """No command, AZURITE_ACCOUNTS with an extra account, AZURITE_SKIP_API_VERSION_CHECK=true (the
    SDKs here send an x-ms-version newer than Azurite knows): what a CI service container can say."""
    extra_key = "ZXh0cmEgYWNjb3VudCBrZXkgZm9yIHRoZSBjaGVjaw=="
    container = docker.run("env", *PUBLISH, "-e", "AZURITE_SKIP_API_VERSION_CHECK=true", "-e",
                           "AZURITE_ACCOUNTS=devstoreaccount1:%s;extra1:%s" % (WELL_KNOWN_KEY, extra_key), image)
    docker.wait_lines(container, LISTENING, 3)
    reference = json.loads(cli("host-program"))
    extra = json.loads(cli("program", connection_string(docker, container, "extra1", extra_key)))
    assert extra == reference, "extra1's results differ from npm azurite's"
    cli("write", connection_string(docker, container))


def test_all_three_services_are_ready_within_15_seconds_of_the_start(docker, image):
    container = docker.run("ready", *PUBLISH, image, *ASPIRE[:1], "--blobHost", "0.0.0.0", "--queueHost",
                           "0.0.0.0", "--tableHost", "0.0.0.0", "--skipApiVersionCheck", "--disableTelemetry")
    docker.wait_lines(container, LISTENING, 3)
    started = docker.inspect(container, "{{.State.StartedAt}}")
    stamps = [l.split(" ", 1)[0] for l in docker("logs", "--timestamps", container).stdout.splitlines()
              if re.search(LISTENING, l.split(" ", 1)[1])]
    ready_ms = (_instant(stamps[2]) - _instant(started)) * 1000
    time.sleep(2)
    memory = docker("stats", "--no-stream", "--format", "{{.MemUsage}}", container).stdout.split("/")[0].strip()
    print("start to all three ready: %.0f ms; memory at rest: %s" % (ready_ms, memory))
    assert ready_ms < 15000, "the third readiness line came %.0f ms after the start" % ready_ms


def _instant(stamp):
    """Seconds since the epoch of Docker's RFC 3339 timestamp (nanoseconds cut to microseconds)."""
    whole, _, rest = stamp.rstrip("Z").partition(".")
    return datetime.fromisoformat(whole + "+00:00").timestamp() + float("0." + (rest or "0"))
