"""Request bodies against the real binary (docs/OPERATIONS.md, "Hold up against hostile or heavy clients"): an oversize chunked body is refused
as soon as it passes 4 MiB, bodies in flight share a memory budget (--body-memory-mb) past which
a request gets 503 ServerBusy, and requests the server cannot parse still get an access log line.
"""
import socket
import time

import pytest
from azure.core.exceptions import HttpResponseError

from conftest import log, service_client, start, stop_checked, unique_name, wire_error_code

# About 240 KB of JSON: more than the 124 KB of budget the slow client leaves.
BIG = {"PartitionKey": "p", "RowKey": "big", "b1": b"\1" * 60000, "b2": b"\2" * 60000,
       "b3": b"\3" * 60000}


def _head(method, path, extra):
    return ("%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Accept: application/json;odata=nometadata\r\n%s\r\n" % (method, path, extra)).encode()


def _status_line(s, timeout=15):
    s.settimeout(timeout)
    data = b""
    while b"\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.split(b"\r\n", 1)[0].decode()


@pytest.fixture(scope="module")
def small_budget_server():
    server = start(args=["--body-memory-mb", "1", "--access-log-level", "warn"])
    yield server
    stop_checked(server)


def test_a_chunked_body_past_4_mib_gets_413_before_its_end(server):
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        s.sendall(_head("PUT", "/devstoreaccount1/t(PartitionKey='p',RowKey='r')",
                        "Transfer-Encoding: chunked\r\n"))
        piece = b"x" * 65536
        for _ in range(64):  # exactly 4 MiB
            s.sendall(b"10000\r\n" + piece + b"\r\n")
        s.sendall(b"1\r\nx\r\n")  # one byte more; the body never ends
        assert _status_line(s) == "HTTP/1.1 413 Payload Too Large"


def test_bodies_past_the_memory_budget_get_503_server_busy_then_room_comes_back(
        small_budget_server):
    server = small_budget_server
    with service_client(server) as service:
        table = service.create_table(unique_name("budget"))
        path = "/devstoreaccount1/%s" % table.table_name
        # A slow client holds 900 KB of the 1 MiB budget: its Content-Length is charged at once.
        slow = socket.create_connection(("127.0.0.1", server.port))
        slow.sendall(_head("POST", path, "Content-Length: %d\r\n" % (900 * 1024)) + b"{")
        time.sleep(0.2)
        started = time.monotonic()
        with pytest.raises(HttpResponseError) as refused:
            table.create_entity(BIG)
        assert time.monotonic() - started >= 0.9  # it waited for room first
        assert refused.value.status_code == 503
        assert wire_error_code(refused.value) == "ServerBusy"
        # Small bodies still fit beside the slow one.
        table.create_entity({"PartitionKey": "p", "RowKey": "small"})
        slow.close()
        time.sleep(0.2)
        table.create_entity(BIG)
        assert len(table.get_entity("p", "big")["b2"]) == 60000
    assert ("503 ServerBusy: The server is busy: request bodies in flight fill its memory budget"
            in log(server))


def test_a_request_the_server_cannot_parse_still_gets_an_access_log_line(small_budget_server):
    with socket.create_connection(("127.0.0.1", small_budget_server.port)) as s:
        s.sendall(b"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
        assert _status_line(s) == "HTTP/1.1 400 Bad Request"
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        lines = [l for l in log(small_budget_server).splitlines()
                 if "GET /devstoreaccount1/Tables 400" in l]
        if lines:
            break
        time.sleep(0.05)
    assert lines, log(small_budget_server)
    assert "remote=127.0.0.1" in lines[0]
