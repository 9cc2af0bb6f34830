"""A Docker engine for the tests that need one, and what they made in it.

Engine.start() uses the engine that answers (DOCKER_HOST or the default socket), or starts Debian's
dockerd (scripts/install-deps --docker installs it) with its socket, state and data under a work
directory, and sets DOCKER_HOST for this process and its children (docker-compose, Testcontainers).
One engine of ours at a time on this machine (two would fight over the docker0 bridge): it waits
up to 30 minutes for ~/.cache/malachite/dockerd.lock, the lock every check that starts dockerd
takes. Engine.stop() stops the engine it started and puts back what dockerd changes on the host:
its bridge, its iptables rules, ip_forward and the FORWARD policy.

As a program, for suites in other runners (node:test, the .NET clients' tests):
    /usr/bin/python3 tests/docker/engine.py <work dir>
prints "ready <DOCKER_HOST or nothing> <what>" and holds the engine until its standard input
closes (then stops it), or prints "unavailable: <why>" and exits 3.

Docker runs the docker command line and remembers the containers, volumes and images made through
it, so that remove_all() leaves the engine as it found it.
"""
import fcntl
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _run(*argv, **kwargs):
    return subprocess.run(list(argv), capture_output=True, text=True, **kwargs)


class Engine:
    def __init__(self, work):
        self.work = Path(work)
        self.dockerd = None
        self.what = ""
        self._lock = None
        self._host_state = None

    def answers(self):
        return _run("docker", "info").returncode == 0

    def start(self):
        """Returns None once an engine answers, else why none can run here."""
        if shutil.which("docker") and self.answers():
            self.what = "using the running engine " + self.server_version()
            return None
        if os.geteuid() != 0:
            return "no Docker engine answers and starting one needs root"
        if not all(shutil.which(p) for p in ("dockerd", "docker", "docker-compose")):
            install = _run(str(REPO / "scripts/install-deps"), "--docker")
            if install.returncode != 0:
                return "cannot install docker.io and docker-compose: " + install.stderr[-300:]
        lock_path = Path.home() / ".cache/malachite/dockerd.lock"
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = open(lock_path, "w")
        deadline = time.monotonic() + 1800
        while True:
            try:
                fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return "another check held the engine lock for 30 minutes"
                time.sleep(1)
        self._host_state = _host_state()
        self.work.mkdir(parents=True, exist_ok=True)
        os.environ["DOCKER_HOST"] = "unix://%s/docker.sock" % self.work
        self._log = open(self.work / "dockerd.log", "w")
        self.dockerd = subprocess.Popen(
            ["dockerd", "--host", os.environ["DOCKER_HOST"], "--data-root", str(self.work / "data"),
             "--exec-root", str(self.work / "exec"), "--pidfile", str(self.work / "dockerd.pid")],
            stdout=self._log, stderr=subprocess.STDOUT)
        for _ in range(150):
            if self.answers() or self.dockerd.poll() is not None:
                break
            time.sleep(0.2)
        if not self.answers():
            log = (self.work / "dockerd.log").read_text(errors="replace")
            fatal = re.search(r"^.*level=(?:fatal|error).*$", log, re.M | re.I)
            return "dockerd did not start: " + (fatal.group(0) if fatal else log[-300:])
        self.what = "started Debian's dockerd %s (pid %d)" % (self.server_version(), self.dockerd.pid)
        return None

    def server_version(self):
        return _run("docker", "version", "-f", "{{.Server.Version}}").stdout.strip()

    def stop(self):
        if self.dockerd is None:
            return
        self.dockerd.terminate()
        try:
            self.dockerd.wait(20)
        except subprocess.TimeoutExpired:
            self.dockerd.kill()
            self.dockerd.wait()
        _restore_host_state(self._host_state)
        # Overlay mounts of a daemon that died uncleanly would keep the work directory busy.
        for _ in range(20):
            mounts = [line.split()[1] for line in open("/proc/mounts")
                      if line.split()[1].startswith(str(self.work) + "/")]
            for mount in sorted(mounts, reverse=True):
                _run("umount", "-l", mount)
            shutil.rmtree(self.work, ignore_errors=True)
            if not self.work.exists():
                break
            time.sleep(0.5)
        if self._lock is not None:
            self._lock.close()


