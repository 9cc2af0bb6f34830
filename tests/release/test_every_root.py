"""What every server of the release tests does, whatever root it runs in: the Python SDK's smoke
test passes, it maps no shared object, SIGTERM stops it cleanly and leaves its data.mdb; each
`malachite --version` prints the release's version, and a server unpacked and started anew answers
within its architecture's budget. The servers are the conftest's runs, each made once a session:
the roots of test_empty_root.py, test_busybox_root.py, test_debian_roots.py and test_deb.py, the
aarch64 binary under qemu from here, and bin/azurite-table with Azurite's flags in the busybox and
Debian roots (which must also print Azurite's ready line)."""
import pytest

import roots

# test id: (the conftest fixture, its argument or None) of each root's server.
ROOTS = {
    "empty-x86_64": ("empty_roots", "x86_64"),
    "empty-aarch64": ("empty_roots", "aarch64"),
    "busybox-x86_64": ("busybox_roots", "x86_64"),
    "busybox-aarch64": ("busybox_roots", "aarch64"),
    **{suite: ("debian_roots", suite) for suite in roots.DEBIAN_SUITES},
    "qemu-aarch64": ("under_qemu", None),
    "deb-unit": ("service", None),
}
# The roots whose bin/azurite-table runs too (azurite_tables), by the test id of its run.
AZURITE = {"azurite-table-" + which: which
           for which in ("busybox-x86_64", "busybox-aarch64", *roots.DEBIAN_SUITES)}
# The servers timed from their start or their bundle's unpacking (run.clock_from) to the first
# answer.
TIMED = [which for which in ROOTS if ROOTS[which][0] in ("empty_roots", "busybox_roots",
                                                         "debian_roots")]


def root_run(request, which):
    fixture, argument = ROOTS[which]
    made = request.getfixturevalue(fixture)
    return made if argument is None else made(argument)


@pytest.fixture(params=[*ROOTS, *AZURITE])
def server(request):
    """The run (roots.observed) of the server named by the test id."""
    if request.param in AZURITE:
        return request.getfixturevalue("azurite_tables")(root_run(request, AZURITE[request.param]))
    return root_run(request, request.param)


def test_python_sdk_smoke_test_passes(server):
    assert server.smoke is True, "%s: the SDK smoke test failed: %s" % (server.name, server.smoke)


def test_server_maps_no_shared_object(server):
    assert server.shared_objects == [], \
        "%s: the server maps shared objects: %s" % (server.name, server.shared_objects)


def test_sigterm_stops_it_cleanly_leaving_data_mdb(server):
    assert server.stop_status == 0, "%s: SIGTERM stop exited %s; its last lines:\n%s" % (
        server.name, server.stop_status, server.output)
    assert server.kept_data_mdb, "%s: no %s after the SIGTERM stop" % (server.name,
                                                                        server.data_mdb)


@pytest.mark.parametrize("server", ROOTS, indirect=True)
def test_version_prints_the_release_version(server):
    assert server.version_line == server.want_version, \
        "%s: malachite --version printed %r" % (server.name, server.version_line)


@pytest.mark.parametrize("server", TIMED, indirect=True)
def test_first_answer_comes_within_the_budget(server):
    assert server.first_answer_ms < server.dist.budget_ms, \
        "%s: %.0f ms from %s to the first answered /-/ready (budget %d ms)" % (
            server.name, server.first_answer_ms, server.clock_from, server.dist.budget_ms)


@pytest.mark.parametrize("server", AZURITE, indirect=True)
def test_azurite_table_prints_azurites_ready_line(server):
    assert server.printed_ready_line, "%s: no line %r; its last lines:\n%s" % (
        server.name, server.ready_line, server.output)
