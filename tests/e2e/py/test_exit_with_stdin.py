"""--exit-with-stdin: the server stops when its standard input ends, so a launcher that dies, even
by SIGKILL, takes it along (server/net/stdin_lifeline.h)."""
import os
import re
import signal
import subprocess
import sys
import textwrap
import time

from malachite_server import binary_path

_LISTENING = re.compile(rb"malachite: listening on [0-9.]+:(\d+)")


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


def _start(stdin):
    process = subprocess.Popen(
        [binary_path(), "--port", "0", "--in-memory", "--exit-with-stdin"],
        stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return process


def test_closing_stdin_stops_the_server_gracefully():
    process = _start(subprocess.PIPE)
    try:
        line = b""
        while not _LISTENING.search(line):
            line = process.stdout.readline()
            assert line, "the server exited before it was ready"
        process.stdin.close()
        assert process.wait(timeout=10) == 0
        rest = process.stdout.read()
        assert b"standard input ended: stopping" in rest
        assert b"bye" in rest
    finally:
        process.kill()
        process.wait()


def test_stdin_that_has_already_ended_stops_it_at_once():
    process = _start(subprocess.DEVNULL)
    try:
        out, _ = process.communicate(timeout=10)
        assert process.returncode == 0
        assert b"standard input ended: stopping" in out
    finally:
        process.kill()


def test_without_the_flag_a_closed_stdin_changes_nothing():
    process = subprocess.Popen([binary_path(), "--port", "0", "--in-memory"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    try:
        while not _LISTENING.search(process.stdout.readline()):
            assert process.poll() is None
        time.sleep(0.3)
        assert process.poll() is None
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)


def test_a_launcher_killed_with_sigkill_takes_the_server_along():
    # The launcher holds the only write end of the server's stdin; SIGKILL gives it no chance to
    # stop the server itself.
    launcher_code = textwrap.dedent("""
        import subprocess, sys, time
        server = subprocess.Popen([sys.argv[1], "--port", "0", "--in-memory", "--exit-with-stdin"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        while b"listening on" not in server.stdout.readline():
            pass
        print(server.pid, flush=True)
        time.sleep(120)
    """)
    launcher = subprocess.Popen([sys.executable, "-c", launcher_code, binary_path()],
                                stdout=subprocess.PIPE)
    server_pid = None
    try:
        server_pid = int(launcher.stdout.readline())
        assert not _gone(server_pid)
        os.kill(launcher.pid, signal.SIGKILL)
        launcher.wait(timeout=10)
        assert _wait_gone(server_pid, 5), "the server outlived its SIGKILLed launcher"
    finally:
        launcher.kill()
        launcher.wait()
        if server_pid is not None and not _gone(server_pid):
            os.kill(server_pid, signal.SIGKILL)