def _host_state():
    forward_policy = re.search(r"^-P FORWARD (\S+)", _run("iptables", "-S", "FORWARD").stdout, re.M)
    return {
        "bridge": _run("ip", "link", "show", "docker0").returncode == 0,
        "ip_forward": Path("/proc/sys/net/ipv4/ip_forward").read_text().strip(),
        "forward_policy": forward_policy.group(1) if forward_policy else None,
    }


def _restore_host_state(before):
    """What the engine leaves behind on purpose: its bridge, its iptables rules, ip_forward."""
    if not before["bridge"]:
        _run("ip", "link", "delete", "docker0")
    rules = _run("iptables-save").stdout
    if re.search("docker", rules, re.I):
        kept = "\n".join(l for l in rules.splitlines() if "docker" not in l.lower()) + "\n"
        subprocess.run(["iptables-restore"], input=kept, text=True, capture_output=True)
    if before["forward_policy"]:
        _run("iptables", "-P", "FORWARD", before["forward_policy"])
    try:
        Path("/proc/sys/net/ipv4/ip_forward").write_text(before["ip_forward"])
    except OSError:
        pass


class Docker:
    """The docker command line; what is made through it is removed by remove_all()."""

    def __init__(self, run_id):
        self.run_id = run_id
        self.containers, self.volumes, self.images = [], [], []

    def __call__(self, *argv, check=True, timeout=600):
        done = _run("docker", *argv, timeout=timeout)
        assert not check or done.returncode == 0, "docker %s exited %d: %s" % (
            " ".join(argv), done.returncode, (done.stdout + done.stderr)[-2000:])
        return done

    def build(self, tag, context, *extra):
        """Builds context (a scripts/package image context, with its build-args) as tag."""
        args = []
        if (Path(context) / "build-args").exists():
            for line in (Path(context) / "build-args").read_text().splitlines():
                args += ["--build-arg", line]
        self.images.append(tag)
        self("build", "-q", *extra, *args, "-t", tag, str(context), timeout=1800)
        return tag

    def run(self, name, *argv):
        """docker run -d --name <run_id>-<name>-<n> ...; returns the container's name."""
        full = "%s-%s-%d" % (self.run_id, name, len(self.containers))
        self.containers.append(full)
        self("run", "-d", "--name", full, *argv)
        return full

    def volume(self, name):
        full = "%s-%s-%d" % (self.run_id, name, len(self.volumes))
        self.volumes.append(full)
        return full

    def inspect(self, what, fmt):
        return self("inspect", "-f", fmt, what).stdout.strip()

    def host_port(self, container, port):
        return int(self("port", container, "%d/tcp" % port).stdout.splitlines()[0].rsplit(":", 1)[1])

    def logs(self, container):
        done = self("logs", container, check=False)
        return done.stdout + done.stderr

    def wait_healthy(self, container, seconds=60):
        status = ""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            done = self("inspect", "-f", "{{.State.Health.Status}}", container, check=False)
            status = done.stdout.strip() if done.returncode == 0 else "gone"
            if status in ("healthy", "unhealthy", "gone"):
                break
            time.sleep(0.5)
        assert status == "healthy", "container %s is %s, not healthy; its last lines:\n%s" % (
            container, status, self.logs(container)[-3000:])

    def wait_lines(self, container, pattern, count, seconds=30):
        """Waits until the container's log has `count` lines matching the regular expression."""
        found = 0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = len(re.findall(pattern, self.logs(container), re.M))
            if found >= count:
                return
            if self.inspect(container, "{{.State.Running}}") != "true":
                break
            time.sleep(0.1)
        raise AssertionError("%s: %d of %d lines matching %r; its log:\n%s" % (
            container, found, count, pattern, self.logs(container)[-3000:]))

    def remove_all(self):
        for container in self.containers:
            self("rm", "-f", container, check=False)
        for volume in self.volumes:
            self("volume", "rm", "-f", volume, check=False)
        for image in self.images:
            self("rmi", "-f", image, check=False)


def main(argv):
    engine = Engine(argv[1])
    why = engine.start()
    if why is not None:
        engine.stop()
        print("unavailable: " + why, flush=True)
        return 3
    print("ready %s %s" % (os.environ.get("DOCKER_HOST", ""), engine.what), flush=True)
    try:
        sys.stdin.read()
    finally:
        engine.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
