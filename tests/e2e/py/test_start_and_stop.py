"""What a user sees when the server cannot start, and when Ctrl-C stops it, the same on every system
(scripts/test runs this file against the Linux binary and, under Wine, against malachite.exe): a bad
flag is one line and exit status 2; a data directory it cannot use, or a port another program
listens on, one line and exit status 1; Ctrl-C (SIGINT; under Wine, delivered as CTRL_C_EVENT) a
graceful stop with exit status 0. A data directory named outside ASCII is the directory of that
name on every system.
"""
import os
import signal
import socket
import subprocess
import time

from conftest import binary, log, service_client, start, stop_checked


def run_binary(args, timeout=30):
    """Runs the binary (MALACHITE_BINARY: the program, or the Wine wrapper) to its exit."""
    return subprocess.run([binary(), *args], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout, check=False)


def error_lines(result):
    return [line for line in result.stderr.splitlines() if line.strip()]


def test_an_unknown_flag_is_one_line_and_exit_status_2():
    result = run_binary(["--no-such-flag"])
    assert result.returncode == 2, result.stderr
    lines = error_lines(result)
    assert len(lines) == 1 and "--no-such-flag" in lines[0], result.stderr


def test_a_data_directory_that_is_a_file_is_one_line_and_exit_status_1(tmp_path):
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    result = run_binary(["--port", "0", "--data-dir", str(not_a_dir)])
    assert result.returncode == 1, result.stderr
    assert "is not a directory" in result.stderr, result.stderr
    assert not_a_dir.read_text() == "x"


def test_a_port_another_program_listens_on_is_exit_status_1_naming_the_port(tmp_path):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = run_binary(["--host", "127.0.0.1", "--port", str(port), "--data-dir",
                             str(tmp_path / "data")])
    assert result.returncode == 1, result.stdout + result.stderr
    assert "cannot listen on" in result.stderr and str(port) in result.stderr, result.stderr


def test_ctrl_c_stops_the_server_gracefully_with_exit_status_0():
    server = start(args=["--log-level", "info"])  # the stop's lines are info
    try:
        server.process.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 15
        while server.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert server.process.poll() == 0, log(server)
        text = log(server)
        assert "stopping" in text and "bye" in text, text
    finally:
        assert server.stop() == 0


def test_a_data_directory_named_outside_ascii_is_the_one_of_that_name_and_serves_again(tmp_path):
    """On Windows main's argv is in the ANSI code page, which holds neither every Latin letter nor
    any CJK one: the server reads its command line in UTF-16 instead (platform::Utf8Arguments),
    and makes the store in the directory of the exact name given."""
    name = "donn\u00e9es-\u6570\u636e"
    data_dir = tmp_path / name
    entity = {"PartitionKey": "p", "RowKey": "r", "Text": "d\u00e9j\u00e0 \u6570"}
    server = start(data_dir=str(data_dir))
    try:
        with service_client(server) as service:
            service.create_table("Named").create_entity(entity)
    finally:
        stop_checked(server)
    assert os.listdir(tmp_path) == [name]
    assert os.path.getsize(data_dir / "data.mdb") > 0
    server = start(data_dir=str(data_dir))
    try:
        with service_client(server) as service:
            got = service.get_table_client("Named").get_entity("p", "r")
            assert got["Text"] == entity["Text"]
    finally:
        stop_checked(server)
    assert os.listdir(tmp_path) == [name]
