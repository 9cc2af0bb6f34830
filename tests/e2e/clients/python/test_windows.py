"""The pytest-malachite wheel on Windows x64: the release's win_amd64 wheel installed into a clean
virtual environment (the release workflow's windows job copies this file, the README's examples and
factory/ to a folder of their own and runs pytest there, MALACHITE_BINARY unset).

The launcher runs the wheel's bin/malachite.exe; a server serves the SDK and stop() ends it through
its closed stdin (Windows has no SIGTERM) with status 0, well before the kill 5 s later; kill() is
TerminateProcess (status 1); and the server is gone within 2 s of its test process being killed.
Linux runs the same launcher code with sys.platform faked (test_plugin.py, test_wheel.py); this
file skips there.
"""
import ctypes
import subprocess
import sys
import time
from importlib.metadata import distribution

import pytest
from azure.data.tables import TableServiceClient

import pytest_malachite as pm
from pytest_malachite import _binary

pytestmark = pytest.mark.skipif(sys.platform != "win32",
                                reason="runs on Windows (the release workflow's windows job)")


def alive(pid):
    """Whether process `pid` still runs (OpenProcess and a wait of 0 ms: WAIT_TIMEOUT)."""
    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    kernel32.OpenProcess.restype = ctypes.c_void_p
    kernel32.OpenProcess.argtypes = (ctypes.c_uint32, ctypes.c_int, ctypes.c_uint32)
    kernel32.WaitForSingleObject.argtypes = (ctypes.c_void_p, ctypes.c_uint32)
    kernel32.CloseHandle.argtypes = (ctypes.c_void_p,)
    synchronize, query_limited_information, wait_timeout = 0x00100000, 0x1000, 0x102
    handle = kernel32.OpenProcess(synchronize | query_limited_information, 0, pid)
    if not handle:
        return False
    try:
        return kernel32.WaitForSingleObject(handle, 0) == wait_timeout
    finally:
        kernel32.CloseHandle(handle)


def test_the_wheel_is_win_amd64_and_its_binary_is_malachite_exe_of_this_version():
    wheel = distribution("pytest-malachite").read_text("WHEEL") or ""
    assert [line for line in wheel.splitlines() if line.startswith("Tag: ")] == ["Tag: py3-none-win_amd64"]
    path, source = pm.resolve_binary()
    assert (path, source) == (str(_binary.PACKAGED_BINARY), "the wheel's binary")
    assert _binary.PACKAGED_BINARY.name == "malachite.exe"
    assert _binary.built_for(path) == "windows-x86_64"
    out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    assert out.stdout.strip() == "malachite %s" % pm.__version__, out


def test_a_server_serves_the_sdk_and_stop_ends_it_through_its_closed_stdin_with_0(tmp_path):
    data = tmp_path / "data"
    server = pm.start_malachite(data_dir=data)
    try:
        service = TableServiceClient.from_connection_string(server.connection_string, retry_total=0)
        table = service.create_table("orders")
        table.create_entity({"PartitionKey": "eu", "RowKey": "1", "Total": 42})
        assert table.get_entity("eu", "1")["Total"] == 42
    finally:
        started = time.monotonic()
        status = server.stop()
        took = time.monotonic() - started
    assert status == 0, "stop() returned %s (1: it was killed after 5 s); its last lines:\n%s" % (
        status, server.output())
    assert took < 4, "stop() took %.1f s" % took
    assert (data / "data.mdb").is_file()
    print("\n  figure: stop() on Windows: %.0f ms" % (took * 1000))


def test_kill_is_terminate_process_at_once():
    server = pm.start_malachite()
    assert server.kill() == 1
    assert not alive(server.pid)


HOLDER = """
import sys, time
import pytest_malachite
server = pytest_malachite.start_malachite()
print(server.pid, flush=True)
time.sleep(120)
"""


def test_the_server_is_gone_within_2_s_of_its_test_process_being_killed():
    holder = subprocess.Popen([sys.executable, "-c", HOLDER], stdout=subprocess.PIPE, text=True)
    try:
        pid = int(holder.stdout.readline())
        assert alive(pid)
    finally:
        holder.kill()  # TerminateProcess: nothing of the launcher runs
        holder.wait()
    killed = time.monotonic()
    while alive(pid) and time.monotonic() - killed < 2:
        time.sleep(0.01)
    assert not alive(pid), "server %d still runs 2 s after its test process was killed" % pid
    print("\n  figure: the server stopped %.0f ms after its test process was killed"
          % ((time.monotonic() - killed) * 1000))
