"""The linux-aarch64 bundle's binary under qemu-aarch64-static, started from this machine (no
chroot, no binfmt_misc): the wrapper the launcher runs is `exec qemu-aarch64-static <binary>`."""
import subprocess
from types import SimpleNamespace

import pytest

import roots


@pytest.fixture(scope="module")
def under_qemu(artefacts, version, tmp_path_factory):
    dist = artefacts("aarch64")
    work = tmp_path_factory.mktemp("qemu")
    binary = dist.unpacked / "bin/malachite"
    run = SimpleNamespace(data=work / "data", want_version="malachite " + version)
    run.version_line = subprocess.run(["qemu-aarch64-static", str(binary), "--version"],
                                      capture_output=True, text=True).stdout.strip()
    wrapper = roots.wrapper(work / "malachite", "qemu-aarch64-static", binary,
                            why="the aarch64 binary under qemu")
    server, _ = roots.start(wrapper, data_dir=run.data)
    try:
        run.smoke = roots.smoke_outcome(server.endpoint)
        run.shared_objects = roots.shared_objects(server.pid)
    finally:
        run.stop_status = roots.sigterm_stop(server)
        run.output = server.output()
    return run


def test_version_prints_the_release_version(under_qemu):
    assert under_qemu.version_line == under_qemu.want_version, \
        "qemu-aarch64-static bin/malachite --version printed %r" % under_qemu.version_line


def test_python_sdk_smoke_test_passes(under_qemu):
    assert under_qemu.smoke is True, "the SDK smoke test under qemu failed: %s" % under_qemu.smoke


def test_maps_no_shared_object(under_qemu):
    assert under_qemu.shared_objects == [], \
        "qemu and the server map shared objects: %s" % under_qemu.shared_objects


def test_sigterm_stops_it_cleanly_leaving_data_mdb(under_qemu):
    assert under_qemu.stop_status == 0, "SIGTERM stop exited %s; its last lines:\n%s" % (
        under_qemu.stop_status, under_qemu.output)
    assert (under_qemu.data / "data.mdb").is_file(), "no data.mdb in the data directory"
