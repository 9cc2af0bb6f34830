"""What the NuGet packages' tests share: the repository's paths, the packages' names, and Dotnet,
which runs dotnet for them (no telemetry, no build servers, NuGet's packages in a cache of their own,
MALACHITE_BINARY not passed on: the packages' own binary is what is under test) and reads the
results of `dotnet test`. The fixtures are in conftest.py.
"""
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
# tests/support (required.py) for the test files and conftest.py, which import this module first.
sys.path.insert(0, str(ROOT / "tests" / "support"))

PACKAGES = ("Malachite.Client", "Malachite.Server", "Malachite.Testcontainers")
DIST = Path(os.environ.get("MALACHITE_DIST") or ROOT / "dist")  # scripts/package's artefacts
ARCH = platform.machine()
RID_ARCH = "arm64" if ARCH == "aarch64" else "x64"
# The examples and behaviour tests built from the feed (the new-user projects are made apart);
# windows/'s tests are built here and run by the release workflow's windows job.
PROJECTS = ("behaviour/Malachite.Behaviour.Tests.csproj", "console/Malachite.Examples.Console.csproj",
            "testcontainers/Malachite.Examples.Testcontainers.csproj", "windows/Malachite.Windows.Tests.csproj")


def figure(capsys, text):
    """Prints a measured figure to the terminal (not asserted)."""
    with capsys.disabled():
        print("\n  figure: " + text)


def errors_of(log, pattern=("error", "warn")):
    """The distinct lines of a build log that name an error or a warning (at most 40)."""
    lines = sorted({line.strip() for line in Path(log).read_text(errors="replace").splitlines()
                    if any(p in line.lower() for p in pattern)})
    return "\n".join(lines[:40]) or Path(log).read_text(errors="replace")[-4000:]


class Dotnet:
    """Runs dotnet for these tests: no telemetry, no build servers left behind, NuGet's packages in
    a cache keyed by the projects that name packages, temporary files under the work directory."""

    def __init__(self, work, version):
        self.work = work
        self.version = version
        cache = Path(os.environ.get("MALACHITE_CACHE") or
                     Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "malachite") / "nuget"
        key = hashlib.sha256()
        named = sorted((ROOT / "clients" / "dotnet").glob("*/*.csproj")) + \
            [ROOT / "clients" / "dotnet" / "Directory.Build.props"] + sorted(HERE.glob("*/*.csproj")) + \
            [HERE / "Directory.Build.props", HERE / "nuget.config"] + sorted((HERE / "new-user").iterdir())
        for path in named:
            key.update(path.read_bytes())
        key.update(subprocess.run(["dotnet", "--version"], capture_output=True, check=True).stdout)
        self.packages = cache / ("packages-" + key.hexdigest()[:16])
        self.packages.mkdir(parents=True, exist_ok=True)
        # Older keys are removed: a warm run downloads nothing, and the cache does not grow.
        for old in cache.glob("packages-*"):
            if old != self.packages:
                shutil.rmtree(old, ignore_errors=True)
        (work / "tmp").mkdir(exist_ok=True)
        self.env = dict(os.environ, DOTNET_CLI_TELEMETRY_OPTOUT="1", DOTNET_NOLOGO="1",
                        DOTNET_SKIP_FIRST_TIME_EXPERIENCE="1", MSBUILDDISABLENODEREUSE="1",
                        DOTNET_CLI_USE_MSBUILD_SERVER="0", TESTCONTAINERS_RYUK_DISABLED="true",
                        NUGET_PACKAGES=str(self.packages), TMPDIR=str(work / "tmp"))
        self.env.pop("MALACHITE_BINARY", None)

    def forget_malachite(self):
        """Takes Malachite's own packages out of NuGet's cache: a repacked 0.1.0 must come from the
        feed, not from an earlier run's copy."""
        for package in PACKAGES:
            shutil.rmtree(self.packages / package.lower(), ignore_errors=True)

    def run(self, args, cwd, log, timeout=900, env=None, program="dotnet"):
        """Runs `program args` in cwd, its output to the log file; returns the exit status."""
        with open(log, "w") as out:
            try:
                return subprocess.run([program] + list(args), cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                      env=dict(self.env, **(env or {})), timeout=timeout).returncode
            except subprocess.TimeoutExpired:
                out.write("\n(timed out after %d s)\n" % timeout)
                return -1

    def test(self, project_dir, label, env=None):
        """`dotnet test` of an already built project (no Hang tests); asserts that it ran tests and
        none failed, naming each failed test with its message. Returns the number passed."""
        trx = self.work / ("%s.trx" % label)
        log = self.work / ("test-%s.log" % label)
        status = self.run(["test", "--no-build", "--disable-build-servers", "-nologo",
                           "-p:MalachiteVersion=" + self.version, "--filter", "Category!=Hang",
                           "--logger", "trx;LogFileName=" + str(trx)], project_dir, log, env=env)
        results = trx_results(trx) if trx.exists() else []
        failed = ["%s: %s" % (name, message) for name, outcome, message in results if outcome == "Failed"]
        passed = sum(1 for _, outcome, _ in results if outcome == "Passed")
        tail = "\n".join(Path(log).read_text(errors="replace").splitlines()[-60:])
        assert not failed, "%s: %d tests failed:\n%s" % (label, len(failed), "\n".join(failed))
        assert status == 0 and passed > 0, "%s: dotnet test exited %d with %d passed:\n%s" % (
            label, status, passed, tail)
        return passed


def trx_results(path):
    """(test name, outcome, error message) of each test in a .trx file (VSTest's results)."""
    ns = {"t": "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"}
    results = []
    for result in ET.parse(path).getroot().iterfind(".//t:UnitTestResult", ns):
        message = result.find("t:Output/t:ErrorInfo/t:Message", ns)
        results.append((result.get("testName"), result.get("outcome"),
                        (message.text or "").strip() if message is not None else ""))
    return results
