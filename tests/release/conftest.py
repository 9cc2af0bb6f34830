"""The release artefacts of scripts/package (dist/), proven as users installing them would, wherever
users are: the bundle's one static executable needs no library, loader, shell, /proc or C library
of the host. Each root is fresh, never this machine's own:

    test_empty_root.py      only the binary, as /malachite (x86_64, and aarch64 through binfmt_misc)
    test_busybox_root.py    only Debian's busybox-static, no C library (x86_64, aarch64)
    test_debian_roots.py    debootstrap roots of bullseye (glibc 2.31), bookworm and trixie
    test_deb.py             the .deb installed with apt in bookworm with systemd
    test_arm64.py           the linux-aarch64 bundle and .deb, and the binary under qemu from here

    /usr/bin/python3 -m pytest tests/release

Needs: the bundles and .debs in MALACHITE_DIST (default dist/: scripts/package, and for aarch64
MALACHITE_ARCH=aarch64 scripts/build Release && scripts/package --arch aarch64); root (chroot,
mount, binfmt_misc); qemu-user-static for aarch64 (scripts/cross-deps arm64). The Debian roots come
from scripts/debian-rootfs (cached per machine, about 90 s each when cold) and busybox-static from
apt (cached in ~/.cache/malachite/busybox). What is missing skips with why, and fails where CI
declares it required: MALACHITE_PACKAGE_REQUIRED=1 (root, binfmt_misc, the x86_64 artefacts),
MALACHITE_REQUIRE_ARM64=1 (the aarch64 artefacts, qemu). MALACHITE_TEST_ARM64=0 turns the aarch64
tests off (a skip that says so), unless MALACHITE_REQUIRE_ARM64=1.
Servers start through the published launcher (pytest_malachite) and listen on 127.0.0.1 ports they
choose; the chroots share this machine's network.
"""
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests/support"))
sys.path.insert(0, str(REPO / "clients/python/src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import roots  # noqa: E402
from required import is_required, unavailable  # noqa: E402

# The time from unpacking (or the start) to the first answer. Under emulation the clock measures
# qemu: busybox's tar alone takes 0.5-0.6 s and the server's start 0.2-0.3 s (12 ms natively), so
# a loaded machine would cross 1 s; 3 s there still catches a start that waits on something.
BUDGET_MS = {"x86_64": 1000, "aarch64": 3000}
# The Debian roots: (suite, extra packages) for scripts/debian-rootfs.
DEBIAN_ROOTS = [(suite, "") for suite in roots.DEBIAN_SUITES] + [("bookworm", "systemd")]


@pytest.fixture(scope="session")
def version():
    return subprocess.run([str(REPO / "scripts/package"), "--version"], capture_output=True,
                          text=True, check=True).stdout.strip()


class Dist:
    """The artefacts of one architecture in MALACHITE_DIST (default dist/)."""

    def __init__(self, version, arch):
        self.folder = Path(os.environ.get("MALACHITE_DIST") or REPO / "dist")
        self.arch = arch
        self.name = "malachite-%s-linux-%s" % (version, arch)
        self.bundle = self.folder / (self.name + ".tar.gz")
        self.deb = self.folder / ("malachite_%s_%s.deb" % (version, roots.DEBARCH[arch]))
        self.image_context = self.folder / ("malachite-%s-image-%s" % (version, arch))
        self.budget_ms = BUDGET_MS[arch]
        self.unpacked = None  # the bundle's folder once unpacked (Artefacts.unpack)


def arm64_wanted():
    """Skips (or fails, when required) the aarch64 tests that MALACHITE_TEST_ARM64=0 turns off."""
    if os.environ.get("MALACHITE_TEST_ARM64") == "0" and not is_required("MALACHITE_REQUIRE_ARM64"):
        pytest.skip("MALACHITE_TEST_ARM64=0: the linux-aarch64 tests are off")


@pytest.fixture(scope="session")
def artefacts(version, tmp_path_factory):
    """artefacts(arch): the Dist of `arch`, its bundle unpacked; a missing one skips or fails."""
    made = {}

    def get(arch):
        if arch not in made:
            dist = Dist(version, arch)
            if arch == "aarch64":
                arm64_wanted()
            variable = ("MALACHITE_PACKAGE_REQUIRED" if arch == platform.machine()
                        else "MALACHITE_REQUIRE_ARM64")
            missing = [p.name for p in (dist.bundle, dist.deb) if not p.exists()]
            if missing:
                build = ("scripts/package" if arch == platform.machine() else
                         "MALACHITE_ARCH=%s scripts/build Release && scripts/package --arch %s"
                         % (arch, arch))
                unavailable(variable, "no %s in %s: run %s" % (" or ".join(missing), dist.folder,
                                                               build))
            if arch != platform.machine() and not shutil.which("qemu-%s-static" % arch):
                unavailable(variable, "no qemu-%s-static to run the %s binary (scripts/cross-deps "
                            "arm64 installs qemu-user-static)" % (arch, arch))
            unpacked = tmp_path_factory.mktemp("bundle-" + arch)
            subprocess.run(["tar", "-xzf", str(dist.bundle), "-C", str(unpacked)], check=True)
            dist.unpacked = unpacked / dist.name
            made[arch] = dist
        return made[arch]

    return get


@pytest.fixture(scope="session")
def as_root():
    if os.geteuid() != 0:
        unavailable("MALACHITE_PACKAGE_REQUIRED", "chroot, mount and debootstrap need root")


@pytest.fixture(scope="session")
def binfmt(as_root):
    """binfmt(arch): chroots can run `arch`'s ELF files from now until the session ends."""
    handlers = {}

    def need(arch):
        if arch == platform.machine():
            return
        if arch not in handlers:
            handler = roots.Binfmt(arch)
            why = handler.acquire()
            if why is not None:
                unavailable("MALACHITE_PACKAGE_REQUIRED", why)
            handlers[arch] = handler
    yield need
    for handler in handlers.values():
        handler.release()


@pytest.fixture(scope="session")
def chroot_dist(artefacts, binfmt):
    """chroot_dist(arch): the Dist of `arch`, once chroots can run its binary here."""
    def get(arch):
        dist = artefacts(arch)
        binfmt(arch)
        return dist
    return get


@pytest.fixture(scope="session")
def debian_tarballs(as_root):
    """{(suite, packages): tarball} of the Debian roots, made in parallel when not cached."""
    started = {spec: roots.debian_rootfs(REPO, *spec) for spec in DEBIAN_ROOTS}
    tarballs = {}
    for spec, process in started.items():
        out, err = process.communicate()
        if process.returncode != 0:
            unavailable("MALACHITE_PACKAGE_REQUIRED", "scripts/debian-rootfs %s %s failed: %s"
                        % (spec[0], spec[1], err[-500:]))
        tarballs[spec] = Path(out.strip())
    return tarballs


@pytest.fixture
def scratch():
    """A folder under /tmp removed afterwards, mounts under it unmounted first."""
    folder = roots.new_dir("scratch")
    yield folder
    roots.remove(folder)


def pytest_terminal_summary(terminalreporter):
    if roots.measured:
        terminalreporter.section("release: measured")
        for line in roots.measured:
            terminalreporter.write_line(line)
