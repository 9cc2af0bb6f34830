"""The Python launcher of the server under test: the real `malachite` binary on a free port
(--port 0, the port read from its "listening on" line) with a temp data dir, stopped by PID.

MALACHITE_BIN names the binary (default build/Release/server/malachite under the repo root).
tests/e2e/py/conftest.py builds its fixtures on it; suites that restart or configure their own
servers use MalachiteServer directly.
"""
import itertools
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

import pytest
from azure.data.tables import TableServiceClient

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEV_ACCOUNT = "devstoreaccount1"
DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
_LISTENING = re.compile(r"listening on ([0-9.]+):(\d+)")


def binary_path():
    return os.path.join(REPO_ROOT, os.environ.get("MALACHITE_BIN", "build/Release/server/malachite"))


class MalachiteServer:
    """One server process. `data_dir` is kept across stop() and start() (a restart); cleanup()
    removes it when the server created it.

    Throttling (on by default in the binary, spec §12) is off here, since suites that are not
    about it load one partition fast; extra_args ["--throttling", "on"] (a later flag wins)
    turns it back on.
    """

    def __init__(self, data_dir=None, extra_args=(), env=None):
        self.owns_data_dir = data_dir is None
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="malachite-e2e-")
        self.extra_args = list(extra_args)
        self.env = dict(os.environ, **(env or {}))
        self.process = None
        self.port = None
        self._log_dir = tempfile.mkdtemp(prefix="malachite-log-")
        self._starts = itertools.count()
        self.log_path = None

    def start(self, timeout=20.0):
        binary = binary_path()
        if not os.path.exists(binary):
            self.cleanup()
            raise RuntimeError("server binary not found: %s (set MALACHITE_BIN)" % binary)
        self.log_path = os.path.join(self._log_dir, "server-%d.log" % next(self._starts))
        args = [binary, "--host", "127.0.0.1", "--port", "0", "--data-dir", self.data_dir,
                "--log-level", "warn", "--throttling", "off"] + self.extra_args
        with open(self.log_path, "wb") as log:
            # stdout/stderr go to a file: a pipe nobody drains would block the server.
            self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log,
                                            stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = _LISTENING.search(self.log())
            if match:
                self.port = int(match.group(2))
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        log = self.log()
        self.cleanup()
        raise RuntimeError("server did not report its port (exit %s); log:\n%s"
                           % (self.process.returncode, log))

    def log(self):
        with open(self.log_path, "r", errors="replace") as f:
            return f.read()

    @property
    def account_url(self):
        return "http://127.0.0.1:%d/%s" % (self.port, DEV_ACCOUNT)

    @property
    def connection_string(self):
        return ("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;TableEndpoint=%s;"
                % (DEV_ACCOUNT, DEV_KEY, self.account_url))

    def service_client(self, **kwargs):
        # No retries: a failure should show at once, not after back-off.
        kwargs.setdefault("retry_total", 0)
        return TableServiceClient.from_connection_string(self.connection_string, **kwargs)

    def stop(self):
        """SIGTERM (SIGKILL after 10 s); returns the exit code."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode if self.process else 0

    def kill9(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def cleanup(self):
        self.kill9()
        shutil.rmtree(self._log_dir, ignore_errors=True)
        if self.owns_data_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)


def stop_checked(server):
    """Stops `server` and fails the test if it had exited abnormally."""
    code = server.stop()
    try:
        log = server.log() if server.log_path else ""
    except OSError:  # already cleaned up
        log = ""
    server.cleanup()
    if code not in (0, -signal.SIGTERM):
        pytest.fail("malachite exited with %s; log:\n%s" % (code, log))
