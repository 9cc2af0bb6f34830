"""Clean root file systems for the release tests, and what the tests observe of a server in one.

A server in a root starts through the published launcher (pytest_malachite.start_malachite) whose
`binary` is a small wrapper script: `exec chroot <root> <path inside the root> "$@"` (or
`exec qemu-aarch64-static <binary> "$@"`). Every exec keeps the process, so the launcher's pid is
the server's own (its /proc/<pid>/maps, its SIGTERM), and only the launcher reads its output.

REQUIRES: root for chroot, mount and binfmt_misc (the conftest skips or fails before).
"""
import contextlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from pytest_malachite import start_malachite
from sdk_check import smoke

CACHE = Path(os.environ.get("MALACHITE_CACHE")
             or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "malachite")
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
DEBARCH = {"x86_64": "amd64", "aarch64": "arm64"}  # Debian's names of the architectures
DEBIAN_SUITES = ("bullseye", "bookworm", "trixie")  # test_debian_roots.py's (oldest: glibc 2.31)
# What the tests measured (times, versions), printed after the run by conftest.py.
measured = []


def wrapper(path, *command, keep_args=True, why=""):
    """Writes an executable /bin/sh script at `path` that execs `command` (with the launcher's
    flags after it when keep_args). Returns the path, for start_malachite(binary=...)."""
    line = "exec " + " ".join(shlex.quote(str(c)) for c in command) + (' "$@"' if keep_args else "")
    Path(path).write_text("#!/bin/sh\n# %s\n%s\n" % (why or "a server for the release tests", line))
    os.chmod(path, 0o755)
    return str(path)


def start(binary, t0=None, **options):
    """start_malachite(binary=binary, **options), then the first answered GET /-/ready.

    Returns (server, milliseconds from t0, default: just before the start, to that answer)."""
    t0 = time.monotonic() if t0 is None else t0
    server = start_malachite(binary=binary, **options)
    deadline = time.monotonic() + 10
    while not ready(server.endpoint):
        if time.monotonic() > deadline or not server.running:
            server.stop()
            raise AssertionError("no 200 on /-/ready within 10 s; the server's last lines:\n"
                                 + server.output())
        time.sleep(0.005)
    return server, (time.monotonic() - t0) * 1000


def ready(endpoint):
    try:
        with _OPENER.open(endpoint + "/-/ready", timeout=5) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def smoke_outcome(endpoint):
    """True when the Python SDK's smoke test (sdk_check.smoke) passes, else why not."""
    try:
        return smoke(endpoint)
    except Exception as error:  # an SDK error is the outcome, reported by the test that asks
        return "%s: %s" % (type(error).__name__, error)


def shared_objects(pid):
    """The shared objects (*.so, *.so.N) process `pid` maps."""
    mapped = set()
    with open("/proc/%d/maps" % pid) as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and re.search(r"\.so(\.|$)", fields[5]):
                mapped.add(fields[5])
    return sorted(mapped)


def sigterm_stop(server):
    """Sends SIGTERM and returns the exit status (0: a clean stop; the launcher kills it after
    10 s)."""
    os.kill(server.pid, signal.SIGTERM)
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    return server.stop()


@contextlib.contextmanager
def observed(server, run, data_mdb):
    """Around what a fixture reads of the running `server` (the with block), then records in `run`
    what test_every_root.py checks of every server: run.smoke (True or why not) and
    run.shared_objects; then stops it with SIGTERM, also when the block raised: run.stop_status,
    run.output, and run.data_mdb (`data_mdb`, a Path) with run.kept_data_mdb, whether the stop
    left it a file (read now: a later test may purge it)."""
    try:
        yield
        run.smoke = smoke_outcome(server.endpoint)
        run.shared_objects = shared_objects(server.pid)
    finally:
        run.stop_status = sigterm_stop(server)
        run.output = server.output()
        run.data_mdb = data_mdb
        run.kept_data_mdb = data_mdb.is_file()


def version_line(*command):
    """What `command --version` prints on stdout, stripped."""
    return subprocess.run([str(c) for c in command] + ["--version"], capture_output=True,
                          text=True).stdout.strip()


