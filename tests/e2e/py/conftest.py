"""Fixtures for the Python SDK suites, on the published launcher (pytest_malachite.start_malachite,
imported from clients/python/src, so the suite tests the repository's package as a user runs it).
MALACHITE_BINARY names the binary. Each test module gets its own server on a free port with a temp
data dir, stopped when the module ends; a server that exited abnormally (a crash, a sanitizer
report) fails the module.

start() is the suite's one way to start a server: on disk in a temp dir (gone at stop()) unless
given data_dir, its log in a file that log() reads, and throttling off (on by default in the
binary, spec §12; suites that are not about it load one partition fast): args ["--throttling",
"on"] turn it back on, since a later flag wins.
"""
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid

import pytest
from azure.data.tables import TableServiceClient

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "clients", "python", "src"))
from pytest_malachite import (  # noqa: E402,F401  (path set just above; re-exported to the suites)
    DEV_ACCOUNT, DEV_KEY, MalachiteBinaryError, resolve_binary, start_malachite)

SUITE_ARGS = ("--log-level", "warn", "--throttling", "off")
_logs = []  # the directory of the servers' log files, made by the first start()


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "posix_only(reason): needs Linux itself (a tmpfs mount, rlimits, a symlink's "
        "name, the server's Linux pid); scripts/test leaves these out of the run against "
        "malachite.exe under Wine (-m 'not posix_only'), and the reason says why")


def pytest_sessionstart(session):
    """No runnable binary: one line (the launcher's, naming MALACHITE_BINARY) and pytest's usage
    error status 4, not an error per test."""
    try:
        resolve_binary()
    except MalachiteBinaryError as e:
        raise pytest.UsageError(str(e)) from None


def binary():
    """The binary the launcher runs ($MALACHITE_BINARY), as an absolute path, for its command-line
    tools and for wrappers that run elsewhere."""
    return os.path.abspath(resolve_binary()[0])


def start(data_dir=None, args=(), env=None, binary=None):
    """A running server (pytest_malachite.Malachite): `args` after SUITE_ARGS, `env` over this
    process's, `binary` a wrapper script instead of $MALACHITE_BINARY. A data_dir given stays
    after stop() and kill(), for a restart on it."""
    if not _logs:
        _logs.append(tempfile.mkdtemp(prefix="malachite-e2e-logs-"))
        atexit.register(shutil.rmtree, _logs[0], True)
    handle, log_file = tempfile.mkstemp(prefix="server-", suffix=".log", dir=_logs[0])
    os.close(handle)
    return start_malachite(in_memory=False, data_dir=data_dir, args=[*SUITE_ARGS, *args],
                           env=env, binary=binary, log_file=log_file, start_timeout=20.0)


def log(server):
    """Everything `server` has logged so far."""
    with open(server.log_file, "r", errors="replace") as f:
        return f.read()


def service_client(server, **kwargs):
    """A TableServiceClient of devstoreaccount1; no retries unless asked: a failure should show
    at once, not after back-off."""
    kwargs.setdefault("retry_total", 0)
    return TableServiceClient.from_connection_string(server.connection_string, **kwargs)


def crash(server):
    """Kills `server` as a crash would (SIGKILL, no graceful stop) and returns the launcher's
    kill() status. A server that is a wrapper's child (tests/support/wine-malachite runs
    malachite.exe under Wine as its child) is killed itself first: killing only the wrapper would
    leave the server to its stdin lifeline, a graceful stop."""
    children = subprocess.run(["pgrep", "-P", str(server.process.pid)], capture_output=True,
                              text=True, check=False).stdout.split()
    for pid in children:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass
    return server.kill()


def stop_checked(server):
    """Stops `server` and fails the test if it had exited abnormally."""
    status = server.stop()
    if status not in (0, -signal.SIGTERM):
        pytest.fail("malachite exited with %s; log:\n%s" % (status, log(server)))


@pytest.fixture(scope="module")
def server():
    srv = start()
    yield srv
    stop_checked(srv)


@pytest.fixture(scope="module")
def service(server):
    with service_client(server) as client:
        yield client


def unique_name(prefix="t"):
    return prefix + uuid.uuid4().hex[:16]


@pytest.fixture
def table(service):
    """A fresh table's TableClient; the table is deleted afterwards."""
    name = unique_name("py")
    client = service.create_table(name)
    yield client
    service.delete_table(name)


def wire_error_code(exc):
    """The Azure error code the server sent (odata.error.code in the body, else x-ms-error-code)."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    try:
        return json.loads(response.text())["odata.error"]["code"]
    except (ValueError, KeyError, TypeError):
        return response.headers.get("x-ms-error-code")
