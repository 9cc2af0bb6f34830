"""The performance budget: the user-space instructions the server executes per request (per entity
where a request handles many) for each row of bench/perf_budget.txt, counted by
bench/profile_request under callgrind (the count does not move with the load of a shared machine;
wall time does), against the budget there. A row more than 3 % over its budget fails with the
figure, the budget and how to update it; one more than 3 % under warns (lower the budget so the
gain is kept).

    /usr/bin/python3 -m pytest tests/perf                        every row, about 45 s
    /usr/bin/python3 -m pytest tests/perf -k "read or insert"    some rows
    MALACHITE_PERF_BUDGET_UPDATE=1 /usr/bin/python3 -m pytest tests/perf -k insert
        writes the measured figures into bench/perf_budget.txt instead of comparing; commit it
        with a message that says why the cost changed

Measures the build in MALACHITE_BUILD_DIR (default build/Release): its malachite, started through
the Python client package's launcher, and its bench/malachite_bench. Needs valgrind
(scripts/install-deps). One measurement at a time, also across processes (a lock file), so that
parallel workers do not slow each other's callgrind runs.
"""
import fcntl
import os
import re
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUDGET_FILE = REPO / "bench/perf_budget.txt"
BUILD_DIR = Path(os.environ.get("MALACHITE_BUILD_DIR") or REPO / "build/Release")
TOLERANCE_PERCENT = 3
UPDATE = os.environ.get("MALACHITE_PERF_BUDGET_UPDATE") == "1"
LOCK_FILE = Path(tempfile.gettempdir()) / "malachite-perf-budget.lock"
FIGURE = re.compile(r"^profile: .* = (\d+) per request$", re.M)


class BudgetGain(UserWarning):
    """A row got cheaper than its budget by more than the tolerance."""


def read_rows():
    """{scenario: (requests measured, entities per request, budget)} in the file's order."""
    rows = {}
    for line in BUDGET_FILE.read_text().splitlines():
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            rows[fields[0]] = tuple(int(f) for f in fields[1:4])
    return rows


ROWS = read_rows()
measured = {}  # scenario -> instructions per request (or entity), once per session


def profile(scenario, requests):
    """Instructions per request of one bench/profile_request run (the only one running)."""
    if shutil.which("valgrind") is None:
        pytest.fail("valgrind is not installed (scripts/install-deps installs it)", pytrace=False)
    for path in (BUILD_DIR / "malachite", BUILD_DIR / "bench/malachite_bench"):
        if not os.access(path, os.X_OK):
            pytest.fail("no %s: build it (scripts/build Release malachite malachite_bench), or "
                        "point MALACHITE_BUILD_DIR at a build that has it" % path, pytrace=False)
    env = dict(os.environ, MALACHITE_BUILD_DIR=str(BUILD_DIR),
               MALACHITE_BINARY=str(BUILD_DIR / "malachite"))
    with open(LOCK_FILE, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        run = subprocess.run([str(REPO / "bench/profile_request"), scenario, str(requests)],
                             env=env, capture_output=True, text=True, timeout=600)
    match = FIGURE.search(run.stdout)
    if run.returncode != 0 or not match:
        pytest.fail("bench/profile_request %s %d gave no figure (exit status %d):\n%s%s"
                    % (scenario, requests, run.returncode, run.stdout, run.stderr), pytrace=False)
    return int(match.group(1))


def measure(scenario):
    """Instructions per request, or per entity where a request handles many. The delete row is
    derived: profile_request's delete runs insert + delete pairs, so delete = 2 x (the pair's
    figure) - insert's figure."""
    if scenario not in measured:
        requests, entities, _ = ROWS[scenario]
        if scenario == "delete":
            insert = measure("insert")
            measured[scenario] = 2 * profile("delete", requests) - insert
        else:
            measured[scenario] = profile(scenario, requests) // entities
    return measured[scenario]


def write_budget(scenario, figure):
    """Replaces the budget of one row of bench/perf_budget.txt, keeping the file's layout."""
    lines = []
    for line in BUDGET_FILE.read_text().splitlines():
        fields = line.split()
        if fields and fields[0] == scenario:
            line = "%-12s %8s %8s %10s" % (fields[0], fields[1], fields[2], figure)
        lines.append(line)
    BUDGET_FILE.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("scenario", list(ROWS))
def test_stays_within_its_instruction_budget(scenario):
    figure = measure(scenario)
    _, entities, budget = ROWS[scenario]
    update = "MALACHITE_PERF_BUDGET_UPDATE=1 /usr/bin/python3 -m pytest tests/perf -k %s" % scenario
    if UPDATE:
        write_budget(scenario, figure)
        print("%s: wrote %d into bench/perf_budget.txt (was %d); commit it with a message that "
              "says why the cost changed" % (scenario, figure, budget))
        return
    if budget <= 0:
        pytest.fail("%s has no budget yet: %s" % (scenario, update), pytrace=False)
    unit = "request" if entities == 1 else "entity"
    change = (figure - budget) * 100.0 / budget
    row = "%s: %d instructions per %s, budget %d (%+.1f %%)" % (scenario, figure, unit, budget,
                                                               change)
    if figure * 100 < budget * (100 - TOLERANCE_PERCENT):
        warnings.warn(BudgetGain("%s: cheaper than the budget by more than %d %%; keep the gain: "
                                 "%s, and commit bench/perf_budget.txt"
                                 % (row, TOLERANCE_PERCENT, update)))
    if figure * 100 > budget * (100 + TOLERANCE_PERCENT):
        pytest.fail(
            "%s: over the budget by more than %d %%. If the cost is meant (a feature that needs it), "
            "update the budget on purpose: %s, and commit bench/perf_budget.txt in a change whose "
            "message says why the request got dearer" % (row, TOLERANCE_PERCENT, update),
            pytrace=False)