def wait_for_line(server, line, seconds=3):
    """True once the server printed `line` exactly (it follows the ready line the launcher read)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if line in server.output().splitlines():
            return True
        time.sleep(0.02)
    return False


class Refusal:
    """A command that must not start: its exit status and stderr lines."""

    def __init__(self, *command):
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=30)
        self.status = done.returncode
        self.lines = done.stderr.splitlines()

    def check(self, want_status, pattern):
        """None when it exited `want_status` with one stderr line matching `pattern` (and no
        loader error), else what it did instead."""
        if (self.status == want_status and len(self.lines) == 1
                and re.search(pattern, self.lines[0])
                and "error while loading shared libraries" not in self.lines[0]):
            return None
        return "exit status %d with %d stderr line(s) %r (want %d and one line matching %r)" % (
            self.status, len(self.lines), self.lines, want_status, pattern)


def chroot(root, *command, **options):
    """`chroot <root> command`, its output captured as text."""
    return subprocess.run(["chroot", str(root), *command], capture_output=True, text=True,
                          **options)


def file_type(path):
    return subprocess.run(["file", "-L", str(path)], capture_output=True, text=True).stdout


def is_static(description):
    return "static-pie linked" in description or "statically linked" in description


# ---- roots ----------------------------------------------------------------------------------------

def new_dir(name):
    return Path(tempfile.mkdtemp(prefix="malachite-release-%s-" % name))


def unpack(tarball, root):
    """A fresh root from a debootstrap tarball, with /proc and /dev mounted."""
    root.mkdir(parents=True)
    subprocess.run(["tar", "--numeric-owner", "-xf", str(tarball), "-C", str(root)], check=True)
    subprocess.run(["mount", "-t", "proc", "proc", str(root / "proc")], check=True)
    subprocess.run(["mount", "--bind", "/dev", str(root / "dev")], check=True)


def remove(folder):
    """Unmounts what is mounted under `folder`, then removes it (never crossing into a mount)."""
    folder = str(folder)
    with open("/proc/mounts") as mounts:
        points = [line.split()[1] for line in mounts]
    for point in sorted((p for p in points if p.startswith(folder + "/")), reverse=True):
        subprocess.run(["umount", "-l", point], capture_output=True)
    subprocess.run(["rm", "-rf", "--one-file-system", folder], capture_output=True)


def debian_rootfs(repo, suite, packages=""):
    """Starts scripts/debian-rootfs (a cached debootstrap tarball; about 90 s when cold)."""
    return subprocess.Popen([str(repo / "scripts/debian-rootfs"), suite, packages],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def busybox_deb(debarch):
    """The busybox-static_<v>_<debarch>.deb of apt's candidate, downloaded once into
    <cache>/busybox and kept by version (offline: the newest one there). Returns (path, version)
    or (None, why)."""
    folder = CACHE / "busybox"
    folder.mkdir(parents=True, exist_ok=True)

    def candidate():
        policy = subprocess.run(["apt-cache", "policy", "busybox-static:" + debarch],
                                capture_output=True, text=True).stdout
        found = re.search(r"^\s*Candidate: (\S+)", policy, re.M)
        return found.group(1) if found and found.group(1) != "(none)" else None

    version = candidate()
    if version is None:  # no index of <debarch> yet: once
        subprocess.run(["apt-get", "-o", "DPkg::Lock::Timeout=900", "update", "-q"],
                       capture_output=True)
        version = candidate()
    if version is None:
        kept = sorted(folder.glob("busybox-static_*_%s.deb" % debarch), key=os.path.getmtime)
        if not kept:
            return None, "no busybox-static:%s in the apt sources" % debarch
        return kept[-1], kept[-1].name.split("_")[1].replace("%3a", ":")
    deb = folder / ("busybox-static_%s_%s.deb" % (version.replace(":", "%3a"), debarch))
    if not deb.exists() or deb.stat().st_size == 0:
        download = Path(tempfile.mkdtemp(dir=folder))
        done = subprocess.run(["apt-get", "download", "-q", "busybox-static:%s=%s"
                               % (debarch, version)], cwd=download, capture_output=True, text=True)
        got = list(download.glob("busybox-static_*.deb"))
        if done.returncode != 0 or not got:
            shutil.rmtree(download, ignore_errors=True)
            return None, "apt-get download busybox-static:%s: %s" % (debarch, done.stderr[-300:])
        os.replace(got[0], deb)
        shutil.rmtree(download, ignore_errors=True)
    return deb, version


# ---- binfmt_misc ----------------------------------------------------------------------------------

BINFMT = Path("/proc/sys/fs/binfmt_misc")


class Binfmt:
    """Lets chroots run aarch64 ELF files: the kernel's qemu-aarch64 handler when it is enabled
    with flag F (the kernel opens the interpreter at registration, so a root need not hold it),
    else one registered as malachite-aarch64 from qemu-user-static's rule, removed by release()."""

    def __init__(self, arch="aarch64"):
        self.arch = arch
        self.registered = None

    def _usable(self, name):
        entry = BINFMT / name
        if not entry.exists():
            return False
        text = entry.read_text()
        return text.startswith("enabled") and re.search(r"^flags:.*F", text, re.M) is not None

    def acquire(self):
        """None when aarch64 files run in a chroot now, else why they cannot."""
        qemu = shutil.which("qemu-%s-static" % self.arch)
        if not qemu:
            return "no qemu-%s-static (scripts/cross-deps arm64 installs qemu-user-static)" % self.arch
        if not (BINFMT / "register").exists():
            mounted = subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)],
                                     capture_output=True, text=True)
            if mounted.returncode != 0:
                return "binfmt_misc is not mounted on %s and mounting it failed: %s" % (
                    BINFMT, mounted.stderr.strip())
        for name in ("qemu-" + self.arch, "malachite-" + self.arch):
            if self._usable(name):
                return None
        rule = Path("/usr/lib/binfmt.d/qemu-%s.conf" % self.arch)
        if not rule.exists():
            return "no %s (qemu-user-static's binfmt rule) to register" % rule
        # :name:type:offset:magic:mask:interpreter:flags, with our name, the static qemu and F.
        fields = rule.read_text().strip().split(":")
        fields[1], fields[-2], fields[-1] = "malachite-" + self.arch, qemu, "F"
        ours = BINFMT / ("malachite-" + self.arch)
        if ours.exists():
            ours.write_text("-1")
        try:
            (BINFMT / "register").write_text(":".join(fields))
        except OSError as error:
            return "registering qemu-%s-static with binfmt_misc failed: %s" % (self.arch, error)
        self.registered = ours
        return None

    def release(self):
        if self.registered is not None and self.registered.exists():
            self.registered.write_text("-1")
        self.registered = None
