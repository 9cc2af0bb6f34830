"""The failure log's count of left-out lines is written when a burst ends: the log
keeps at most 20 failure lines a second, and once a burst of refused writes is over (no further
failure to carry the count), a timer writes one line saying how many it left out.

The refusals come from a full store (--map-size-mb 4, as in test_storage_full.py).
"""
import re
import time

import pytest
from azure.core.exceptions import HttpResponseError

from conftest import log, service_client, start, stop_checked, unique_name

BLOB = b"\x5a" * 60000
FAILURE = "409 InsufficientAccountResources"
LEFT_OUT = re.compile(r"(\d+) similar (?:failure )?lines left out")


def _sleep_into_next_second():
    """Into the next second of CLOCK_MONOTONIC, the server's steady_clock (its log windows)."""
    now = time.monotonic()
    time.sleep(int(now) + 1 - now + 0.02)


@pytest.mark.posix_only("aligns the burst with the server's one-second log windows on Linux's "
                        "CLOCK_MONOTONIC, which Windows' steady_clock does not share")
def test_a_burst_of_refused_writes_leaves_one_line_with_the_count_of_those_left_out():
    server = start(args=["--map-size-mb", "4"])
    try:
        with service_client(server, retry_total=0) as service:
            table = service.create_table(unique_name("burst"))
            for i in range(400):  # 24 MB, far past a 4 MiB map
                try:
                    table.create_entity({"PartitionKey": "p", "RowKey": "f%04d" % i, "blob": BLOB})
                except HttpResponseError as error:
                    assert error.status_code == 409
                    break
            else:
                raise AssertionError("the map never filled")
            _sleep_into_next_second()
            _sleep_into_next_second()  # the fill's own failure line is in a past window
            before = log(server)
            started = time.monotonic()
            refused = 0
            for i in range(60):
                try:
                    table.create_entity({"PartitionKey": "q", "RowKey": "b%04d" % i, "blob": BLOB})
                except HttpResponseError as error:
                    assert error.status_code == 409
                    refused += 1
            one_window = time.monotonic() - started < 0.95
            time.sleep(5)  # quiet
            burst_log = log(server)[len(before):]
    finally:
        stop_checked(server)
    logged = [line for line in burst_log.splitlines() if FAILURE in line]
    counts = [int(m.group(1)) for m in LEFT_OUT.finditer(burst_log)]
    print("refused %d, logged %d, left-out lines %s" % (refused, len(logged), counts))
    assert refused == 60
    assert sum(counts) == refused - len(logged), burst_log
    standalone = [line for line in burst_log.splitlines()
                  if "similar failure lines left out" in line]
    assert standalone and standalone[-1] == burst_log.rstrip("\n").splitlines()[-1], burst_log
    if one_window:  # the burst fit in one of the log's seconds: one count, in one line
        assert len(logged) == 20 and counts == [40], burst_log
