"""--exit-with-stdin: the server stops when its standard input ends, so a launcher that dies, even
by SIGKILL, takes it along (server/net/stdin_lifeline.h). The launcher is pytest_malachite's,
which runs the server with the flag and holds the one write end of its stdin."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest_malachite

from conftest import binary, log, start


def _gone(pid):
    """True once `pid` has exited (a zombie counts: it no longer runs)."""
    try:
        with open("/proc/%d/stat" % pid) as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _wait_gone(pid, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if _gone(pid):
            return True
        time.sleep(0.01)
    return _gone(pid)


def test_closing_stdin_stops_the_server_gracefully():
    server = start(args=["--in-memory", "--log-level", "info"])
    try:
        server.process.stdin.close()
        assert server.process.wait(timeout=10) == 0
        rest = log(server)
        assert "standard input ended: stopping" in rest
        assert "bye" in rest
    finally:
        server.kill()


def test_stdin_that_has_already_ended_stops_it_at_once():
    # Not a server the suite can use (it may stop before it says it listens): the binary alone.
    process = subprocess.Popen([binary(), "--port", "0", "--in-memory", "--exit-with-stdin"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    try:
        out, _ = process.communicate(timeout=10)
        assert process.returncode == 0
        assert b"standard input ended: stopping" in out
    finally:
        process.kill()


def test_without_the_flag_a_closed_stdin_changes_nothing(tmp_path):
    # The launcher's command without --exit-with-stdin, on a standard input that has ended.
    wrapper = tmp_path / "no-lifeline-malachite"
    wrapper.write_text('#!/bin/sh\nfor arg do\n  shift\n  [ "$arg" = --exit-with-stdin ] || '
                       'set -- "$@" "$arg"\ndone\nexec %s "$@" </dev/null\n' % binary())
    wrapper.chmod(0o755)
    server = start(args=["--in-memory"], binary=wrapper)
    try:
        assert "--exit-with-stdin" not in open("/proc/%d/cmdline" % server.pid).read().split("\0")
        time.sleep(0.3)
        assert server.running
    finally:
        server.stop()


def test_a_launcher_killed_with_sigkill_takes_the_server_along():
    # The launcher holds the only write end of the server's stdin; SIGKILL gives it no chance to
    # stop the server itself.
    launcher_code = textwrap.dedent("""
        import sys, time
        sys.path.insert(0, sys.argv[1])
        from pytest_malachite import start_malachite
        server = start_malachite(binary=sys.argv[2])
        print(server.pid, flush=True)
        time.sleep(120)
    """)
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(pytest_malachite.__file__)))
    launcher = subprocess.Popen([sys.executable, "-c", launcher_code, package_dir, binary()],
                                stdout=subprocess.PIPE)
    server_pid = None
    try:
        server_pid = int(launcher.stdout.readline())
        assert not _gone(server_pid)
        os.kill(launcher.pid, signal.SIGKILL)
        launcher.wait(timeout=10)
        assert _wait_gone(server_pid, 2), "the server outlived its SIGKILLed launcher by 2 s"
    finally:
        launcher.kill()
        launcher.wait()
        if server_pid is not None and not _gone(server_pid):
            os.kill(server_pid, signal.SIGKILL)
