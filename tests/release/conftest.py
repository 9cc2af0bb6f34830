"""The release artefacts of scripts/package (dist/), proven as users installing them would, wherever
users are: the bundle's one static executable needs no library, loader, shell, /proc or C library
of the host. Each root is fresh, never this machine's own:

    test_empty_root.py      only the binary, as /malachite (x86_64, and aarch64 through binfmt_misc)
    test_busybox_root.py    only Debian's busybox-static, no C library (x86_64, aarch64)
    test_debian_roots.py    debootstrap roots of bullseye (glibc 2.31), bookworm and trixie
    test_deb.py             the .deb installed with apt in bookworm with systemd
    test_artefacts.py       the bundles, .debs and image contexts as files (x86_64, aarch64)
    test_every_root.py      what every server above does (and the aarch64 binary under qemu from
                            here, and bin/azurite-table in the busybox and Debian roots)
    test_windows.py         the windows-x86_64 zip as a file; on Windows, its server (the
                            release workflow's windows job)

Each root and its server's run is made once a session by a fixture here (empty_roots(arch),
busybox_roots(arch), debian_roots(suite), under_qemu, service, azurite_tables(root)); the files
above read the runs, and each root is removed when the session ends.

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
import shlex
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

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


def once(make, key=lambda argument: argument):
    """make(argument) at most once a session per key(argument): what it returned, or what it
    raised (a skip, a failed build) raised again to every later test that asks."""
    made = {}

    def get(argument):
        k = key(argument)
        if k not in made:
            try:
                made[k] = (True, make(argument))
            except BaseException as error:  # pytest's skip and fail are BaseExceptions
                made[k] = (False, error)
        returned, value = made[k]
        if not returned:
            raise value
        return value

    return get


@pytest.fixture(scope="session")
def workdirs():
    """workdirs(name): a new folder under /tmp for a root, removed (mounts under it first) when
    the session ends."""
    folders = []

    def new(name):
        folders.append(roots.new_dir(name))
        return folders[-1]

    yield new
    for folder in reversed(folders):
        roots.remove(folder)


@pytest.fixture(scope="session")
def empty_roots(chroot_dist, version, workdirs):
    """empty_roots(arch): a root holding only `arch`'s binary, as /malachite, and its server's run
    on /data (test_empty_root.py)."""
    def make(arch):
        dist = chroot_dist(arch)
        root = workdirs("empty-" + arch) / "root"
        root.mkdir()
        shutil.copy(dist.unpacked / "bin/malachite", root / "malachite")
        run = SimpleNamespace(name="empty root (%s)" % arch, dist=dist, root=root,
                              want_version="malachite " + version, clock_from="the start")
        run.version_line = roots.version_line("chroot", root, "/malachite")
        binary = roots.wrapper(root.parent / "malachite", "chroot", root, "/malachite",
                               why="the server in the empty root")
        server, run.first_answer_ms = roots.start(binary, data_dir="/data")
        with roots.observed(server, run, root / "data/data.mdb"):
            pass  # nothing else to read of it while it serves
        run.entries = sorted(p.name for p in root.iterdir())
        roots.measured.append("empty root (%s): first answer %.0f ms after the start"
                              % (arch, run.first_answer_ms))
        return run
    return once(make)


@pytest.fixture(scope="session")
def busybox_roots(chroot_dist, version, workdirs):
    """busybox_roots(arch): a root of only Debian's busybox-static for `arch`, the bundle unpacked
    in it by busybox tar, and its server's run on /data (test_busybox_root.py)."""
    def make(arch):
        dist = chroot_dist(arch)
        deb, busybox_version = roots.busybox_deb(roots.DEBARCH[arch])
        if deb is None:
            unavailable("MALACHITE_PACKAGE_REQUIRED", busybox_version)
        work = workdirs("busybox-" + arch)
        root = work / "root"
        subprocess.run(["dpkg-deb", "-x", str(deb), str(work / "deb")], check=True)
        for folder in ("bin", "sbin", "usr/bin", "usr/sbin", "tmp", "opt"):
            (root / folder).mkdir(parents=True)
        subprocess.run(["cp", str(work / "deb/bin/busybox"), str(root / "bin/busybox")], check=True)
        run = SimpleNamespace(name="busybox root (%s, busybox-static %s)" % (arch, busybox_version),
                              dist=dist, root=root, want_version="malachite " + version)
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
        run.clock_from = "busybox tar -xzf (%.0f ms of it)" % run.unpacked_ms
        binary = roots.wrapper(work / "malachite", "chroot", root,
                               "/opt/%s/bin/malachite" % dist.name,
                               why="the bundle's server in the busybox root")
        server, run.first_answer_ms = roots.start(binary, t0=t0, data_dir="/data")
        with roots.observed(server, run, root / "data/data.mdb"):
            pass  # nothing else to read of it while it serves
        run.version_line = roots.version_line("chroot", root, "/opt/%s/bin/malachite" % dist.name)
        # bin/azurite-table with Azurite's flags, exec'd by busybox sh (azurite_tables).
        run.azurite_command = (
            "chroot", root, "/bin/sh", "-c",
            "cd /tmp && exec /opt/%s/bin/azurite-table --tableHost 127.0.0.1 --tablePort 0 "
            "-l /tmp/azurite-workspace --silent --loose" % dist.name)
        run.azurite_workspace = root / "tmp/azurite-workspace"
        roots.measured.append("busybox root (%s, busybox-static %s): busybox tar -xzf %.0f ms, "
                              "first answer %.0f ms after it began"
                              % (arch, busybox_version, run.unpacked_ms, run.first_answer_ms))
        return run
    return once(make)


