"""The Azurite-compatible image's `azurite` command (docker/azurite/azurite.js) on this host, without
a Docker engine: Azurite's own programs from the repository's node_modules (the pinned azurite, as
the image installs it) and Malachite (MALACHITE_BINARY) under the name azurite-table, as the
image's PATH lays them out.
"""
import json
import os
import re
import signal
import socket
import subprocess
import time

import pytest

from conftest import REPO, WELL_KNOWN_KEY

AZURITE_JS = REPO / "docker/azurite/azurite.js"
LISTENING = re.compile(r"^Azurite (Blob|Queue|Table) service is successfully listening at (\S+)$", re.M)


@pytest.fixture(scope="module")
def path(binary, tmp_path_factory):
    """PATH as in the image: azurite-table is Malachite, azurite-blob and azurite-queue Azurite's."""
    bin_dir = tmp_path_factory.mktemp("bin")
    (bin_dir / "azurite-table").symlink_to(binary)
    return os.pathsep.join([str(bin_dir), str(REPO / "node_modules/.bin"), os.environ["PATH"]])


def free_ports(count):
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def azurite(path, *argv, env=None):
    return subprocess.Popen(["node", str(AZURITE_JS), *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PATH": path, **(env or {})})


def run(path, *argv, env=None):
    process = azurite(path, *argv, env=env)
    out, err = process.communicate(timeout=60)
    return process.returncode, out, err


class Started:
    """`azurite` on free loopback ports with a workspace, read until its three readiness lines."""

    def __init__(self, path, location, *extra, env=None):
        self.ports = dict(zip(("blob", "queue", "table"), free_ports(3)))
        self.process = azurite(path, "--blobPort", str(self.ports["blob"]), "--queuePort", str(self.ports["queue"]),
                               "--tablePort", str(self.ports["table"]), "-l", str(location), "--disableTelemetry",
                               *extra, env=env)
        self.lines = []
        deadline = time.monotonic() + 60
        while len(LISTENING.findall("\n".join(self.lines))) < 3 and time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.lines.append(line.rstrip("\n"))
        assert len(LISTENING.findall(self.output())) == 3, "not three readiness lines:\n%s%s" % (
            self.output(), self.process.stderr.read() if self.process.poll() is not None else "")

    def output(self):
        return "\n".join(self.lines)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        out, err = self.process.communicate(timeout=30)
        self.lines += out.splitlines()
        return self.process.returncode, err

    def connection_string(self, account="devstoreaccount1", key=WELL_KNOWN_KEY):
        return ("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;" % (account, key) +
                "".join("%sEndpoint=http://127.0.0.1:%d/%s;" % (s.capitalize(), self.ports[s], account)
                        for s in ("blob", "queue", "table")))


def test_version_prints_the_pinned_azurite(path):
    status, out, _ = run(path, "--version")
    assert status == 0 and out.strip() == json.load(open(REPO / "package.json"))["dependencies"]["azurite"], out


def test_help_names_every_option_and_which_service_takes_it(path):
    status, out, _ = run(path, "--help")
    for option in ("--blobPort", "--queuePort", "--tablePort", "--location", "--inMemoryPersistence", "--oauth"):
        assert option in out, "azurite --help does not name %s:\n%s" % (option, out)
    assert status == 0


def test_it_says_ready_in_azurites_words_and_stops_all_three_on_sigterm(path, tmp_path):
    server = Started(path, tmp_path)
    found = {service: url for service, url in LISTENING.findall(server.output())}
    assert found == {s: "http://127.0.0.1:%d" % server.ports[s.lower()] for s in ("Blob", "Queue", "Table")}, \
        server.output()
    # Testcontainers waits for the three lines, Table last as `azurite` prints it.
    assert LISTENING.findall(server.output())[-1][0] == "Table", server.output()
    # Azurite's programs install their SIGTERM handlers a moment after they listen (once their
    # telemetry has started); a SIGTERM before that ends them without their "closed" lines.
    time.sleep(1)
    status, err = server.stop()
    assert status == 0, "SIGTERM: exit status %d, not 0: %s" % (status, err)
    for line in ("Azurite Blob service successfully closed", "Azurite Queue service successfully closed",
                 "Azurite Table service successfully closed"):
        assert line in server.output(), "no %r after SIGTERM:\n%s" % (line, server.output())
    data = sorted(p.name for p in tmp_path.iterdir())
    for name in ("__blobstorage__", "__queuestorage__", "__malachite_table__", "__azurite_db_blob__.json"):
        assert name in data, "-l holds no %s: %s" % (name, data)


def test_blob_queue_and_table_answer_one_program_as_npm_azurite_does(path, tmp_path):
    reference = subprocess.run(["node", str(REPO / "tests/e2e/azurite/cli.mjs"), "host-program"],
                               capture_output=True, text=True, timeout=300)
    assert reference.returncode == 0, reference.stderr
    server = Started(path, tmp_path, "--skipApiVersionCheck")
    try:
        ours = subprocess.run(["node", str(REPO / "tests/e2e/azurite/cli.mjs"), "program",
                               server.connection_string()], capture_output=True, text=True, timeout=300)
    finally:
        server.stop()
    assert ours.returncode == 0, ours.stderr
    assert json.loads(ours.stdout) == json.loads(reference.stdout), "the results differ from npm azurite's"


@pytest.mark.parametrize("needle, argv, env", [
    ("tablePort", ["--tablePort", "notanumber"], {}),
    ("blobPort", ["--blobPort", "x"], {}),
    ("--nope", ["--nope"], {}),
    ("--inMemoryPersistence", ["--inMemoryPersistence", "-l", "/tmp"], {}),
    ("AZURITE_ACCOUNTS", [], {"AZURITE_ACCOUNTS": "extra1"}),
])
def test_bad_input_exits_2_with_one_line_naming_it_and_starts_nothing(path, needle, argv, env):
    status, out, err = run(path, *argv, env=env)
    assert status == 2, "%s %s exited %d, not 2:\n%s" % (argv, env, status, out + err)
    assert len(err.splitlines()) == 1 and needle in err, "stderr is not one line naming %s: %r" % (needle, err)
    assert "successfully listening" not in out, "a service started before the refusal:\n%s" % out


def test_a_program_that_cannot_start_stops_the_others_with_its_status(path, tmp_path):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    table_port, queue_port = free_ports(2)
    try:
        status, out, err = run(path, "--blobPort", str(busy.getsockname()[1]), "--queuePort", str(queue_port),
                               "--tablePort", str(table_port), "-l", str(tmp_path), "--disableTelemetry")
    finally:
        busy.close()
    assert status == 1, "Blob's port taken: exit status %d, not 1:\n%s" % (status, out + err)
    assert "azurite-blob stopped with exit status 1" in err, err
    assert "Azurite Table service successfully closed" in out, "Malachite was not stopped:\n%s" % out


def test_azurite_is_pinned_once_exactly_and_installed_at_that_version():
    """package.json's one production dependency is what the image ships and what the tests compare
    against: an exact version, locked, installed, and no other package.json under docker/."""
    pinned = json.load(open(REPO / "package.json"))["dependencies"]["azurite"]
    locked = json.load(open(REPO / "package-lock.json"))["packages"]["node_modules/azurite"]
    installed = json.load(open(REPO / "node_modules/azurite/package.json"))["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", pinned), "azurite is pinned as %r, not an exact version" % pinned
    assert locked["version"] == installed == pinned and not locked.get("dev"), \
        "package.json pins %s, the lock has %s, node_modules has %s" % (pinned, locked, installed)
    others = [str(p.relative_to(REPO)) for p in (REPO / "docker").rglob("package*.json")]
    assert not others, "another Azurite pin under docker/: %s" % others
