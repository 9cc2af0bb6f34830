"""The bundle in fresh Debian roots (debootstrap --variant=minbase of scripts/debian-rootfs, unpacked
anew for each suite): bullseye (glibc 2.31), bookworm and trixie. The user's first minute: unpack
the bundle with the root's tar, run it, get an answer; bin/azurite-table with Azurite's flags."""
import platform
import subprocess
import time
from types import SimpleNamespace

import pytest

import roots


@pytest.fixture(scope="module", params=roots.DEBIAN_SUITES)
def debian_root(request, artefacts, debian_tarballs, version):
    suite = request.param
    dist = artefacts(platform.machine())
    work = roots.new_dir(suite)
    root = work / "root"
    roots.unpack(debian_tarballs[(suite, "")], root)
    subprocess.run(["cp", str(dist.bundle), str(root / "tmp")], check=True)
    bin_dir = "/opt/%s/bin" % dist.name
    run = SimpleNamespace(dist=dist, root=root, work=work, bin_dir=bin_dir,
                          want_version="malachite " + version)
    run.glibc = subprocess.run(["chroot", str(root), "getconf", "GNU_LIBC_VERSION"],
                               capture_output=True, text=True).stdout.strip()
    t0 = time.monotonic()
    tar = subprocess.run(["chroot", str(root), "tar", "-xzf", "/tmp/" + dist.bundle.name, "-C",
                          "/opt"], capture_output=True, text=True)
    assert tar.returncode == 0, "%s: tar -xzf of the bundle: %s" % (suite, tar.stderr)
    run.unpacked_ms = (time.monotonic() - t0) * 1000
    binary = roots.wrapper(work / "malachite", "chroot", root, bin_dir + "/malachite",
                           why="the bundle's server in Debian " + suite)
    server, run.first_answer_ms = roots.start(binary, t0=t0, data_dir="/var/tmp/malachite-data")
    try:
        run.version_line = subprocess.run(["chroot", str(root), bin_dir + "/malachite",
                                           "--version"], capture_output=True, text=True).stdout.strip()
        run.smoke = roots.smoke_outcome(server.endpoint)
        run.shared_objects = roots.shared_objects(server.pid)
    finally:
        run.stop_status = roots.sigterm_stop(server)
        run.output = server.output()
    roots.measured.append("%s (%s): tar -xzf %.0f ms, first answer %.0f ms after it began"
                          % (suite, run.glibc, run.unpacked_ms, run.first_answer_ms))
    yield run
    roots.remove(work)


@pytest.fixture(scope="module")
def debian_azurite(debian_root):
    """bin/azurite-table with Azurite's flags in /var/tmp of the root; the wrapper runs that
    command line as it is (azurite-table takes Azurite's flags, not the launcher's)."""
    run = SimpleNamespace(workspace=debian_root.root / "var/tmp/azurite-workspace")
    binary = roots.wrapper(debian_root.work / "azurite-table", "chroot", debian_root.root,
                           "env", "-C", "/var/tmp", debian_root.bin_dir + "/azurite-table",
                           "--tableHost", "127.0.0.1", "--tablePort", "0", "-l",
                           "/var/tmp/azurite-workspace", "--silent", "--loose", keep_args=False,
                           why="Azurite's table command line in a Debian root")
    server, _ = roots.start(binary)
    try:
        run.ready_line = "Azurite Table service successfully started on 127.0.0.1:%d" % server.port
        run.printed_ready_line = roots.wait_for_line(server, run.ready_line)
        run.smoke = roots.smoke_outcome(server.endpoint)
    finally:
        run.stop_status = roots.sigterm_stop(server)
        run.output = server.output()
    return run


def test_first_answer_comes_within_1_s_of_unpacking(debian_root):
    assert debian_root.first_answer_ms < debian_root.dist.budget_ms, \
        "%.0f ms from tar -xzf (%.0f ms of it) to the first answered /-/ready (budget %d ms)" % (
            debian_root.first_answer_ms, debian_root.unpacked_ms, debian_root.dist.budget_ms)


def test_version_prints_the_release_version(debian_root):
    assert debian_root.version_line == debian_root.want_version, \
        "bin/malachite --version printed %r" % debian_root.version_line


def test_python_sdk_smoke_test_passes(debian_root):
    assert debian_root.smoke is True, "the SDK smoke test failed: %s" % debian_root.smoke


def test_server_maps_no_shared_object_not_even_glibc(debian_root):
    assert debian_root.shared_objects == [], "the server maps shared objects in a root with %s: " \
        "%s" % (debian_root.glibc, debian_root.shared_objects)


def test_sigterm_stops_it_cleanly_leaving_data_mdb(debian_root):
    assert debian_root.stop_status == 0, "SIGTERM stop exited %s; its last lines:\n%s" % (
        debian_root.stop_status, debian_root.output)
    assert (debian_root.root / "var/tmp/malachite-data/data.mdb").is_file(), \
        "no data.mdb in the data directory"


def test_azurite_table_prints_azurites_ready_line(debian_azurite):
    assert debian_azurite.printed_ready_line, "no line %r; its last lines:\n%s" % (
        debian_azurite.ready_line, debian_azurite.output)


def test_azurite_table_passes_the_python_sdk_smoke_test(debian_azurite):
    assert debian_azurite.smoke is True, \
        "the SDK smoke test against bin/azurite-table failed: %s" % debian_azurite.smoke


def test_azurite_table_stops_cleanly_keeping_its_data_under_location(debian_azurite):
    assert debian_azurite.stop_status == 0, "bin/azurite-table's SIGTERM stop exited %s:\n%s" % (
        debian_azurite.stop_status, debian_azurite.output)
    data = debian_azurite.workspace / "__malachite_table__/data.mdb"
    assert data.is_file(), "azurite-table -l kept no data in <location>/__malachite_table__"


def test_azurite_table_refuses_a_blob_flag_with_exit_2(debian_root):
    refusal = roots.Refusal("chroot", str(debian_root.root), debian_root.bin_dir + "/azurite-table",
                            "--blobHost", "0.0.0.0")
    problem = refusal.check(2, "--blobHost is an option of Azurite's blob or queue service")
    assert problem is None, "azurite-table --blobHost: " + problem
