"""Small writes are served while a flood of slow large uploads is held back (docs/OPERATIONS.md,
"Hold up against hostile or heavy clients"): 200 connections each upload a 4 MiB body slowly; large bodies may not take the slice
of --body-memory-mb kept for small ones, so at least 90 % of 1 KiB inserts from another client
are served, the server's memory stays within the budget, the uploads that found no room get 503
ServerBusy and the admitted ones that stall get 408 RequestTimeout at --request-timeout.

BODY_BUDGET_MB sets the budget (default 32, to keep the test light; 256 is the server's default).
"""
import os
import socket
import threading
import time

from azure.core.exceptions import HttpResponseError

from conftest import service_client, start, stop_checked, unique_name

BUDGET_MB = int(os.environ.get("BODY_BUDGET_MB", "32"))
UPLOADERS = 200
BODY = 4 * 1024 * 1024
PIECE = 64 * 1024
REQUEST_TIMEOUT = 8


def _rss_bytes(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


class SlowUploader(threading.Thread):
    """Sends a 4 MiB Content-Length body one 64 KiB piece every 0.1 s, stops one byte short,
    then reads the answer's status line."""

    def __init__(self, port, path, stop):
        super().__init__(daemon=True)
        self.port, self.path, self.stop = port, path, stop
        self.status = None

    def run(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port)) as s:
                s.settimeout(30)
                s.sendall(("POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                           "\r\nContent-Length: %d\r\n\r\n" % (self.path, BODY)).encode())
                sent = 0
                s.setblocking(False)
                while sent < BODY - 1 and not self.stop.is_set():
                    try:
                        sent += s.send(b"x" * min(PIECE, BODY - 1 - sent))
                    except BlockingIOError:
                        pass  # the server does not read this body (yet): back-pressure
                    except OSError:
                        break
                    time.sleep(0.1)
                s.settimeout(30)
                data = b""
                while b"\r\n" not in data:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                self.status = data.split(b"\r\n", 1)[0].decode() or "closed"
        except OSError as error:
            self.status = "error: %s" % error


def test_small_inserts_are_served_while_200_slow_uploads_hold_the_large_share():
    budget = BUDGET_MB << 20
    server = start(args=["--body-memory-mb", str(BUDGET_MB), "--request-timeout",
                         str(REQUEST_TIMEOUT)])
    try:
        with service_client(server, retry_total=0) as service:
            table = service.create_table(unique_name("fair"))
            table.create_entity({"PartitionKey": "p", "RowKey": "warm", "v": "x" * 1024})
            baseline = _rss_bytes(server.pid)
            peak = [baseline]
            stop = threading.Event()

            def sample():
                while not stop.is_set():
                    peak[0] = max(peak[0], _rss_bytes(server.pid))
                    time.sleep(0.05)

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            uploaders = [SlowUploader(server.port, "/devstoreaccount1/" + table.table_name, stop)
                         for _ in range(UPLOADERS)]
            for uploader in uploaders:
                uploader.start()
            time.sleep(1.5)  # the flood holds its share, the rest wait for room
            served, refused = 0, []
            for i in range(50):
                try:
                    table.create_entity({"PartitionKey": "p", "RowKey": "s%03d" % i,
                                         "v": "x" * 1024})
                    served += 1
                except HttpResponseError as error:
                    refused.append(error.status_code)
                time.sleep(0.1)
            for uploader in uploaders:
                uploader.join(timeout=REQUEST_TIMEOUT + 20)
            stop.set()
            sampler.join()
            statuses = {}
            for uploader in uploaders:
                statuses[uploader.status] = statuses.get(uploader.status, 0) + 1
            print("budget %d MiB: %d of 50 small inserts served (refused: %s); RSS %d MiB at "
                  "start, peak %d MiB; uploads: %s" % (BUDGET_MB, served, refused, baseline >> 20,
                                                       peak[0] >> 20, statuses))
            assert served >= 45, (served, refused)
            assert peak[0] - baseline <= budget + (32 << 20), (baseline, peak[0])
            # The admitted uploads stalled and got the timeout's answer; the rest got 503.
            assert statuses.get("HTTP/1.1 408 Request Timeout", 0) >= 1, statuses
            assert statuses.get("HTTP/1.1 503 Service Unavailable", 0) >= 1, statuses
            assert sum(statuses.values()) == UPLOADERS
    finally:
        stop_checked(server)
