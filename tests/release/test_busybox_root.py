"""A root holding only Debian's busybox-static (/bin/busybox of its .deb and the applet links
`busybox --install -s` makes in the chroot; no C library at all): busybox tar unpacks the bundle in
the chroot and the server runs from there; bin/azurite-table, started by busybox sh with Azurite's
flags, serves too."""
import subprocess
import time
from types import SimpleNamespace

import pytest

import roots
from required import unavailable


@pytest.fixture(scope="module", params=["x86_64", "aarch64"])
def busybox_root(request, chroot_dist):
    dist = chroot_dist(request.param)
    deb, busybox_version = roots.busybox_deb(roots.DEBARCH[dist.arch])
    if deb is None:
        unavailable("MALACHITE_PACKAGE_REQUIRED", busybox_version)
    work = roots.new_dir("busybox-" + dist.arch)
    root = work / "root"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(work / "deb")], check=True)
    for folder in ("bin", "sbin", "usr/bin", "usr/sbin", "tmp", "opt"):
        (root / folder).mkdir(parents=True)
    subprocess.run(["cp", str(work / "deb/bin/busybox"), str(root / "bin/busybox")], check=True)
    run = SimpleNamespace(dist=dist, root=root, work=work, busybox=busybox_version)
    install = subprocess.run(["chroot", str(root), "/bin/busybox", "--install", "-s"],
                             capture_output=True, text=True)
    assert install.returncode == 0, "busybox --install -s: " + install.stderr
    run.libraries = sorted("/" + str(p.relative_to(root)) for p in root.rglob("*")
                           if ".so" in p.name or p.name.startswith("ld-"))
    subprocess.run(["cp", str(dist.bundle), str(root / "tmp")], check=True)

    t0 = time.monotonic()
    tar = subprocess.run(["chroot", str(root), "/bin/tar", "-xzf", "/tmp/" + dist.bundle.name,
                          "-C", "/opt"], capture_output=True, text=True)
    assert tar.returncode == 0, "busybox tar -xzf of the bundle: " + tar.stderr
    run.unpacked_ms = (time.monotonic() - t0) * 1000
    binary = roots.wrapper(work / "malachite", "chroot", root, "/opt/%s/bin/malachite" % dist.name,
                           why="the bundle's server in the busybox root")
    server, run.first_answer_ms = roots.start(binary, t0=t0, data_dir="/data")
    try:
        run.smoke = roots.smoke_outcome(server.endpoint)
        run.shared_objects = roots.shared_objects(server.pid)
    finally:
        run.stop_status = roots.sigterm_stop(server)
        run.output = server.output()
    roots.measured.append("busybox root (%s, busybox-static %s): busybox tar -xzf %.0f ms, first "
                          "answer %.0f ms after it began" % (dist.arch, busybox_version,
                                                             run.unpacked_ms, run.first_answer_ms))
    yield run
    roots.remove(work)


@pytest.fixture(scope="module")
def busybox_azurite(busybox_root):
    """bin/azurite-table with Azurite's flags, exec'd by busybox sh in the chroot; the wrapper runs
    that command line as it is (azurite-table takes Azurite's flags, not the launcher's)."""
    run = SimpleNamespace(workspace=busybox_root.root / "tmp/azurite-workspace")
    command = ("cd /tmp && exec /opt/%s/bin/azurite-table --tableHost 127.0.0.1 --tablePort 0 "
               "-l /tmp/azurite-workspace --silent --loose" % busybox_root.dist.name)
    binary = roots.wrapper(busybox_root.work / "azurite-table", "chroot", busybox_root.root,
                           "/bin/sh", "-c", command, keep_args=False,
                           why="Azurite's table command line in the busybox root")
    server, _ = roots.start(binary)
    try:
        run.ready_line = "Azurite Table service successfully started on 127.0.0.1:%d" % server.port
        run.printed_ready_line = roots.wait_for_line(server, run.ready_line)
        run.smoke = roots.smoke_outcome(server.endpoint)
    finally:
        run.stop_status = roots.sigterm_stop(server)
        run.output = server.output()
    return run


def test_root_holds_no_library(busybox_root):
    assert busybox_root.libraries == [], "the root holds libraries: %s" % busybox_root.libraries


def test_first_answer_comes_within_the_budget_of_unpacking(busybox_root):
    assert busybox_root.first_answer_ms < busybox_root.dist.budget_ms, \
        "%.0f ms from busybox tar -xzf (%.0f ms of it) to the first answered /-/ready (budget " \
        "%d ms)" % (busybox_root.first_answer_ms, busybox_root.unpacked_ms,
                    busybox_root.dist.budget_ms)


def test_python_sdk_smoke_test_passes(busybox_root):
    assert busybox_root.smoke is True, "the SDK smoke test failed: %s" % busybox_root.smoke


def test_server_maps_no_shared_object(busybox_root):
    assert busybox_root.shared_objects == [], \
        "the server maps shared objects: %s" % busybox_root.shared_objects


def test_sigterm_stops_it_cleanly_leaving_data_mdb(busybox_root):
    assert busybox_root.stop_status == 0, "SIGTERM stop exited %s; its last lines:\n%s" % (
        busybox_root.stop_status, busybox_root.output)
    assert (busybox_root.root / "data/data.mdb").is_file(), "no /data/data.mdb in the root"


def test_azurite_table_prints_azurites_ready_line(busybox_azurite):
    assert busybox_azurite.printed_ready_line, "no line %r; its last lines:\n%s" % (
        busybox_azurite.ready_line, busybox_azurite.output)


def test_azurite_table_passes_the_python_sdk_smoke_test(busybox_azurite):
    assert busybox_azurite.smoke is True, \
        "the SDK smoke test against bin/azurite-table failed: %s" % busybox_azurite.smoke


def test_azurite_table_stops_cleanly_keeping_its_data_under_location(busybox_azurite):
    assert busybox_azurite.stop_status == 0, "bin/azurite-table's SIGTERM stop exited %s:\n%s" % (
        busybox_azurite.stop_status, busybox_azurite.output)
    data = busybox_azurite.workspace / "__malachite_table__/data.mdb"
    assert data.is_file(), "azurite-table -l kept no data in <location>/__malachite_table__"