@pytest.fixture(scope="session")
def debian_roots(artefacts, debian_tarballs, version, workdirs):
    """debian_roots(suite): a fresh Debian root of `suite` (scripts/debian-rootfs), the bundle
    unpacked in /opt by its tar, and its server's run (test_debian_roots.py)."""
    def make(suite):
        dist = artefacts(platform.machine())
        work = workdirs(suite)
        root = work / "root"
        roots.unpack(debian_tarballs[(suite, "")], root)
        subprocess.run(["cp", str(dist.bundle), str(root / "tmp")], check=True)
        bin_dir = "/opt/%s/bin" % dist.name
        glibc = subprocess.run(["chroot", str(root), "getconf", "GNU_LIBC_VERSION"],
                               capture_output=True, text=True).stdout.strip()
        run = SimpleNamespace(name="Debian %s (%s)" % (suite, glibc), dist=dist, root=root,
                              bin_dir=bin_dir, want_version="malachite " + version)
        t0 = time.monotonic()
        tar = subprocess.run(["chroot", str(root), "tar", "-xzf", "/tmp/" + dist.bundle.name,
                              "-C", "/opt"], capture_output=True, text=True)
        assert tar.returncode == 0, "%s: tar -xzf of the bundle: %s" % (suite, tar.stderr)
        run.unpacked_ms = (time.monotonic() - t0) * 1000
        run.clock_from = "tar -xzf (%.0f ms of it)" % run.unpacked_ms
        binary = roots.wrapper(work / "malachite", "chroot", root, bin_dir + "/malachite",
                               why="the bundle's server in Debian " + suite)
        server, run.first_answer_ms = roots.start(binary, t0=t0,
                                                  data_dir="/var/tmp/malachite-data")
        with roots.observed(server, run, root / "var/tmp/malachite-data/data.mdb"):
            pass  # nothing else to read of it while it serves
        run.version_line = roots.version_line("chroot", root, bin_dir + "/malachite")
        # bin/azurite-table with Azurite's flags in /var/tmp of the root (azurite_tables).
        run.azurite_command = ("chroot", root, "env", "-C", "/var/tmp", bin_dir + "/azurite-table",
                               "--tableHost", "127.0.0.1", "--tablePort", "0", "-l",
                               "/var/tmp/azurite-workspace", "--silent", "--loose")
        run.azurite_workspace = root / "var/tmp/azurite-workspace"
        roots.measured.append("%s (%s): tar -xzf %.0f ms, first answer %.0f ms after it began"
                              % (suite, glibc, run.unpacked_ms, run.first_answer_ms))
        return run
    return once(make)


