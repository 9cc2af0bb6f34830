"""Idle connections cannot lock everyone out at the open-file limit (docs/OPERATIONS.md, "Hold up against hostile or heavy clients").

The server runs under `prlimit --nofile=256:256` (soft = hard: raising cannot help), and the test
opens 400 idle connections, half of them keep-alive after one request. The server must close the
longest-idle ones to make room, back off instead of spinning on EMFILE, and serve a normal SDK
client at once.
"""
import re
import shutil
import signal
import socket
import time

import pytest

from conftest import binary, log, service_client, start, unique_name

IDLE_CONNECTIONS = 400

pytestmark = [pytest.mark.skipif(shutil.which("prlimit") is None,
                                reason="prlimit (util-linux) is missing"),
              pytest.mark.posix_only('RLIMIT_NOFILE set with prlimit; Windows has no open-file limit')]


def _open_idle(port, count):
    sockets = []
    for i in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        if i % 2 == 0:
            # One request, then idle on a keep-alive connection.
            s.sendall(b"GET /-/healthy HTTP/1.1\r\nHost: x\r\n\r\n")
        sockets.append(s)
    return sockets


def _closed_by_server(sockets):
    """Which of `sockets` the server has closed (EOF or reset after any pending answer)."""
    time.sleep(0.5)
    closed = []
    for s in sockets:
        s.setblocking(False)
        try:
            while True:
                data = s.recv(65536)
                if not data:
                    closed.append(s)
                    break
        except BlockingIOError:
            pass
        except OSError:
            closed.append(s)
    return closed


def test_idle_connections_at_the_open_file_limit_do_not_lock_out_new_clients(tmp_path):
    wrapper = tmp_path / "limited-malachite"
    wrapper.write_text("#!/bin/sh\nexec prlimit --nofile=256:256 %s \"$@\"\n" % binary())
    wrapper.chmod(0o755)
    server = start(args=["--log-level", "info"], binary=wrapper)
    idle = []
    try:
        assert "open files: limit 256 (hard 256)" in log(server), log(server)
        idle = _open_idle(server.port, IDLE_CONNECTIONS)
        started = time.monotonic()
        with service_client(server, connection_timeout=20, read_timeout=20) as service:
            table = service.create_table(unique_name("fd"))
            table.create_entity({"PartitionKey": "p", "RowKey": "r", "n": 1})
            assert table.get_entity("p", "r")["n"] == 1
        served_in = time.monotonic() - started
        # Without closing idle connections this waited for the 60 s idle timeout.
        assert served_in < 10, "a normal client waited %.1f s" % served_in

        closed = _closed_by_server(idle)
        assert len(closed) >= IDLE_CONNECTIONS - 256, "only %d were closed" % len(closed)
        # The oldest went first: the first connections opened are among the closed ones.
        assert all(s in closed for s in idle[:50])
        assert "longest-idle keep-alive connections" in log(server)
        code = server.stop()
        assert code in (0, -signal.SIGTERM), log(server)
        logged = log(server)
        # Failed accepts (EMFILE) come in episodes (failures less than 1 s apart): one line when
        # one starts and one when it is over (at the latest at shutdown), never one per failed
        # accept. The flood is one episode; a loaded machine may split off a second one.
        marks = re.findall(r"accept (failed|failures over)", logged)
        assert marks == ["failed", "failures over"] * (len(marks) // 2), logged
        assert len(marks) <= 4, logged
        server = None
    finally:
        for s in idle:
            s.close()
        if server is not None:
            server.kill()
