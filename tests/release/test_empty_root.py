"""A root holding only the bundle's binary, as /malachite: no /proc, /dev, /etc, shell or C library.
`chroot <root> /malachite` serves a fresh /data; for aarch64 the kernel runs it through
qemu-aarch64-static (binfmt_misc), so the root still holds nothing else."""
import shutil
import subprocess
from types import SimpleNamespace

import pytest

import roots


@pytest.fixture(scope="module", params=["x86_64", "aarch64"])
def empty_root(request, chroot_dist, version):
    dist = chroot_dist(request.param)
    work = roots.new_dir("empty-" + dist.arch)
    root = work / "root"
    root.mkdir()
    shutil.copy(dist.unpacked / "bin/malachite", root / "malachite")
    run = SimpleNamespace(dist=dist, root=root, want_version="malachite " + version)
    run.version_line = subprocess.run(["chroot", str(root), "/malachite", "--version"],
                                      capture_output=True, text=True).stdout.strip()
    binary = roots.wrapper(work / "malachite", "chroot", root, "/malachite",
                           why="the server in the empty root")
    server, run.first_answer_ms = roots.start(binary, data_dir="/data")
    try:
        run.smoke = roots.smoke_outcome(server.endpoint)
        run.shared_objects = roots.shared_objects(server.pid)
    finally:
        run.stop_status = roots.sigterm_stop(server)
        run.output = server.output()
    run.entries = sorted(p.name for p in root.iterdir())
    roots.measured.append("empty root (%s): first answer %.0f ms after the start"
                          % (dist.arch, run.first_answer_ms))
    yield run
    roots.remove(work)


def test_version_prints_the_release_version(empty_root):
    assert empty_root.version_line == empty_root.want_version, \
        "chroot <root> /malachite --version printed %r" % empty_root.version_line


def test_first_answer_comes_within_the_budget(empty_root):
    assert empty_root.first_answer_ms < empty_root.dist.budget_ms, \
        "%.0f ms from the start to the first answered /-/ready (budget %d ms)" % (
            empty_root.first_answer_ms, empty_root.dist.budget_ms)


def test_python_sdk_smoke_test_passes(empty_root):
    assert empty_root.smoke is True, "the SDK smoke test failed: %s" % empty_root.smoke


def test_server_maps_no_shared_object(empty_root):
    assert empty_root.shared_objects == [], \
        "the server maps shared objects: %s" % empty_root.shared_objects


def test_sigterm_stops_it_cleanly(empty_root):
    assert empty_root.stop_status == 0, "SIGTERM stop exited %s; its last lines:\n%s" % (
        empty_root.stop_status, empty_root.output)


def test_root_holds_only_the_binary_and_its_data_mdb(empty_root):
    assert (empty_root.root / "data/data.mdb").is_file(), "no /data/data.mdb in the root"
    assert empty_root.entries == ["data", "malachite"], \
        "the root holds %s, not only data and malachite" % empty_root.entries


def test_bad_flag_exits_2_with_one_line(empty_root):
    refusal = roots.Refusal("chroot", str(empty_root.root), "/malachite", "--no-such-flag")
    problem = refusal.check(2, "--no-such-flag")
    assert problem is None, "--no-such-flag: " + problem


def test_data_directory_under_a_file_exits_1_with_one_line(empty_root):
    refusal = roots.Refusal("chroot", str(empty_root.root), "/malachite", "--host", "127.0.0.1",
                            "--port", "0", "--data-dir", "/malachite/data")
    problem = refusal.check(1, "/malachite/data")
    assert problem is None, "--data-dir /malachite/data (under a file): " + problem