@pytest.fixture(scope="session")
def azurite_tables():
    """azurite_tables(root): the run of `root`'s bin/azurite-table (a busybox_roots or
    debian_roots run) started with Azurite's flags; the wrapper runs root.azurite_command as it is
    (azurite-table takes Azurite's flags, not the launcher's)."""
    def make(root):
        run = SimpleNamespace(name="bin/azurite-table in " + root.name)
        binary = roots.wrapper(root.root.parent / "azurite-table", *root.azurite_command,
                               keep_args=False, why="Azurite's table command line in " + root.name)
        server, _ = roots.start(binary)
        run.ready_line = "Azurite Table service successfully started on 127.0.0.1:%d" % server.port
        with roots.observed(server, run,
                            root.azurite_workspace / "__malachite_table__/data.mdb"):
            run.printed_ready_line = roots.wait_for_line(server, run.ready_line)
        return run
    return once(make, key=lambda root: root.name)


@pytest.fixture(scope="session")
def under_qemu(artefacts, version, tmp_path_factory):
    """The linux-aarch64 bundle's binary under qemu-aarch64-static, started from this machine
    (no chroot, no binfmt_misc): the wrapper the launcher runs is
    `exec qemu-aarch64-static <binary>`."""
    dist = artefacts("aarch64")
    work = tmp_path_factory.mktemp("qemu")
    binary = dist.unpacked / "bin/malachite"
    run = SimpleNamespace(name="the aarch64 binary under qemu-aarch64-static",
                          want_version="malachite " + version)
    run.version_line = roots.version_line("qemu-aarch64-static", binary)
    wrapper = roots.wrapper(work / "malachite", "qemu-aarch64-static", binary,
                            why="the aarch64 binary under qemu")
    server, _ = roots.start(wrapper, data_dir=work / "data")
    with roots.observed(server, run, work / "data/data.mdb"):
        pass  # nothing else to read of it while it serves
    return run


@pytest.fixture(scope="session")
def installed(artefacts, debian_tarballs, workdirs):
    """A bookworm root with systemd and `apt install ./malachite_<v>_<arch>.deb` (test_deb.py)."""
    dist = artefacts(platform.machine())
    work = workdirs("deb")
    root = work / "root"
    roots.unpack(debian_tarballs[("bookworm", "systemd")], root)
    subprocess.run(["cp", str(dist.deb), str(root / "tmp")], check=True)
    apt = roots.chroot(root, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y",
                       "-q", "/tmp/" + dist.deb.name)
    return SimpleNamespace(dist=dist, root=root, work=work, apt=apt)


@pytest.fixture(scope="session")
def service_command(installed):
    """The unit's ExecStart, run as its user in its WorkingDirectory (what systemd would run)."""
    unit = (installed.root / "lib/systemd/system/malachite.service").read_text()
    exec_start = [line.split("=", 1)[1] for line in unit.splitlines()
                  if line.startswith("ExecStart=")][0]
    return ["chroot", "--userspec=malachite:malachite", str(installed.root), "env", "-C",
            "/var/lib/malachite", *shlex.split(exec_start)]


@pytest.fixture(scope="session")
def service(installed, service_command, version):
    """The unit's command started by hand, on a free port (the one line a user would edit); the
    wrapper runs it as it is (its options come from the configuration file)."""
    conf = installed.root / "etc/malachite/malachite.conf"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    conf.write_text("".join("port = %d\n" % port if line.startswith("port = ") else line
                            for line in conf.read_text().splitlines(True)))
    binary = roots.wrapper(installed.work / "malachite-service", *service_command, keep_args=False,
                           why="the unit's command as its user")
    server, _ = roots.start(binary)
    run = SimpleNamespace(name="the .deb's unit command", port=server.port,
                          listening_on_config_port=server.port == port,
                          want_version="malachite " + version)
    with roots.observed(server, run, installed.root / "var/lib/malachite/data.mdb"):
        run.probe = roots.chroot(installed.root, "/usr/bin/malachite", "--config",
                                 "/etc/malachite/malachite.conf", "--probe", "/-/ready")
    run.version_line = roots.version_line("chroot", installed.root, "/usr/bin/malachite")
    return run


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
