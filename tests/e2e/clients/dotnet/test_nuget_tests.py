"""The tests a user runs on the NuGet packages pass: the README's xUnit and NUnit examples in new
users' projects, Malachite.Server's behaviour tests (surface, bad input, the SIGKILL lifeline through
the console program); the server never outlives a SIGKILLed `dotnet test`; no server is left
running. Figures (start to first call, 100 parallel accounts) are printed, not asserted.
"""
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from nuget_projects import figure


def pid_gone(pid):
    """True once `pid` no longer runs (absent, or a zombie nobody has reaped yet)."""
    try:
        return Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


def children(pid):
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            pass
    return found


@pytest.mark.parametrize("runner", ["xunit", "nunit"])
def test_the_readmes_example_passes_in_a_new_users_project(dotnet, new_user, runner, capsys):
    passed = dotnet.test(new_user(runner), "readme-" + runner)
    figure(capsys, "the README's %s example: %d passed" % (runner, passed))


def test_the_server_packages_behaviour_tests_pass(dotnet, examples, console_dll, capsys):
    passed = dotnet.test(examples / "behaviour", "behaviour", env={"MALACHITE_CONSOLE": str(console_dll)})
    figure(capsys, "behaviour (surface, bad input, SIGKILL lifeline): %d passed" % passed)


def kill_run(dotnet, examples, which):
    """Runs behaviour/'s Hang test (it holds a server until killed), SIGKILLs the run's dotnet
    processes ("tree": all of them; "runner": dotnet test and the test platform's runner, the test
    host left to notice on its own) and returns (seconds until the server was gone, or None after
    15 s; the run's log)."""
    pidfile = dotnet.work / ("hang-%s.pid" % which)
    log = dotnet.work / ("hang-%s.log" % which)
    with open(log, "w") as out:
        run = subprocess.Popen(["dotnet", "test", "--no-build", "--disable-build-servers", "-nologo",
                                "--filter", "Category=Hang"], cwd=examples / "behaviour", stdout=out,
                               stderr=subprocess.STDOUT, env=dict(dotnet.env, MALACHITE_HANG_PIDFILE=str(pidfile)))
    deadline = time.monotonic() + 60
    while not (pidfile.exists() and pidfile.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.1)
    if not (pidfile.exists() and pidfile.read_text().strip()):
        run.kill()
        run.wait()
        pytest.fail("the Hang test did not start a server within 60 s:\n" + log.read_text()[-3000:])
    testhost, server = map(int, pidfile.read_text().split())
    # The run's processes: dotnet test and its descendants, less the server (and, for "runner",
    # less the test host and what it started).
    tree, queue = [], [run.pid]
    while queue:
        pid = queue.pop(0)
        if pid == server or (which == "runner" and pid == testhost):
            continue
        tree.append(pid)
        queue.extend(children(pid))
    started = time.monotonic()
    for pid in tree:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    run.wait()
    while not pid_gone(server):
        if time.monotonic() - started > 15:
            for pid in (server, testhost):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            return None, log
        time.sleep(0.01)
    return time.monotonic() - started, log


def test_the_server_is_gone_within_2_s_of_every_dotnet_process_of_a_test_run_being_sigkilled(
        dotnet, examples, capsys):
    seconds, log = kill_run(dotnet, examples, "tree")
    assert seconds is not None, "the server outlived its test run's SIGKILL by 15 s:\n" + log.read_text()[-2000:]
    assert seconds <= 2, "the server outlived its test run's SIGKILL by %.0f ms (at most 2000)" % (seconds * 1000)
    figure(capsys, "every dotnet process of a running dotnet test SIGKILLed: its server was gone %.0f ms later"
           % (seconds * 1000))


def test_the_server_goes_with_the_test_host_when_dotnet_test_and_its_runner_are_sigkilled(
        dotnet, examples, capsys):
    seconds, log = kill_run(dotnet, examples, "runner")
    assert seconds is not None, (
        "dotnet test and the test platform's runner SIGKILLed: the test host's server still ran 15 s later:\n"
        + log.read_text()[-2000:])
    figure(capsys, "dotnet test and its runner SIGKILLed, the test host left alone: it and the server were "
           "gone %.0f ms later" % (seconds * 1000))


def test_the_console_bench_starts_servers_and_serves_100_parallel_accounts(dotnet, console_dll, capsys):
    log = dotnet.work / "bench.log"
    status = dotnet.run([str(console_dll), "bench", "10"], console_dll.parent, log, timeout=300)
    assert status == 0, "the console bench exited %d:\n%s" % (status, log.read_text()[-3000:])
    for line in log.read_text().splitlines():
        figure(capsys, line)


def test_no_server_started_by_these_tests_is_left_running(work):
    # Every server these tests started runs from a file under the work directory.
    left = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            argv = cmdline.read_bytes().split(b"\0")
        except (FileNotFoundError, ProcessLookupError):
            continue
        program = argv[0].decode(errors="replace")
        if program.startswith(str(work)) and program.endswith("/malachite") and not pid_gone(int(cmdline.parent.name)):
            left.append("%s %s" % (cmdline.parent.name, " ".join(a.decode(errors="replace") for a in argv)))
    assert not left, "servers left running after the test runs:\n" + "\n".join(left)
