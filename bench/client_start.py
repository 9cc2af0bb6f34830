"""Start-up as a Python test suite meets it (README "In your tests"), the counterpart of
bench/client_start.mjs; prints figures, asserts nothing:

  1. exec -> the port accepting: the binary started with --in-memory on a free port, the clock
     stopped by the first TCP connect that succeeds (polled every 0.2 ms), over --runs starts;
  2. start_malachite() (pytest_malachite, the launcher the fixtures use: exec, then its ready line)
     -> the first TableClient.create_table answered, over --runs starts in this one process: the
     first (which also pays azure-core's first request: its pipeline, the http connection pool)
     apart, then the median and p90 of the rest.

  /usr/bin/python3 bench/client_start.py [--runs 20] [--binary build/Release/malachite]

Needs Debian's python3-azure; the binary: --binary, else MALACHITE_BINARY, else build/Release.
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "clients/python/src"))

from azure.data.tables import TableClient  # noqa: E402
from pytest_malachite import start_malachite  # noqa: E402


def p90(samples):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, -(-9 * len(ordered) // 10) - 1)]


def summary(samples):
    return "median %.1f ms, p90 %.1f ms, max %.1f ms" % (statistics.median(samples), p90(samples),
                                                       max(samples))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def exec_to_accepting(binary):
    port = free_port()
    start = time.perf_counter()
    server = subprocess.Popen([binary, "--in-memory", "--host", "127.0.0.1", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return (time.perf_counter() - start) * 1000
            except ConnectionRefusedError:
                if server.poll() is not None:
                    raise SystemExit("client_start: %s exited with %d" % (binary, server.returncode))
                time.sleep(0.0002)
    finally:
        server.terminate()
        server.wait()


def start_to_first_call(binary):
    start = time.perf_counter()
    server = start_malachite(binary=binary)
    listening = time.perf_counter()
    try:
        with TableClient.from_connection_string(server.connection_string, "first") as table:
            table.create_table()
        done = time.perf_counter()
    finally:
        server.stop()
    return (done - start) * 1000, (listening - start) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--binary", default=os.environ.get("MALACHITE_BINARY",
                                                           str(REPO / "build/Release/malachite")))
    options = parser.parse_args()
    accepting = [exec_to_accepting(options.binary) for _ in range(options.runs)]
    print("client_start.py: exec -> port accepting: %s over %d starts"
          % (summary(accepting), options.runs))
    runs = [start_to_first_call(options.binary) for _ in range(options.runs + 1)]
    first, rest = runs[0], runs[1:]
    print("client_start.py: start_malachite() -> first create_table: %s over %d starts; of which "
          "listening: median %.1f ms (the first start in this process, with azure-core's first "
          "request: %.1f ms)" % (summary([total for total, _ in rest]), len(rest),
                                 statistics.median([ready for _, ready in rest]), first[0]))


if __name__ == "__main__":
    main()
